// The inspector: a web page at /inspector (outside the API's base path) and the JSON endpoints it reads under
// /inspector/api, guarded by auth.ts (admin token: every organization; API key: its own organization). Every
// error is the API's envelope. The page itself escapes everything it shows (it renders through Preact, which
// writes text nodes, never HTML).
import type { Runtime } from '../engine/context.js';
import { ApiFailure, invalid, notFound } from '../errors.js';
import type { SandboxRequest, SandboxResponse } from '../http/exchange.js';
import { checkJsonDepth } from '../http/json-depth.js';
import { json } from '../http/respond.js';
import { ulid } from '../ids.js';
import { deliveryRuntime, sendInBackground } from '../rules/events/outbound.js';
import type { Json } from '../storage/store.js';
import { asset } from './assets.js';
import { authenticate, canRead, COOKIE, presentedToken, seesOrganization, type Session } from './auth.js';
import { baselinePlot } from './baselines.js';
import { feed, sentView } from './events.js';
import { reference } from './reference.js';
import { runDetail, runList } from './runs.js';
import { families, organizationFor, organizations, recordDetail, searchRecords } from './state.js';

export const INSPECTOR_PATH = '/inspector';

export interface InspectorDeps {
  runtime: Runtime;
  adminToken: string;
  /** Sends a request to the API (the "try it" panel), as if it had arrived on the listener. */
  api(request: SandboxRequest): Promise<SandboxResponse>;
}

const PAGE_HEADERS = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const MAX_TRY_BODY = 1024 * 1024;

async function jsonBody(request: SandboxRequest): Promise<Json> {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) throw invalid('Content-Type', 'must be application/json');
  const bytes = await request.bytes();
  if (bytes === null) throw invalid(null, 'request body is too large');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') || '{}');
  } catch {
    throw invalid(null, 'request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(null, 'request body must be a JSON object');
  checkJsonDepth(value);
  return value as Json;
}

function instant(value: string | null, field: string): number | undefined {
  if (value === null || value === '') return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalid(field, 'must be a date-time (ISO 8601)');
  return ms;
}

function sessionView(runtime: Runtime, session: Session): Json {
  return {
    role: session.role,
    organization_id: session.role === 'key' ? session.org : null,
    permissions: session.role === 'key' ? session.permissions : null,
    families: families(runtime, session).map((r) => ({ name: r.name, scope: r.scope, versioned: r.versioned !== null })),
    base_path: runtime.tables.basePath,
    workspace_header: runtime.tables.workspaceHeader,
  };
}

async function resend(runtime: Runtime, session: Session, id: string): Promise<SandboxResponse> {
  const entry = runtime.store.listSent({}).find((s) => s.id === id);
  const family = entry?.kind === 'alert_notification' ? 'alert' : 'webhook';
  if (!entry || !seesOrganization(session, entry.org) || !canRead(runtime, session, family)) throw notFound('delivery_id', 'delivery');
  const d = entry.data;
  if (typeof d.url !== 'string' || !d.headers || !deliveryRuntime(runtime)) throw invalid('delivery_id', 'this entry was recorded only (no HTTP delivery to send again)');
  const { url, headers, payload, attempts: _a, status: _s, next_attempt_at: _n, resent_from: _r, ...rest } = d;
  const sent = sendInBackground(runtime, { id: ulid(), org: entry.org, kind: entry.kind, data: { ...rest, resent_from: entry.id }, url, headers: headers as Record<string, string>, payload });
  return json(202, { delivery: sentView(sent) });
}

async function tryIt(deps: InspectorDeps, session: Session, request: SandboxRequest): Promise<SandboxResponse> {
  const b = await jsonBody(request);
  const basePath = deps.runtime.tables.basePath;
  const method = typeof b.method === 'string' ? b.method.toUpperCase() : '';
  if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) throw invalid('method', 'must be GET, POST, PUT, PATCH or DELETE');
  if (typeof b.path !== 'string' || !b.path.startsWith(`${basePath}/`) || b.path.includes('..')) throw invalid('path', `must be a path of the API, starting with ${basePath}/`);
  const key = session.role === 'key' ? session.token : typeof b.api_key === 'string' && b.api_key !== '' ? b.api_key : null;
  if (key === null) throw invalid('api_key', 'the admin has no API key: give one to try an operation');
  const body = b.body === undefined || b.body === null ? null : typeof b.body === 'string' ? b.body : JSON.stringify(b.body);
  if (body !== null && body.length > MAX_TRY_BODY) throw invalid('body', 'is too large');
  let url: URL;
  try {
    url = new URL(b.path, request.url.origin);
  } catch {
    throw invalid('path', 'is not a valid path');
  }
  // Checked again once parsed: `%2e%2e` segments are resolved by the URL parser.
  if (!url.pathname.startsWith(`${basePath}/`)) throw invalid('path', `must be a path of the API, starting with ${basePath}/`);
  const headers = new Map<string, string>([['x-api-key', key]]);
  if (body !== null) headers.set('content-type', 'application/json');
  const workspaceHeader = deps.runtime.tables.workspaceHeader;
  if (workspaceHeader && typeof b.workspace_id === 'string' && b.workspace_id !== '') headers.set(workspaceHeader.toLowerCase(), b.workspace_id);
  const bytes = body === null ? new Uint8Array() : new TextEncoder().encode(body);
  const answer = await deps.api({ method, url, headers: { get: (name) => headers.get(name.toLowerCase()) ?? null }, bytes: async () => bytes });
  let parsed: unknown = answer.body;
  try {
    parsed = answer.body === null ? null : JSON.parse(answer.body);
  } catch {
    // A text answer (the YAML catalog) is shown as text.
  }
  return json(200, { status: answer.status, headers: answer.headers, body: parsed });
}

