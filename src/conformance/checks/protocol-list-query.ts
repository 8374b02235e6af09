// The query parameters of lists that declare them (facts section 3 and 2.6-2.11), found by the role the spec gives
// them (x-list-query), whatever they are called: order-by (`order_by`) sorts by a field, `-` for descending, and
// its default applies when it is absent; tag-filter (`tag_filters`) keeps the records carrying the named tags;
// include-builtin (`include_builtin`) lets the platform's built-in records (the builtin-flag role) in only when
// asked; filter (`filter`) keeps what its expression matches. Which fields are compared comes from the answer
// itself, so the checks hold for any data a deployment already has.
import { expectError, expectSuccess, send } from '../http.js';
import { fail, skip } from '../result.js';
import type { ResourceRow, Route, SuiteData } from '../suite-data.js';
import { bodyProperties, deref } from '../world.js';
import type { Check, CheckContext } from './context.js';

/** A role a list's query parameter plays (x-list-query). */
type ListRole = NonNullable<Route['params']['query'][number]['listQuery']>;
import { itemsOf, listRequest, wholeList } from './protocol-lists.js';

type Item = Record<string, unknown>;

/** The name of the list's query parameter playing `role`, if the route is a list that has one. */
function listParam(route: Route, role: ListRole): string | undefined {
  return route.action === 'list' ? route.params.query.find((p) => p.listQuery === role)?.name : undefined;
}

/** The parameter of the checked list playing `role` (the check applies only where it has one). */
function paramOf(ctx: CheckContext, role: ListRole): string {
  return listParam(ctx.route, role)!;
}

function rolesOf(route: Route, suite: SuiteData): ResourceRow['roles'] | undefined {
  return suite.resources.find((r) => r.name === route.resource)?.roles;
}

function querySchema(ctx: CheckContext, name: string): Record<string, unknown> {
  return deref(ctx.suite.schemas[ctx.route.id]!.query[name], ctx.suite.defs);
}

