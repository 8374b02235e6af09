// A fetch that produced no response, made into a NetworkError that says what was asked (method and URL, with the
// values of credential query parameters hidden) and why it failed (refused, DNS, timeout, reset, abort), with the
// fetch error attached as `cause`.
import { NetworkError, type NetworkFailure } from './errors.js';
import type { Redact } from './responses.js';

const FAILURE_TEXT: Readonly<Record<NetworkFailure, string>> = {
  refused: 'connection refused',
  dns: 'host name not resolved',
  timeout: 'connection timed out',
  reset: 'connection reset',
  abort: 'request aborted',
  other: 'request failed',
};

function errorCode(error: unknown): string | undefined {
  // Node's fetch (undici) wraps the system error: `TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })`,
  // sometimes one level deeper (an AggregateError of both address families).
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const nested = (current as { errors?: unknown }).errors;
    if (Array.isArray(nested) && nested.length > 0) {
      const inner = errorCode(nested[0]);
      if (inner !== undefined) return inner;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Which kind of failure a fetch error is, from the system error code or the error's name. */
export function classifyFailure(error: unknown): { failure: NetworkFailure; code: string | undefined } {
  const code = errorCode(error);
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError') return { failure: 'abort', code };
  switch (code) {
    case 'ECONNREFUSED':
      return { failure: 'refused', code };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return { failure: 'dns', code };
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return { failure: 'timeout', code };
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return { failure: 'reset', code };
    default:
      return { failure: name === 'TimeoutError' ? 'timeout' : 'other', code };
  }
}

/** The URL as shown in a message: the values of the named query parameters (credentials) replaced. */
export function displayUrl(url: string, hiddenQueryNames: readonly string[]): string {
  if (hiddenQueryNames.length === 0) return url;
  const at = url.indexOf('?');
  if (at < 0) return url;
  const hidden = new Set(hiddenQueryNames.map((name) => encodeURIComponent(name)));
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq >= 0 && hidden.has(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=[REDACTED]` : pair;
    });
  return `${url.slice(0, at)}?${query.join('&')}`;
}

/**
 * The fetch error as `cause`: itself when no credential appears in its chain's messages and stacks, else a copy
 * (name, message, code, stack and cause, each redacted), so inspecting the error never shows a secret.
 */
function safeCause(error: unknown, redact: Redact, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 4) return typeof error === 'string' ? redact(error) : error;
  const texts = (e: unknown, d: number): string[] =>
    e instanceof Error && d <= 4 ? [e.message, e.stack ?? '', ...texts((e as { cause?: unknown }).cause, d + 1)] : typeof e === 'string' ? [e] : [];
  if (texts(error, depth).every((text) => redact(text) === text)) return error;
  const copy = new Error(redact(error.message), { cause: safeCause((error as { cause?: unknown }).cause, redact, depth + 1) });
  copy.name = error.name;
  copy.stack = redact(error.stack ?? '');
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.defineProperty(copy, 'code', { value: code, enumerable: true });
  return copy;
}

export function networkError(error: unknown, method: string, url: string, operationId: string, redact: Redact): NetworkError {
  const { failure, code } = classifyFailure(error);
  const reason = error instanceof Error ? error.message : String(error);
  const message = redact(`${method} ${url}: ${FAILURE_TEXT[failure]}${code === undefined ? '' : ` (${code})`}: ${reason}`);
  return new NetworkError({ message, method, url: redact(url), failure, cause: safeCause(error, redact), operationId });
}
