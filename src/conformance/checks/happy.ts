// The happy path of every operation: a valid request, built from the schemas and from resources created
// first, answers the documented status with a body that validates against the spec. Operations that change
// or remove their resource work on a fresh one.
import { takesObjectBody } from '../body-types.js';
import { validValue } from '../values/index.js';
import { expectSuccess, isJsonMediaType, send, type RequestSpec } from '../http.js';
import { fail } from '../result.js';
import type { Route } from '../suite-data.js';
import { bodyProperties, deref, ownParam, recordOf, type World } from '../world.js';
import type { Check, CheckContext } from './context.js';

/** Required query and header parameters with valid values. */
export function requiredParams(ctx: CheckContext): { query: Record<string, string>; headers: Record<string, string> } {
  const schemas = ctx.suite.schemas[ctx.route.id]!;
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (const p of ctx.route.params.query) {
    if (!p.required) continue;
    const v = validValue(schemas.query[p.name] as never, ctx.world.defs, { seed: 7 });
    if (p.object && v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(query, objectQuery(p.name, p.object.style, p.explode, v as Record<string, unknown>));
    else query[p.name] = Array.isArray(v) ? v.join(',') : String(v);
  }
  for (const p of ctx.route.params.header) {
    if (!p.required) continue;
    headers[p.name] = String(validValue(schemas.header[p.name] as never, ctx.world.defs, { seed: 7 }));
  }
  return { query, headers };
}

/**
 * An object-valued query parameter's value as its style writes it (ParamRow.object), as the generated client does
 * but for a list, which goes as one comma-separated value (the sandbox reads either).
 */
export function objectQuery(name: string, style: 'deepObject' | 'form', explode: boolean, value: Record<string, unknown>): Record<string, string> {
  const text = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  const out: Record<string, string> = {};
  const deep = (prefix: string, object: Record<string, unknown>): void => {
    for (const [k, v] of Object.entries(object)) {
      if (v === undefined || v === null) continue;
      if (Array.isArray(v)) out[`${prefix}[${k}]`] = v.map(text).join(',');
      else if (typeof v === 'object') deep(`${prefix}[${k}]`, v as Record<string, unknown>);
      else out[`${prefix}[${k}]`] = String(v);
    }
  };
  if (style === 'deepObject') deep(name, value);
  else if (explode) for (const [k, v] of Object.entries(value)) out[k] = Array.isArray(v) ? v.map(text).join(',') : text(v);
  else out[name] = Object.entries(value).flatMap(([k, v]) => [k, text(v)]).join(',');
  return out;
}

/** A valid body for the route; for an exactly-one-of body, exactly the first of its fields. */
export async function validBody(world: World, route: Route, maximal = false): Promise<Record<string, unknown> | undefined> {
  const body = await world.bodyFor(route, {}, maximal);
  const one = route.body?.exactlyOneOf ?? [];
  if (body && one.length > 0) {
    for (const k of one) delete body[k];
    const chosen = validValue((bodyProperties(world.suite, route).properties[one[0]!] ?? {}) as never, world.defs, { seed: 3 });
    if (chosen === undefined) fail(`cannot build a valid ${one[0]} for ${route.id}`);
    body[one[0]!] = chosen;
  }
  return body;
}

function mutates(route: Route): boolean {
  return route.method !== 'GET' && route.action !== 'create' && route.action !== 'list';
}

/** Brings a fresh resource into the state the route acts on (deleted for restore, two versions for revert). */
export async function prepare(ctx: CheckContext): Promise<RequestSpec> {
  const { route, world } = ctx;
  const { path, created } = await world.pathFor(route, { fresh: mutates(route) });
  const spec: RequestSpec = { path, ...requiredParams(ctx) };
  if (route.action === 'restore' && created) {
    const del = world.route(route.resource!, 'delete');
    if (del) expectSuccess(await send(ctx.target, del, { path: created.path }), del, 'deleting before restore');
  }
  if (route.action === 'revert' && created) {
    const versionParam = route.params.path.find((p) => p.name !== ownParam(route))?.name;
    const oldest = await versionToRevert(ctx, created.path);
    if (versionParam) spec.path = { ...spec.path, [versionParam]: oldest };
  }
  const body = await validBody(world, route);
  if (body !== undefined) spec.body = body;
  return spec;
}

/** Makes a tracked change (so there are two versions) and answers the first version's id. */
export async function versionToRevert(ctx: CheckContext, path: Record<string, string>): Promise<string> {
  const { world } = ctx;
  const resource = world.resource(ctx.route.resource!);
  const update = world.route(resource.name, 'update');
  const history = resource.versioned?.history ? ctx.suite.routes.find((r) => r.id === resource.versioned!.history) : undefined;
  if (!update || !history) fail(`${resource.name} has no update or history operation to make versions with`);
  const changed = await trackedChange(world, update, resource.versioned!.tracked, await currentRecord(ctx, resource.name, path));
  expectSuccess(await send(ctx.target, update, { path, body: changed }), update, 'a tracked change');
  const listed = await send(ctx.target, history, { path });
  expectSuccess(listed, history, 'listing versions');
  const key = history.success.shape.kind === 'other' ? (history.success.shape.keys[0] ?? 'versions') : 'versions';
  const versions = (listed.body as Record<string, { ulid: string; version_number: number }[]>)[key] ?? [];
  const oldest = versions[versions.length - 1];
  if (!oldest || versions.length < 2) fail(`expected at least 2 versions after a tracked change, got ${versions.length}`);
  return oldest.ulid;
}

/** An update body changing one tracked field to a valid value different from the current one. */
export async function trackedChange(world: World, update: Route, tracked: string[], current: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const properties = bodyProperties(world.suite, update).properties;
  // Free-text fields first: an enum value may be an alias the API normalises to the current value.
  const plain = (f: string): number => {
    const schema = deref(properties[f], world.suite.defs);
    return Array.isArray(schema.enum) || typeof schema.$ref === 'string' ? 1 : JSON.stringify(schema.type ?? '').includes('string') ? 0 : 1;
  };
  for (const field of [...tracked].sort((a, b) => plain(a) - plain(b))) {
    const prop = properties[field];
    if (prop === undefined) continue;
    for (let i = 0; i < 25; i++) {
      const value = validValue(prop as never, world.defs, { seed: world.nextSeed(), maximal: i % 2 === 0 });
      if (value === undefined || value === null) continue;
      if (JSON.stringify(value) !== JSON.stringify(current[field])) return { [field]: value };
    }
  }
  fail(`no tracked field of ${update.resource} can be changed through ${update.id}`);
}

/** The resource as the API shows it now (through its get operation). */
export async function currentRecord(ctx: CheckContext, resource: string, path: Record<string, string>): Promise<Record<string, unknown>> {
  const get = ctx.world.route(resource, 'get');
  if (!get) return {};
  const answer = await send(ctx.target, get, { path });
  expectSuccess(answer, get, `getting the ${resource}`);
  return recordOf(get, answer) ?? {};
}

export const happyPath: Check = {
  name: 'happy path: documented status, body matches the spec',
  needs: 'an operation the sandbox acts on (a resource action, inferred or x-operation)',
  applies: (route) => route.action !== null,
  async run(ctx) {
    const spec = await prepare(ctx);
    const answer = await send(ctx.target, ctx.route, spec);
    expectSuccess(answer, ctx.route);
    // Seed "Endpoints": bodies are JSON: a JSON answer says so in its Content-Type; a 204 has no body at all.
    if (answer.body !== undefined && !isJsonMediaType(answer.headers.get('content-type'))) fail(`a JSON answer came with Content-Type ${answer.headers.get('content-type')}`);
    if (answer.status !== 204 && isJsonMediaType(ctx.route.success.media) && answer.body === undefined && isJsonMediaType(answer.headers.get('content-type'))) fail(`a ${answer.status} answer without a JSON body: ${JSON.stringify(answer.text.slice(0, 100))}`);
    if (answer.status === 204 && answer.text !== '') fail(`a 204 answer has a body: ${answer.text.slice(0, 100)}`);
    if (ctx.route.action === 'create') {
      const resource = ctx.world.resource(ctx.route.resource!);
      const record = recordOf(ctx.route, answer);
      const id = record?.[resource.id];
      if (typeof id === 'string') ctx.world.created.push({ resource: resource.name, id, path: { ...(spec.path ?? {}), [ctx.world.idParam(resource.name)]: id }, record: record! });
    }
  },
};

export const happyPathMaximal: Check = {
  name: 'happy path: a body with every optional field',
  needs: 'a create or update operation with a JSON or form body',
  applies: (route) => takesObjectBody(route) && (route.action === 'create' || route.action === 'update') && (route.body.exactlyOneOf ?? []).length === 0,
  async run(ctx) {
    const spec = await prepare(ctx);
    const body = await ctx.world.bodyFor(ctx.route, {}, true);
    const answer = await send(ctx.target, ctx.route, { ...spec, ...(body === undefined ? {} : { body }) });
    expectSuccess(answer, ctx.route);
  },
};
