// Not found and isolation: a well-formed id that names nothing is 404; another organization's resource is
// 404 on every operation that addresses it, and the error tells nothing about it (no id, no name).
import { validValue } from '../values/index.js';
import { expectError, send } from '../http.js';
import { fail, skip } from '../result.js';
import { ownParam, resourceForParam } from '../world.js';
import type { Check, CheckContext } from './context.js';
import { prepare, requiredParams } from './happy.js';

/**
 * Ids of the formats resources use (lengths 1-32, ULID-like, words) that no suite makes, for a check to try in turn
 * until a validator accepts one; the ids the World created are left out.
 */
export function unusedIdCandidates(ctx: CheckContext): string[] {
  const candidates: string[] = [];
  for (const length of [22, 26, 8, 24, 27, 1, 12, 16, 32]) for (const ch of ['Z', '9', 'z', 'Q']) candidates.push(ch.repeat(length));
  candidates.push('01JZZZZZZZZZZZZZZZZZZZZZZZ', 'does-not-exist');
  const taken = new Set(ctx.world.created.map((c) => c.id));
  return candidates.filter((c) => !taken.has(c));
}

/** A well-formed id (the path validator accepts it) that the suite never created. */
export function unusedId(ctx: CheckContext, param: string, path: Record<string, string>): string {
  const schema = ctx.suite.schemas[ctx.route.id]!.path[param];
  const generated = validValue(schema as never, ctx.world.defs, { seed: 999 });
  const candidates = unusedIdCandidates(ctx);
  const taken = new Set(ctx.world.created.map((c) => c.id));
  // The generated value itself last: a reversed one is not well-formed for every format (a UUID's hyphens move).
  if (typeof generated === 'string') candidates.push(generated.split('').reverse().join(''), generated);
  const validator = ctx.route.validators.path;
  // An integer parameter (an inferred resource's integer id, issue 27) is validated as the number the target reads.
  const typeOf = (name: string) => ctx.route.params.path.find((p) => p.name === name)?.type;
  if (typeOf(param) === 'integer') candidates.push('2147483647', '987654321', '1');
  const asSent = (name: string, c: string): unknown => ((typeOf(name) === 'integer' || typeOf(name) === 'number') && /^-?\d+$/.test(c) ? Number(c) : c);
  const sent = (c: string): Record<string, unknown> => Object.fromEntries(Object.entries({ ...path, [param]: c }).map(([k, v]) => [k, asSent(k, v)]));
  const ok = candidates.find((c) => !taken.has(c) && (validator === undefined || validator.validate(sent(c)).ok));
  if (ok === undefined) fail(`cannot build an unused, well-formed ${param}`);
  return ok;
}

export const unknownId: Check = {
  name: 'not found: an id that names nothing is 404',
  needs: 'a get, update or delete operation of a resource',
  // An operation answered with its example (a spec without our vocabulary, issue 27) has no records to miss, and
  // neither has one with no state, rule or example the sandbox could answer (an answer schema no valid value was
  // found for: 501 for any id, mercedes-benz's modelGET).
  applies: (route) => route.params.path.length > 0 && route.action !== 'create' && route.action !== 'list' && route.example === null && (route.action !== null || route.rules.length > 0),
  async run(ctx) {
    const own = ownParam(ctx.route)!;
    const spec = await prepare(ctx);
    const id = unusedId(ctx, own, spec.path ?? {});
    const answer = await send(ctx.target, ctx.route, { ...spec, path: { ...spec.path, [own]: id } });
    expectError(answer, 404, 'NOT_FOUND');
  },
};

export const otherOrganization: Check = {
  name: "isolation: another organization's resource is 404 and the error names nothing of it",
  needs: 'an operation addressing a resource record by a path parameter',
  // A create or list names its own record by no parameter: under a parent that names no resource (discord's
  // `{channel_id}` with no `/channels` collection, issue 27) there is no record of another organization to refuse.
  applies: (route, suite) =>
    route.auth.length > 0 &&
    route.example === null &&
    route.params.path.some((p) => resourceForParam(suite, p.name) !== undefined || (p.name === ownParam(route) && route.action !== 'create' && route.action !== 'list')) &&
    route.resource !== 'spec',
  async run(ctx) {
    const key = ctx.target.otherApiKey ?? (ctx.target.control ? await ctx.target.control.createOtherOrganizationKey() : undefined);
    if (!key) skip("needs another organization's key (--other-api-key) or the control plane");
    const spec = await prepare(ctx);
    const answer = await send(ctx.target, ctx.route, { ...spec, key });
    expectError(answer, 404, 'NOT_FOUND');
    for (const id of Object.values(spec.path ?? {})) if (answer.text.includes(id)) fail(`the 404 body mentions the id ${id}`);
  },
};

export const otherOrganizationList: Check = {
  name: "isolation: lists never show another organization's records",
  needs: 'a top-level list operation that needs a credential',
  applies: (route) => route.auth.length > 0 && route.action === 'list' && route.params.path.length === 0 && route.resource !== 'spec',
  async run(ctx) {
    const key = ctx.target.otherApiKey ?? (ctx.target.control ? await ctx.target.control.createOtherOrganizationKey() : undefined);
    if (!key) skip("needs another organization's key (--other-api-key) or the control plane");
    const mine = await ctx.world.ensure(ctx.route.resource!);
    // Required query parameters that name a parent (test_set_id) name ours: the other organization must not see it.
    const { query, headers } = requiredParams(ctx);
    for (const name of Object.keys(query)) {
      const parent = resourceForParam(ctx.suite, name);
      if (parent) query[name] = (await ctx.world.ensure(parent.name)).id;
    }
    const answer = await send(ctx.target, ctx.route, { key, query, headers });
    if (Object.keys(query).some((n) => resourceForParam(ctx.suite, n)) && answer.status === 404) return;
    if (answer.status >= 300) fail(`listing with the other key answered ${answer.status}`);
    if (answer.text.includes(mine.id)) fail(`the other organization's list shows ${mine.id}`);
  },
};
