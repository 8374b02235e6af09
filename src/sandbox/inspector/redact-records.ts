// Records as the inspector shows them: as the API presents them, with the secrets an agent's configuration holds
// hidden (issue 25): every property whose name says it is a secret (authorization_header, tokens, keys: events.ts
// `redact`) and every value of metadata.custom_headers (a JSON object text, or an object), whatever the header's
// name, since a header is where an agent's credential usually sits.
import type { Json } from '../storage/store.js';
import { isJsonObject } from '../storage/store.js';
import { REDACTED, redact } from './events.js';

function hideHeaderValues(headers: unknown): unknown {
  if (typeof headers === 'string') {
    try {
      const parsed: unknown = JSON.parse(headers);
      if (isJsonObject(parsed)) return JSON.stringify(hideHeaderValues(parsed));
    } catch {
      // Not JSON: nothing the sandbox would send as headers; hidden whole all the same.
    }
    return REDACTED;
  }
  if (!isJsonObject(headers)) return headers;
  const out: Json = {};
  for (const name of Object.keys(headers)) Object.defineProperty(out, name, { value: REDACTED, enumerable: true, writable: true, configurable: true });
  return out;
}

/** A copy of a presented record (or version) with its secrets hidden. */
export function redactRecord(data: Json): Json {
  const copy = redact(data) as Json;
  if (isJsonObject(copy.metadata) && copy.metadata.custom_headers !== undefined) copy.metadata.custom_headers = hideHeaderValues(copy.metadata.custom_headers);
  return copy;
}
