// Lists, checked generically on every list operation (x-pagination and the response shape): page_size and
// page_token walk the whole list exactly once, next_page_token is left out on the last page, total_count counts
// the whole list, tokens the list did not issue are 400, query parameters that name a property filter by
// equality, and a nested collection lists only its parent's items (docs/sandbox.md "Protocol", "Lists").
import { validValue } from '../values/index.js';
import { nextPageParam, type PageRead } from '../paging.js';
import { expectEnvelope, expectError, expectSuccess, send, type Answer } from '../http.js';
import { fail, lacks, skip } from '../result.js';
import type { Route } from '../suite-data.js';
import { deref, resourceForParam, type Created } from '../world.js';
import type { Check, CheckContext } from './context.js';
import { requiredParams } from './happy.js';

type Item = Record<string, unknown>;

export function itemsOf(route: Route, answer: Answer): Item[] {
  const shape = route.success.shape;
  // A list answering a top-level array of its records (an inferred list, issue 27).
  if (shape.kind === 'items') {
    if (!Array.isArray(answer.body)) fail(`the list answer is not an array: ${answer.text.slice(0, 200)}`);
    return answer.body as Item[];
  }
  const key = shape.kind === 'list' ? shape.items : shape.kind === 'other' ? shape.keys[0] : undefined;
  const items = key === undefined ? undefined : (answer.body as Item | undefined)?.[key];
  if (!Array.isArray(items)) fail(`the list answer has no ${key ?? 'items'} array: ${answer.text.slice(0, 200)}`);
  return items as Item[];
}

/**
 * The next page's page parameter (paging.ts: from the next field, a link, or an offset or page-number list's total);
 * the spec: "next_page_token is null or absent on the last page".
 */
function tokenOf(route: Route, answer: Answer, read?: PageRead): string | undefined {
  return nextPageParam(route, answer.body, read);
}

/** Path and required query values that address the list: parents (in the path or a required query) that exist. */
export async function listRequest(ctx: CheckContext): Promise<{ path: Record<string, string>; query: Record<string, string>; headers: Record<string, string> }> {
  const { path } = await ctx.world.pathFor(ctx.route);
  const { query, headers } = requiredParams(ctx);
  for (const name of Object.keys(query)) {
    const parent = resourceForParam(ctx.suite, name);
    if (parent) query[name] = (await ctx.world.ensure(parent.name)).id;
  }
  return { path, query, headers };
}

/** Every item of the list, following next_page_token with the largest page. */
export async function wholeList(ctx: CheckContext, request: { path: Record<string, string>; query: Record<string, string>; headers: Record<string, string> }): Promise<Item[]> {
  const paging = ctx.route.pagination;
  const all: Item[] = [];
  let token: string | undefined;
  for (let i = 0; i < 50; i++) {
    const query = { ...request.query, ...(paging ? { [paging.pageSize]: String(maxPageSize(ctx)) } : {}), ...(token && paging ? { [paging.pageToken]: token } : {}) };
    const answer = await send(ctx.target, ctx.route, { ...request, query });
    expectSuccess(answer, ctx.route, 'listing');
    const items = itemsOf(ctx.route, answer);
    all.push(...items);
    token = paging ? tokenOf(ctx.route, answer, { ...(token === undefined ? {} : { sent: token }), size: maxPageSize(ctx), items: items.length }) : undefined;
    if (token === undefined) return all;
  }
  fail('the list did not end after 50 pages');
}

function pageSizeSchema(ctx: CheckContext): Record<string, unknown> {
  return deref(ctx.suite.schemas[ctx.route.id]!.query[ctx.route.pagination!.pageSize], ctx.suite.defs);
}

function maxPageSize(ctx: CheckContext): number {
  const max = pageSizeSchema(ctx).maximum;
  return typeof max === 'number' ? max : 100;
}

function idOf(ctx: CheckContext, item: Item): string {
  return JSON.stringify(item[ctx.world.resource(ctx.route.resource!).id]);
}

