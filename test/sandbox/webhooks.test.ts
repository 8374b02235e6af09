// Webhook deliveries (deliver-webhooks): a completed run, a submitted conversation (wave text) and an audio
// attachment (wave audio) POST a WebhookDelivery to every job_complete webhook of the organization, with the
// auth token in X-Webhook-Token; failures are retried with backoff (every attempt recorded), a 4xx is final;
// last_triggered_at is set; the token never appears in an API response or a log line.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../generated/client/index.js';
import type { FetchLike } from '../../src/sandbox/events/deliver.js';
import { startHarness, type Harness } from '../support/sandbox.js';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  at: number;
}

const calls: Call[] = [];
/** Status answers queued per url (default 200); `'throw'` simulates a network error. */
const script = new Map<string, (number | 'throw')[]>();
const fakeFetch: FetchLike = async (url, init) => {
  calls.push({ url, method: init.method, headers: init.headers, body: JSON.parse(init.body) as Record<string, unknown>, at: performance.now() });
  const next = script.get(url)?.shift() ?? 200;
  if (next === 'throw') throw new TypeError('fetch failed');
  return { status: next };
};

const logLines: string[] = [];
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ deliveryFetch: fakeFetch, delivery: { attempts: 4, baseDelayMs: 20 }, log: (line) => void logLines.push(line) });
});
afterAll(async () => h.close());
afterEach(() => script.clear());

let seq = 0;
async function org(): Promise<{ id: string; key: string; client: Client }> {
  const o = await h.control.createOrganization(`webhooks ${++seq}`);
  return { id: o.organization.id, key: o.api_key.key, client: h.clientFor(o.api_key.key) };
}

function hookUrl(): string {
  return `https://client.example.test/hooks/${++seq}`;
}

function callsTo(url: string): Call[] {
  return calls.filter((c) => c.url === url);
}

async function deliveries(orgId: string) {
  return h.control.sent({ organization_id: orgId, kind: 'webhook_delivery' });
}

