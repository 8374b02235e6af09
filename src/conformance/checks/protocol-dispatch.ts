// How requests are answered, checked generically on the operations the route data selects: each answer names its
// request (X-Request-Id); the refusals of an exactly-one-of body are complete error envelopes; null for a tracked
// field that holds no value is a no-op save; a boolean query parameter sent as false is its default; built-in
// records list no versions however they are marked.
import { expectEnvelope, expectError, expectSuccess, send, sendExact, type Answer } from '../http.js';
import { fail, lacks } from '../result.js';
import type { Route, SuiteData } from '../suite-data.js';
import { bodyProperties, fieldRules, recordOf } from '../world.js';
import type { Check, CheckContext } from './context.js';
import { prepare } from './happy.js';

function requestId(answer: Answer, what: string): string {
  const id = answer.headers.get('x-request-id');
  if (id === null || id.trim() === '') fail(`${what} (${answer.status}) carries no X-Request-Id header`);
  return id;
}

// api-facts.md section 3 "Conventions": clients read the X-Request-Id header of an answer, errors included
// (Terraform's internal/client/errors.go); the generated client keeps it as the error's requestId "for support
// requests". An id that names a request is useless for support unless each request gets its own.
export const requestIds: Check = {
  name: 'protocol: every answer, success or error, carries an X-Request-Id of its own',
  needs: 'a top-level GET operation without required query parameters that needs a credential',
  applies: (route) => route.method === 'GET' && route.auth.length > 0 && route.params.path.length === 0 && route.params.query.every((p) => !p.required),
  async run(ctx) {
    const spec = await prepare(ctx);
    const ok = await send(ctx.target, ctx.route, spec);
    if (ok.status !== ctx.route.success.status) fail(`a valid request answered ${ok.status}: ${ok.text.slice(0, 200)}`);
    const again = await send(ctx.target, ctx.route, spec);
    const unauthenticated = await send(ctx.target, ctx.route, { ...spec, key: null });
    expectError(unauthenticated, 401, 'UNAUTHENTICATED', undefined, 'no key');
    const unknownPath = await sendExact(ctx.target, ctx.route, { method: 'GET', rawPath: `/no-such-collection-${ctx.world.nextSeed()}` });
    expectError(unknownPath, 404, 'NOT_FOUND', undefined, 'an unknown path');
    const ids = [requestId(ok, 'a valid request'), requestId(again, 'the same request again'), requestId(unauthenticated, 'a request without a key'), requestId(unknownPath, 'a request for an unknown path')];
    if (new Set(ids).size !== ids.length) fail(`four requests were given the request ids ${JSON.stringify(ids)}: each request needs its own`);
  },
};

// Seed "Conversation audio": "Both or neither given: 400 INVALID_ARGUMENT"; seed "Errors": the envelope of every
// error, "detail field names the offender". Each refusal is the full envelope: a message and, per detail, a
// description saying why (x-vocabulary: "both or neither is 400 INVALID_ARGUMENT").
export const exactlyOneOfEnvelope: Check = {
  name: 'protocol: both or neither of an exactly-one-of pair is a complete 400 envelope, one detail per field concerned',
  needs: 'a body with an exactly-one-of group (x-exactly-one-of)',
  applies: (route) => route.auth.length > 0 && (route.body?.exactlyOneOf ?? []).length > 1,
  async run(ctx) {
    const spec = await prepare(ctx);
    const one = ctx.route.body!.exactlyOneOf;
    const body = { ...(spec.body as Record<string, unknown>) };
    const given = one.find((k) => body[k] !== undefined);
    if (given === undefined) fail(`the valid body carries none of ${one.join(', ')}`);
    const neither: Record<string, unknown> = { ...body };
    for (const k of one) delete neither[k];
    const both: Record<string, unknown> = { ...body };
    for (const k of one) both[k] = body[given];
    for (const [what, sent] of [
      ['neither field', neither],
      ['both fields', both],
    ] as const) {
      const answer = await send(ctx.target, ctx.route, { ...spec, body: sent });
      expectError(answer, 400, 'INVALID_ARGUMENT', undefined, what);
      expectEnvelope(answer, what);
      for (const k of one) expectError(answer, 400, 'INVALID_ARGUMENT', k, `${what} (detail on ${k})`);
    }
  },
};

/** Tracked fields of the route's resource that the update body declares with x-null clear. */
function clearableTracked(route: Route, suite: SuiteData): string[] {
  const resource = suite.resources.find((r) => r.name === route.resource);
  const tracked = new Set(resource?.versioned?.tracked ?? []);
  const props = bodyProperties(suite, route).properties;
  return Object.entries(fieldRules(suite, route))
    .filter(([field, rule]) => rule.null === 'clear' && tracked.has(field) && field in props)
    .map(([field]) => field);
}

async function versionCount(ctx: CheckContext, history: Route, path: Record<string, string>): Promise<number> {
  const answer = await send(ctx.target, history, { path });
  expectSuccess(answer, history, 'listing versions');
  const shape = history.success.shape;
  const key = shape.kind === 'other' ? (shape.keys[0] ?? 'versions') : shape.kind === 'list' ? shape.items : 'versions';
  const versions = (answer.body as Record<string, unknown> | undefined)?.[key];
  if (!Array.isArray(versions)) fail(`the versions answer has no ${key} list: ${answer.text.slice(0, 200)}`);
  return versions.length;
}

