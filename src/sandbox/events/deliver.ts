// Outbound HTTP from the sandbox (webhook deliveries): every attempt is recorded in the sent log with its
// status or error and its latency, and a retry's time in next_attempt_at; failures (network errors, 408, 429,
// 5xx) are retried with exponential backoff.
// Payloads and headers are recorded as sent, so the control plane can show them; they never reach a log line.
//
// On a store shared by several instances (claimSent/releaseSent) each attempt is made under a claim: the entry
// is claimed before the request goes out and released with the time of the next attempt after it, so one
// instance at a time sends it, and an instance that takes it over (events/queue.ts) goes on from the attempt
// count and backoff the entry records.
import type { SentRecord, Store } from '../storage/store.js';

export type FetchLike = (input: string, init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal }) => Promise<{ status: number }>;

export interface DeliveryOptions {
  fetch: FetchLike;
  /** Attempts in all (first try included). */
  attempts: number;
  /** First backoff delay; doubles each retry. */
  baseDelayMs: number;
  timeoutMs: number;
  sleep(ms: number): Promise<void>;
  now(): string;
}

/** A claim lasts the request's timeout plus this, so a live instance never loses a delivery it is making. */
export const CLAIM_MARGIN_MS = 2_000;

function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

interface DeliveryData {
  url: string;
  headers: Record<string, string>;
  payload: unknown;
  attempts: unknown[];
  status: string;
  next_attempt_at?: string | null;
}

/** Sends `entry` (already stored as pending) until it succeeds or attempts run out; updates it after each try. */
export async function deliver(store: Store, entry: SentRecord, options: DeliveryOptions, onDelivered?: () => void): Promise<void> {
  const shared = store.claimSent && store.releaseSent ? { claim: store.claimSent.bind(store), release: store.releaseSent.bind(store) } : null;
  let current = entry;
  for (;;) {
    if (shared) {
      const claimed = shared.claim(current.id, options.timeoutMs + CLAIM_MARGIN_MS);
      if (!claimed) return; // Finished, or another instance has it.
      current = claimed;
    }
    const data = current.data as unknown as DeliveryData;
    const attempt = data.attempts.length + 1;
    if (attempt > options.attempts) return;
    const at = options.now();
    const started = performance.now();
    let status: number | undefined;
    let error: string | undefined;
    try {
      const res = await options.fetch(data.url, { method: 'POST', headers: data.headers, body: JSON.stringify(data.payload), signal: AbortSignal.timeout(options.timeoutMs) });
      status = res.status;
    } catch (e) {
      error = (e as Error)?.name === 'TimeoutError' ? 'timeout' : 'network error';
    }
    // Latency is what a person watching a delivery wants to see (the inspector shows it); whole milliseconds.
    const latency_ms = Math.round(performance.now() - started);
    data.attempts.push(status === undefined ? { at, error, latency_ms } : { at, status, latency_ms });
    const ok = status !== undefined && status >= 200 && status < 300;
    const retry = !ok && (status === undefined || retryable(status)) && attempt < options.attempts;
    data.status = ok ? 'delivered' : retry ? 'retrying' : 'failed';
    const delay = options.baseDelayMs * 2 ** (attempt - 1);
    data.next_attempt_at = retry ? new Date(Date.parse(options.now()) + delay).toISOString() : null;
    if (shared) shared.release(current, retry ? delay : null, options.timeoutMs + CLAIM_MARGIN_MS);
    else store.updateSent(current);
    if (ok) {
      onDelivered?.();
      return;
    }
    if (!retry) return;
    await options.sleep(delay);
  }
}
