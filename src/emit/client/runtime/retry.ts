// Retries and the call's deadline: the resolved retry policy, backoff and Retry-After, one abort signal for the
// whole call, and a race against it for fetch handlers that ignore the signal.
import type { RetryOptions } from './types.js';
import { TimeoutError } from './errors.js';

const DEFAULT_RETRY = {
  attempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  statuses: [408, 429, 500, 502, 503, 504] as readonly number[],
  methods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'] as readonly string[],
  retryNonIdempotentOn503: false,
};

export interface ResolvedRetry {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  statuses: readonly number[];
  methods: readonly string[];
  retryNonIdempotentOn503: boolean;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
}

export function resolveRetry(client: RetryOptions | false, call: RetryOptions | false | undefined): ResolvedRetry {
  // A call's own policy wins: `retry: false` on the call disables, a policy object on the call re-enables.
  const none = call === false || (call === undefined && client === false);
  const merged: RetryOptions = { ...(client === false ? {} : client), ...(call === false ? {} : call) };
  const defined = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
  return {
    attempts: none ? 1 : Math.max(1, Math.floor(defined(merged.attempts, DEFAULT_RETRY.attempts))),
    baseDelayMs: defined(merged.baseDelayMs, DEFAULT_RETRY.baseDelayMs),
    maxDelayMs: defined(merged.maxDelayMs, DEFAULT_RETRY.maxDelayMs),
    statuses: defined(merged.statuses, DEFAULT_RETRY.statuses),
    methods: defined(merged.methods, DEFAULT_RETRY.methods).map((m) => m.toUpperCase()),
    retryNonIdempotentOn503: defined(merged.retryNonIdempotentOn503, DEFAULT_RETRY.retryNonIdempotentOn503),
    sleep: merged.sleep ?? defaultSleep,
    random: merged.random ?? Math.random,
  };
}

export function shouldRetryStatus(retry: ResolvedRetry, method: string, status: number): boolean {
  if (!retry.statuses.includes(status)) return false;
  if (retry.methods.includes(method)) return true;
  // A 503 means the request was not processed, so repeating a POST is safe when the caller opts in.
  return status === 503 && retry.retryNonIdempotentOn503;
}

/** Exponential backoff for the retry after failed attempt `attempt` (1-based), capped, with 50-100% jitter. */
export function backoff(retry: ResolvedRetry, attempt: number): number {
  const exponential = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential * (0.5 + 0.5 * retry.random()));
}

/** `Retry-After` as milliseconds (delta seconds or HTTP date), capped; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, maxDelayMs: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else {
    const date = Date.parse(text);
    if (Number.isNaN(date)) return undefined;
    ms = date - Date.now();
  }
  return Math.min(maxDelayMs, Math.max(0, ms));
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export interface Deadline {
  signal: AbortSignal;
  timeoutMs: number | undefined;
  timedOut(): boolean;
  dispose(): void;
}

/** One signal for the whole call: aborted by the caller's signal or when `timeoutMs` passes. */
export function createDeadline(user: AbortSignal | undefined, timeoutMs: number | undefined, operationId: string): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = (): void => controller.abort(user?.reason);
  if (user?.aborted) controller.abort(user.reason);
  else user?.addEventListener('abort', onAbort, { once: true });
  const limited = timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs >= 0;
  const timer = limited
    ? setTimeout(() => {
        timedOut = true;
        controller.abort(new TimeoutError({ message: `Request timed out after ${timeoutMs} ms`, status: 0, code: 'TIMEOUT', operationId }));
      }, timeoutMs)
    : undefined;
  return {
    signal: controller.signal,
    timeoutMs,
    timedOut: () => timedOut,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      user?.removeEventListener('abort', onAbort);
    },
  };
}

/** Settle with `promise`, or reject as soon as `signal` aborts (for fetch handlers that ignore the signal). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      promise.catch(() => undefined);
      return reject(signal.reason);
    }
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Release the body of a response we will not read. Not awaited: cancelling one branch of a tee'd body (a
 * cloned Response, as in-process handlers may return) only settles once the other branch is cancelled too.
 */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}
