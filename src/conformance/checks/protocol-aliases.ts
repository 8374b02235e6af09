// Legacy aliases (x-deprecated-alias-of with x-alias-renames; docs/x-vocabulary.md "Legacy aliases", docs/sandbox.md
// "Legacy alias paths"): an alias runs its canonical operation on the same records, so a record made through one
// generation of paths is read through the other with that generation's names and values, and an error names the
// alias's own parameter. The renames the checks expect are the spec's declarations (the route rows' aliasRenames).
import { expectError, expectSuccess, send } from '../http.js';
import { fail } from '../result.js';
import type { Route, SuiteData } from '../suite-data.js';
import { ownParam, recordOf } from '../world.js';
import type { Check } from './context.js';
import { prepare } from './happy.js';
import { unusedId } from './isolation.js';

type Json = Record<string, unknown>;
type Rename = Route['aliasRenames'][number];

function canonicalOf(route: Route, suite: SuiteData): Route | undefined {
  return route.aliasOf === null ? undefined : suite.routes.find((r) => r.id === route.aliasOf);
}

/** Where the record sits in an answer of this shape (`[]`: the answer itself; `[key]`: under a wrapper key). */
function recordAt(route: Route): string[] | undefined {
  const shape = route.success.shape;
  return shape.kind === 'resource' ? [] : shape.kind === 'wrapped' ? [shape.key] : undefined;
}

/** The renames of the record's own properties in the alias's answer (or body, `in`), those with a value mapping first. */
function recordRenames(route: Route, where: 'response' | 'body', at: string[]): Rename[] {
  return route.aliasRenames.filter((r) => r.in === where && r.at.join('/') === at.join('/')).sort((a, b) => Number(b.values !== null) - Number(a.values !== null));
}

