// The inspector's server side (src/sandbox/inspector): who may see what, the events feed, baseline plots, the
// API reference from the model, re-sending a delivery and "try it".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_TOKEN, HOOK_TOKEN, scenario, type Scenario } from './scenario.js';

let s: Scenario;
beforeAll(async () => {
  s = await scenario();
  await s.history();
  await s.h.sandbox.idle();
});
afterAll(async () => s.h.close());

type Body = Record<string, unknown> & { error?: { code: string; details: { field: string | null }[] } };

async function call(path: string, init: { token?: string | null; headers?: Record<string, string>; method?: string; body?: unknown } = {}): Promise<{ status: number; headers: Headers; body: Body; text: string }> {
  const headers: Record<string, string> = { ...init.headers };
  const token = init.token === undefined ? s.key : init.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await s.h.sandbox.fetch(new Request(`http://sandbox.test/inspector${path}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), redirect: 'manual' }));
  const text = await res.text();
  let body: Body = {};
  try {
    body = JSON.parse(text) as Body;
  } catch {
    body = {};
  }
  return { status: res.status, headers: res.headers, body, text };
}

describe('inspector access', () => {
  it('refuses a missing or wrong token with 401 and the error envelope, on the page and its endpoints', async () => {
    for (const path of ['', '/', '/inspector.js', '/api/session', '/api/events', `/api/records/tag/${s.tag}`]) {
      for (const token of [null, 'wrong-token']) {
        const r = await call(path, { token });
        expect(r.status, `${path} with ${String(token)}`).toBe(401);
        expect(r.body.error?.code).toBe('UNAUTHENTICATED');
        expect(r.body.error?.details[0]?.field).toBe('Authorization');
      }
    }
  });

  it('accepts the token once in the URL, answers with a cookie and a redirect that drops it, then serves the page', async () => {
    const first = await call(`?token=${encodeURIComponent(s.key)}`, { token: null });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/inspector/');
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const page = await call('/', { token: null, headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await call(`?token=nope`, { token: null })).status).toBe(401);
  });

  it('shows the admin every organization and an API key only its own', async () => {
    const admin = await call('/api/organizations', { token: s.h.sandbox.adminToken });
    const adminIds = (admin.body.organizations as { id: string }[]).map((o) => o.id);
    expect(adminIds).toEqual(expect.arrayContaining([s.org, s.other.org, s.h.sandbox.organizationId]));
    const mine = await call('/api/organizations');
    expect((mine.body.organizations as { id: string }[]).map((o) => o.id)).toEqual([s.org]);
    expect(mine.text).not.toContain(s.other.org);
  });

  it("never gives an API key another organization's data: records, events, baselines, re-sends", async () => {
    const other = { token: s.other.key };
    expect((await call(`/api/records?organization_id=${s.org}`, other)).status).toBe(404);
    expect((await call(`/api/events?organization_id=${s.org}`, other)).status).toBe(404);
    expect((await call(`/api/records/tag/${s.tag}`, other)).status).toBe(404);
    expect((await call(`/api/baselines/${s.baseline}`, other)).status).toBe(404);
    const own = await call('/api/records?q=', other);
    expect(own.text).toContain(s.other.secretName);
    expect(own.text).not.toContain(s.tag);
    const events = await call('/api/events', other);
    expect(events.body.events).toEqual([]);
    const delivery = ((await call('/api/events?kind=webhook.delivery')).body.events as { data: { id: string } }[])[0]!;
    expect((await call(`/api/deliveries/${delivery.data.id}/resend`, { ...other, method: 'POST', body: {} })).status).toBe(404);
    // And the other way round: the admin sees both.
    expect((await call(`/api/records/tag/${s.other.tag}`, { token: s.h.sandbox.adminToken })).status).toBe(200);
  });

  it('limits a key to the families its permissions read through the API', async () => {
    const tagsOnly = await s.h.control.createApiKey(s.org, ['tags:read']);
    const session = await call('/api/session', { token: tagsOnly.key });
    // tags:read reads tags; the spec catalog needs no permission; nothing else.
    expect((session.body.families as { name: string }[]).map((f) => f.name).sort()).toEqual(['spec', 'tag']);
    const records = await call('/api/records', { token: tagsOnly.key });
    expect(new Set((records.body.records as { kind: string }[]).map((r) => r.kind))).toEqual(new Set(['tag']));
    expect((await call(`/api/records/agent/${s.agent}`, { token: tagsOnly.key })).status).toBe(404);
    expect((await call('/api/events', { token: tagsOnly.key })).body.events).toEqual([]);
  });
});

describe('inspector state', () => {
  it('searches records and marks deleted ones', async () => {
    await s.h.clientFor(s.key).tags.deleteTag(s.tag);
    const found = await call('/api/records?q=pwned');
    expect(found.body.records).toEqual([expect.objectContaining({ kind: 'tag', id: s.tag, deleted: true })]);
    const detail = await call(`/api/records/agent/${s.agent}`);
    expect((detail.body.versions as { number: number }[]).map((v) => v.number)).toEqual([2, 1]);
  });

  it('never shows a writeOnly secret in a record', async () => {
    const detail = await call(`/api/records/alert/${s.alert}`, { token: s.h.sandbox.adminToken });
    expect(detail.status).toBe(200);
    expect(detail.text).not.toContain(ALERT_TOKEN);
    const webhooks = await call('/api/records?kind=webhook', { token: s.h.sandbox.adminToken, headers: {} });
    expect(webhooks.text).not.toContain(HOOK_TOKEN);
  });
});

describe('inspector events', () => {
  it('has the completed runs with metric values, the alert evaluation with its conditions, and deliveries with attempts', async () => {
    const r = await call('/api/events');
    const events = r.body.events as { kind: string; status: string; data: Record<string, unknown> }[];
    expect(r.body.kinds).toEqual(expect.arrayContaining(['run.completed', 'alert.evaluation', 'alert.notification', 'webhook.delivery', 'baseline.observation']));
    const runs = events.filter((e) => e.kind === 'run.completed');
    expect(runs).toHaveLength(12);
    expect(runs[0]!.data.metric_values).toHaveProperty(s.metric);
    const evaluation = events.find((e) => e.kind === 'alert.evaluation')!;
    expect(evaluation.status).toBe('TRIGGERED');
    expect(evaluation.data.conditions).toEqual([expect.objectContaining({ metric_id: s.metric, operator: 'LT', met: true })]);
    const delivery = events.find((e) => e.kind === 'webhook.delivery' && (e.data.attempts as unknown[]).length === 2)!;
    expect(delivery.data.attempts).toEqual([expect.objectContaining({ status: 503, latency_ms: expect.any(Number) }), expect.objectContaining({ status: 200 })]);
    expect(delivery.data.headers).toEqual({ 'content-type': 'application/json', 'X-Webhook-Token': '[redacted]' });
    expect(r.text).not.toContain(HOOK_TOKEN);
    expect(r.text).not.toContain(ALERT_TOKEN);
  });

  it('filters by kind, resource and time', async () => {
    const onlyRuns = (await call('/api/events?kind=run.completed')).body.events as { kind: string }[];
    expect(new Set(onlyRuns.map((e) => e.kind))).toEqual(new Set(['run.completed']));
    const forWebhook = (await call(`/api/events?resource=${s.webhook}`)).body.events as { kind: string }[];
    expect(forWebhook.length).toBeGreaterThan(0);
    expect(new Set(forWebhook.map((e) => e.kind))).toEqual(new Set(['webhook.delivery']));
    const window = (await call('/api/events?kind=run.completed&since=2026-11-21T00:00:00Z&until=2026-11-21T23:59:59Z')).body.events as { at: string }[];
    expect(window.map((e) => e.at.slice(0, 10))).toEqual(['2026-11-21', '2026-11-21', '2026-11-21', '2026-11-21']);
    expect((await call('/api/events?since=yesterday')).body.error?.details[0]?.field).toBe('since');
  });

  it('re-sends a delivery as a new one with the same payload and token, marked as re-sent', async () => {
    const events = (await call('/api/events?kind=webhook.delivery')).body.events as { data: { id: string; payload: unknown } }[];
    const original = events[0]!.data;
    const r = await call(`/api/deliveries/${original.id}/resend`, { method: 'POST', body: {} });
    expect(r.status).toBe(202);
    await s.h.sandbox.idle();
    const sent = await s.h.control.sent({ organization_id: s.org, kind: 'webhook_delivery' });
    const copy = sent.find((e) => e.resent_from === original.id)!;
    expect(copy.payload).toEqual(original.payload);
    expect((copy.headers as Record<string, string>)['X-Webhook-Token']).toBe(HOOK_TOKEN);
    expect(copy.status).toBe('delivered');
    expect((await call('/api/deliveries/nope/resend', { method: 'POST', body: {} })).status).toBe(404);
  });
});

describe('inspector baselines and reference', () => {
  it('plots a baseline in buckets of the chosen width and zone, with every observation', async () => {
    const r = await call(`/api/baselines/${s.baseline}?bucket_interval=1%20day&timezone=Asia/Tokyo`);
    expect(r.status).toBe(200);
    const buckets = r.body.buckets as { bucket_time: string; count: number }[];
    expect(buckets.every((b) => b.bucket_time.endsWith('T00:00:00+09:00'))).toBe(true);
    expect(buckets.reduce((n, b) => n + b.count, 0)).toBe(12);
    expect(r.body.observations).toHaveLength(12);
    // The same buckets getBaselineHistory answers.
    const api = await s.h.raw(`/metrics/${s.metric}/baselines/${s.baseline}/history?bucket_interval=1%20day&timezone=Asia/Tokyo`, { headers: { 'x-api-key': s.key } });
    const history = ((await api.json()) as { history: { bucket_time: string; observation_count: number }[] }).history;
    expect(history.map((h) => [h.bucket_time, h.observation_count])).toEqual(buckets.map((b) => [b.bucket_time, b.count]));
    expect((await call(`/api/baselines/${s.baseline}?timezone=Mars/Olympus`)).body.error?.details[0]?.field).toBe('timezone');
    expect((await call(`/api/baselines/${s.baseline}?bucket_interval=soon`)).body.error?.details[0]?.field).toBe('bucket_interval');
  });

  it('documents every operation of the route table with limits, defaults, semantics and provenance', async () => {
    const r = await call('/api/reference');
    const ops = r.body.operations as { id: string; provenance: { source: string; note: string | null } | null; params: { name: string; limits: string[]; default: unknown; provenance: { source: string; note: string | null } | null }[]; semantics: string[]; body: { name: string; semantics: string[] }[] | null }[];
    const routes = s.h.sandbox.runtime.tables.routes;
    expect(ops.map((o) => o.id)).toEqual(routes.map((r) => r.id));
    expect(ops.every((o) => o.provenance !== null)).toBe(true);
    const listTags = ops.find((o) => o.id === 'listTags')!;
    expect(listTags.params.find((p) => p.name === 'page_size')).toMatchObject({ limits: ['1-100'], default: 50 });
    const updateTag = ops.find((o) => o.id === 'updateTag')!;
    expect(updateTag.body!.find((f) => f.name === 'tag_name')!.semantics).toEqual(expect.arrayContaining(['stored lower case']));
    const assumed = ops.flatMap((o) => [o.provenance, ...o.params.map((p) => p.provenance)]).filter((p) => p?.source === 'assumed');
    expect(assumed.length).toBeGreaterThan(0);
    expect(assumed.every((p) => typeof p?.note === 'string')).toBe(true);
    const deleteAlert = ops.find((o) => o.id === 'deleteAlert')!;
    expect(deleteAlert.semantics.join(' ')).toMatch(/soft delete/);
  });

  it('tries an operation with the caller key, and asks the admin for one', async () => {
    const r = await call('/api/try', { method: 'POST', body: { method: 'GET', path: '/v1/tags' } });
    expect(r.body.status).toBe(200);
    expect(JSON.stringify(r.body.body)).not.toContain(s.other.secretName);
    const admin = await call('/api/try', { token: s.h.sandbox.adminToken, method: 'POST', body: { method: 'GET', path: '/v1/tags' } });
    expect(admin.status).toBe(400);
    expect(admin.body.error?.details[0]?.field).toBe('api_key');
    expect((await call('/api/try', { method: 'POST', body: { method: 'GET', path: '/control/sent' } })).body.error?.details[0]?.field).toBe('path');
    expect((await call('/api/try', { method: 'POST', body: { method: 'GET', path: '/v1/%2e%2e/control/sent' } })).body.error?.details[0]?.field).toBe('path');
    const notJson = await s.h.sandbox.fetch(new Request('http://sandbox.test/inspector/api/try', { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'text/plain' }, body: '{}' }));
    expect(notJson.status).toBe(400);
  });
});
