// Isolation: organization A's resources, organization B's key, every operation. For each operation the request
// A would make (built and prepared by the conformance World: a fresh resource for operations that change or
// remove it) is sent with B's key, and again with every id of A's replaced by a well-formed id that names
// nothing. B must not be able to tell the two apart: the same status and the same body (ids normalised), 404
// wherever the path names A's resource, no id, name or count of A's in any answer, and A's resource unchanged
// after B's attempt to change or delete it. Operations that declare the workspace header are also sent with
// A's workspace id in it, against an unknown workspace id.
import { prepare } from '../src/conformance/checks/happy.js';
import type { RequestSpec } from '../src/conformance/http.js';
import type { Route } from '../src/conformance/suite-data.js';
import { ownParam, recordOf } from '../src/conformance/world.js';
import { clip, DrillContext, Findings, type DrillResult } from './context.js';
import { envelopeProblem, type Answer } from './http.js';
import { inspectorIsolation } from './isolation-inspector.js';
import { mapStrings } from './walk.js';

type Rec = Record<string, unknown>;

/** A well-formed id of the same shape that names nothing: letters become Z/z, digits stay. */
function fakeOf(id: string): string {
  return id.replace(/[A-Y]/g, 'Z').replace(/[a-y]/g, 'z');
}

function normalise(text: string, ids: Map<string, string>): string {
  let out = text;
  for (const [real, fake] of ids) out = out.split(real).join('<id>').split(fake).join('<id>');
  return out;
}

function short(a: Answer): string {
  return a.status === 0 ? `no answer (${a.error})` : `${a.status} ${clip(a.text, 220)}`;
}