const METRIC = 'MetricWWWWWWWWWWWWWWWW';
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe('webhook deliveries', () => {
  it('POSTs a run WebhookDelivery with the token header to every job_complete webhook of the organization', async () => {
    const o = await org();
    const withToken = hookUrl();
    const without = hookUrl();
    const secret = 'client-secret-9f8e7d';
    const { webhook } = await o.client.webhooks.createWebhook({ type: 'job_complete', url: withToken, auth_token: secret });
    await o.client.webhooks.createWebhook({ type: 'job_complete', url: without });
    const done = await h.control.completeRun(o.id, { metric_values: { [METRIC]: [0.5, 1] }, completed_at: '2026-05-01T10:00:00.000Z' });

    const [call] = callsTo(withToken);
    expect(callsTo(withToken)).toHaveLength(1);
    expect(call!.method).toBe('POST');
    expect(call!.headers['X-Webhook-Token']).toBe(secret);
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.body).toEqual({
      event: 'job_complete',
      webhook_id: webhook.id,
      delivery_id: expect.stringMatching(ULID),
      occurred_at: '2026-05-01T10:00:00.000Z',
      wave: 'run',
      run_id: done.run.run_id,
      metric_values: { [METRIC]: 0.75 },
      // The service's job_complete fields (facts 2.17).
      organization_id: o.id,
      status: 'COMPLETED',
      message: expect.stringContaining(`Run ${done.run.run_id}`),
    });
    const [plain] = callsTo(without);
    expect(plain!.headers['X-Webhook-Token']).toBeUndefined();
    expect(Object.values(plain!.headers)).not.toContain(secret);
    expect(plain!.body.delivery_id).not.toBe(call!.body.delivery_id);

    const sent = await deliveries(o.id);
    expect(sent).toHaveLength(2);
    const entry = sent.find((s) => s.url === withToken)!;
    expect(entry).toMatchObject({ webhook_id: webhook.id, run_id: done.run.run_id, status: 'delivered', payload: call!.body });
    expect(entry.attempts).toHaveLength(1);
  });

  it('sets last_triggered_at when the event fires', async () => {
    const o = await org();
    const { webhook } = await o.client.webhooks.createWebhook({ type: 'job_complete', url: hookUrl() });
    expect(webhook.last_triggered_at ?? null).toBeNull();
    const before = Date.now();
    await h.control.completeRun(o.id, { metric_values: { [METRIC]: 1 } });
    const [listed] = (await o.client.webhooks.listWebhooks()).webhooks;
    const at = Date.parse(listed!.last_triggered_at!);
    expect(at).toBeGreaterThanOrEqual(before - 1);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  it('retries 503 with exponential backoff until the client accepts: three attempts recorded', async () => {
    const o = await org();
    const url = hookUrl();
    script.set(url, [503, 503, 200]);
    const { webhook } = await o.client.webhooks.createWebhook({ type: 'job_complete', url, auth_token: 'tok-retry' });
    await h.control.completeRun(o.id, { metric_values: { [METRIC]: 1 } });
    const tries = callsTo(url);
    expect(tries).toHaveLength(3);
    // The same delivery each time, with the token.
    expect(new Set(tries.map((t) => t.body.delivery_id)).size).toBe(1);
    expect(tries.every((t) => t.headers['X-Webhook-Token'] === 'tok-retry')).toBe(true);
    // Backoff: 20 ms, then 40 ms (1 ms timer slack).
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(19);
    expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(39);
    const [entry] = await deliveries(o.id);
    expect(entry).toMatchObject({ webhook_id: webhook.id, status: 'delivered' });
    expect((entry!.attempts as { status: number }[]).map((a) => a.status)).toEqual([503, 503, 200]);
  });

  it('does not retry a 400: one attempt, delivery failed, last_triggered_at still set', async () => {
    const o = await org();
    const url = hookUrl();
    script.set(url, [400, 200]);
    await o.client.webhooks.createWebhook({ type: 'job_complete', url });
    await h.control.completeRun(o.id, { metric_values: { [METRIC]: 1 } });
    expect(callsTo(url)).toHaveLength(1);
    const [entry] = await deliveries(o.id);
    expect(entry).toMatchObject({ status: 'failed', attempts: [{ status: 400 }] });
    expect((await o.client.webhooks.listWebhooks()).webhooks[0]!.last_triggered_at).toEqual(expect.any(String));
  });

  it('gives up after the configured attempts when the client stays unreachable', async () => {
    const o = await org();
    const url = hookUrl();
    script.set(url, ['throw', 'throw', 'throw', 'throw', 200]);
    await o.client.webhooks.createWebhook({ type: 'job_complete', url });
    await h.control.completeRun(o.id, { metric_values: { [METRIC]: 1 } });
    expect(callsTo(url)).toHaveLength(4);
    const [entry] = await deliveries(o.id);
    expect(entry!.status).toBe('failed');
    expect((entry!.attempts as { error: string }[]).map((a) => a.error)).toEqual(['network error', 'network error', 'network error', 'network error']);
  });

  it('delivers only to the webhooks of the run organization, and not to deleted ones', async () => {
    const a = await org();
    const b = await org();
    const urlA = hookUrl();
    const urlB = hookUrl();
    const gone = hookUrl();
    await a.client.webhooks.createWebhook({ type: 'job_complete', url: urlA });
    await b.client.webhooks.createWebhook({ type: 'job_complete', url: urlB });
    const { webhook } = await a.client.webhooks.createWebhook({ type: 'job_complete', url: gone });
    // Raw: the sandbox's delete answer is not yet the documented {success: true} (engine shaping).
    const removed = await h.sandbox.fetch(new Request(`http://sandbox.test/v1/webhooks/${webhook.id}`, { method: 'DELETE', headers: { 'x-api-key': a.key } }));
    expect(removed.status).toBe(200);
    expect((await a.client.webhooks.listWebhooks()).webhooks.map((w) => w.id)).not.toContain(webhook.id);
    await h.control.completeRun(a.id, { metric_values: { [METRIC]: 1 } });
    expect(callsTo(urlA)).toHaveLength(1);
    expect(callsTo(urlB)).toHaveLength(0);
    expect(callsTo(gone)).toHaveLength(0);
    expect(await deliveries(b.id)).toHaveLength(0);
  });

  it('a conversation is delivered in two waves: text after submission, audio after attachment', async () => {
    const o = await org();
    const url = hookUrl();
    const { webhook } = await o.client.webhooks.createWebhook({ type: 'job_complete', url, auth_token: 'tok-waves' });
    const { uploaded_conversation: conversation } = await o.client.conversations.submitUploadedConversation({ transcript: [{ role: 'user', content: 'hello' }] });
    await h.sandbox.idle();
    expect(callsTo(url)).toHaveLength(1);
    expect(callsTo(url)[0]!.body).toMatchObject({ event: 'job_complete', webhook_id: webhook.id, wave: 'text', conversation_id: conversation.conversation_id });
    expect(callsTo(url)[0]!.body.run_id).toBeUndefined();
    expect(callsTo(url)[0]!.headers['X-Webhook-Token']).toBe('tok-waves');

    await o.client.conversations.attachUploadedConversationAudio(conversation.conversation_id, { audio: wavBase64(6) });
    await h.sandbox.idle();
    expect(callsTo(url)).toHaveLength(2);
    expect(callsTo(url)[1]!.body).toMatchObject({ wave: 'audio', conversation_id: conversation.conversation_id });
    const waves = (await deliveries(o.id)).map((d) => [d.wave, d.conversation_id, d.status]);
    expect(waves).toEqual([
      ['text', conversation.conversation_id, 'delivered'],
      ['audio', conversation.conversation_id, 'delivered'],
    ]);
  });

  it('never returns the auth token in API responses nor writes it to a log line', async () => {
    const o = await org();
    const secret = 'never-shown-token-42';
    const created = await o.client.webhooks.createWebhook({ type: 'job_complete', url: hookUrl(), auth_token: secret });
    expect(created.webhook.has_auth_token).toBe(true);
    const updated = await o.client.webhooks.updateWebhook(created.webhook.id, { url: hookUrl(), auth_token: secret });
    const listed = await o.client.webhooks.listWebhooks();
    script.set(updated.webhook.url, [500, 'throw', 404]);
    const completion = await h.control.completeRun(o.id, { metric_values: { [METRIC]: 1 } });
    for (const body of [created, updated, listed]) expect(JSON.stringify(body)).not.toContain(secret);
    expect(completion.run).not.toHaveProperty('auth_token');
    expect(logLines.join('\n')).not.toContain(secret);
    // The admin-only sent log is the one place that shows it (the header as sent).
    const [entry] = await deliveries(o.id);
    expect((entry!.headers as Record<string, string>)['X-Webhook-Token']).toBe(secret);
  });
});

/** A silent mono 8 kHz 8-bit PCM WAV of `seconds`, base64. */
function wavBase64(seconds: number): string {
  const rate = 8000;
  const samples = rate * seconds;
  const buf = Buffer.alloc(44 + samples, 0x80);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + samples, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate, 28);
  buf.writeUInt16LE(1, 32);
  buf.writeUInt16LE(8, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(samples, 40);
  return buf.toString('base64');
}

describe('null in webhook bodies (the service client sends nullable fields)', () => {
  it('create with auth_token null has no token; update with type and url null keeps them', async () => {
    const { webhook } = await h.client.webhooks.createWebhook({ type: 'job_complete', url: 'https://example.com/hook', auth_token: null });
    expect(webhook.has_auth_token).toBe(false);
    const same = (await h.client.webhooks.updateWebhook(webhook.id, { type: null, url: null, auth_token: 'secret' })).webhook;
    expect(same).toMatchObject({ type: 'job_complete', url: 'https://example.com/hook', has_auth_token: true });
    await h.client.webhooks.deleteWebhook(webhook.id);
  });
});
