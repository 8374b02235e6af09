// The errors a call rejects with (re-exported by `runtime.ts`): an ApiError for a non-2xx answer, and its
// subclasses for a timeout, a network failure and a response that does not match its schema.
import type { ApiErrorInit, ErrorCode, ErrorDetail } from './types.js';

/** A failed call: a non-2xx answer, or (subclasses) a timeout, a network error, an invalid response. */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  /** HTTP status; 0 when no response was received. */
  readonly status: number;
  /** The API's error code (`NOT_FOUND`, ...), or one of the client's own (`ClientErrorCode`). */
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  /** `x-request-id` of the response, for support requests. */
  readonly requestId: string | undefined;
  /** The parsed response body (JSON) or its text, with the credentials redacted. */
  readonly body: unknown;
  readonly operationId: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
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

/**
 * Why no response came: the connection was refused, the host name did not resolve, connecting or reading timed
 * out, the connection was reset, the request was aborted (by a signal other than the call's own), or another
 * failure (`cause` has it).
 */
export type NetworkFailure = 'refused' | 'dns' | 'timeout' | 'reset' | 'abort' | 'other';

/** What a NetworkError is made from. */
export interface NetworkErrorInit {
  method: string;
  /** The request URL with the values of query parameters that carry credentials hidden. */
  url: string;
  failure: NetworkFailure;
  cause: unknown;
  operationId: string;
  message: string;
}

/** No response was received (connection refused, reset, DNS, ...), after the allowed retries. `cause` is the fetch error. */
export class NetworkError extends ApiError {
  override readonly name: string = 'NetworkError';
  readonly method: string;
  /** The request URL, without credential values. */
  readonly url: string;
  readonly failure: NetworkFailure;

  constructor(init: NetworkErrorInit) {
    super({ message: init.message, status: 0, code: 'NETWORK_ERROR', operationId: init.operationId, cause: init.cause });
    this.method = init.method;
    this.url = init.url;
    this.failure = init.failure;
  }
}

/** A 2xx body did not match the response schema (only with `validateResponses: true`). */
export class ResponseValidationError extends ApiError {
  override readonly name: string = 'ResponseValidationError';
}
