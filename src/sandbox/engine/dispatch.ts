// One API request, end to end: route, authenticate, authorise, validate, resolve the workspace, run the
// rules and the action in one transaction, shape the answer, then hand raised events to their handlers.
// Every failure is the API's envelope; an unexpected exception is 500 INTERNAL and never escapes.
import { ApiFailure, internal, invalidAll, notFound, permissionDenied, unauthenticated } from '../errors.js';
import { injectFault } from '../faults/answer.js';
import type { FaultInjector } from '../faults/injector.js';
import { alnum } from '../ids.js';
import { readBody, readHeaders, readPath, readQuery } from '../http/request.js';
import type { SandboxRequest, SandboxResponse } from '../http/exchange.js';
import { failure, json } from '../http/respond.js';
import type { Router } from '../http/router.js';
import type { ApiKeyRecord, Json } from '../storage/store.js';
import { checkBodyReferences } from './references.js';
import { GENERIC_ACTIONS, transitionAction } from './actions.js';
import { legacyFailure, toCanonical, toLegacy } from './alias.js';
import type { ActionResult, RaisedEvent, RequestContext, Runtime } from './context.js';
import type { Hooks, Rule } from './hooks.js';
import { isHidden, setOwn } from './records.js';
import { shapeBody } from './shape.js';
import type { Route } from './tables.js';
import { validateRequest } from './validate.js';
import { requestCredential } from './credentials.js';
import { exampleResult } from './example.js';

export interface Dispatcher {
  handle(request: SandboxRequest, apiPath: string): Promise<SandboxResponse>;
}

export interface DispatchDeps {
  runtime: Runtime;
  router: Router<Route>;
  rules: Record<string, Rule>;
  /** Runs the handlers of events raised by a committed request. */
  publish(events: RaisedEvent[]): void;
  /** Faults on demand (issue 29): decided after authentication, before the body is read or anything runs. */
  faults?: FaultInjector;
  log(line: string): void;
}

function authenticate(runtime: Runtime, route: Route, request: SandboxRequest): ApiKeyRecord | null {
  if (route.auth.length === 0) return null;
  const value = requestCredential(route.credentials, request);
  if (value === null) throw unauthenticated('missing API key', route.auth[0]);
  if (value === '') throw unauthenticated('the credential is not in the form its scheme takes (Bearer <key>, or Basic base64(<user>:<key>))', route.auth[0]);
  const key = runtime.store.findKey(value);
  if (!key) throw unauthenticated('unknown API key', route.auth[0]);
  return key;
}

/**
 * The request's workspace, a record of the resource the spec declares the workspace (x-workspace): the one the
 * workspace header names (404 on the header when the organization has no such workspace or it is hidden), else the
 * organization's default one while it is in its live state (none otherwise).
 */
function resolveWorkspace(runtime: Runtime, route: Route, org: string, request: SandboxRequest): { id: string | null; isDefault: boolean } {
  const header = runtime.tables.workspaceHeader;
  const workspaces = runtime.tables.workspace;
  const resource = workspaces === null ? undefined : runtime.resource(workspaces.resource);
  const organization = runtime.store.getOrganization(org);
  const declared = header !== null && route.params.header.some((p) => p.name.toLowerCase() === header.toLowerCase());
  const given = declared ? request.headers.get(header!) : null;
  // An empty header value never gets here: the header's schema (1-26 characters) has refused it already.
  if (given !== null) {
    const ws = resource && runtime.store.peek(resource.name, given);
    if (!ws || ws.org !== org || isHidden(resource!, ws)) throw notFound(header, 'workspace');
    return { id: ws.id, isDefault: ws.id === organization?.default_workspace_id };
  }
  const fallback = resource && organization ? runtime.store.peek(resource.name, organization.default_workspace_id) : undefined;
  const field = resource?.lifecycle?.field;
  if (!fallback || fallback.deleted || (workspaces!.live !== null && field && fallback.data[field] !== workspaces!.live)) return { id: null, isDefault: false };
  return { id: fallback.id, isDefault: true };
}

/** Only the fields the request schema declares reach actions and rules: undeclared ones (ids, read-only fields) are dropped. */
function declaredOnly(route: Route, body: Json): Json {
  const declared = route.body?.properties;
  if (!declared) return body;
  const out: Json = {};
  // An inferred resource's body may spell a field otherwise than its record does (BodyRow.storedAs).
  const storedAs = route.body?.storedAs;
  // A number sent where the record holds text is stored as its text (BodyRow.asText).
  const asText = route.body?.asText;
  for (const key of Object.keys(body)) {
    if (!declared.includes(key)) continue;
    const value = asText?.includes(key) && typeof body[key] === 'number' ? String(body[key]) : body[key];
    setOwn(out, (storedAs && Object.hasOwn(storedAs, key) ? storedAs[key] : undefined) ?? key, value);
  }
  return out;
}