// Seed "Resource version history" 2: "Cosmetic or no-op saves (... saving with no meaningful change) create no
// version"; x-vocabulary (docs/x-vocabulary.md): x-null `clear` means "null removes the value". Removing a value
// the record does not hold changes nothing, so it records no version, and the field still holds no value.
export const clearNothing: Check = {
  name: 'values: null for a tracked field that holds no value is a no-op save (no new version, still no value)',
  needs: 'an update of a versioned resource with a clearable tracked field (x-versioned)',
  applies: (route, suite) => route.action === 'update' && route.auth.length > 0 && clearableTracked(route, suite).length > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const history = ctx.suite.routes.find((r) => r.id === resource.versioned?.history) ?? lacks(`${resource.name} has no versions operation`);
    const get = ctx.world.route(resource.name, 'get') ?? lacks(`${resource.name} has no get operation`);
    const created = await ctx.world.create(resource.name);
    const before = await send(ctx.target, get, { path: created.path });
    expectSuccess(before, get, `reading the new ${resource.name}`);
    const empty = clearableTracked(ctx.route, ctx.suite).filter((f) => recordOf(get, before)?.[f] === undefined);
    if (empty.length === 0) lacks(`a new ${resource.name} holds a value in every clearable tracked field`);
    const count = await versionCount(ctx, history, created.path);
    for (const field of empty) {
      const answer = await send(ctx.target, ctx.route, { path: created.path, body: { [field]: null } });
      expectSuccess(answer, ctx.route, `${field}: null on a ${resource.name} without ${field}`);
      const after = recordOf(ctx.route, answer)?.[field];
      if (after !== undefined && after !== null) fail(`${field}: null on a ${resource.name} without ${field} answered ${field} ${JSON.stringify(after)}`);
      const now = await versionCount(ctx, history, created.path);
      if (now !== count) fail(`${field}: null on a ${resource.name} without ${field} changed nothing, yet the versions went from ${count} to ${now}`);
    }
  },
};

/** Optional boolean query parameters of a GET operation whose schema default is false. */
function falseByDefault(route: Route, suite: SuiteData): string[] {
  const schemas = suite.schemas[route.id]?.query ?? {};
  return route.params.query
    .filter((p) => p.type === 'boolean' && !p.array && !p.required)
    .filter((p) => (schemas[p.name] as { default?: unknown } | undefined)?.default === false)
    .map((p) => p.name);
}

// The spec declares these parameters boolean with default false; on the wire `false` is the boolean false, so
// `?p=false` answers exactly as leaving p out (and `?p=true` may answer more: archived sounds, built-in metrics).
// This check runs after the rule checks of the operation (it is registered last), so the records that only `true`
// shows (an archived custom sound) may exist by then.
export const booleanFalse: Check = {
  name: 'protocol: a boolean query parameter sent as false answers as leaving it out (its default false)',
  needs: 'a top-level GET operation with a boolean query parameter defaulting to false',
  applies: (route, suite) => route.method === 'GET' && route.auth.length > 0 && route.params.path.length === 0 && falseByDefault(route, suite).length > 0,
  async run(ctx) {
    const spec = await prepare(ctx);
    const without = await send(ctx.target, ctx.route, spec);
    expectSuccess(without, ctx.route, 'without the parameter');
    for (const name of falseByDefault(ctx.route, ctx.suite)) {
      const answer = await send(ctx.target, ctx.route, { ...spec, query: { ...spec.query, [name]: 'false' } });
      expectSuccess(answer, ctx.route, `${name}=false`);
      if (answer.text !== without.text) fail(`${name}=false answered differently from leaving ${name} out: ${answer.text.slice(0, 200)} vs ${without.text.slice(0, 200)}`);
    }
  },
};

// Seed "Versions listing": "built-in metrics return an empty list". docs/sandbox.md "Metrics" (the sandbox's
// choice): built-in metrics are platform records with is_builtin: true (its x-field-role builtin-flag); as in the metric-restore rule check, a
// platform record and a record the API shows with is_builtin: true are each a built-in, so each lists no versions
// even when a first version was stored with it.
export const builtinEitherWay: Check = {
  name: 'versions: a platform record and a record with is_builtin: true each list no versions',
  needs: 'a history listing of a versioned resource with a built-in flag (x-field-role)',
  applies: (route, suite) => {
    const resource = suite.resources.find((r) => r.name === route.resource);
    return route.auth.length > 0 && resource?.versioned?.history === route.id && resource.roles.builtinFlag !== null;
  },
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const flag = resource.roles.builtinFlag!;
    const cases: [string, Record<string, unknown>, { platform?: boolean }][] = [
      [`a platform record with ${flag}: false`, { [flag]: false }, { platform: true }],
      [`a record of the organization with ${flag}: true`, { [flag]: true }, {}],
    ];
    for (const [what, data, options] of cases) {
      const record = await ctx.world.loadRecord(resource.name, data, { ...options, with_history: true });
      const count = await versionCount(ctx, ctx.route, record.path);
      if (count !== 0) fail(`${what} lists ${count} versions; a built-in ${resource.name} lists none`);
    }
  },
};

export const checks: Check[] = [requestIds, exactlyOneOfEnvelope, clearNothing, booleanFalse, builtinEitherWay];
