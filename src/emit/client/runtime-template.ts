// Runtime of the generated API client. This file is emitted verbatim as `client/runtime.ts`: it holds no
// spec-derived content (everything about an operation arrives as an `OperationSpec` value built by the
// generated `operations.ts`). It is a real TypeScript module of the generator so that it is type-checked and
// tested like the rest of the code. Rules it keeps:
// - zero dependencies: platform `fetch`, `Request`, `Headers`, `AbortController`, `URLSearchParams`, `FormData`;
// - every export carries explicit types (`isolatedDeclarations`), because the writer emits `.d.ts` per file;
// - the API key never reaches an error, a message or a log line: errors carry no config, and every text
//   echoed from a response is passed through `redact` first;
// - properties named by the spec are read with `ownValue`, so names like `constructor` or `__proto__` never
//   resolve to `Object.prototype` members.

/** A fetch-compatible function; an in-process handler `(Request) => Promise<Response>` works as well. */
export type FetchLike = (request: Request) => Promise<Response>;

/** Retry policy. Defaults: 3 attempts, 200 ms base, 5 s cap, idempotent methods, 408/429/500/502/503/504. */
export interface RetryOptions {
  /** Attempts in all, the first included (1 = no retry). */
  attempts?: number;
  /** Delay before the first retry; doubles each retry (with 50-100% jitter). */
  baseDelayMs?: number;
  /** Upper bound of any delay, `Retry-After` included. */
  maxDelayMs?: number;
  /** Response statuses that are retried. */
  statuses?: readonly number[];
  /** HTTP methods (upper case) that are retried on those statuses and on network errors. */
  methods?: readonly string[];
  /** Also retry other methods (POST, PATCH) on 503, which the API answers when it did not process the request. */
  retryNonIdempotentOn503?: boolean;
  /** Sleep between attempts; injectable so tests do not wait. Must reject (or return) when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Random source in [0, 1) for jitter; injectable for deterministic tests. */
  random?: () => number;
}

/** Options of `createClient` / `createConfig`. */
export interface ClientOptions {
  /** Base URL the operation paths are appended to, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  /** API key, sent on every operation whose security requires an API key scheme. */
  apiKey?: string;
  /** Default workspace, sent in the workspace header (a call's `workspaceId` overrides it). */
  workspaceId?: string;
  /** Fetch implementation (default: the platform `fetch`). */
  fetch?: FetchLike;
  /** Deadline of a whole call, retries and waits included. */
  timeoutMs?: number;
  /** Retry policy, or `false` for none. */
  retry?: RetryOptions | false;
  /** Check every 2xx body against the response schema of its status; a mismatch throws ResponseValidationError. */
  validateResponses?: boolean;
  /** Extra headers sent on every request. */
  headers?: Record<string, string>;
}

/** The resolved configuration every operation function takes. `apiKey` is non-enumerable so logging a config does not print it. */
export interface ClientConfig {
  readonly baseUrl: string;
  readonly apiKey?: string | undefined;
  readonly workspaceId?: string | undefined;
  readonly fetch: FetchLike;
  readonly timeoutMs?: number | undefined;
  readonly retry: RetryOptions | false;
  readonly validateResponses: boolean;
  readonly headers: Readonly<Record<string, string>>;
}

/** Per-call options. `Q` and `H` are the operation's query and header parameter types (wire names as keys). */
export interface CallOptions<Q = never, H = never> {
  query?: Q;
  headers?: H;
  /** Headers the operation does not declare (tracing, idempotency keys, ...). */
  extraHeaders?: Record<string, string>;
  /** Workspace for this call; overrides the client's `workspaceId`. */
  workspaceId?: string;
  signal?: AbortSignal;
  /** Deadline of this call; overrides the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Retry policy of this call, merged over the client's; `false` for none. */
  retry?: RetryOptions | false;
  /** `Accept` header, for operations that answer several media types (e.g. `application/json`). */
  accept?: string;
}

