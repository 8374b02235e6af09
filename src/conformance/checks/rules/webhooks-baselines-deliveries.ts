// Rule deliver-webhooks (handler of run.completed, conversation.submitted, conversation.audio-attached): what
// a job_complete webhook receives for a run and for the two waves of a conversation, with which headers, and
// which answers of the client are retried. Needs a receiver whose answers the check chooses (target.receiver).
import { expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import type { ReceivedCall, WebhookReceiver } from '../../target.js';
import type { Check, CheckContext } from '../context.js';
import { average, canonical, close, def, enumOf, handles, needControl, needReceiver, routeOf, successRecord, unusedMetricId } from './webhooks-baselines-support.js';

const RULE = 'deliver-webhooks';

export interface Subscription {
  id: string;
  url: string;
  token?: string;
}

/** A job_complete webhook (cleaned up with the world) pointing at a receiver endpoint answering `statuses`. */
export async function subscribe(ctx: CheckContext, receiver: WebhookReceiver, statuses?: number[], token?: string): Promise<Subscription> {
  const url = receiver.endpoint(statuses);
  const created = await ctx.world.create('webhook', { type: enumOf(ctx.suite, 'WebhookType')[0], url, auth_token: token });
  // An empty token is no token (the spec's X-Webhook-Token has minLength 1).
  return { id: created.id, url, ...(token ? { token } : {}) };
}

/** The url of a job_complete webhook that a second organization subscribed. */
async function foreignSubscription(ctx: CheckContext, receiver: WebhookReceiver): Promise<string> {
  const key = ctx.target.otherApiKey ?? (await needControl(ctx, "create a second organization").createOtherOrganizationKey());
  const url = receiver.endpoint();
  const create = routeOf(ctx, 'webhook', 'create');
  expectSuccess(await send(ctx.target, create, { key, body: { type: enumOf(ctx.suite, 'WebhookType')[0], url } }), create, "creating another organization's webhook");
  return url;
}

export function onlyCall(calls: ReceivedCall[], what: string): ReceivedCall {
  if (calls.length !== 1) fail(`${what}: expected exactly one call, got ${calls.length}`);
  return calls[0]!;
}

function payloadOf(call: ReceivedCall, what: string): Record<string, unknown> {
  const body = call.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) fail(`${what}: the body is not a JSON object: ${JSON.stringify(body).slice(0, 200)}`);
  return body as Record<string, unknown>;
}

/** The WebhookDelivery envelope (spec/webhooks.yaml): POST, JSON, required fields, event, ids, the token header. */
export function expectDelivery(ctx: CheckContext, call: ReceivedCall, subscription: Subscription, wave: string, what: string): Record<string, unknown> {
  const schema = def(ctx.suite, 'WebhookDelivery');
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  if (call.method !== 'POST') fail(`${what}: expected a POST (seed Events 1), got ${call.method}`);
  if (!(call.headers['content-type'] ?? '').includes('application/json')) fail(`${what}: expected content-type application/json, got ${String(call.headers['content-type'])}`);
  const payload = payloadOf(call, what);
  for (const field of (schema.required as string[] | undefined) ?? []) if (payload[field] === undefined) fail(`${what}: the payload lacks ${field}: ${JSON.stringify(payload).slice(0, 300)}`);
  if (payload.event !== enumOf(ctx.suite, 'WebhookType')[0]) fail(`${what}: expected event job_complete, got ${String(payload.event)}`);
  if (payload.webhook_id !== subscription.id) fail(`${what}: expected webhook_id ${subscription.id}, got ${String(payload.webhook_id)}`);
  const ulid = new RegExp(String(def(ctx.suite, 'Ulid').pattern));
  if (typeof payload.delivery_id !== 'string' || !ulid.test(payload.delivery_id)) fail(`${what}: expected a ULID delivery_id, got ${String(payload.delivery_id)}`);
  if (!(properties.wave?.enum as string[] | undefined)?.includes(wave) || payload.wave !== wave) fail(`${what}: expected wave ${wave}, got ${String(payload.wave)}`);
  if (typeof payload.occurred_at !== 'string' || Number.isNaN(Date.parse(payload.occurred_at))) fail(`${what}: occurred_at is not a date-time: ${String(payload.occurred_at)}`);
  const values = payload.metric_values;
  if (values !== undefined && (values === null || typeof values !== 'object' || Object.values(values).some((v) => typeof v !== 'number'))) fail(`${what}: metric_values is not an object of numbers: ${JSON.stringify(values)}`);
  // Seed Events 2: a registered auth_token is sent with each call; spec/webhooks.yaml: in X-Webhook-Token.
  const header = call.headers['x-webhook-token'];
  if (subscription.token !== undefined && header !== subscription.token) fail(`${what}: expected X-Webhook-Token to carry the webhook's token, got ${header === undefined ? 'no such header' : 'another value'}`);
  if (subscription.token === undefined && header !== undefined) fail(`${what}: a webhook without auth_token got an X-Webhook-Token header`);
  return payload;
}