/** The order_by values to try: the declared enum, else create_time both ways. */
function orderValues(ctx: CheckContext): string[] {
  const values = querySchema(ctx, paramOf(ctx, 'order-by')).enum;
  return Array.isArray(values) ? values.map(String) : ['create_time', '-create_time'];
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Fails unless the items' `field` values (where both are present) never go against the order. */
function expectOrdered(items: Item[], field: string, descending: boolean, what: string): void {
  const present = items.filter((i) => i[field] !== undefined && i[field] !== null);
  for (let i = 1; i < present.length; i++) {
    const c = compare(present[i - 1]![field], present[i]![field]);
    if (descending ? c < 0 : c > 0) fail(`${what}: item ${i} (${field} ${JSON.stringify(present[i]![field])}) comes after ${JSON.stringify(present[i - 1]![field])}`);
  }
}

/**
 * Three new records a few milliseconds apart (so their create times differ even on a fast target), so an order is
 * visible; where the API cannot create them, the records the list has.
 */
async function enoughRecords(ctx: CheckContext): Promise<Item[]> {
  const request = await listRequest(ctx);
  for (let i = 0; i < 3 && ctx.world.route(ctx.route.resource!, 'create'); i++) {
    await ctx.world.create(ctx.route.resource!);
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  const items = await wholeList(ctx, request);
  if (items.length < 2) skip(`fewer than two ${ctx.route.resource} records to order`);
  return items;
}

export const orderBy: Check = {
  name: 'list: order_by sorts by its field, "-" descending, its default when absent',
  needs: 'a list with an order-by parameter (x-list-query)',
  applies: (route) => listParam(route, 'order-by') !== undefined,
  async run(ctx) {
    await enoughRecords(ctx);
    const param = paramOf(ctx, 'order-by');
    const request = await listRequest(ctx);
    for (const value of orderValues(ctx)) {
      const field = value.replace(/^-/, '');
      const items = await wholeList(ctx, { ...request, query: { ...request.query, [param]: value } });
      if (!items.some((i) => field in i)) continue;
      expectOrdered(items, field, value.startsWith('-'), `${param}=${value}`);
    }
    const fallback = querySchema(ctx, param).default;
    if (typeof fallback === 'string') {
      const field = fallback.replace(/^-/, '');
      expectOrdered(await wholeList(ctx, request), field, fallback.startsWith('-'), `without ${param} (default ${fallback})`);
    }
    // Our decision (docs/sandbox.md "Protocol"): a field the resource does not have, or a term that is not a field
    // with one direction, is 400 naming order_by.
    for (const bad of ['no_such_field', '-create_time desc', 'create_time;drop']) {
      expectError(await send(ctx.target, ctx.route, { ...request, query: { ...request.query, [param]: bad } }), 400, 'INVALID_ARGUMENT', param, `${param}=${bad}`);
    }
  },
};

export const tagFilters: Check = {
  name: 'list: tag_filters keeps only the records carrying every named tag',
  needs: 'a list with a tag-filter parameter (x-list-query)',
  applies: (route, suite) => {
    const tags = rolesOf(route, suite)?.tags ?? null;
    if (listParam(route, 'tag-filter') === undefined || tags === null) return false;
    const create = suite.routes.find((r) => r.resource === route.resource && r.action === 'create');
    return create?.body?.properties?.includes(tags) === true;
  },
  async run(ctx) {
    const param = paramOf(ctx, 'tag-filter');
    const tags = rolesOf(ctx.route, ctx.suite)!.tags!;
    const stamp = Date.now().toString(36);
    const [common, only] = [`conf-common-${stamp}`, `conf-only-${stamp}`];
    const one = await ctx.world.create(ctx.route.resource!, { [tags]: [common] });
    const both = await ctx.world.create(ctx.route.resource!, { [tags]: [common, only] });
    const request = await listRequest(ctx);
    const idField = ctx.world.resource(ctx.route.resource!).id;
    const ids = async (names: string[]): Promise<string[]> => {
      const answer = await send(ctx.target, ctx.route, { ...request, query: { ...request.query, [param]: names.join(',') } });
      expectSuccess(answer, ctx.route, `${param}=${names.join(',')}`);
      return itemsOf(ctx.route, answer).map((i) => String(i[idField]));
    };
    // One value per parameter: the repeated form (a=x&a=y) needs a URLSearchParams list.
    const withCommon = await ids([common]);
    if (!withCommon.includes(one.id) || !withCommon.includes(both.id)) fail(`${param}=${common} left out a record carrying it: ${JSON.stringify(withCommon)}`);
    const withOnly = await ids([only]);
    if (!withOnly.includes(both.id) || withOnly.includes(one.id)) fail(`${param}=${only} should list ${both.id} and not ${one.id}: ${JSON.stringify(withOnly)}`);
    if (withOnly.length !== 1) fail(`${param}=${only} listed records that do not carry it: ${JSON.stringify(withOnly)}`);
  },
};

export const includeBuiltin: Check = {
  name: 'list: built-in records only with include_builtin=true',
  needs: 'a list with an include-builtin parameter of a resource with a built-in flag',
  applies: (route, suite) => listParam(route, 'include-builtin') !== undefined && (rolesOf(route, suite)?.builtinFlag ?? null) !== null,
  async run(ctx) {
    const param = paramOf(ctx, 'include-builtin');
    const flag = rolesOf(ctx.route, ctx.suite)!.builtinFlag!;
    const request = await listRequest(ctx);
    const builtin = (items: Item[]): Item[] => items.filter((i) => i[flag] === true);
    const without = await wholeList(ctx, request);
    if (querySchema(ctx, param).default !== true && builtin(without).length > 0) fail(`without ${param} the list shows ${builtin(without).length} built-in records`);
    const withFalse = await wholeList(ctx, { ...request, query: { ...request.query, [param]: 'false' } });
    if (builtin(withFalse).length > 0) fail(`${param}=false shows ${builtin(withFalse).length} built-in records`);
    const withTrue = await wholeList(ctx, { ...request, query: { ...request.query, [param]: 'true' } });
    if (withTrue.length < withFalse.length) fail(`${param}=true lists fewer records (${withTrue.length}) than false (${withFalse.length})`);
    if (builtin(withTrue).length === 0) skip('the target has no built-in records to list');
  },
};

// facts section 3: lists take an "AIP-160 style" filter. Which fields and operators a deployment reads is not
// public; the sandbox reads comparisons of top-level fields (docs/sandbox.md "Protocol"), and every API has its
// id field, so the check compares that one.
export const filterExpression: Check = {
  name: 'list: filter keeps the records its expression matches (= != < <= > >= :, AND, OR, NOT, parentheses); a malformed expression or an unknown field is 400 on filter',
  needs: 'a list with a filter parameter (x-list-query) of a creatable resource',
  applies: (route, suite) => listParam(route, 'filter') !== undefined && suite.routes.some((r) => r.resource === route.resource && r.action === 'create'),
  async run(ctx) {
    const param = paramOf(ctx, 'filter');
    const resource = ctx.route.resource!;
    const create = ctx.world.route(resource, 'create')!;
    const takes = (field: string): boolean => create.body?.properties?.includes(field) === true;
    const a = await ctx.world.create(resource);
    await new Promise((resolve) => setTimeout(resolve, 3));
    const b = await ctx.world.create(resource);
    const request = await listRequest(ctx);
    const id = ctx.world.resource(resource).id;
    const ours = new Set([a.id, b.id]);
    const listed = async (filter: string): Promise<string[]> => (await wholeList(ctx, { ...request, query: { ...request.query, [param]: filter } })).map((i) => String(i[id]));
    // `:` is "has": an element of a list, a key of an object.
    const stamp = Date.now().toString(36);
    const extra: [string, string[], boolean][] = [];
    const tags = rolesOf(ctx.route, ctx.suite)?.tags ?? null;
    if (tags !== null && takes(tags)) {
      const tagged = await ctx.world.create(resource, { [tags]: [`conf-has-${stamp}`] });
      ours.add(tagged.id);
      extra.push([`${tags}:"conf-has-${stamp}"`, [tagged.id], true], [`${tags}:"conf-has-${stamp}" AND ${tags}:"conf-none-${stamp}"`, [], true]);
    }
    // Only a free-form metadata map is stored as sent (a run's launch metadata is a structured object whose
    // `customer` map becomes the run's metadata, facts-shapes 3.13).
    const metadataSchema = deref(bodyProperties(ctx.suite, create).properties.metadata, ctx.suite.defs);
    if (takes('metadata') && metadataSchema.properties === undefined) {
      const keyed = await ctx.world.create(resource, { metadata: { [`conf_key_${stamp}`]: 1 } });
      ours.add(keyed.id);
      extra.push([`metadata:"conf_key_${stamp}"`, [keyed.id], true]);
    }
    // [expression, which of the records made here it keeps, whether nothing else may be listed]
    const cases: [string, string[], boolean][] = [
      [`${id} = "${a.id}"`, [a.id], true],
      [`NOT ${id} = "${a.id}"`, [...ours].filter((x) => x !== a.id), false],
      ...extra,
      [`${id} = "${a.id}" OR ${id} = '${b.id}'`, [a.id, b.id], true],
      [`(${id} = "${a.id}" OR ${id} = "${b.id}") AND ${id} != "${b.id}"`, [a.id], true],
      [`${id} = "${a.id}" ${id} = "${b.id}"`, [], true],
      [`${id} = null`, [], true],
      [`${id} != null AND ${id} = "${b.id}"`, [b.id], true],
    ];
    // Create times a few milliseconds apart compare as text (RFC 3339 in UTC).
    const [ta, tb] = [a.record.create_time, b.record.create_time];
    if (typeof ta === 'string' && typeof tb === 'string' && ta < tb) {
      cases.push([`create_time > "${ta}" AND ${id} : "${b.id}"`, [b.id], true], [`create_time <= "${ta}" AND (${id} = "${a.id}" OR ${id} = "${b.id}")`, [a.id], true]);
      cases.push([`create_time >= "${tb}" AND NOT create_time < "${tb}" AND ${id} = "${b.id}"`, [b.id], true]);
    }
    for (const [filter, keep, alone] of cases) {
      const got = await listed(filter);
      const mine = got.filter((x) => ours.has(x));
      if (JSON.stringify([...mine].sort()) !== JSON.stringify([...keep].sort())) fail(`${param}=${filter} kept ${JSON.stringify(mine)} of the records made here, expected ${JSON.stringify(keep)}`);
      if (alone && got.length !== keep.length) fail(`${param}=${filter} listed ${got.length} records, expected ${keep.length}: ${JSON.stringify(got.slice(0, 5))}`);
    }
    for (const bad of [`${id} =`, `(${id} = "x"`, `${id} = "x")`, 'no_such_field = 1', `${id} ~ 1`, 'NOT', '"x" = 1', `${id} "x"`]) {
      expectError(await send(ctx.target, ctx.route, { ...request, query: { ...request.query, [param]: bad } }), 400, 'INVALID_ARGUMENT', param, `${param}=${bad}`);
    }
  },
};

export const checks: Check[] = [orderBy, tagFilters, includeBuiltin, filterExpression];
