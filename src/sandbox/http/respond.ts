// Building responses: JSON with the right status, the error envelope, and no body for 204.
import type { ApiFailure } from '../errors.js';
import type { SandboxResponse } from './exchange.js';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): SandboxResponse {
  if (status === 204) return { status, headers, body: null };
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function failure(error: ApiFailure, requestId: string): SandboxResponse {
  return json(error.status, error.body(), { 'x-request-id': requestId });
}
