// Building responses: JSON with the right status, the error envelope, and no body for 204.
import type { ApiFailure } from '../errors.js';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  if (status === 204 || status === 304) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function failure(error: ApiFailure, requestId: string): Response {
  return json(error.status, error.body(), { 'x-request-id': requestId });
}
