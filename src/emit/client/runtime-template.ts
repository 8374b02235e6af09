// Runtime of the generated API client: its public module, with the call itself (configuration, one request with
// retries and deadline, pagination). It is emitted verbatim as `client/runtime.ts`, and the modules of `runtime/`
// beside it, one concern each, as `client/runtime/*.ts` (types, errors, own properties, request building, retries
// and deadline, responses). None holds spec-derived content (everything about an operation arrives as an `OperationSpec` value built by the
// generated `operations.ts`). It is a real TypeScript module of the generator so that it is type-checked and
// tested like the rest of the code. Rules it keeps:
// - zero dependencies: platform `fetch`, `Request`, `Headers`, `AbortController`, `URLSearchParams`, `FormData`;
// - every export carries explicit types (`isolatedDeclarations`), because the writer emits `.d.ts` per file;
// - no credential reaches an error, a message or a log line: errors carry no config, every text echoed from a
//   response is passed through `redact` first, and URLs in messages hide the values of credential query parameters;
// - properties named by the spec are read with `ownValue`, so names like `constructor` or `__proto__` never
//   resolve to `Object.prototype` members.
import type { CallInput, CallOptions, ClientConfig, ClientOptions, CredentialName, FetchLike, OperationSpec, PagingSpec } from './runtime/types.js';
import { ApiError, TimeoutError } from './runtime/errors.js';
import { authQueryNames, checkCredentialOptions, chooseAuth, resolveCredentials, secretsOf } from './runtime/auth.js';
import { buildHeaders, buildUrl, encodeBody, type CallAuth } from './runtime/build.js';
import { displayUrl, networkError } from './runtime/network.js';
import { ownValue } from './runtime/own.js';
import { backoff, createDeadline, discard, raceAbort, resolveRetry, retryAfterMs, shouldRetryStatus } from './runtime/retry.js';
import { errorFromResponse, readSuccess, redactor } from './runtime/responses.js';

export type { FetchLike, RetryOptions, ClientOptions, ClientConfig, CallOptions, ErrorDetail, ValidationResult, ResponseValidator, ParamSpec, AuthSpec, ResponseSpec, OperationSpec, CallInput, PagingSpec, PageItem, ApiErrorInit, Credential, BasicCredentials, CredentialOptions, CredentialName, ErrorCode, ClientErrorCode } from './runtime/types.js';
export type { ApiErrorCode } from './runtime/error-codes.js';
export type { NetworkFailure, NetworkErrorInit } from './runtime/errors.js';
export { ApiError, TimeoutError, NetworkError, ResponseValidationError } from './runtime/errors.js';

/**
 * Resolve client options into the config the operation functions take. `accepted` names the credential options
 * the API's security schemes use (the generated `createClient` passes them); any other credential given is
 * refused with a TypeError rather than silently not sent.
 */
export function createConfig(options: ClientOptions, accepted?: readonly CredentialName[]): ClientConfig {
  checkCredentialOptions(options, accepted);
  const platformFetch: FetchLike = (request) => globalThis.fetch(request);
  const config = {
    baseUrl: options.baseUrl,
    workspaceId: options.workspaceId,
    fetch: options.fetch ?? platformFetch,
    timeoutMs: options.timeoutMs,
    retry: options.retry ?? {},
    validateResponses: options.validateResponses ?? false,
    headers: { ...options.headers },
  };
  // Non-enumerable: JSON.stringify, util.inspect and console.log of the config (or of `client.raw`) skip them.
  Object.defineProperty(config, 'apiKey', { value: options.apiKey, enumerable: false });
  Object.defineProperty(config, 'bearerToken', { value: options.bearerToken, enumerable: false });
  Object.defineProperty(config, 'basic', { value: options.basic, enumerable: false });
  return Object.freeze(config) as ClientConfig;
}

/** Perform one operation call: build, send (with retries and deadline), check and decode the answer. */
export async function request(config: ClientConfig, op: OperationSpec, input: CallInput): Promise<unknown> {
  const options = input.options ?? {};
  const credentials = await resolveCredentials(config);
  const auth: CallAuth = { schemes: chooseAuth(op.auth, credentials), credentials };
  const redact = redactor(secretsOf(credentials));
  let url: string;
  let headers: Headers;
  let body: RequestInit['body'];
  try {
    url = buildUrl(config, op, input.pathValues, options.query, auth);
    new URL(url); // An unusable base URL is a usage error, not a network error to retry.
    headers = buildHeaders(config, op, options, auth);
    body = encodeBody(op.requestMediaType, input.body, headers);
  } catch (error) {
    // Platform errors (invalid header value, ...) may quote the offending value: it could be the key.
    throw new TypeError(redact(error instanceof Error ? error.message : String(error)));
  }
  const retry = resolveRetry(config.retry, options.retry);
  const deadline = createDeadline(options.signal, options.timeoutMs ?? config.timeoutMs, op.id);
  try {
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        const req = new Request(url, { method: op.method, headers, body: body ?? null, signal: deadline.signal });
        response = await raceAbort(config.fetch(req), deadline.signal);
      } catch (error) {
        if (deadline.signal.aborted) throw error;
        if (attempt < retry.attempts && retry.methods.includes(op.method)) {
          await raceAbort(retry.sleep(backoff(retry, attempt), deadline.signal), deadline.signal);
          continue;
        }
        throw networkError(error, op.method, displayUrl(url, authQueryNames(auth.schemes)), op.id, redact);
      }
      // Reading the body is raced against the deadline too: a stalled body must not outlive timeoutMs.
      if (response.ok) return await raceAbort(readSuccess(config, op, response, redact), deadline.signal);
      if (attempt < retry.attempts && shouldRetryStatus(retry, op.method, response.status)) {
        const delay = retryAfterMs(response.headers.get('retry-after'), retry.maxDelayMs) ?? backoff(retry, attempt);
        discard(response);
        await raceAbort(retry.sleep(delay, deadline.signal), deadline.signal);
        continue;
      }
      throw await raceAbort(errorFromResponse(op, response, redact), deadline.signal);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (deadline.timedOut()) {
      throw new TimeoutError({ message: `Request timed out after ${deadline.timeoutMs} ms`, status: 0, code: 'TIMEOUT', operationId: op.id });
    }
    // The caller's own signal: reject with its reason, as fetch does.
    if (options.signal?.aborted) throw options.signal.reason;
    throw error;
  } finally {
    deadline.dispose();
  }
}

/**
 * Iterate the items of every page of a paginated operation, following the next-page token until the
 * server stops returning one. `fetchPage` calls the operation with the given options.
 */
export async function* paginate<Item, O extends CallOptions<unknown, unknown>>(
  options: O | undefined,
  paging: PagingSpec,
  fetchPage: (options: O) => Promise<unknown>,
): AsyncGenerator<Item, void, undefined> {
  let query: Record<string, unknown> = { ...(options?.query as Record<string, unknown> | undefined) };
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage({ ...options, query } as O);
    const items = ownValue(page, paging.items);
    if (Array.isArray(items)) for (const item of items) yield item as Item;
    const next = ownValue(page, paging.nextPageToken);
    if (typeof next !== 'string' || next === '') return;
    // A server that hands out the same token twice would otherwise make this loop forever.
    if (seen.has(next)) throw new Error(`pagination: the server returned the same ${paging.nextPageToken} twice`);
    seen.add(next);
    query = { ...query, [paging.pageToken]: next };
  }
}
