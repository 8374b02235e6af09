// The errors a call rejects with (re-exported by `runtime.ts`): an ApiError for a non-2xx answer, and its
// subclasses for a timeout, a network failure and a response that does not match its schema.
import type { ApiErrorInit, ErrorDetail } from './types.js';

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
