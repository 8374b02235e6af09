// Workspaces as the request header selects them (seed "Authentication" 4, docs/sandbox.md "Scoping"): the
// header is honoured where an operation declares it; naming a workspace that does not exist, is DELETED or
// belongs to another organization is 404 on the header; a record lives in the workspace it was created in;
// without the header the organization's default workspace is used, which also sees legacy records (no workspace).
import { validValue } from '../values/index.js';
import { expectEnvelope, expectError, expectStatus, expectSuccess, send, type RequestSpec } from '../http.js';
import { fail, lacks, skip } from '../result.js';
import type { Route, SuiteData } from '../suite-data.js';
import { bodyProperties, ownParam, recordOf, referenceName, type World } from '../world.js';
import type { Check, CheckContext } from './context.js';
import { requiredParams, validBody } from './happy.js';

interface Workspaces {
  /** The organization's DEFAULT workspace. */
  defaultId: string;
  /** A CUSTOM workspace of the organization, ACTIVE. */
  customId: string;
}

const known = new WeakMap<World, Workspaces>();
const refused = new WeakMap<World, { deleted: string; foreign?: string; stored?: string }>();

function declares(route: Route, suite: SuiteData): boolean {
  const header = suite.workspaceHeader;
  return header !== null && route.params.header.some((p) => p.name.toLowerCase() === header.toLowerCase());
}

function scoped(route: Route, suite: SuiteData): boolean {
  return suite.resources.find((r) => r.name === route.resource)?.scope === 'workspace';
}

async function workspaces(ctx: CheckContext): Promise<Workspaces> {
  const hit = known.get(ctx.world);
  if (hit) return hit;
  const list = ctx.world.route('workspace', 'list') ?? lacks('no workspace list operation to find the default workspace with');
  const answer = await send(ctx.target, list, {});
  expectSuccess(answer, list, 'listing workspaces');
  const shape = list.success.shape;
  const items = ((answer.body as Record<string, unknown>)[shape.kind === 'list' ? shape.items : 'workspaces'] ?? []) as Record<string, unknown>[];
  const fallback = items.find((w) => w.workspace_type === 'DEFAULT') ?? fail('the workspace list shows no DEFAULT workspace');
  const custom = await ctx.world.create('workspace');
  const out = { defaultId: String(fallback.id), customId: custom.id };
  known.set(ctx.world, out);
  return out;
}

/** Workspace ids the header must refuse: a deleted workspace of ours and (with a second organization) theirs. */
async function refusedWorkspaces(ctx: CheckContext): Promise<{ deleted: string; foreign?: string; stored?: string }> {
  const hit = refused.get(ctx.world);
  if (hit) return hit;
  const gone = await ctx.world.create('workspace');
  const del = ctx.world.route('workspace', 'delete') ?? lacks('no workspace delete operation');
  expectStatus(await send(ctx.target, del, { path: gone.path }), (s) => s < 300, 'deleting a workspace');
  let foreign: string | undefined;
  const otherKey = ctx.target.otherApiKey ?? (ctx.target.control ? await ctx.target.control.createOtherOrganizationKey() : undefined);
  const list = ctx.world.route('workspace', 'list');
  if (otherKey && list) {
    const answer = await send(ctx.target, list, { key: otherKey });
    const shape = list.success.shape;
    const first = (((answer.body as Record<string, unknown> | undefined)?.[shape.kind === 'list' ? shape.items : 'workspaces'] ?? []) as Record<string, unknown>[])[0];
    if (typeof first?.id === 'string') foreign = first.id;
  }
  // A workspace stored in the DELETED state (loaded as such, where the control plane is there).
  const stored = ctx.target.control ? (await ctx.world.loadRecord('workspace', { status: 'DELETED', workspace_type: 'CUSTOM' })).id : undefined;
  const out = { deleted: gone.id, ...(foreign ? { foreign } : {}), ...(stored ? { stored } : {}) };
  refused.set(ctx.world, out);
  return out;
}

/** A request of the route that passes validation (the path only needs well-formed ids: nothing is looked up first). */
async function validRequest(ctx: CheckContext): Promise<RequestSpec> {
  const { path } = await ctx.world.pathFor(ctx.route);
  // Parameters that name no resource (a version id) get a well-formed value.
  for (const p of ctx.route.params.path) {
    if (path[p.name] === undefined) path[p.name] = String(validValue(ctx.suite.schemas[ctx.route.id]!.path[p.name] as never, ctx.world.defs, { seed: 5 }));
  }
  const { query, headers } = requiredParams(ctx);
  const body = await validBody(ctx.world, ctx.route);
  return { path, query, headers, ...(body === undefined ? {} : { body }) };
}