export function within(iso: unknown, from: number, to: number): boolean {
  const at = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  return at >= from - 1000 && at <= to + 1000;
}

export const runWave: Check = {
  name: `rule ${RULE}: a completed run POSTs wave run with run_id, occurred_at = completion time and the metric means to every job_complete webhook of the organization, none to deleted or foreign ones`,
  applies: (route, suite) => route.id === canonical(suite, 'webhook', 'create')?.id && handles(suite, 'run.completed', RULE),
  async run(ctx) {
    const control = needControl(ctx, 'complete a run');
    const receiver = needReceiver(ctx, 'see what the deliveries carry');
    const withToken = await subscribe(ctx, receiver, [204], `conformance-token-${ctx.world.nextSeed()}`);
    const emptyToken = await subscribe(ctx, receiver, [204], '');
    const noToken = await subscribe(ctx, receiver);
    const removed = await subscribe(ctx, receiver);
    const remove = routeOf(ctx, 'webhook', 'delete');
    expectSuccess(await send(ctx.target, remove, { path: { webhook_id: removed.id } }), remove, 'deleting a webhook');
    const foreign = await foreignSubscription(ctx, receiver);

    const [listed, single] = [unusedMetricId(), unusedMetricId()];
    const results = { [listed]: [0.2, 0.4, 0.9], [single]: 3 };
    const completedAt = new Date(Date.now() - 90_000).toISOString();
    const done = await control.completeRun({ metric_values: results, completed_at: completedAt });

    const payloads = [];
    for (const subscription of [withToken, emptyToken, noToken]) {
      const what = `the run delivery to webhook ${subscription.id}`;
      const payload = expectDelivery(ctx, onlyCall(await receiver.calls(subscription.url), what), subscription, 'run', what);
      if (payload.run_id !== done.run.run_id) fail(`${what}: expected run_id ${String(done.run.run_id)}, got ${String(payload.run_id)}`);
      if (payload.conversation_id !== undefined) fail(`${what}: a run delivery carries conversation_id ${String(payload.conversation_id)}`);
      // spec WebhookDelivery.occurred_at: when the job completed.
      if (Date.parse(String(payload.occurred_at)) !== Date.parse(completedAt)) fail(`${what}: expected occurred_at ${completedAt} (the run's completion), got ${String(payload.occurred_at)}`);
      // The run stores the mean of its results per metric (control plane completeRun); metric_values are its results.
      const values = (payload.metric_values ?? {}) as Record<string, unknown>;
      if (!close(values[listed], average(results[listed] as number[])) || !close(values[single], 3) || Object.keys(values).length !== 2) {
        fail(`${what}: expected metric_values {${listed}: ${average(results[listed] as number[])}, ${single}: 3}, got ${JSON.stringify(values)}`);
      }
      payloads.push(payload);
    }
    const ids = new Set(payloads.map((p) => p.delivery_id));
    if (ids.size !== payloads.length) fail(`${payloads.length} webhooks got only ${ids.size} distinct delivery_ids (one delivery each expected)`);
    const stale = await receiver.calls(removed.url);
    if (stale.length !== 0) fail(`a deleted webhook still got ${stale.length} deliveries`);
    // Seed: a resource of another organization is never reached; webhooks are the organization's.
    const leaked = await receiver.calls(foreign);
    if (leaked.length !== 0) fail(`another organization's webhook got ${leaked.length} deliveries of this organization's run`);
  },
};

