// The sandbox's own request and response: what the engine reads and writes, independent of how the request
// arrived. The real listener builds them straight from node:http (no fetch Request/Response per request,
// which cost a stream, an AbortSignal and a body copy each); `sandbox.fetch()` converts from and to the
// fetch types, for in-process use.
import { MAX_BODY_BYTES } from './limits.js';

export interface HeaderReader {
  /** The header's value (repeated headers joined with ", "), or null; names are case-insensitive. */
  get(name: string): string | null;
}

export interface SandboxRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: HeaderReader;
  /** The body bytes, or null when the body exceeds MAX_BODY_BYTES (it is drained, not kept); read once, every call answers the same. */
  bytes(): Promise<Uint8Array | null>;
}

export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  /** The body text, or null for none (204). */
  body: string | null;
  /**
   * Faults on demand (faults/answer.ts): no answer is given; the listener cuts the connection in the middle of
   * the answer's head, and `sandbox.fetch` fails as fetch does when a connection drops.
   */
  dropConnection?: boolean;
}

export function fromWebRequest(request: Request, url: URL): SandboxRequest {
  let body: Promise<Uint8Array | null> | undefined;
  return {
    method: request.method,
    url,
    headers: request.headers,
    // The caller built this body in memory already, so reading it whole costs nothing more; the limit still holds.
    // Read once and kept: a request run again (sandbox.ts, a stale cache) reads it again.
    bytes() {
      body ??= request.arrayBuffer().then((buffer) => (buffer.byteLength > MAX_BODY_BYTES ? null : new Uint8Array(buffer)));
      return body;
    },
  };
}

export function toWebResponse(response: SandboxResponse): Response {
  if (response.dropConnection) throw new TypeError('fetch failed', { cause: new Error('the sandbox dropped the connection in the middle of the answer (faults on demand)') });
  return new Response(response.body, { status: response.status, headers: response.headers });
}
