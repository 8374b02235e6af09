// deliver-webhooks (handler of run.completed, conversation.submitted, conversation.audio-attached): every
// job_complete webhook of the organization gets an HTTP POST of a WebhookDelivery (spec/webhooks.yaml):
//   { event: "job_complete", webhook_id, delivery_id, occurred_at, wave, run_id? | conversation_id?, metric_values }
// wave `run` for a completed run (run_id; occurred_at = the run's completed_at; metric_values = the mean of the
// run's results per metric), `text` after a conversation is submitted and `audio` after audio is attached
// (conversation_id; occurred_at = when the event was handled; metric_values = the event's `metric_values`
// when it carries them, else the conversation record's numeric metric_values).
// Headers: `content-type: application/json`, and `X-Webhook-Token: <auth_token>` when the webhook has one.
//
// Decisions (the seed is silent):
// - Delivery runs in the background (events/deliver.ts): a network error, a timeout, 408, 429 or 5xx is
//   retried with exponential backoff (createSandbox delivery options: 4 attempts in all, 250 ms first delay,
//   doubling); any other status (a 4xx) is final. Every attempt is recorded in the sent entry of kind
//   `webhook_delivery`: {webhook_id, run_id | conversation_id, wave, url, headers, payload, attempts: [{at,
//   status | error}], status pending / retrying / delivered / failed}.
// - last_triggered_at is set when the event fires for the webhook (the time the delivery is dispatched),
//   whether or not the client accepts it.
// - The auth token leaves the sandbox only in the X-Webhook-Token header; it is also in the control plane's
//   sent log (admin only), never in an API response or a log line.
import type { RaisedEvent, Runtime } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { ulid } from '../ids.js';
import type { Json } from '../storage/store.js';
import { sendInBackground } from './events/outbound.js';

const WAVES: Record<string, 'run' | 'text' | 'audio'> = {
  'run.completed': 'run',
  'conversation.submitted': 'text',
  'conversation.audio-attached': 'audio',
};

function numericValues(raw: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [k, v] of Object.entries(raw as Json)) {
    const list = (Array.isArray(v) ? v : [v]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    if (list.length > 0) Object.defineProperty(out, k, { value: list.reduce((a, x) => a + x, 0) / list.length, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The wave-specific part of the payload, or null when the event names no job. */
function subject(runtime: Runtime, event: RaisedEvent, wave: 'run' | 'text' | 'audio'): { key: 'run_id' | 'conversation_id'; id: string; occurredAt: string; metricValues: Record<string, number> } | null {
  const p = event.payload;
  if (wave === 'run') {
    if (typeof p.run_id !== 'string') return null;
    return {
      key: 'run_id',
      id: p.run_id,
      occurredAt: typeof p.completed_at === 'string' ? p.completed_at : runtime.clock.now().toISOString(),
      metricValues: numericValues(p.metric_values),
    };
  }
  const record = p.record !== null && typeof p.record === 'object' && !Array.isArray(p.record) ? (p.record as Json) : null;
  const id = typeof p.conversation_id === 'string' ? p.conversation_id : record?.conversation_id;
  if (typeof id !== 'string') return null;
  return {
    key: 'conversation_id',
    id,
    occurredAt: runtime.clock.now().toISOString(),
    metricValues: numericValues(p.metric_values !== undefined ? p.metric_values : record?.metric_values),
  };
}

export function deliverJobComplete(runtime: Runtime, event: RaisedEvent): void {
  const wave = WAVES[event.name];
  if (!wave) return;
  const job = subject(runtime, event, wave);
  if (!job) return;
  const now = runtime.clock.now().toISOString();
  const deliveries = runtime.store.transaction(() =>
    runtime.store
      .list('webhook', { org: event.org })
      .filter((w) => !w.deleted && w.org === event.org && (w.data.type ?? 'job_complete') === 'job_complete' && typeof w.data.url === 'string')
      .map((w) => {
        w.data.last_triggered_at = now;
        runtime.store.update(w);
        const deliveryId = ulid();
        const payload: Json = { event: 'job_complete', webhook_id: w.id, delivery_id: deliveryId, occurred_at: job.occurredAt, wave };
        payload[job.key] = job.id;
        payload.metric_values = job.metricValues;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (typeof w.data.auth_token === 'string' && w.data.auth_token !== '') headers['X-Webhook-Token'] = w.data.auth_token;
        const data: Json = { webhook_id: w.id, wave };
        data[job.key] = job.id;
        return { id: deliveryId, org: event.org, kind: 'webhook_delivery' as const, data, url: w.data.url as string, headers, payload };
      }),
  );
  for (const d of deliveries) sendInBackground(runtime, d);
}

export const deliverWebhooks: Rule = {
  onEvent(runtime, event) {
    deliverJobComplete(runtime, event);
  },
};