/** What the receiver answers first, and how many calls the sandbox's retry policy makes of it. */
const ANSWERS: { first: number; calls: number; final: 'delivered' | 'failed' }[] = [
  // spec/webhooks.yaml (our design): network errors, timeouts, 408, 429 and 5xx are retried ...
  { first: 500, calls: 2, final: 'delivered' },
  { first: 503, calls: 2, final: 'delivered' },
  { first: 408, calls: 2, final: 'delivered' },
  { first: 429, calls: 2, final: 'delivered' },
  // ... other 4xx answers are final.
  { first: 400, calls: 1, final: 'failed' },
  { first: 404, calls: 1, final: 'failed' },
  { first: 410, calls: 1, final: 'failed' },
];

/** Attempts in all (spec/webhooks.yaml: 4 attempts, 250 ms then doubling). */
const MAX_ATTEMPTS = 4;

export const retries: Check = {
  name: `rule ${RULE}: 408, 429 and 5xx answers are retried with the same delivery (at most ${MAX_ATTEMPTS} attempts), other 4xx are final; last_triggered_at is set either way`,
  applies: (route, suite) => route.id === canonical(suite, 'webhook', 'create')?.id && handles(suite, 'run.completed', RULE),
  async run(ctx) {
    const control = needControl(ctx, 'complete a run');
    const receiver = needReceiver(ctx, 'answer deliveries with chosen statuses');
    const cases = [];
    for (const answer of ANSWERS) cases.push({ ...answer, subscription: await subscribe(ctx, receiver, answer.final === 'delivered' ? [answer.first, 204] : [answer.first]) });
    const failing = await subscribe(ctx, receiver, [500]);
    const before = Date.now();
    const done = await control.completeRun({ metric_values: {} });
    const after = Date.now();

    for (const c of cases) {
      const what = `a webhook whose client answers ${c.first}${c.final === 'delivered' ? ' then 204' : ''}`;
      const calls = await receiver.calls(c.subscription.url);
      if (calls.length !== c.calls) fail(`${what}: expected ${c.calls} call(s), got ${calls.length}`);
      const ids = new Set(calls.map((call) => payloadOf(call, what).delivery_id));
      if (ids.size !== 1) fail(`${what}: a retry must repeat the same delivery, got delivery_ids ${JSON.stringify([...ids])}`);
      expectSentLog(done.sent, c.subscription.id, c.final, calls.length, what);
    }
    const failed = await receiver.calls(failing.url);
    if (failed.length < 2 || failed.length > MAX_ATTEMPTS) fail(`a client always answering 500: expected 2 to ${MAX_ATTEMPTS} attempts, got ${failed.length}`);
    expectSentLog(done.sent, failing.id, 'failed', failed.length, 'a client always answering 500');

    // Seed Events 1: last_triggered_at records the last firing (set when the delivery goes out, whatever the answer).
    const refused = cases.find((c) => c.final === 'failed')!.subscription;
    const list = routeOf(ctx, 'webhook', 'list');
    const answer = await send(ctx.target, list, {});
    const webhooks = ((answer.body as Record<string, unknown> | undefined)?.webhooks ?? []) as Record<string, unknown>[];
    const listed = webhooks.find((w) => w.id === refused.id);
    if (!listed) fail(`the webhook ${refused.id} is missing from the list`);
    if (!within(listed.last_triggered_at, before, after)) fail(`expected last_triggered_at of a refused delivery between the run's start and end, got ${String(listed.last_triggered_at)}`);
  },
};

/** The control plane's record of the delivery: its final status and one attempt per call (docs/sandbox.md Webhooks). */
function expectSentLog(sent: Record<string, unknown>[], webhookId: string, status: string, attempts: number, what: string): void {
  const entry = sent.find((s) => s.kind === 'webhook_delivery' && s.webhook_id === webhookId);
  if (!entry) fail(`${what}: the control plane recorded no delivery for webhook ${webhookId}`);
  if (entry.status !== status) fail(`${what}: expected the delivery to end ${status}, got ${String(entry.status)}`);
  const recorded = Array.isArray(entry.attempts) ? entry.attempts.length : -1;
  if (recorded !== attempts) fail(`${what}: expected ${attempts} recorded attempt(s), got ${recorded}`);
}