async function route(deps: InspectorDeps, session: Session, request: SandboxRequest, parts: string[]): Promise<SandboxResponse> {
  const { runtime } = deps;
  const q = request.url.searchParams;
  const method = request.method.toUpperCase();
  const at = `${method} /${parts.join('/')}`;
  if (at === 'GET /session') return json(200, sessionView(runtime, session));
  if (at === 'GET /organizations') {
    return json(200, {
      organizations: organizations(runtime, session).map((o) => ({
        ...o,
        workspaces: runtime.store.list('workspace', { org: o.id, includeDeleted: true }).filter((w) => w.org === o.id).map((w) => ({ id: w.id, display_name: w.data.display_name ?? null, status: w.data.status ?? null, deleted: w.deleted || w.data.status === 'DELETED' })),
      })),
    });
  }
  if (at === 'GET /records') {
    const org = organizationFor(runtime, session, q.get('organization_id'));
    const options = { q: q.get('q') ?? '', kind: q.get('kind') ?? '', workspace: q.get('workspace_id') ?? '', builtin: q.get('builtin') === 'true' };
    return json(200, { organization_id: org.id, records: searchRecords(runtime, session, org.id, options) });
  }
  if (method === 'GET' && parts[0] === 'records' && parts.length === 3) return json(200, recordDetail(runtime, session, parts[1]!, parts[2]!));
  if (at === 'GET /events') {
    const org = organizationFor(runtime, session, q.get('organization_id'));
    const limit = q.get('limit') === null ? 500 : Number(q.get('limit'));
    if (!Number.isInteger(limit) || limit < 1 || limit > 5000) throw invalid('limit', 'must be an integer 1-5000');
    const kinds = (q.get('kind') ?? '').split(',').filter((k) => k !== '');
    const filter = { kinds, resource: q.get('resource') ?? '', since: instant(q.get('since'), 'since'), until: instant(q.get('until'), 'until'), limit };
    return json(200, { organization_id: org.id, ...feed(runtime, session, org.id, filter) });
  }
  if (method === 'POST' && parts[0] === 'deliveries' && parts[2] === 'resend' && parts.length === 3) {
    await jsonBody(request);
    return resend(runtime, session, parts[1]!);
  }
  if (at === 'GET /runs') {
    const org = organizationFor(runtime, session, q.get('organization_id'));
    return json(200, { organization_id: org.id, runs: runList(runtime, session, org.id) });
  }
  if (method === 'GET' && parts[0] === 'runs' && parts.length === 2) return json(200, runDetail(runtime, session, parts[1]!));
  if (method === 'GET' && parts[0] === 'baselines' && parts.length === 2) return json(200, baselinePlot(runtime, session, parts[1]!, q.get('bucket_interval'), q.get('timezone')));
  if (at === 'GET /reference') return json(200, reference(runtime.tables));
  if (at === 'POST /try') return tryIt(deps, session, request);
  throw notFound(null, 'inspector endpoint');
}

/** Handles everything under /inspector; `path` is what follows it (`''`, `/`, `/api/...`, `/inspector.js`). */
export async function handleInspector(deps: InspectorDeps, request: SandboxRequest, path: string): Promise<SandboxResponse> {
  try {
    const queryToken = path === '' || path === '/' ? request.url.searchParams.get('token') : null;
    const session = authenticate(deps.runtime, deps.adminToken, presentedToken(request.headers, queryToken));
    if (queryToken) {
      // Keep the token out of the address bar and the history: a cookie carries it from here on.
      return {
        status: 303,
        headers: { location: INSPECTOR_PATH + '/', 'set-cookie': `${COOKIE}=${encodeURIComponent(queryToken)}; Path=${INSPECTOR_PATH}; HttpOnly; SameSite=Strict`, 'cache-control': 'no-store' },
        body: '',
      };
    }
    const parts = path.split('/').filter((s) => s !== '');
    if (parts[0] === 'api') return await route(deps, session, request, parts.slice(1));
    if (request.method.toUpperCase() !== 'GET' && request.method.toUpperCase() !== 'HEAD') throw notFound(null, 'inspector page');
    const file = asset(parts.length === 0 ? 'index.html' : parts.length === 1 ? parts[0]! : '');
    if (!file) throw notFound(null, parts.length === 0 ? 'inspector page (run npm run build:inspector)' : 'inspector file');
    return { status: 200, headers: { 'content-type': file.type, ...PAGE_HEADERS }, body: file.body };
  } catch (error) {
    if (error instanceof ApiFailure) return json(error.status, error.body(), { 'cache-control': 'no-store' });
    throw error;
  }
}
