// The credential a request carries (issue 27: specs authenticate with any scheme). Each place of a route's
// `credentials` is read as its scheme says: an apiKey scheme's header, query parameter or cookie holds the key
// itself; a bearer place holds `Bearer <key>` in Authorization, a basic place `Basic base64(<user>:<key>)` (the
// password is the key; with an empty password, the user name is). A value in another form (a bare key in
// Authorization) is no credential there, as a real deployment would refuse it. The sandbox's keys are the same
// records whatever the scheme, so the development key works in any place, as a bearer token and as a password.
import type { CredentialPlace } from '../../contracts/route-table.js';
import type { SandboxRequest } from '../http/exchange.js';

/** The key a header value holds at a header place of `scheme`; null when the value is not in that scheme's form. */
export function credentialOf(scheme: CredentialPlace['scheme'], value: string | null): string | null {
  if (value === null || scheme === 'key') return value;
  if (scheme === 'bearer') return /^bearer\s+(.+)$/i.exec(value.trim())?.[1]!.trim() ?? null;
  const basic = /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(value.trim());
  if (!basic) return null;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return decoded;
  const password = decoded.slice(colon + 1);
  return password !== '' ? password : decoded.slice(0, colon);
}

/** The value of cookie `name` in a Cookie header (`a=1; b=2`), percent-decoded; null when absent. */
export function cookieValue(header: string | null, name: string): string | null {
  if (header === null) return null;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    const raw = pair.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/**
 * The key of the first place of `places` the request fills; null when none is. A request that fills a place in
 * another scheme's form (a bare key in Authorization) gives `''` (401, naming the form the scheme takes).
 */
export function requestCredential(places: readonly CredentialPlace[], request: SandboxRequest): string | null {
  for (const place of places) {
    const value =
      place.in === 'query' ? request.url.searchParams.get(place.name) : place.in === 'cookie' ? cookieValue(request.headers.get('cookie'), place.name) : credentialOf(place.scheme, request.headers.get(place.name));
    if (value !== null && value !== '') return value;
  }
  return places.some((p) => p.in === 'header' && p.scheme !== 'key' && (request.headers.get(p.name) ?? '') !== '') ? '' : null;
}