export const webhookNotTriggeredYet: Check = {
  name: `rule ${RULE}: a new webhook has no last_triggered_at`,
  applies: (route, suite) => route.id === canonical(suite, 'webhook', 'create')?.id && handles(suite, 'run.completed', RULE),
  async run(ctx) {
    const created = await ctx.world.create('webhook', { url: 'https://hooks.example.com/never' });
    // spec Webhook.last_triggered_at: null until the first delivery.
    const value = created.record.last_triggered_at;
    if (value !== undefined && value !== null) fail(`expected no last_triggered_at on a new webhook, got ${String(value)}`);
  },
};

export const conversationWaves: Check = {
  name: `rule ${RULE}: a submitted conversation is delivered as wave text, its recording by a separate later call as wave audio`,
  applies: (route, suite) => route.aliasOf === null && route.emits.includes('conversation.submitted') && handles(suite, 'conversation.submitted', RULE) && handles(suite, 'conversation.audio-attached', RULE),
  async run(ctx) {
    const receiver = needReceiver(ctx, 'see the two delivery waves');
    const subscription = await subscribe(ctx, receiver, [204], `conformance-token-${ctx.world.nextSeed()}`);
    const before = Date.now();
    const textOnly = await submit(ctx, {});
    const attach = canonicalAttach(ctx);
    successRecord(await send(ctx.target, attach, { path: { conversation_id: textOnly }, body: { audio_url: AUDIO_URL } }), attach, 'attaching audio to the conversation');
    const withAudio = await submit(ctx, { audio_url: AUDIO_URL });
    const after = Date.now();

    // Seed Events 3: text-only results after submit, audio-dependent ones by a separate, later call. Later as
    // dispatched: delivery ids are ULIDs (time-ordered), while deliveries in flight together may arrive in either
    // order over a network.
    const dispatchOrder = (call: ReceivedCall): string => String((call.body as Record<string, unknown> | undefined)?.delivery_id ?? '');
    const calls = (await receiver.calls(subscription.url)).sort((a, b) => (dispatchOrder(a) < dispatchOrder(b) ? -1 : dispatchOrder(a) > dispatchOrder(b) ? 1 : 0));
    const expected = [
      { conversation: textOnly, wave: 'text' },
      { conversation: textOnly, wave: 'audio' },
      { conversation: withAudio, wave: 'text' },
      { conversation: withAudio, wave: 'audio' },
    ];
    if (calls.length !== expected.length) fail(`expected ${expected.length} calls (text and audio for each of two conversations), got ${calls.length}: ${calls.map((c) => JSON.stringify((c.body as Record<string, unknown>)?.wave)).join(', ')}`);
    expected.forEach((e, i) => {
      const what = `call ${i + 1} (wave ${e.wave} of conversation ${e.conversation})`;
      const payload = expectDelivery(ctx, calls[i]!, subscription, e.wave, what);
      if (payload.conversation_id !== e.conversation) fail(`${what}: expected conversation_id ${e.conversation}, got ${String(payload.conversation_id)}`);
      if (payload.run_id !== undefined) fail(`${what}: a conversation delivery carries run_id ${String(payload.run_id)}`);
      if (!within(payload.occurred_at, before, after)) fail(`${what}: expected occurred_at while the conversation was handled, got ${String(payload.occurred_at)}`);
    });
  },
};

const AUDIO_URL = 'https://recordings.example.com/conformance/call.wav';

function canonicalAttach(ctx: CheckContext) {
  const route = ctx.suite.routes.find((r) => r.aliasOf === null && r.emits.includes('conversation.audio-attached'));
  if (!route) fail('the spec has no operation raising conversation.audio-attached');
  return route;
}

/** Submits a conversation with a one-message transcript; answers its id. */
async function submit(ctx: CheckContext, extra: Record<string, unknown>): Promise<string> {
  const body = { ...(await ctx.world.bodyFor(ctx.route, { audio_url: undefined, audio: undefined, upload_id: undefined, metrics: undefined })), ...extra };
  const record = successRecord(await send(ctx.target, ctx.route, { body }), ctx.route, `submitting a conversation${extra.audio_url ? ' with audio_url' : ''}`);
  const id = record[ctx.world.resource('conversation').id];
  if (typeof id !== 'string') fail(`submitting a conversation: no id in ${JSON.stringify(record).slice(0, 200)}`);
  return id;
}

export const deliveryChecks: Check[] = [runWave, retries, webhookNotTriggeredYet, conversationWaves];