// docs/sandbox.md "Scoping": "naming a workspace that does not exist, is DELETED or belongs to another
// organization is 404 on that header"; the header name in any case (HTTP header names are case-insensitive).
export const unknownWorkspace: Check = {
  name: 'workspaces: a workspace header naming no workspace, a DELETED one or another organization\'s is 404 on the header',
  needs: 'an operation that declares the workspace header (x-workspace)',
  applies: (route, suite) => route.auth.length > 0 && declares(route, suite),
  async run(ctx) {
    const header = ctx.suite.workspaceHeader!;
    const spec = await validRequest(ctx);
    const { deleted, foreign, stored } = await refusedWorkspaces(ctx);
    const cases: [string, string, string][] = [
      ['a workspace id that names nothing (header name in lower case)', header.toLowerCase(), 'ZZZZZZZZZZZZZZZZZZZZZZ'],
      ['a DELETED workspace', header, deleted],
    ];
    if (foreign) cases.push(["another organization's workspace", header, foreign]);
    if (stored) cases.push(['a workspace stored with status DELETED', header, stored]);
    for (const [what, name, value] of cases) {
      const answer = await send(ctx.target, ctx.route, { ...spec, headers: { ...spec.headers, [name]: value } });
      expectError(answer, 404, 'NOT_FOUND', header, what);
      expectEnvelope(answer, what);
    }
  },
};

// docs/sandbox.md "Scoping": "X-Service-Workspace-Id is honoured on the operations that declare it"; an operation
// that does not declare it answers as without it.
export const undeclaredWorkspace: Check = {
  name: 'workspaces: an operation that does not declare the workspace header ignores it',
  needs: 'a workspace header (x-workspace) and a get or list operation without it',
  applies: (route, suite) => route.auth.length > 0 && suite.workspaceHeader !== null && !declares(route, suite) && route.method === 'GET' && (route.action === 'get' || route.action === 'list'),
  async run(ctx) {
    const spec = await validRequest(ctx);
    const answer = await send(ctx.target, ctx.route, { ...spec, headers: { ...spec.headers, [ctx.suite.workspaceHeader!]: 'ZZZZZZZZZZZZZZZZZZZZZZ' } });
    expectSuccess(answer, ctx.route, 'with a workspace header naming nothing, on an operation that does not declare it');
  },
};

function header(ctx: CheckContext, id: string | undefined): Record<string, string> {
  return id === undefined ? {} : { [ctx.suite.workspaceHeader!]: id };
}

// docs/sandbox.md "Scoping": records belong to a workspace; "Without it, the organization's DEFAULT workspace is
// used"; "Records whose workspace is unset (legacy) are visible from the default workspace only". Seed
// "Metrics and baselines": "the default workspace may restore organization-owned legacy metrics whose workspace
// is unset".
export const workspaceOfRecord: Check = {
  name: 'workspaces: a record is found from its own workspace only; a legacy record from the default workspace only',
  needs: 'a get operation of a workspace-scoped resource',
  applies: (route, suite) => route.action === 'get' && route.auth.length > 0 && declares(route, suite) && scoped(route, suite) && route.aliasOf === null,
  async run(ctx) {
    if (!ctx.target.control) skip('needs the control plane to load records into a chosen workspace');
    const { defaultId, customId } = await workspaces(ctx);
    const resource = ctx.world.resource(ctx.route.resource!);
    const own = ownParam(ctx.route)!;
    const base = await ctx.world.pathFor(ctx.route);
    const at = async (record: { id: string }, workspace: string | undefined): Promise<number> =>
      (await send(ctx.target, ctx.route, { path: { ...base.path, [own]: record.id }, headers: header(ctx, workspace) })).status;
    const inCustom = await ctx.world.loadRecord(resource.name, parentValues(ctx, base.path), { workspace_id: customId });
    const legacy = await ctx.world.loadRecord(resource.name, parentValues(ctx, base.path), { workspace_id: null });
    const expectations: [string, { id: string }, string | undefined, boolean][] = [
      ['a record of a custom workspace, from that workspace', inCustom, customId, true],
      ['a record of a custom workspace, without the header (default workspace)', inCustom, undefined, false],
      ['a record of a custom workspace, from the default workspace named in the header', inCustom, defaultId, false],
      ['a legacy record, without the header', legacy, undefined, true],
      ['a legacy record, from the default workspace named in the header', legacy, defaultId, true],
      ['a legacy record, from a custom workspace', legacy, customId, false],
    ];
    for (const [what, record, workspace, visible] of expectations) {
      const status = await at(record, workspace);
      if (visible && status !== ctx.route.success.status) fail(`${what}: expected ${ctx.route.success.status}, got ${status}`);
      if (!visible && status !== 404) fail(`${what}: expected 404, got ${status}`);
    }
  },
};

/** The parent ids a nested record carries (metric_id of a baseline), from the path that addresses it. */
function parentValues(ctx: CheckContext, path: Record<string, string>): Record<string, unknown> {
  const props = ctx.world.resource(ctx.route.resource!).properties;
  const own = ownParam(ctx.route);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(path)) if (k !== own && props.includes(k)) out[k] = v;
  return out;
}

