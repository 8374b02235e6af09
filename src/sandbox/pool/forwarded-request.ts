// A worker's view of a forwarded request: the engine's SandboxRequest over the parts the listener sent (the body
// was read whole by the listener, up to the same limit the in-thread listener applies).
import type { SandboxRequest } from '../http/exchange.js';
import type { ForwardedRequest } from './messages.js';

export function fromForwarded(message: ForwardedRequest): SandboxRequest {
  const headers = message.headers;
  const body = Promise.resolve(message.body);
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