/** At least `count` records in the list, created through the API (or the control plane) where there are fewer. */
async function atLeast(ctx: CheckContext, request: Parameters<typeof wholeList>[1], count: number): Promise<Item[]> {
  let all = await wholeList(ctx, request);
  const resource = ctx.route.resource!;
  // Without a create operation, World.create would answer an existing record: load new ones instead.
  const make = ctx.world.route(resource, 'create') ? (o: Record<string, unknown>) => ctx.world.create(resource, o) : (o: Record<string, unknown>) => ctx.world.loadRecord(resource, o);
  for (let i = all.length; i < count; i++) await make(filterOverrides(ctx, request));
  if (all.length < count) all = await wholeList(ctx, request);
  if (all.length < count) skip(`could not make ${count} ${resource} records appear in the list (${all.length})`);
  return all;
}

/** Values a new record needs to show up in this list: the required query filters (test_set_id) it is listed by. */
function filterOverrides(ctx: CheckContext, request: { query: Record<string, string> }): Record<string, unknown> {
  const props = ctx.world.resource(ctx.route.resource!).properties;
  const out: Record<string, unknown> = {};
  for (const p of ctx.route.params.query) if (p.required && props.includes(p.name) && request.query[p.name] !== undefined) out[p.name] = request.query[p.name];
  return out;
}

// docs/sandbox.md "Protocol": "Lists: page size 50 unless page_size is given (1-100); the page token is opaque";
// the spec's PageToken: "The next_page_token of the previous page"; next_page_token "null or absent on the
// last page"; total_count is the number of records of the list (the alerts and baselines lists).
export const pagingWalk: Check = {
  name: 'lists: page_size and page_token visit every record once in order; no next_page_token on the last page; total_count counts the whole list',
  needs: 'a paged list (x-pagination, or inferred paging parameters and answer)',
  applies: (route) => route.action === 'list' && route.pagination !== null && route.auth.length > 0,
  async run(ctx) {
    const paging = ctx.route.pagination!;
    const request = await listRequest(ctx);
    // Where records are cheap to make (a create without rules or parents), enough of them for two-digit offsets.
    const create = ctx.world.route(ctx.route.resource!, 'create');
    const cheap = create !== undefined && create.rules.length === 0 && create.params.path.length === 0;
    const all = await atLeast(ctx, request, cheap ? 12 : 3);
    const size = Math.max(1, Math.floor(all.length / 12));
    const shape = ctx.route.success.shape;
    const totalKey = shape.kind === 'list' ? shape.total : null;
    const seen: Item[] = [];
    let token: string | undefined;
    for (let page = 0; page <= all.length; page++) {
      const answer = await send(ctx.target, ctx.route, { ...request, query: { ...request.query, [paging.pageSize]: String(size), ...(token ? { [paging.pageToken]: token } : {}) } });
      expectSuccess(answer, ctx.route, `page ${page + 1} (page_size ${size})`);
      const items = itemsOf(ctx.route, answer);
      if (items.length > size) fail(`page ${page + 1} holds ${items.length} records with page_size ${size}`);
      if (totalKey !== null && (answer.body as Item)[totalKey] !== all.length) fail(`page ${page + 1}: ${totalKey} is ${JSON.stringify((answer.body as Item)[totalKey])}, the list has ${all.length} records`);
      seen.push(...items);
      token = tokenOf(ctx.route, answer, { ...(token === undefined ? {} : { sent: token }), size, items: items.length });
      if (token === undefined) break;
      if (items.length < size) fail(`page ${page + 1} holds ${items.length} records (page_size ${size}) but has a next_page_token`);
    }
    const expected = all.map((i) => idOf(ctx, i));
    const got = seen.map((i) => idOf(ctx, i));
    if (JSON.stringify(got) !== JSON.stringify(expected)) fail(`paging with page_size ${size} gave ${got.length} records [${got.slice(0, 6).join(', ')}...], the whole list has ${expected.length} [${expected.slice(0, 6).join(', ')}...]`);
    const fallback = pageSizeSchema(ctx).default;
    if (typeof fallback === 'number') {
      const first = await send(ctx.target, ctx.route, request);
      expectSuccess(first, ctx.route, 'a page without page_size');
      const count = itemsOf(ctx.route, first).length;
      const read = { size: fallback, items: count };
      if (count !== Math.min(fallback, all.length)) fail(`without page_size a page holds ${count} records; the default page size is ${fallback} and the list has ${all.length}`);
      if ((tokenOf(ctx.route, first, read) !== undefined) !== all.length > fallback) fail(`without page_size: next_page_token ${JSON.stringify(tokenOf(ctx.route, first, read))} for a list of ${all.length} records (page size ${fallback})`);
    }
  },
};

