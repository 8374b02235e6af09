// Outbound HTTP from event handlers: a pending sent entry, then deliver() (retries with exponential
// backoff, every attempt recorded) as tracked background work, so sandbox.idle() and the control plane's
// `wait_for_deliveries` can wait for it. Secrets travel in `headers` only; nothing here writes a log line.
import type { Runtime } from '../../engine/context.js';
import { deliver, type DeliveryOptions, type FetchLike } from '../../events/deliver.js';
import type { Json, SentRecord } from '../../storage/store.js';

export interface DeliveryRuntime {
  delivery: { fetch: FetchLike; attempts: number; baseDelayMs: number; timeoutMs: number };
  track(work: Promise<unknown>): void;
}

export function deliveryRuntime(runtime: Runtime): (Runtime & DeliveryRuntime) | null {
  // The sandbox's runtime carries delivery; a runtime built elsewhere (a test's) may not: checked here.
  const r = runtime as Runtime & Partial<DeliveryRuntime>;
  return r.delivery && typeof r.track === 'function' ? (r as Runtime & DeliveryRuntime) : null;
}

export function deliveryOptions(runtime: Runtime & DeliveryRuntime): DeliveryOptions {
  return {
    fetch: runtime.delivery.fetch,
    attempts: Math.max(1, runtime.delivery.attempts),
    baseDelayMs: runtime.delivery.baseDelayMs,
    timeoutMs: runtime.delivery.timeoutMs,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: () => runtime.clock.now().toISOString(),
  };
}

/**
 * Records a pending HTTP delivery (kind, org, `data` plus url/headers/payload/attempts/status) and sends it in
 * the background. Without delivery support in the runtime the entry stays `pending`.
 */
export function sendInBackground(
  runtime: Runtime,
  entry: { id: string; org: string; kind: SentRecord['kind']; data: Json; url: string; headers: Record<string, string>; payload: unknown },
  onDelivered?: () => void,
): SentRecord {
  const sent = runtime.store.addSent({
    id: entry.id,
    org: entry.org,
    kind: entry.kind,
    data: { ...entry.data, url: entry.url, headers: entry.headers, payload: entry.payload, attempts: [], status: 'pending' },
  });
  const r = deliveryRuntime(runtime);
  if (r) r.track(deliver(runtime.store, sent, deliveryOptions(r), onDelivered));
  return sent;
}
