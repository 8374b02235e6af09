// The public types of the client runtime (re-exported by `runtime.ts`): options, the configuration, what an
// operation descriptor carries, paging and error shapes.
import type { ApiErrorCode } from './error-codes.js';

/**
 * Codes the client itself gives: `UNKNOWN` (an error answer without the API's envelope, or with a code the spec
 * does not list; the body keeps what came), `INVALID_RESPONSE` (a 2xx body that is not the JSON it claims),
 * `RESPONSE_VALIDATION`, `NETWORK_ERROR`, `TIMEOUT`.
 */
export type ClientErrorCode = 'UNKNOWN' | 'INVALID_RESPONSE' | 'RESPONSE_VALIDATION' | 'NETWORK_ERROR' | 'TIMEOUT';

/** What `ApiError.code` can be: the API's error codes and the client's own. */
export type ErrorCode = ApiErrorCode | ClientErrorCode;

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

/**
 * A secret: the value itself, or a function returning it (sync or async), called once per call, before the
 * first attempt, so a short-lived token can be refreshed between calls.
 */
export type Credential = string | (() => string | Promise<string>);

/** HTTP basic credentials. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/** The credential options, one per kind of security scheme (see `ClientOptions`). */
export interface CredentialOptions {
  /** For `apiKey` schemes (header, query or cookie, wherever the scheme says). */
  apiKey?: Credential;
  /** For HTTP `bearer`, `oauth2` and `openIdConnect` schemes: sent as `Authorization: Bearer <token>`. */
  bearerToken?: Credential;
  /** For HTTP `basic` schemes: sent as `Authorization: Basic base64(username:password)`. */
  basic?: BasicCredentials;
}

/** The name of a credential option. */
export type CredentialName = keyof CredentialOptions;

/** Options of `createClient` / `createConfig`. */
export interface ClientOptions extends CredentialOptions {
  /** Base URL the operation paths are appended to, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
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

/**
 * The resolved configuration every operation function takes. The credentials are non-enumerable so logging a
 * config does not print them.
 */
export interface ClientConfig {
  readonly baseUrl: string;
  readonly apiKey?: Credential | undefined;
  readonly bearerToken?: Credential | undefined;
  readonly basic?: BasicCredentials | undefined;
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

/**
 * One security scheme an operation requires, as the runtime applies it: an API key placed where the scheme
 * says; a bearer token (HTTP bearer, OAuth2, OpenID Connect); HTTP basic.
 */
export type AuthSpec =
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string }
  | { readonly type: 'bearer' }
  | { readonly type: 'basic' };

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
  /**
   * The operation's security alternatives in spec order, each a list of schemes that must all be satisfied
   * (`[]`: no security; an empty alternative: authentication optional). The first alternative whose
   * credentials the client has is used.
   */
  readonly auth: readonly (readonly AuthSpec[])[];
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
  code: ErrorCode;
  details?: ErrorDetail[];
  requestId?: string | undefined;
  body?: unknown;
  operationId?: string | undefined;
  /** The underlying error (a network failure's fetch error). */
  cause?: unknown;
}