export function createDispatcher(deps: DispatchDeps): Dispatcher {
  const { runtime, router, rules } = deps;
  const rulesOf = (route: Route): Rule[] => route.rules.map((name) => rules[name]!);

  async function run(request: SandboxRequest, apiPath: string): Promise<SandboxResponse> {
    // Operations sharing a path (AWS's POST /) are chosen by a header or query value the request carries.
    const match = router.match(request.method.toUpperCase(), apiPath, (where, name) => (where === 'header' ? request.headers.get(name) : request.url.searchParams.get(name)));
    if (!match) throw notFound(null, 'operation');
    const route = match.route;
    if (route.aliasRenames.length === 0) return serve(request, route, match.params);
    try {
      return await serve(request, route, match.params);
    } catch (error) {
      throw error instanceof ApiFailure ? legacyFailure(route, error) : error;
    }
  }

  async function serve(request: SandboxRequest, route: Route, raw: Record<string, unknown>): Promise<SandboxResponse> {
    const url = request.url;
    const params = readPath(route.params.path, raw);
    const key = authenticate(runtime, route, request);
    for (const permission of route.permissions) if (key && !key.permissions.includes(permission)) throw permissionDenied(permission);
    const faulted = key && deps.faults ? await injectFault(deps.faults, runtime.clock, key.organization_id, route.id, request.method, url.pathname) : undefined;
    if (faulted) return faulted;

    const query = readQuery(route.params.query, url.searchParams);
    const headers = readHeaders(route.params.header, request.headers);
    const body = route.body ? await readBody(request, route.body) : undefined;
    const hasBody = body !== undefined;
    const details = validateRequest(route, { path: params, query, headers, body, hasBody });
    if (details.length > 0) throw invalidAll(details);

    const org = key?.organization_id ?? '';
    // Without a key (the served specifications) there is no organization, so no workspace resolves.
    const workspace = resolveWorkspace(runtime, route, org, request);
    if (route.workspaceRequired && workspace.id === null) throw notFound(runtime.tables.workspaceHeader, 'workspace');

    // A legacy alias runs its canonical operation (its rules, action and events) in canonical names; only the
    // answer is shaped by the alias's own schema and given its legacy names.
    const canonical = route.aliasOf === null ? route : runtime.routeById(route.aliasOf);
    const path = { ...params };
    const declared = declaredOnly(route, (body ?? {}) as Json);
    toCanonical(route, { path, query, body: declared });
    const events: RaisedEvent[] = [];
    const ctx: RequestContext = {
      runtime: { ...runtime, raise: (event) => events.push(event) },
      route: canonical,
      key,
      org,
      workspace: workspace.id,
      workspaceIsDefault: workspace.isDefault,
      path,
      query,
      headers,
      // A body that passed validation is an object (every request body schema is one); no body reads as {}.
      body: declared,
      hasBody,
      requestHeaders: request.headers,
      origin: url.origin,
      now: runtime.clock.now().toISOString(),
    };
    const ruleList = rulesOf(canonical);
    const hooks: Hooks = {
      write(c, next, previous) {
        for (const rule of ruleList) rule.write?.(c, next, previous);
      },
    };
    const unlocked = ruleList.find((r) => r.handleUnlocked);
    const result: ActionResult = unlocked?.handleUnlocked ? await unlocked.handleUnlocked(ctx) : runtime.store.transaction(() => {
      checkBodyReferences(ctx);
      for (const rule of ruleList) rule.before?.(ctx);
      const custom = ruleList.find((r) => r.handle);
      let out: ActionResult;
      if (custom?.handle) out = custom.handle(ctx);
      else if (canonical.example !== null) out = exampleResult(canonical);
      else {
        // x-operation.sets is a state change (only custom operations carry one); others run their generic action.
        const action = canonical.sets !== null ? transitionAction : GENERIC_ACTIONS[canonical.action ?? ''];
        if (!action) throw new ApiFailure(501, 'INTERNAL', `The sandbox does not implement ${canonical.id}.`);
        out = action(ctx, hooks);
      }
      for (const rule of ruleList) rule.after?.(ctx, out);
      // An operation's x-emits events, unless its rules raised them already (with the payload their handlers
      // need): a spec can name an event without writing a rule that raises it.
      for (const name of canonical.emits) {
        if (!events.some((e) => e.name === name)) events.push({ name, org, workspace: ctx.workspace, payload: { record: out.record?.data ?? null } });
      }
      return out;
    }, route.method === 'GET' ? 'read' : 'write');
    deps.publish(events);
    const status = result.status ?? route.success.status;
    const shaped = shapeBody(route === canonical ? ctx : { ...ctx, route }, result);
    const payload = route === canonical ? shaped : toLegacy(route, shaped);
    if (typeof payload === 'string') return { status, headers: { 'content-type': result.contentType ?? route.success.media ?? 'text/plain' }, body: payload };
    return json(status, payload);
  }

  return {
    async handle(request, apiPath) {
      const requestId = alnum(16);
      try {
        const response = await run(request, apiPath);
        response.headers['x-request-id'] = requestId;
        return response;
      } catch (error) {
        if (error instanceof ApiFailure) return failure(error, requestId);
        deps.log(`sandbox: internal error in ${request.method} ${apiPath}: ${(error as Error)?.stack ?? String(error)}`);
        return failure(internal(), requestId);
      }
    },
  };
}
