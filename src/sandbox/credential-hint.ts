// How to send the development key, for the start line (issue 27: the sandbox takes its key in whatever place and
// scheme the spec's operations name: an apiKey header, query parameter or cookie, or Authorization as a bearer
// token or a basic password).
import type { CredentialPlace } from '../contracts/route-table.js';
import type { Route } from './engine/tables.js';

function howToSend(place: CredentialPlace, key: string): string {
  if (place.scheme === 'bearer') return `Authorization: Bearer ${key}`;
  if (place.scheme === 'basic') return `Authorization: Basic base64(<any user>:${key})`;
  if (place.in === 'query') return `?${place.name}=${key}`;
  if (place.in === 'cookie') return `Cookie: ${place.name}=${key}`;
  return `${place.name}: ${key}`;
}

export function credentialHint(routes: readonly Route[], key: string): string {
  const hints = [...new Set(routes.flatMap((r) => r.credentials.map((place) => howToSend(place, key))))];
  if (hints.length === 0) return 'no operation asks for a credential';
  return hints.join('   or   ');
}
