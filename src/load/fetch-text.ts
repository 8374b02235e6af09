// HTTP GET with a deadline, bounded size and retries with backoff on transient answers.
import type { LoadLimits } from './limits.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

const TRANSIENT = new Set([429, 502, 503, 504]);

export class FetchError extends Error {
  override readonly name = 'FetchError';
  constructor(
    readonly url: string,
    readonly reason: string,
    readonly status?: number,
  ) {
    super(`GET ${url}: ${reason}`);
  }
}

export interface FetchTextOptions {
  accept: string;
  fetch?: FetchLike;
  limits: LoadLimits;
  sleep?: (ms: number) => Promise<void>;
  /** Time (Date.now()) by which the whole load must be done: no attempt or wait goes past it. */
  deadline?: number;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function fetchText(url: string, options: FetchTextOptions): Promise<{ text: string; contentType: string }> {
  const doFetch = options.fetch ?? (globalThis.fetch as FetchLike);
  const sleep = options.sleep ?? defaultSleep;
  const { fetchAttempts, fetchBackoffMs, fetchTimeoutMs, maxDocumentBytes, loadTimeoutMs } = options.limits;
  const deadline = options.deadline ?? Date.now() + loadTimeoutMs;
  const pastDeadline = (): FetchError => new FetchError(url, `the load did not finish within its deadline of ${loadTimeoutMs} ms${lastError ? ` (last: ${lastError.reason})` : ''}`);
  let lastError: FetchError | undefined;
  for (let attempt = 1; attempt <= fetchAttempts; attempt++) {
    if (attempt > 1) {
      const wait = fetchBackoffMs * 2 ** (attempt - 2);
      if (Date.now() + wait >= deadline) throw pastDeadline();
      await sleep(wait);
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw pastDeadline();
    // One attempt may take fetchTimeoutMs, headers and body together, and never runs past the load's deadline.
    const timeoutMs = Math.min(fetchTimeoutMs, remaining);
    let response: Response;
    try {
      response = await doFetch(url, { headers: { accept: options.accept }, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
      lastError = new FetchError(url, timedOut ? `no answer within ${timeoutMs} ms` : `network error: ${(error as Error).message}`);
      continue;
    }
    if (TRANSIENT.has(response.status)) {
      await response.body?.cancel();
      lastError = new FetchError(url, `answered ${response.status} after ${attempt} attempt(s)`, response.status);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new FetchError(url, `answered ${response.status}`, response.status);
    }
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > maxDocumentBytes) {
      await response.body?.cancel();
      throw new FetchError(url, `document is ${declared} bytes, more than the limit of ${maxDocumentBytes} bytes`);
    }
    const text = await readBounded(url, response, maxDocumentBytes, timeoutMs);
    return { text, contentType: response.headers.get('content-type') ?? '' };
  }
  throw lastError ?? new FetchError(url, 'no attempt was made');
}

/** Read a body as UTF-8 text, stopping as soon as it passes the size limit or the deadline. */
async function readBounded(url: string, response: Response, maxBytes: number, timeoutMs: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (Date.now() > deadline) {
      await reader.cancel();
      throw new FetchError(url, `body not received within ${timeoutMs} ms`);
    }
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      // The attempt's AbortSignal fired while the body was still coming (or the connection broke).
      const timedOut = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
      throw new FetchError(url, timedOut ? `body not received within ${timeoutMs} ms` : `network error while reading the body: ${(error as Error).message}`);
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new FetchError(url, `document is more than the limit of ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}
