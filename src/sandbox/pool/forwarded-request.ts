// A worker's view of a forwarded request: the engine's SandboxRequest over the parts the listener sent (the body
// was read whole by the listener, up to the same limit the in-thread listener applies, and crossed IPC as base64).
import type { SandboxRequest } from '../http/exchange.js';
import type { ForwardedRequest } from './messages.js';

/** A body as the listener forwards it: base64 text (the IPC channel carries JSON), null when over the limit. */
export function forwardedBody(bytes: Uint8Array | null): string | null {
  return bytes === null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function fromForwarded(message: ForwardedRequest): SandboxRequest {
  const headers = message.headers;
  const bytes = message.body === null ? null : Buffer.from(message.body, 'base64');
  const body = Promise.resolve(bytes === null ? null : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return {
    method: message.method,
    url: new URL(message.url),
    headers: {
      get(name) {
        const value = headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
    bytes: () => body,
  };
}
