// deliver-webhooks (handler of run.completed, conversation.submitted, conversation.audio-attached, simulation.metrics-rerun): every
// job_complete webhook of the organization gets an HTTP POST of a WebhookDelivery (spec/webhooks.yaml):
//   { event: "job_complete", webhook_id, delivery_id, occurred_at, wave, run_id? | conversation_id?, metric_values,
//     organization_id, status, message }   (the last three and run_id are the service's payload, facts 2.17)
// wave `run` for a completed run (run_id; occurred_at = the run's completed_at; metric_values = the mean of the
// run's results per metric), `text` after a conversation is submitted and `audio` after audio is attached
// (conversation_id; occurred_at = when the event was handled; metric_values = the means of the event's
// `metric_values`, which the conversation events leave empty: the sandbox has no scorer).
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
import { setOwn } from '../engine/records.js';
import { ulid } from '../ids.js';
import type { Json } from '../storage/store.js';
import { sendInBackground } from './events/outbound.js';
import { jobCompleteMessage } from './events/job-complete-message.js';
import { payloadOf } from './events/payloads.js';
import { recordsWithField } from '../storage/typed.js';

// x-handlers give this rule exactly these events. A re-run of a simulation's metrics (simulation-rerun-metrics)
// is delivered as a run wave of the simulation's run.
const WAVES: Record<string, 'run' | 'text' | 'audio'> = {
  'run.completed': 'run',
  'simulation.metrics-rerun': 'run',
  'conversation.submitted': 'text',
  'conversation.audio-attached': 'audio',
};

/**
 * The mean of each metric's results. Every raiser gives each metric a non-empty list of finite numbers: the
 * control plane refuses anything else before it raises run.completed, and the conversation events carry `{}`.
 */
function means(values: Record<string, number[]>): Json {
  const out: Json = {};
  for (const [metric, list] of Object.entries(values)) setOwn(out, metric, list.reduce((a, x) => a + x, 0) / list.length);
  return out;
}

/** The wave-specific part of the payload, from the event's typed payload (events/payloads.ts); a re-run of a simulation without a run has a null run_id. */
function subject(runtime: Runtime, event: RaisedEvent, wave: 'run' | 'text' | 'audio'): { key: 'run_id' | 'conversation_id'; id: string | null; occurredAt: string; metricValues: Json; status: string } {
  if (wave === 'run') {
    const p = payloadOf(event, 'run.completed', 'simulation.metrics-rerun');
    // A metrics re-run reports its run's current status; a completion its outcome.
    const status = 'status' in p ? p.status : String((p.run_id ? runtime.store.get('run', p.run_id)?.data.status : undefined) ?? 'COMPLETED');
    return { key: 'run_id', id: p.run_id, occurredAt: p.completed_at, metricValues: means(p.metric_values), status };
  }
  const p = payloadOf(event, 'conversation.submitted', 'conversation.audio-attached');
  return { key: 'conversation_id', id: p.conversation_id, occurredAt: runtime.clock.now().toISOString(), metricValues: means(p.metric_values), status: 'COMPLETED' };
}

export function deliverJobComplete(runtime: Runtime, event: RaisedEvent): void {
  const wave = WAVES[event.name]!;
  const job = subject(runtime, event, wave);
  const now = runtime.clock.now().toISOString();
  const message = job.key === 'run_id' ? jobCompleteMessage(runtime, job.id, job.status, job.metricValues) : `Conversation ${job.id ?? ''} ${wave} metrics ${job.status}.`;
  const deliveries = runtime.store.transaction(() =>
    // The organization's own live job_complete webhooks (withField: exactly this organization; deleted ones left
    // out in the query, since webhooks made and deleted over and over leave their tombstones behind).
    recordsWithField(runtime.store, 'webhook', event.org, 'type', 'job_complete', true)
      .map((w) => {
        w.data.last_triggered_at = now;
        runtime.store.update(w);
        const deliveryId = ulid();
        const payload: Json = { event: 'job_complete', webhook_id: w.id, delivery_id: deliveryId, occurred_at: job.occurredAt, wave };
        payload[job.key] = job.id;
        payload.metric_values = job.metricValues;
        // The service's own fields (facts 2.17): organization_id, message, run_id (above), status.
        payload.organization_id = event.org;
        payload.status = job.status;
        payload.message = message;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (typeof w.data.auth_token === 'string' && w.data.auth_token !== '') headers['X-Webhook-Token'] = w.data.auth_token;
        const data: Json = { webhook_id: w.id, wave };
        data[job.key] = job.id;
        return { id: deliveryId, org: event.org, kind: 'webhook_delivery' as const, data, url: w.data.url, headers, payload };
      }),
  );
  for (const d of deliveries) sendInBackground(runtime, d);
}

export const deliverWebhooks: Rule = {
  onEvent(runtime, event) {
    deliverJobComplete(runtime, event);
  },
};