/** Required body fields that name another record (those would have to exist in the chosen workspace too). */
function requiredReferences(route: Route, suite: SuiteData): string[] {
  return bodyProperties(suite, route).required.filter((k) => referenceName(k) !== undefined);
}

// docs/sandbox.md "Scoping": the header selects the workspace an operation works in, so a record created with it
// belongs to that workspace: listed there, not in the default workspace.
export const createInWorkspace: Check = {
  name: 'workspaces: a record created with the workspace header belongs to that workspace (listed there, not in the default one)',
  needs: 'a create operation of a workspace-scoped resource',
  applies: (route, suite) =>
    route.action === 'create' && route.auth.length > 0 && declares(route, suite) && scoped(route, suite) && route.aliasOf === null && route.params.path.length === 0 && requiredReferences(route, suite).length === 0,
  async run(ctx) {
    const { customId } = await workspaces(ctx);
    const resource = ctx.world.resource(ctx.route.resource!);
    const body = (await ctx.world.bodyFor(ctx.route)) ?? {};
    // Optional references name records of the default workspace: left out.
    for (const k of Object.keys(body)) if (referenceName(k) !== undefined) delete body[k];
    const answer = await send(ctx.target, ctx.route, { ...requiredParams(ctx), body, headers: header(ctx, customId) });
    expectSuccess(answer, ctx.route, 'creating with the workspace header');
    const id = recordOf(ctx.route, answer)?.[resource.id];
    if (typeof id !== 'string') fail(`the answer carries no ${resource.id}`);
    ctx.world.created.push({ resource: resource.name, id, path: { [ctx.world.idParam(resource.name)]: id }, record: recordOf(ctx.route, answer)! });
    const list = ctx.world.route(resource.name, 'list');
    if (!list || !declares(list, ctx.suite) || list.params.path.length > 0) fail(`${resource.name} has no list operation that takes the workspace header to look with`);
    const listed = async (workspace: string | undefined): Promise<boolean> => {
      const page = await send(ctx.target, list, { headers: header(ctx, workspace), ...(list.pagination ? { query: { [list.pagination.pageSize]: '100' } } : {}) });
      expectSuccess(page, list, 'listing');
      return page.text.includes(JSON.stringify(id));
    };
    if (!(await listed(customId))) fail(`the record ${id} created with the header is not listed in its workspace`);
    if (await listed(undefined)) fail(`the record ${id} created in a custom workspace is listed in the default workspace`);
  },
};

// docs/sandbox.md "Scoping": workspaces partition workspace-scoped records; a record of the whole organization
// (x-scope organization: tags) is the same record from every workspace (seed "Tags": PATCH takes the optional
// workspace header).
export const organizationRecord: Check = {
  name: 'workspaces: a record of the whole organization is found from every workspace',
  needs: 'an operation on an organization-scoped resource that declares the workspace header',
  applies: (route, suite) => route.auth.length > 0 && declares(route, suite) && !scoped(route, suite) && route.resource !== null && route.params.path.length > 0 && (route.action === 'get' || route.action === 'update'),
  async run(ctx) {
    const { customId } = await workspaces(ctx);
    const spec = await validRequest(ctx);
    const answer = await send(ctx.target, ctx.route, { ...spec, headers: { ...spec.headers, ...header(ctx, customId) } });
    expectSuccess(answer, ctx.route, `${ctx.route.id} of an organization-wide ${ctx.route.resource} from a custom workspace`);
  },
};

// docs/sandbox.md "The control plane": once an organization's DEFAULT workspace is archived, calls without the
// workspace header resolve no workspace; seed "Authentication" 4: for an operation that needs one (metric restore,
// x-workspace-required) an unresolved workspace is 404, which the sandbox reports on the header.
export const noDefaultWorkspace: Check = {
  name: 'workspaces: with the default workspace archived, a call without the header resolves none: an operation that needs a workspace is 404 on the header',
  needs: 'an operation that requires a workspace (x-workspace-required)',
  applies: (route, suite) => route.workspaceRequired && route.auth.length > 0 && declares(route, suite),
  async run(ctx) {
    const make = ctx.target.control?.createOrganizationWithoutDefaultWorkspace ?? skip('needs the control plane to archive a default workspace');
    const key = await make();
    const { query, headers } = requiredParams(ctx);
    const path: Record<string, string> = {};
    for (const p of ctx.route.params.path) path[p.name] = 'Z'.repeat(22);
    const body = await validBody(ctx.world, ctx.route);
    const answer = await send(ctx.target, ctx.route, { key, path, query, headers, ...(body === undefined ? {} : { body }) });
    expectError(answer, 404, 'NOT_FOUND', ctx.suite.workspaceHeader, 'a call without the workspace header once the default workspace is archived');
  },
};

export const checks: Check[] = [unknownWorkspace, undeclaredWorkspace, workspaceOfRecord, createInWorkspace, organizationRecord, noDefaultWorkspace];