/** A canonical value whose legacy value differs (so a missing mapping shows), for each value-mapped rename. */
function mappedValues(renames: Rename[]): [Rename, string, string][] {
  const out: [Rename, string, string][] = [];
  for (const r of renames) {
    const pair = Object.entries(r.values ?? {}).find(([legacy, canonical]) => legacy !== canonical);
    if (pair) out.push([r, pair[0], pair[1]]);
  }
  return out;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

// docs/x-vocabulary.md "Legacy aliases" (the sandbox's decision): an error raised by the canonical operation names
// the alias's own parameters; an id that names nothing is 404 on the path parameter the legacy path declares.
export const aliasUnknownId: Check = {
  name: "aliases: an id that names nothing through a legacy path is 404 on the alias's own path parameter",
  needs: 'a legacy alias operation (x-deprecated-alias-of) with a renamed id parameter',
  applies: (route) => route.aliasOf !== null && route.auth.length > 0 && route.aliasRenames.some((r) => r.in === 'path' && r.legacy === ownParam(route)),
  async run(ctx) {
    const own = ownParam(ctx.route)!;
    const spec = await prepare(ctx);
    const answer = await send(ctx.target, ctx.route, { ...spec, path: { ...spec.path, [own]: unusedId(ctx, own, spec.path ?? {}) } });
    expectError(answer, 404, 'NOT_FOUND', own, `an unknown ${own} through ${ctx.route.path}`);
  },
};

// docs/sandbox.md "Legacy alias paths": the alias runs its canonical operation on the same records, answering with
// its legacy names and values (scope MONITORING for conversation_source UPLOADED, the mapping x-alias-renames declares).
export const aliasReadsLegacyNames: Check = {
  name: 'aliases: a record made through the canonical operations is read through a legacy get with the legacy names and values',
  needs: 'a legacy alias get operation answering the record in its own view',
  applies: (route, suite) => route.aliasOf !== null && route.action === 'get' && route.auth.length > 0 && recordAt(route) !== undefined && recordAt(canonicalOf(route, suite) ?? route) !== undefined && recordRenames(route, 'response', recordAt(route)!).length > 0,
  async run(ctx) {
    const canonical = canonicalOf(ctx.route, ctx.suite)!;
    const renames = recordRenames(ctx.route, 'response', recordAt(ctx.route)!);
    const overrides: Json = {};
    for (const [r, , value] of mappedValues(renames)) overrides[r.canonical] = value;
    const created = await ctx.world.create(ctx.route.resource!, overrides);
    const theirs = recordOf(canonical, await send(ctx.target, canonical, { path: created.path }));
    const spec = await prepare(ctx);
    const path = { ...spec.path, [ownParam(ctx.route)!]: created.id };
    const answer = await send(ctx.target, ctx.route, { ...spec, path });
    expectSuccess(answer, ctx.route, `reading ${created.id} through ${ctx.route.path}`);
    const legacy = recordOf(ctx.route, answer) ?? fail('the legacy get answered no record');
    if (theirs === undefined) fail(`the canonical ${canonical.id} answered no record`);
    const legacyNames = new Set(ctx.route.aliasRenames.map((r) => r.legacy));
    for (const r of renames) {
      if (theirs[r.canonical] === undefined) continue;
      const value = theirs[r.canonical];
      const back = r.values === null ? value : (Object.entries(r.values).find(([, c]) => c === value)?.[0] ?? value);
      if (!same(legacy[r.legacy], back)) fail(`${r.legacy} is ${JSON.stringify(legacy[r.legacy])} through the legacy get, expected ${JSON.stringify(back)} (${r.canonical} ${JSON.stringify(value)})`);
      if (r.canonical in legacy && !legacyNames.has(r.canonical)) fail(`the legacy get also answers the canonical name ${r.canonical}`);
    }
  },
};

// docs/sandbox.md "Legacy alias paths": a record created through the legacy path is the canonical operation's record,
// read through the canonical get with the canonical names and values.
export const aliasCreatesCanonicalRecord: Check = {
  name: 'aliases: a record created through a legacy path is read through the canonical get with the canonical names and values',
  needs: 'a legacy alias create operation with renamed body fields',
  applies: (route, suite) =>
    route.aliasOf !== null && route.action === 'create' && route.params.path.length === 0 && route.auth.length > 0 && recordAt(route) !== undefined && mappedValues(recordRenames(route, 'body', [])).length > 0 && suite.routes.some((r) => r.resource === route.resource && r.action === 'get' && r.aliasOf === null),
  async run(ctx) {
    const renames = recordRenames(ctx.route, 'body', []);
    const overrides: Json = {};
    for (const [r, value] of mappedValues(renames)) overrides[r.legacy] = value;
    const body = (await ctx.world.bodyFor(ctx.route, overrides)) ?? fail('no body for the legacy create');
    const answer = await send(ctx.target, ctx.route, { ...(await prepare(ctx)), body });
    expectSuccess(answer, ctx.route, `creating through ${ctx.route.path}`);
    const resource = ctx.world.resource(ctx.route.resource!);
    const id = recordOf(ctx.route, answer)?.[resource.id] ?? fail(`the legacy create answered no ${resource.id}`);
    const get = ctx.world.route(resource.name, 'get')!;
    const read = await send(ctx.target, get, { path: { [ownParam(get)!]: String(id) } });
    expectSuccess(read, get, `reading the record made through ${ctx.route.path}`);
    const record = recordOf(get, read) ?? fail(`${get.id} answered no record`);
    for (const r of renames) {
      if (body[r.legacy] === undefined) continue;
      const want = r.values === null ? undefined : (r.values[String(body[r.legacy])] ?? body[r.legacy]);
      if (record[r.canonical] === undefined) fail(`the record made with ${r.legacy} has no ${r.canonical}`);
      if (want !== undefined && !same(record[r.canonical], want)) fail(`${r.canonical} is ${JSON.stringify(record[r.canonical])}, expected ${JSON.stringify(want)} for ${r.legacy} ${JSON.stringify(body[r.legacy])}`);
      if (r.legacy in record && r.legacy !== r.canonical) fail(`the record keeps the legacy name ${r.legacy}`);
    }
  },
};

// docs/sandbox.md "Legacy alias paths" and "Protocol" (a query parameter naming a property filters the list by
// equality): a legacy list's renamed query parameter filters by the canonical field, its legacy values mapped.
export const aliasQueryFilter: Check = {
  name: "aliases: a legacy list's renamed query parameter filters by the canonical field, with the legacy values mapped",
  needs: 'a legacy alias list operation with renamed query parameters',
  applies: (route) => route.aliasOf !== null && route.action === 'list' && route.params.path.length === 0 && route.auth.length > 0 && route.success.shape.kind === 'list' && mappedValues(route.aliasRenames.filter((r) => r.in === 'query')).length > 0,
  async run(ctx) {
    const [[rename, legacy, canonical]] = mappedValues(ctx.route.aliasRenames.filter((r) => r.in === 'query')) as [[Rename, string, string]];
    const other = Object.entries(rename.values!).find(([, c]) => c !== canonical)?.[0];
    const created = await ctx.world.create(ctx.route.resource!, { [rename.canonical]: canonical });
    const items = ctx.route.success.shape.kind === 'list' ? ctx.route.success.shape.items : '';
    const size = ctx.route.pagination ? { [ctx.route.pagination.pageSize]: '100' } : {};
    const spec = await prepare(ctx);
    const idField = ctx.world.resource(ctx.route.resource!).id;
    const listed = async (value: string): Promise<unknown[]> => {
      const answer = await send(ctx.target, ctx.route, { ...spec, query: { ...spec.query, ...size, [rename.legacy]: value } });
      expectSuccess(answer, ctx.route, `listing with ${rename.legacy}=${value}`);
      return (((answer.body as Json)[items] as Json[] | undefined) ?? []).map((i) => i[idField]);
    };
    if (!(await listed(legacy)).includes(created.id)) fail(`${rename.legacy}=${legacy} does not list the record whose ${rename.canonical} is ${canonical}`);
    if (other !== undefined && (await listed(other)).includes(created.id)) fail(`${rename.legacy}=${other} lists the record whose ${rename.canonical} is ${canonical}`);
  },
};

export const checks: Check[] = [aliasUnknownId, aliasReadsLegacyNames, aliasCreatesCanonicalRecord, aliasQueryFilter];
