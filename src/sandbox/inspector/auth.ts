// Who is looking at the inspector. The admin token sees every organization; an API key sees its own
// organization only, and only the record families its permissions let it read through the API.
//
// Credentials, first found wins: `Authorization: Bearer <admin token or API key>`, `X-API-Key: <key>`, then the
// `inspector_token` cookie that `GET /inspector?token=...` sets (HttpOnly, SameSite=Strict, path /inspector) so a
// browser can open the printed URL once and keep working without the token in its address bar.
import { timingSafeEqual } from 'node:crypto';
import type { Runtime } from '../engine/context.js';
import { ApiFailure } from '../errors.js';
import type { HeaderReader } from '../http/exchange.js';

export const COOKIE = 'inspector_token';

export type Session = { role: 'admin'; token: string } | { role: 'key'; token: string; org: string; permissions: readonly string[] };

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookie(headers: HeaderReader, name: string): string | null {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The token a request presents, or null. */
export function presentedToken(headers: HeaderReader, queryToken: string | null = null): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '')?.[1];
  return queryToken || bearer || headers.get('x-api-key') || cookie(headers, COOKIE) || null;
}

/** The session of a token: admin, an API key's, or 401 with the API's envelope. */
export function authenticate(runtime: Runtime, adminToken: string, token: string | null): Session {
  if (token) {
    if (sameSecret(token, adminToken)) return { role: 'admin', token };
    const key = runtime.store.findKey(token);
    if (key) return { role: 'key', token, org: key.organization_id, permissions: key.permissions };
  }
  throw new ApiFailure(401, 'UNAUTHENTICATED', 'Authentication failed.', [
    { field: 'Authorization', description: token ? 'unknown admin token or API key' : 'missing admin token or API key (Authorization: Bearer, X-API-Key, or open /inspector?token=...)' },
  ]);
}

/** Whether the session may see an organization's data. */
export function seesOrganization(session: Session, org: string): boolean {
  return session.role === 'admin' || session.org === org;
}

/**
 * Whether the session may read a record family: the admin always; a key when it holds every permission of the
 * family's API read operation (its `get`, else its `list`); a family the API never reads is admin-only.
 */
export function canRead(runtime: Runtime, session: Session, kind: string): boolean {
  if (session.role === 'admin') return true;
  const routes = runtime.tables.routes.filter((r) => r.resource === kind && r.aliasOf === null);
  const read = routes.find((r) => r.action === 'get') ?? routes.find((r) => r.action === 'list');
  return read !== undefined && read.permissions.every((p) => session.permissions.includes(p));
}