// docs/sandbox.md "Protocol": "the page token is opaque and a token this list did not issue is 400 on
// page_token". Each of these is an issued token with something added or taken away.
export const foreignTokens: Check = {
  name: 'lists: a page token the list did not issue is 400 on page_token',
  needs: 'a list paged by opaque tokens',
  // Opaque tokens only: an offset or a page number is any integer its schema allows (issue 27).
  applies: (route) => route.action === 'list' && route.pagination?.style === 'token' && route.auth.length > 0,
  async run(ctx) {
    const paging = ctx.route.pagination!;
    const request = await listRequest(ctx);
    await atLeast(ctx, request, 2);
    const first = await send(ctx.target, ctx.route, { ...request, query: { ...request.query, [paging.pageSize]: '1' } });
    expectSuccess(first, ctx.route, 'the first page of one record');
    const issued = tokenOf(ctx.route, first);
    if (issued === undefined) fail('a list of two or more records gave no next_page_token with page_size 1');
    const forged = [`AAAA${issued}`, `${issued}AAAA`, issued.slice(1), `${issued.slice(0, -1)}${issued.endsWith('A') ? 'B' : 'A'}`, 'not-a-page-token', '0'];
    for (const token of forged) {
      if (token === issued || token === '') continue;
      const answer = await send(ctx.target, ctx.route, { ...request, query: { ...request.query, [paging.pageToken]: token } });
      expectError(answer, 400, 'INVALID_ARGUMENT', paging.pageToken, `page_token ${JSON.stringify(token)} (issued: ${JSON.stringify(issued)})`);
      expectEnvelope(answer, `page_token ${JSON.stringify(token)}`);
    }
  },
};

/** Query parameters that name a property of the listed resource (other than the paging ones). */
function filterParams(route: Route, properties: readonly string[]): string[] {
  const paging = route.pagination;
  return route.params.query.filter((p) => !p.array && properties.includes(p.name) && p.name !== paging?.pageSize && p.name !== paging?.pageToken).map((p) => p.name);
}

/** Two different values a record can hold for `param`: two existing referenced records, or two schema values. */
async function twoValues(ctx: CheckContext, param: string): Promise<[unknown, unknown] | undefined> {
  const referenced = resourceForParam(ctx.suite, param);
  if (referenced) return [(await ctx.world.ensure(referenced.name)).id, (await ctx.world.create(referenced.name)).id];
  const schema = deref(ctx.suite.schemas[ctx.route.id]!.query[param], ctx.suite.defs);
  if (Array.isArray(schema.enum) && schema.enum.length >= 2) return [schema.enum[0], schema.enum[1]];
  const a = validValue(schema as never, ctx.world.defs, { seed: ctx.world.nextSeed() });
  for (let i = 0; i < 10; i++) {
    const b = validValue(schema as never, ctx.world.defs, { seed: ctx.world.nextSeed() });
    if (a !== undefined && b !== undefined && JSON.stringify(a) !== JSON.stringify(b)) return [a, b];
  }
  return undefined;
}