export async function isolationDrill(ctx: DrillContext): Promise<DrillResult> {
  const started = performance.now();
  const deadline = started + ctx.options.caps.isolation * 1000;
  const findings = new Findings(6);
  const notes: string[] = [];
  const orgA = await ctx.createOrganization('drill isolation A');
  const orgB = await ctx.createOrganization('drill isolation B');
  const world = ctx.world('isolation', orgA);
  const routes = [...ctx.suite.routes].sort((a, b) => (a.id < b.id ? -1 : 1));
  const counts = { operations: 0, public: 0, notFound: 0, indistinguishable: 0, unchanged: 0, workspaceHeader: 0, requests: 0 };
  const byStatus: Record<string, string[]> = {};
  const getRoute = (resource: string): Route | undefined => routes.find((r) => r.resource === resource && r.action === 'get' && r.aliasOf === null);

  for (const route of routes) {
    if (performance.now() > deadline) {
      findings.add('stopped early', `time cap reached before ${route.id}`);
      break;
    }
    if (route.auth.length === 0) {
      counts.public++;
      notes.push(`${route.id} needs no key (the public catalog): nothing of an organization's to isolate`);
      continue;
    }
    counts.operations++;
    try {
      await checkRoute(route);
    } catch (error) {
      findings.add('drill error', `${route.id}: ${(error as Error).message}`);
    }
  }

  async function checkRoute(route: Route): Promise<void> {
    let spec: RequestSpec;
    try {
      spec = await prepare({ target: world.target, suite: ctx.suite, world, route });
    } catch (error) {
      findings.add('drill error', `${route.id}: no prepared request for organization A: ${(error as Error).message}`);
      return;
    }
    // A's ids in this request: path values, and body/query/header values naming something A has.
    const created = new Set([...world.created.map((c) => c.id), orgA.workspaceId]);
    const ids = new Map<string, string>();
    for (const v of Object.values(spec.path ?? {})) ids.set(v, fakeOf(v));
    mapStrings([spec.body, spec.query, spec.headers], (s) => {
      if (created.has(s)) ids.set(s, fakeOf(s));
      return s;
    });
    const fake = mapStrings(spec, (s) => ids.get(s) ?? s);
    if (fake.body && typeof fake.body === 'object' && !Array.isArray(fake.body)) world.makeUnique(fake.body as Rec, route);
    // A's names (what B must not learn): the names of A's records, where they are distinctive.
    const names = new Set<string>();
    for (const c of world.created) for (const k of ['name', 'display_name', 'tag_name', 'slug', 'title', 'resource_name']) {
      const v = c.record[k];
      if (typeof v === 'string' && v.length >= 8 && /\d|-/.test(v)) names.add(v);
    }
    const own = ownParam(route);
    const ownId = own ? spec.path?.[own] : undefined;
    const getOwn = route.resource ? getRoute(route.resource) : undefined;
    const mutates = route.method !== 'GET' && route.params.path.length > 0;
    const canGet = getOwn !== undefined && ownId !== undefined && getOwn.params.path.every((p) => spec.path?.[p.name] !== undefined);
    const before = mutates && canGet ? await ctx.route('isolation', getOwn, { path: spec.path ?? {} }, orgA.key) : undefined;

    const real = await ctx.route('isolation', route, spec, orgB.key);
    // With no id of A's in the request there is nothing to tell apart: the answer is B's own business.
    const none = ids.size === 0 ? real : await ctx.route('isolation', route, fake, orgB.key);
    counts.requests += ids.size === 0 ? 1 : 2;
    (byStatus[String(real.status)] ??= []).push(route.id);
    const where = `${route.id} (${route.method} ${route.path})`;
    if (route.params.path.length > 0) {
      const code = (real.body as { error?: { code?: string } } | undefined)?.error?.code;
      if (real.status !== 404 || code !== 'NOT_FOUND' || envelopeProblem(real)) findings.add("another organization's resource is not 404", `${where} with B's key on A's ${JSON.stringify(spec.path)}: ${short(real)}`);
      else counts.notFound++;
    }
    if (real.status >= 500 || none.status >= 500) findings.add('5xx', `${where}: ${short(real)} / ${short(none)}`);
    for (const id of ids.keys()) {
      // An id B sent itself may come back in a 2xx that stores it (an alert's agent_ids); never in an error.
      if (real.status >= 400 && real.text.includes(id)) findings.add("the answer names A's id", `${where}: ${id} in ${short(real)}`);
    }
    for (const name of names) if (real.text.includes(name) && !none.text.includes(name)) findings.add("the answer names A's record", `${where}: "${name}" in ${short(real)}`);
    // Answers are compared whole, except a create's (new ids and times in each).
    const same = real.status === none.status && ((real.status < 300 && route.action === 'create') || normalise(real.text, ids) === normalise(none.text, ids));
    if (!same) findings.add("B can tell A's ids from ids that name nothing", `${where}: A's ids -> ${short(real)}; unknown ids -> ${short(none)}`);
    else counts.indistinguishable++;
    if (real.status < 300 && route.action === 'list') {
      // A list B may read: none of A's records in it.
      for (const id of created) if (real.text.includes(id) && !JSON.stringify(spec.query ?? {}).includes(id)) findings.add("a list shows A's record", `${where}: ${id}`);
    }
    if (before) {
      const after = await ctx.route('isolation', getOwn!, { path: spec.path ?? {} }, orgA.key);
      const recBefore = recordOf(getOwn!, { status: before.status, body: before.body, text: before.text, headers: new Headers() });
      const recAfter = recordOf(getOwn!, { status: after.status, body: after.body, text: after.text, headers: new Headers() });
      if (after.status !== before.status || JSON.stringify(recAfter) !== JSON.stringify(recBefore)) findings.add("B's attempt changed A's resource", `${where}: before ${short(before)}; after ${short(after)}`);
      else counts.unchanged++;
    }
    // The workspace header naming A's workspace, against one that does not exist.
    if (ctx.suite.workspaceHeader && route.params.header.some((p) => p.name.toLowerCase() === ctx.suite.workspaceHeader!.toLowerCase())) {
      const header = ctx.suite.workspaceHeader;
      const withA = await ctx.route('isolation', route, { ...fake, headers: { ...fake.headers, [header]: orgA.workspaceId } }, orgB.key);
      const withNone = await ctx.route('isolation', route, { ...fake, headers: { ...fake.headers, [header]: fakeOf(orgA.workspaceId) } }, orgB.key);
      counts.requests += 2;
      const m = new Map([[orgA.workspaceId, fakeOf(orgA.workspaceId)], ...ids]);
      if (withA.status !== 404 || withA.status !== withNone.status || normalise(withA.text, m) !== normalise(withNone.text, m) || withA.text.includes(orgA.workspaceId)) findings.add("B can use or detect A's workspace", `${where}: A's workspace -> ${short(withA)}; unknown workspace -> ${short(withNone)}`);
      else counts.workspaceHeader++;
    }
  }
  // The inspector's JSON endpoints (the page reads nothing else).
  let inspectorNumbers: [string, string | number][] = [];
  try {
    inspectorNumbers = await inspectorIsolation(ctx, orgA, orgB, world.created, findings);
  } catch (error) {
    findings.add('drill error', `inspector: ${(error as Error).message}`);
  }
  if (!ctx.sandbox.alive()) findings.add('process gone', JSON.stringify(ctx.log.unexpectedExits));
  const withPath = routes.filter((r) => r.auth.length > 0 && r.params.path.length > 0).length;
  return {
    name: 'isolation',
    ok: findings.total === 0,
    ms: performance.now() - started,
    numbers: [
      ['operations checked (with a key)', `${counts.operations} of ${routes.length} (${counts.public} public catalog operations need no key)`],
      ["operations naming A's resource in the path: 404 NOT_FOUND for B", `${counts.notFound} of ${withPath}`],
      ["operations where B's answer with A's ids equals its answer with unknown ids", `${counts.indistinguishable} of ${counts.operations}`],
      ["A's resource unchanged after B's update / delete / revert / restore / archive", `${counts.unchanged}`],
      ["operations with the workspace header: A's workspace id is 404 like an unknown one", `${counts.workspaceHeader}`],
      ["B's answers by status (A's ids)", Object.entries(byStatus).map(([s, ids]) => `${s}: ${ids.length}${s === '404' ? '' : ` (${ids.join(', ')})`}`).join('; ')],
      ['requests with B\'s key', counts.requests],
      ...inspectorNumbers,
    ],
    findings: findings.kept,
    findingCounts: findings.counts,
    notes,
  };
}
