// The API's error envelope, and the one exception type every layer of the sandbox throws to answer with it.
// Anything else thrown is a bug in the sandbox: the dispatcher turns it into 500 INTERNAL without details
// (and without the message, which could carry data), so no input can crash the process.

export type ErrorCode = 'INVALID_ARGUMENT' | 'UNAUTHENTICATED' | 'PERMISSION_DENIED' | 'NOT_FOUND' | 'ALREADY_EXISTS' | 'INTERNAL';

export interface ErrorDetail {
  field: string | null;
  description: string;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'ApiFailure';
  }

  body(): { error: { code: ErrorCode; message: string; details: ErrorDetail[] } } {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

export function invalid(field: string | null, description: string, message = 'Invalid argument.'): ApiFailure {
  return new ApiFailure(400, 'INVALID_ARGUMENT', message, [{ field, description }]);
}

export function invalidAll(details: ErrorDetail[], message = 'Invalid argument.'): ApiFailure {
  return new ApiFailure(400, 'INVALID_ARGUMENT', message, details);
}

/** `field`: the header the credential is read from (any spec's scheme: issue 27); ours is X-API-Key. */
export function unauthenticated(description: string, field = 'X-API-Key'): ApiFailure {
  return new ApiFailure(401, 'UNAUTHENTICATED', 'Authentication failed.', [{ field, description }]);
}

export function permissionDenied(permission: string): ApiFailure {
  return new ApiFailure(403, 'PERMISSION_DENIED', `The API key lacks the ${permission} permission.`, [
    { field: 'permissions', description: `requires ${permission}` },
  ]);
}

/** 404 that names nothing about the resource (no id, no owner): isolation means learning nothing. */
export function notFound(field: string | null = null, what = 'resource'): ApiFailure {
  return new ApiFailure(404, 'NOT_FOUND', `The ${what} was not found.`, field === null ? [] : [{ field, description: 'not found' }]);
}

export function alreadyExists(field: string | null, description: string): ApiFailure {
  return new ApiFailure(409, 'ALREADY_EXISTS', description, [{ field, description }]);
}

export function internal(): ApiFailure {
  return new ApiFailure(500, 'INTERNAL', 'Internal error.', []);
}