/** One entry of the API's error `details` (and of response validation errors). */
export interface ErrorDetail {
  field: string | null;
  description: string;
}

/** What a response validator answers. */
export type ValidationResult = { ok: true } | { ok: false; errors: readonly ErrorDetail[] };

export interface ResponseValidator {
  validate(value: unknown): ValidationResult;
}

/** How one query or header parameter is serialised (OpenAPI `style` / `explode`). */
export interface ParamSpec {
  readonly name: string;
  readonly style: string;
  readonly explode: boolean;
}

/** Where the API key goes for an operation (one entry per apiKey scheme the operation requires). */
export interface AuthSpec {
  readonly in: 'header' | 'query' | 'cookie';
  readonly name: string;
}

export interface ResponseSpec {
  readonly validator?: ResponseValidator;
  /** Every media type of this response is JSON: a non-JSON body is validated (and fails) too. */
  readonly jsonOnly: boolean;
}

/** Everything the runtime needs to know about an operation; built by the generated `operations.ts`. */
export interface OperationSpec {
  readonly id: string;
  /** Upper-case HTTP method. */
  readonly method: string;
  /** Literal pieces of the path, already URL-safe; the path parameters go between them. */
  readonly path: readonly string[];
  /** Wire names of the path parameters, in path order. */
  readonly pathParams: readonly string[];
  readonly query: readonly ParamSpec[];
  readonly headers: readonly ParamSpec[];
  readonly auth: readonly AuthSpec[];
  /** Name of the workspace header, when the API has one. */
  readonly workspaceHeader?: string;
  /** Send the client's default workspace on this operation (a call's `workspaceId` is always sent). */
  readonly workspaceDefault?: boolean;
  /** First media type of the request body. */
  readonly requestMediaType?: string;
  /** Default `Accept` header. */
  readonly accept?: string;
  /** 2xx responses by status (`200`, `2XX`, `default`). */
  readonly responses: Readonly<Record<string, ResponseSpec>>;
}

export interface CallInput {
  readonly pathValues: readonly unknown[];
  readonly body?: unknown;
  readonly options?: CallOptions<unknown, unknown> | undefined;
}

export interface PagingSpec {
  readonly items: string;
  readonly pageToken: string;
  readonly nextPageToken: string;
}

/** Element type of the list property `K` of the response type `R`. */
export type PageItem<R, K extends string> = R extends { readonly [P in K]?: infer A }
  ? NonNullable<A> extends readonly (infer I)[]
    ? I
    : never
  : never;

export interface ApiErrorInit {
  message: string;
  status: number;
  code: string;
  details?: ErrorDetail[];
  requestId?: string | undefined;
  body?: unknown;
  operationId?: string | undefined;
}

/** A failed call: a non-2xx answer, or (subclasses) a timeout, a network error, an invalid response. */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  /** HTTP status; 0 when no response was received. */
  readonly status: number;
  /** The API's error code (`NOT_FOUND`, ...), `UNKNOWN` when the body was not the error envelope. */
  readonly code: string;
  readonly details: ErrorDetail[];
  /** `x-request-id` of the response, for support requests. */
  readonly requestId: string | undefined;
  /** The parsed response body (JSON) or its text, with the API key redacted. */
  readonly body: unknown;
  readonly operationId: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.requestId = init.requestId;
    this.body = init.body;
    this.operationId = init.operationId;
  }
}

/** The call's deadline (`timeoutMs`) passed. */
export class TimeoutError extends ApiError {
  override readonly name: string = 'TimeoutError';
}

/** No response was received (connection refused, reset, DNS, ...), after the allowed retries. */
export class NetworkError extends ApiError {
  override readonly name: string = 'NetworkError';
}

/** A 2xx body did not match the response schema (only with `validateResponses: true`). */
export class ResponseValidationError extends ApiError {
  override readonly name: string = 'ResponseValidationError';
}

const DEFAULT_RETRY = {
  attempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  statuses: [408, 429, 500, 502, 503, 504] as readonly number[],
  methods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'] as readonly string[],
  retryNonIdempotentOn503: false,
};

