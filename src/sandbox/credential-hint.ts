// How to send the development key, for the start line (issue 27: the sandbox takes its key in whatever scheme the
// spec's operations name: an API-key header, or Authorization as a bearer token or basic password).
import type { Route } from './engine/tables.js';

export function credentialHint(routes: readonly Route[], key: string): string {
  const headers = [...new Set(routes.flatMap((r) => r.auth))];
  if (headers.length === 0) return 'no operation asks for a credential';
  return headers.map((h) => (h.toLowerCase() === 'authorization' ? `Authorization: Bearer ${key}  (or Basic, with the key as the password)` : `${h}: ${key}`)).join('   or   ');
}
