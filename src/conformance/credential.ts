// How the suite carries a key, by the scheme of the route's first credential place (issue 27): a deployment of a
// spec with a bearer scheme wants `Authorization: Bearer <key>`, one with basic wants `Basic base64(user:password)`,
// one with an apiKey in the query or a cookie wants it there. The suite's key options (`--api-key` and the others)
// are the credential as the scheme takes it: for basic, `user:password`; a key without a colon is sent as the
// password of the user `conformance` (the sandbox reads the password as its key).
import type { CredentialPlace } from '../contracts/route-table.js';

/** The value of the header that carries `key` at a header place (`Bearer <key>`, `Basic ...`, or the key). */
export function headerValue(place: CredentialPlace, key: string): string {
  if (place.scheme === 'bearer') return `Bearer ${key}`;
  if (place.scheme === 'basic') return `Basic ${Buffer.from(key.includes(':') ? key : `conformance:${key}`, 'utf8').toString('base64')}`;
  return key;
}

/** Puts `key` where `place` says: a header, a query pair appended to `path`, or a cookie. Returns the path. */
export function placeCredential(place: CredentialPlace, key: string, headers: Record<string, string>, path: string): string {
  if (place.in === 'query') return `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams({ [place.name]: key }).toString()}`;
  if (place.in === 'cookie') {
    const existing = Object.keys(headers).find((h) => h.toLowerCase() === 'cookie');
    const pair = `${place.name}=${encodeURIComponent(key)}`;
    if (existing) headers[existing] = `${headers[existing]}; ${pair}`;
    else headers.Cookie = pair;
    return path;
  }
  headers[place.name] = headerValue(place, key);
  return path;
}