/** Resolve client options into the config the operation functions take. */
export function createConfig(options: ClientOptions): ClientConfig {
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
  // Non-enumerable: JSON.stringify, util.inspect and console.log of the config (or of `client.raw`) skip it.
  Object.defineProperty(config, 'apiKey', { value: options.apiKey, enumerable: false });
  return Object.freeze(config) as ClientConfig;
}

/** Perform one operation call: build, send (with retries and deadline), check and decode the answer. */
export async function request(config: ClientConfig, op: OperationSpec, input: CallInput): Promise<unknown> {
  const options = input.options ?? {};
  const redact = redactor(config.apiKey);
  let url: string;
  let headers: Headers;
  let body: RequestInit['body'];
  try {
    url = buildUrl(config, op, input.pathValues, options.query);
    new URL(url); // An unusable base URL is a usage error, not a network error to retry.
    headers = buildHeaders(config, op, options);
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
        const reason = error instanceof Error ? error.message : String(error);
        throw new NetworkError({ message: redact(`${op.method} request failed: ${reason}`), status: 0, code: 'NETWORK_ERROR', operationId: op.id });
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

// ---------------------------------------------------------------------------------------------------
// Request building

function ownValue(target: unknown, key: string): unknown {
  if (typeof target !== 'object' || target === null) return undefined;
  return Object.prototype.hasOwnProperty.call(target, key) ? (target as Record<string, unknown>)[key] : undefined;
}

function ownEntries(target: unknown): [string, unknown][] {
  if (typeof target !== 'object' || target === null) return [];
  return Object.keys(target).map((key) => [key, (target as Record<string, unknown>)[key]]);
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function scalar(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

function buildUrl(config: ClientConfig, op: OperationSpec, pathValues: readonly unknown[], query: unknown): string {
  let path = op.path[0] ?? '';
  op.pathParams.forEach((name, i) => {
    const value = pathValues[i];
    if (value === undefined || value === null) throw new TypeError(`${op.id}: path parameter ${name} is required`);
    const encoded = encodeURIComponent(scalar(value));
    // URL parsers resolve `.`/`..` segments (also when percent-encoded): such a value would change the path.
    if (encoded === '.' || encoded === '..') throw new TypeError(`${op.id}: path parameter ${name} must not be "." or ".."`);
    path += encoded + (op.path[i + 1] ?? '');
  });
  const parts: string[] = [];
  const declared = new Set<string>();
  for (const spec of op.query) {
    declared.add(spec.name);
    parts.push(...serializeQueryParam(spec, ownValue(query, spec.name)));
  }
  // Undeclared keys (the page token of a paginated call, forward-compatible extras): form, exploded.
  for (const [name, value] of ownEntries(query)) {
    if (!declared.has(name)) parts.push(...serializeQueryParam({ name, style: 'form', explode: true }, value));
  }
  for (const auth of op.auth) {
    if (auth.in === 'query' && config.apiKey) parts.push(`${encodeURIComponent(auth.name)}=${encodeURIComponent(config.apiKey)}`);
  }
  const base = config.baseUrl.replace(/\/+$/, '');
  return base + path + (parts.length > 0 ? `?${parts.join('&')}` : '');
}

/** One query parameter as `key=value` pairs (already encoded), per OpenAPI style/explode. */
function serializeQueryParam(spec: ParamSpec, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const key = encodeURIComponent(spec.name);
  const enc = (v: unknown): string => encodeURIComponent(scalar(v));
  if (Array.isArray(value)) {
    const items = value.filter((v) => v !== undefined && v !== null);
    if (items.length === 0) return [];
    if (spec.explode) return items.map((v) => `${key}=${enc(v)}`);
    const separator = spec.style === 'spaceDelimited' ? '%20' : spec.style === 'pipeDelimited' ? '|' : ',';
    return [`${key}=${items.map(enc).join(separator)}`];
  }
  if (isPlainObject(value)) {
    const entries = ownEntries(value).filter(([, v]) => v !== undefined && v !== null);
    if (spec.style === 'deepObject') return deepObjectPairs(key, entries);
    if (spec.explode) return entries.map(([k, v]) => `${encodeURIComponent(k)}=${enc(v)}`);
    return entries.length === 0 ? [] : [`${key}=${entries.map(([k, v]) => `${encodeURIComponent(k)},${enc(v)}`).join(',')}`];
  }
  return [`${key}=${enc(value)}`];
}

function deepObjectPairs(prefix: string, entries: [string, unknown][]): string[] {
  const out: string[] = [];
  for (const [k, v] of entries) {
    if (v === undefined || v === null) continue;
    const key = `${prefix}[${encodeURIComponent(k)}]`;
    if (Array.isArray(v)) for (const item of v) out.push(`${key}=${encodeURIComponent(scalar(item))}`);
    else if (isPlainObject(v)) out.push(...deepObjectPairs(key, ownEntries(v)));
    else out.push(`${key}=${encodeURIComponent(scalar(v))}`);
  }
  return out;
}

/** A header parameter value, OpenAPI `simple` style. */
function headerValue(spec: ParamSpec, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.filter((v) => v !== undefined && v !== null).map(scalar).join(',');
  if (isPlainObject(value)) {
    const entries = ownEntries(value).filter(([, v]) => v !== undefined && v !== null);
    return entries.map(([k, v]) => (spec.explode ? `${k}=${scalar(v)}` : `${k},${scalar(v)}`)).join(',');
  }
  return scalar(value);
}

function buildHeaders(config: ClientConfig, op: OperationSpec, options: CallOptions<unknown, unknown>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(config.headers)) headers.set(name, value);
  if (options.accept !== undefined) headers.set('Accept', options.accept);
  else if (op.accept !== undefined) headers.set('Accept', op.accept);
  const cookies: string[] = [];
  for (const auth of op.auth) {
    if (!config.apiKey) continue;
    if (auth.in === 'header') headers.set(auth.name, config.apiKey);
    else if (auth.in === 'cookie') cookies.push(`${auth.name}=${encodeURIComponent(config.apiKey)}`);
  }
  if (cookies.length > 0) headers.set('Cookie', cookies.join('; '));
  if (op.workspaceHeader !== undefined && op.workspaceDefault && config.workspaceId !== undefined) {
    headers.set(op.workspaceHeader, config.workspaceId);
  }
  const declared = new Set<string>();
  for (const spec of op.headers) {
    declared.add(spec.name);
    const value = headerValue(spec, ownValue(options.headers, spec.name));
    if (value !== undefined) headers.set(spec.name, value);
  }
  for (const [name, value] of ownEntries(options.headers)) {
    const text = declared.has(name) ? undefined : headerValue({ name, style: 'simple', explode: false }, value);
    if (text !== undefined) headers.set(name, text);
  }
  for (const [name, value] of Object.entries(options.extraHeaders ?? {})) headers.set(name, value);
  if (op.workspaceHeader !== undefined && options.workspaceId !== undefined) headers.set(op.workspaceHeader, options.workspaceId);
  return headers;
}

function mediaEssence(mediaType: string | null | undefined): string {
  return (mediaType ?? '').split(';')[0]!.trim().toLowerCase();
}

function isJsonMedia(essence: string): boolean {
  return essence === 'application/json' || essence.endsWith('+json');
}

function isBinaryMedia(essence: string): boolean {
  return (
    essence === 'application/octet-stream' ||
    essence === 'application/pdf' ||
    essence === 'application/zip' ||
    /^(audio|image|video)\//.test(essence)
  );
}

/** Encode the body for the operation's (first) request media type; sets Content-Type unless already set. */
function encodeBody(mediaType: string | undefined, body: unknown, headers: Headers): RequestInit['body'] {
  if (body === undefined) return undefined;
  const setType = (type: string): void => {
    if (!headers.has('content-type')) headers.set('Content-Type', type);
  };
  const declared = mediaType ?? 'application/json';
  const essence = mediaEssence(declared);
  // Already-encoded bodies pass through; FormData must not get a Content-Type (fetch adds the boundary).
  if (body instanceof FormData) return body;
  if (body instanceof URLSearchParams) {
    setType('application/x-www-form-urlencoded');
    return body;
  }
  if (body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    if (!essence.includes('*') && !essence.startsWith('multipart/')) setType(declared);
    return body as RequestInit['body'];
  }
  if (essence === 'application/x-www-form-urlencoded') {
    setType(declared);
    const params = new URLSearchParams();
    for (const [key, value] of ownEntries(body)) appendAll(value, (v) => params.append(key, scalar(v)));
    return params.toString();
  }
  if (essence.startsWith('multipart/')) {
    const form = new FormData();
    for (const [key, value] of ownEntries(body)) {
      appendAll(value, (v) => (v instanceof Blob ? form.append(key, v) : form.append(key, scalar(v))));
    }
    return form;
  }
  if (typeof body === 'string' && !isJsonMedia(essence)) {
    setType(essence.includes('*') ? 'text/plain' : declared);
    return body;
  }
  setType(isJsonMedia(essence) ? declared : 'application/json');
  return JSON.stringify(body);
}

function appendAll(value: unknown, append: (v: unknown) => void): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) for (const v of value) appendAll(v, append);
  else append(value);
}

// ---------------------------------------------------------------------------------------------------
// Retries and deadline

interface ResolvedRetry {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  statuses: readonly number[];
  methods: readonly string[];
  retryNonIdempotentOn503: boolean;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
}

function resolveRetry(client: RetryOptions | false, call: RetryOptions | false | undefined): ResolvedRetry {
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

function shouldRetryStatus(retry: ResolvedRetry, method: string, status: number): boolean {
  if (!retry.statuses.includes(status)) return false;
  if (retry.methods.includes(method)) return true;
  // A 503 means the request was not processed, so repeating a POST is safe when the caller opts in.
  return status === 503 && retry.retryNonIdempotentOn503;
}

/** Exponential backoff for the retry after failed attempt `attempt` (1-based), capped, with 50-100% jitter. */
function backoff(retry: ResolvedRetry, attempt: number): number {
  const exponential = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential * (0.5 + 0.5 * retry.random()));
}

/** `Retry-After` as milliseconds (delta seconds or HTTP date), capped; undefined when absent or unreadable. */
function retryAfterMs(header: string | null, maxDelayMs: number): number | undefined {
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

interface Deadline {
  signal: AbortSignal;
  timeoutMs: number | undefined;
  timedOut(): boolean;
  dispose(): void;
}

/** One signal for the whole call: aborted by the caller's signal or when `timeoutMs` passes. */
function createDeadline(user: AbortSignal | undefined, timeoutMs: number | undefined, operationId: string): Deadline {
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
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
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
function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

// ---------------------------------------------------------------------------------------------------
// Responses and errors

type Redact = (text: string) => string;

/** Replaces the API key (raw and URL-encoded) in any text echoed back to the caller. */
function redactor(apiKey: string | undefined): Redact {
  const secrets = apiKey ? [...new Set([apiKey, encodeURIComponent(apiKey)])].sort((a, b) => b.length - a.length) : [];
  return (text) => secrets.reduce((out, secret) => out.split(secret).join('[REDACTED]'), text);
}

function redactValue(value: unknown, redact: Redact, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of ownEntries(value)) {
    Object.defineProperty(out, redact(k), { value: redactValue(v, redact, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

async function readSuccess(config: ClientConfig, op: OperationSpec, response: Response, redact: Redact): Promise<unknown> {
  const status = response.status;
  let value: unknown;
  let parsedJson = false;
  const essence = mediaEssence(response.headers.get('content-type'));
  if (op.method === 'HEAD' || status === 204 || status === 205) value = undefined;
  else if (isBinaryMedia(essence)) value = await response.blob();
  else {
    const text = await response.text();
    if (text === '') value = undefined;
    else if (isJsonMedia(essence)) {
      try {
        value = JSON.parse(text);
        parsedJson = true;
      } catch {
        throw new ApiError({
          message: redact(`HTTP ${status}: response is not valid JSON: ${snippet(text, redact)}`),
          status,
          code: 'INVALID_RESPONSE',
          requestId: response.headers.get('x-request-id') ?? undefined,
          body: redact(text),
          operationId: op.id,
        });
      }
    } else value = text;
  }
  if (config.validateResponses) {
    const spec = ownValue(op.responses, String(status)) ?? ownValue(op.responses, `${String(status)[0]}XX`) ?? ownValue(op.responses, 'default');
    const validator = (spec as ResponseSpec | undefined)?.validator;
    if (validator !== undefined && (parsedJson || (spec as ResponseSpec).jsonOnly)) {
      const result = validator.validate(value);
      if (!result.ok) {
        const details = result.errors.map((e) => ({ field: e.field === null ? null : redact(e.field), description: redact(e.description) }));
        const first = details[0];
        throw new ResponseValidationError({
          message: `HTTP ${status}: response does not match the schema of ${op.id}` + (first ? `: ${first.field ?? '(body)'}: ${first.description}` : ''),
          status,
          code: 'RESPONSE_VALIDATION',
          details,
          requestId: response.headers.get('x-request-id') ?? undefined,
          body: redactValue(value, redact),
          operationId: op.id,
        });
      }
    }
  }
  return value;
}

/** The first 200 characters of a body, whitespace collapsed, after redaction (so a cut can't expose part of a key). */
function snippet(text: string, redact: Redact): string {
  return redact(text).replace(/\s+/g, ' ').trim().slice(0, 200);
}

function asDetails(value: unknown, redact: Redact): ErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((d): d is object => typeof d === 'object' && d !== null)
    .map((d) => {
      const field = ownValue(d, 'field');
      const description = ownValue(d, 'description');
      return {
        field: typeof field === 'string' ? redact(field) : null,
        description: typeof description === 'string' ? redact(description) : '',
      };
    });
}

/** An ApiError for a non-2xx answer: the error envelope when present, else a message from whatever came back. */
async function errorFromResponse(op: OperationSpec, response: Response, redact: Redact): Promise<ApiError> {
  const status = response.status;
  const requestId = response.headers.get('x-request-id') ?? undefined;
  let text = '';
  try {
    text = await response.text();
  } catch {
    // Body unreadable: fall through with an empty text.
  }
  let parsed: unknown;
  let isJson = false;
  if (/^\s*[[{"]/.test(text)) {
    try {
      parsed = JSON.parse(text);
      isJson = true;
    } catch {
      // Not JSON after all (HTML, text).
    }
  }
  const body = isJson ? redactValue(parsed, redact) : text === '' ? undefined : redact(text);
  const envelope = ownValue(parsed, 'error');
  const code = ownValue(envelope, 'code');
  if (typeof code === 'string') {
    const message = ownValue(envelope, 'message');
    return new ApiError({
      message: redact(typeof message === 'string' && message !== '' ? message : `HTTP ${status} ${code}`),
      status,
      code: redact(code),
      details: asDetails(ownValue(envelope, 'details'), redact),
      requestId,
      body,
      operationId: op.id,
    });
  }
  // Not the envelope: `{ message }` (gateways), `{ error: "text" }`, HTML, plain text or nothing.
  const loose = ownValue(parsed, 'message') ?? (typeof envelope === 'string' ? envelope : undefined);
  const summary = typeof loose === 'string' ? snippet(loose, redact) : snippet(text, redact);
  const fallback = response.statusText ? `HTTP ${status} ${response.statusText}` : `HTTP ${status}`;
  return new ApiError({
    message: summary === '' ? redact(`${fallback} (empty body)`) : `HTTP ${status}: ${summary}`,
    status,
    code: 'UNKNOWN',
    requestId,
    body,
    operationId: op.id,
  });
}