// docs/sandbox.md "Protocol": "Query parameters that name a resource property filter by equality."
export const listFilters: Check = {
  name: 'lists: a query parameter naming a property lists exactly the records holding that value',
  needs: 'a list with a query parameter named like a property of its records',
  applies: (route, suite) => route.action === 'list' && route.auth.length > 0 && filterParams(route, suite.resources.find((r) => r.name === route.resource)?.properties ?? []).length > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    if (!ctx.world.route(resource.name, 'create')) lacks(`${resource.name} records cannot be created with chosen values through the API`);
    const request = await listRequest(ctx);
    const listedBy = filterOverrides(ctx, request);
    const unset: string[] = [];
    let tested = 0;
    for (const param of filterParams(ctx.route, resource.properties)) {
      const values = await twoValues(ctx, param);
      if (!values) continue;
      const made: Created[] = [];
      for (const value of values) made.push(await ctx.world.create(resource.name, { ...listedBy, [param]: value }));
      // A create that cannot set the property (discord's entitlement create takes no `user_id`; the server sets
      // it) makes no record holding the chosen value: that filter cannot be checked with records of our choosing.
      if (made.some((m, i) => JSON.stringify(m.record[param]) !== JSON.stringify(values[i]))) {
        unset.push(param);
        continue;
      }
      tested++;
      for (const [i, value] of values.entries()) {
        const wanted = String(value);
        const items = await wholeList(ctx, { ...request, query: { ...request.query, [param]: wanted } });
        const odd = items.find((item) => JSON.stringify(item[param]) !== JSON.stringify(value));
        if (odd) fail(`${param}=${wanted} listed a record with ${param} ${JSON.stringify(odd[param])}`);
        const ids = new Set(items.map((item) => item[resource.id]));
        if (!ids.has(made[i]!.id)) fail(`${param}=${wanted} left out the record ${made[i]!.id} holding that value`);
        if (ids.has(made[1 - i]!.id)) fail(`${param}=${wanted} listed the record ${made[1 - i]!.id} holding ${JSON.stringify(values[1 - i])}`);
      }
    }
    if (tested === 0 && unset.length > 0) lacks(`a create sets none of ${unset.join(', ')} to a chosen value`);
  },
};

/** The path parameters of a nested list that name a parent resource (metric_id of the baselines). */
function parentParams(route: Route, suite: Parameters<Check['applies']>[1]): string[] {
  return route.params.path.filter((p) => resourceForParam(suite, p.name) !== undefined).map((p) => p.name);
}

// A nested collection belongs to its parent: seed "Metrics and baselines" (GET .../baselines/{baseline_id}:
// "404 (metric not found)"); the route's documented 404 for a parent that does not exist.
export const nestedLists: Check = {
  name: "lists: a nested list shows only its parent's records, and a parent that does not exist is 404",
  needs: 'a list nested under a parent resource\'s path parameter',
  applies: (route, suite) => route.action === 'list' && route.auth.length > 0 && parentParams(route, suite).length > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const [param] = parentParams(ctx.route, ctx.suite);
    const parent = resourceForParam(ctx.suite, param!)!;
    const mine = await ctx.world.create(resource.name);
    const other = await ctx.world.create(parent.name);
    const request = await listRequest(ctx);
    const otherList = await wholeList(ctx, { ...request, path: { ...request.path, [param!]: other.id } });
    if (otherList.some((item) => item[resource.id] === mine.id)) fail(`the list under another ${parent.name} shows ${mine.id} of ${mine.path[param!]}`);
    const own = await wholeList(ctx, { ...request, path: { ...request.path, [param!]: mine.path[param!]! } });
    if (!own.some((item) => item[resource.id] === mine.id)) fail(`the list under its own ${parent.name} leaves out ${mine.id}`);
    if (ctx.route.errors.includes(404)) {
      const answer = await send(ctx.target, ctx.route, { ...request, path: { ...request.path, [param!]: unusedLike(mine.path[param!]!) } });
      expectError(answer, 404, 'NOT_FOUND', undefined, `a list under a ${parent.name} that does not exist`);
      expectEnvelope(answer, `a list under a ${parent.name} that does not exist`);
    }
  },
};

/** An id of the same shape that names nothing: the same length, other characters. */
function unusedLike(id: string): string {
  // An integer id (issue 27) stays an integer: nines, or eights where the id is all nines.
  if (/^\d+$/.test(id)) return (/^9+$/.test(id) ? '8' : '9').repeat(id.length);
  return id.replace(/[A-Za-z0-9]/g, (c, i: number) => (i % 2 === 0 ? 'Z' : '9'));
}

export const checks: Check[] = [pagingWalk, foreignTokens, listFilters, nestedLists];
