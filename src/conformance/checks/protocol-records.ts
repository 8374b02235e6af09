// What a write stores and what an answer presents, checked generically from the schemas and the x- vocabulary:
// server-set fields (name, lifecycle state, defaults, parent ids, update times), undeclared and writeOnly
// fields, and the scope of unique values (docs/sandbox.md "Protocol", "Resources"; seed "Resources and their fields").
import { takesJsonBody, takesObjectBody } from '../body-types.js';
import { validValue } from '../values/index.js';
import { expectError, expectSuccess, send } from '../http.js';
import { fail, lacks } from '../result.js';
import type { ResourceRow, Route, SuiteData } from '../suite-data.js';
import { bodyProperties, deref, fieldRules, ownParam, recordOf, referenceName } from '../world.js';
import type { Check, CheckContext } from './context.js';
import { currentRecord, prepare, requiredParams } from './happy.js';
import { defsRef } from '../../model/defs-ref.js';

type Json = Record<string, unknown>;

function resourceOf(route: Route, suite: SuiteData): ResourceRow | undefined {
  return suite.resources.find((r) => r.name === route.resource);
}

function schemaProps(ctx: CheckContext, schema: string): Record<string, Json> {
  const node = deref({ $ref: defsRef(schema) }, ctx.suite.defs);
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries((node.properties as Json | undefined) ?? {})) out[k] = deref(v, ctx.suite.defs);
  return out;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function plainCreate(route: Route): boolean {
  return route.action === 'create' && route.auth.length > 0 && route.aliasOf === null && route.body !== null && (route.body.exactlyOneOf ?? []).length === 0;
}

// Seed "Resources and their fields": `name` is `<collection>/<id>` (tags/<id>, webhooks/<id>, metrics/<id>,
// simulations/<id>); alerts start ACTIVE (states ACTIVE, DELETED) and docs/sandbox.md "Resources": "Workspaces
// created through the API are CUSTOM and ACTIVE"; a property left out takes its schema default (the spec's
// `default`); a nested record carries its parent's id (a baseline's metric_id).
export const createdRecord: Check = {
  name: 'records: a create answers the server-set fields: <collection>/<id> name, ACTIVE state, schema defaults, the parent id',
  needs: 'a create operation of a resource that needs a credential',
  applies: plainCreate,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const spec = await prepare(ctx);
    const body = (spec.body ?? {}) as Json;
    const answer = await send(ctx.target, ctx.route, spec);
    expectSuccess(answer, ctx.route, 'a create with the required fields only');
    const record = recordOf(ctx.route, answer) ?? lacks('the create answer does not carry the record');
    const id = String(record[resource.id]);
    ctx.world.created.push({ resource: resource.name, id, path: { ...(spec.path ?? {}), [ctx.world.idParam(resource.name)]: id }, record });
    const problems: string[] = [];
    if (resource.namePrefix !== null && resource.properties.includes('name') && record.name !== `${resource.namePrefix}/${id}`) problems.push(`name ${JSON.stringify(record.name)}, expected ${resource.namePrefix}/${id}`);
    const props = schemaProps(ctx, resource.schema);
    const lc = resource.lifecycle;
    if (lc?.field && body[lc.field] === undefined && Array.isArray(deref(props[lc.field], ctx.suite.defs).enum) && (deref(props[lc.field], ctx.suite.defs).enum as unknown[]).includes('ACTIVE') && record[lc.field] !== 'ACTIVE') {
      problems.push(`${lc.field} ${JSON.stringify(record[lc.field])}, expected ACTIVE`);
    }
    const requestProps = bodyProperties(ctx.suite, ctx.route).properties;
    const defaults = new Map<string, unknown>();
    for (const [k, node] of Object.entries(props)) if ('default' in node && !(k in requestProps)) defaults.set(k, node.default);
    for (const [k, node] of Object.entries(requestProps)) {
      const schema = deref(node, ctx.suite.defs);
      if ('default' in schema && resource.properties.includes(k)) defaults.set(k, schema.default);
    }
    for (const [k, value] of defaults) if (body[k] === undefined && !same(record[k], value)) problems.push(`${k} left out: expected the default ${JSON.stringify(value)}, got ${JSON.stringify(record[k])}`);
    for (const p of ctx.route.params.path) if (resource.properties.includes(p.name) && record[p.name] !== spec.path?.[p.name]) problems.push(`${p.name} ${JSON.stringify(record[p.name])}, expected the parent in the path ${spec.path?.[p.name]}`);
    if (problems.length > 0) fail(problems.join('; '));
  },
};

/** A value of a property's schema that the server could never have chosen itself, or undefined. */
function foreignValue(schema: Json, seed: number): unknown {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  if (!types.includes('string') || Array.isArray(schema.enum) || schema.const !== undefined) return undefined;
  if (schema.format === 'date-time') return '2001-02-03T04:05:06.000Z';
  if (typeof schema.pattern === 'string' || schema.format !== undefined) return undefined;
  return `undeclared-${seed}`;
}

// docs/sandbox.md "Protocol": "Fields the request schema does not declare are ignored (never stored)".
export const undeclaredFields: Check = {
  name: 'records: fields the request schema does not declare are ignored (server-set fields keep their values)',
  needs: 'a create or update body that allows undeclared properties',
  applies: (route, suite) => (plainCreate(route) || (route.action === 'update' && route.auth.length > 0)) && takesObjectBody(route) && deref(suite.schemas[route.id]?.body, suite.defs).additionalProperties !== false,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const spec = await prepare(ctx);
    const declared = bodyProperties(ctx.suite, ctx.route).properties;
    const props = schemaProps(ctx, resource.schema);
    const sent: Json = {};
    for (const k of resource.properties) {
      if (k in declared || props[k] === undefined) continue;
      const value = k === resource.id ? 'ZZZZZZZZZZZZZZZZZZZZZZ' : foreignValue(props[k]!, ctx.world.nextSeed());
      if (value !== undefined) sent[k] = value;
    }
    if (Object.keys(sent).length === 0) lacks(`${resource.name} has no server-set string field to try`);
    const answer = await send(ctx.target, ctx.route, { ...spec, body: { ...((spec.body ?? {}) as Json), ...sent } });
    expectSuccess(answer, ctx.route, `a body with undeclared fields ${Object.keys(sent).join(', ')}`);
    const record = recordOf(ctx.route, answer) ?? lacks('the answer does not carry the record');
    const stored = Object.entries(sent).filter(([k, v]) => same(record[k], v)).map(([k]) => k);
    if (stored.length > 0) fail(`undeclared fields were stored: ${stored.map((k) => `${k}=${JSON.stringify(sent[k])}`).join(', ')}`);
    if (ctx.route.action === 'update') {
      const own = ownParam(ctx.route);
      if (own && record[resource.id] !== spec.path?.[own]) fail(`the update answered ${resource.id} ${JSON.stringify(record[resource.id])} for ${spec.path?.[own]}`);
    }
  },
};

/** The body with every writeOnly string (at any depth the value reaches) set to `secret`. */
function withSecrets(value: unknown, node: unknown, defs: Record<string, unknown>, secret: string): { value: unknown; count: number } {
  const schema = deref(node, defs);
  if (schema.writeOnly === true && (value === undefined || typeof value === 'string')) return { value: secret, count: 1 };
  if (Array.isArray(value)) {
    let count = 0;
    const items = value.map((item) => {
      const r = withSecrets(item, schema.items, defs, secret);
      count += r.count;
      return r.value;
    });
    return { value: items, count };
  }
  if (value !== null && typeof value === 'object') {
    const out: Json = { ...(value as Json) };
    let count = 0;
    for (const [k, sub] of Object.entries((schema.properties as Json | undefined) ?? {})) {
      const r = withSecrets(out[k], sub, defs, secret);
      if (r.count > 0) {
        out[k] = r.value;
        count += r.count;
      }
    }
    return { value: out, count };
  }
  return { value, count: 0 };
}

function hasWriteOnly(node: unknown, defs: Record<string, unknown>, depth = 0): boolean {
  if (depth > 8) return false;
  const schema = deref(node, defs);
  if (schema.writeOnly === true) return true;
  if (schema.items !== undefined && hasWriteOnly(schema.items, defs, depth + 1)) return true;
  return Object.values((schema.properties as Json | undefined) ?? {}).some((sub) => hasWriteOnly(sub, defs, depth + 1));
}

// The spec's writeOnly (OpenAPI 3.1 / JSON Schema: "never returned"); seed "Webhook": "the token itself is never
// returned"; docs/sandbox.md "Resources": "auth_token is kept for deliveries and never answered".
export const writeOnlyFields: Check = {
  name: 'records: a writeOnly value is accepted and never answered (not by the write, the get or the list)',
  needs: 'a create or update body with a writeOnly property',
  applies: (route, suite) => (plainCreate(route) || (route.action === 'update' && route.auth.length > 0)) && takesJsonBody(route) && hasWriteOnly(suite.schemas[route.id]?.body, suite.defs),
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const spec = await prepare(ctx);
    const secret = `wo-secret-${ctx.world.nextSeed()}-x`;
    const maximal = (await ctx.world.bodyFor(ctx.route, {}, true)) ?? {};
    const { value, count } = withSecrets(maximal, ctx.suite.schemas[ctx.route.id]!.body, ctx.suite.defs, secret);
    if (count === 0 || ctx.route.validators.body?.validate(value).ok === false) lacks('cannot place a writeOnly value in a valid body');
    const answer = await send(ctx.target, ctx.route, { ...spec, body: value });
    expectSuccess(answer, ctx.route, 'a body with writeOnly values');
    if (answer.text.includes(secret)) fail(`the ${ctx.route.action} answer shows a writeOnly value: ${answer.text.slice(0, 200)}`);
    const record = recordOf(ctx.route, answer);
    const id = record?.[resource.id];
    const own = ownParam(ctx.world.route(resource.name, 'get') ?? ctx.route);
    const path = ctx.route.action === 'create' ? { ...(spec.path ?? {}), ...(own && typeof id === 'string' ? { [own]: id } : {}) } : (spec.path ?? {});
    const get = ctx.world.route(resource.name, 'get');
    if (get && typeof id === 'string') {
      const shown = await send(ctx.target, get, { path });
      expectSuccess(shown, get, 'getting the record');
      if (shown.text.includes(secret)) fail('the get shows a writeOnly value');
    }
    const list = ctx.world.route(resource.name, 'list');
    if (list && list.params.path.every((p) => path[p.name] !== undefined)) {
      const listed = await send(ctx.target, list, { path, ...requiredParams({ ...ctx, route: list }) });
      if (listed.text.includes(secret)) fail('the list shows a writeOnly value');
    }
  },
};

function uniqueFields(route: Route, suite: SuiteData): string[] {
  const props = bodyProperties(suite, route).properties;
  return Object.entries(fieldRules(suite, route))
    .filter(([k, r]) => r.unique !== undefined && k in props)
    .map(([k]) => k);
}

function uniqueValue(ctx: CheckContext, field: string): string {
  return `uq-${ctx.world.nextSeed()}-${field}`.slice(0, 40);
}

// Seed "Tags": 409 when "another active tag of the organization has that name": a record keeps its own value;
// tag_name is "normalized to lowercase before storage", so a name differing only in case is the same name.
export const uniqueOwnValue: Check = {
  name: 'records: an update may keep a unique value of its own record (in any letter case where it is normalised)',
  needs: 'an update operation with a unique field (x-unique)',
  applies: (route, suite) => route.action === 'update' && route.auth.length > 0 && uniqueFields(route, suite).length > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    for (const field of uniqueFields(ctx.route, ctx.suite)) {
      const value = uniqueValue(ctx, field);
      const holder = await ctx.world.create(resource.name, { [field]: value });
      expectSuccess(await send(ctx.target, ctx.route, { path: holder.path, body: { [field]: value } }), ctx.route, `saving ${field} ${value} on its own record`);
      if (fieldRules(ctx.suite, ctx.route)[field]?.normalize === 'lowercase') {
        const answer = await send(ctx.target, ctx.route, { path: holder.path, body: { [field]: value.toUpperCase() } });
        expectSuccess(answer, ctx.route, `saving ${field} ${value.toUpperCase()} on the record holding ${value}`);
      }
    }
  },
};

/** Required body fields naming other records: a second organization would have to hold them too. */
function requiredReferences(route: Route, suite: SuiteData): string[] {
  return bodyProperties(suite, route).required.filter((k) => referenceName(k) !== undefined);
}

// Seed "Tags": "another active tag of the organization"; x-unique scope (organization or workspace): the same
// value is free in another organization, and, for a workspace scope, in another workspace; a value differing only
// in letter case clashes where the field is normalised to lower case.
export const uniqueScope: Check = {
  name: 'records: a unique value clashes in its scope only (another organization, or another workspace for a workspace scope, may hold it)',
  needs: 'a top-level create operation with a unique field and no required references',
  applies: (route, suite) => plainCreate(route) && uniqueFields(route, suite).length > 0 && requiredReferences(route, suite).length === 0 && route.params.path.length === 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const rules = fieldRules(ctx.suite, ctx.route) as Record<string, { unique?: { scope?: string }; normalize?: string }>;
    const otherKey = ctx.target.otherApiKey ?? (ctx.target.control ? await ctx.target.control.createOtherOrganizationKey() : undefined);
    for (const field of uniqueFields(ctx.route, ctx.suite)) {
      const value = uniqueValue(ctx, field);
      await ctx.world.create(resource.name, { [field]: value });
      const fresh = async (): Promise<Json> => {
        const body = { ...((await ctx.world.bodyFor(ctx.route)) ?? {}), [field]: value };
        for (const k of Object.keys(body)) if (referenceName(k) !== undefined) delete body[k];
        return body;
      };
      if (rules[field]?.normalize === 'lowercase') {
        const upper = await send(ctx.target, ctx.route, { body: { ...(await fresh()), [field]: value.toUpperCase() } });
        expectError(upper, 409, 'ALREADY_EXISTS', field, `${field} ${value.toUpperCase()} while ${value} is held`);
      }
      if (otherKey) expectSuccess(await send(ctx.target, ctx.route, { key: otherKey, body: await fresh() }), ctx.route, `${field} ${value} in another organization`);
      const header = ctx.suite.workspaceHeader;
      if (rules[field]?.unique?.scope === 'workspace' && header && ctx.route.params.header.some((p) => p.name === header)) {
        const workspace = await ctx.world.create('workspace');
        expectSuccess(await send(ctx.target, ctx.route, { headers: { [header]: workspace.id }, body: await fresh() }), ctx.route, `${field} ${value} in another workspace`);
      }
    }
  },
};

// The same rule for a value that is already stored (loaded as stored through the control plane): the answers
// leave writeOnly paths out, at any depth (alert channels' config.auth_token; seed "Webhook": "never returned").
export const storedWriteOnly: Check = {
  name: 'records: a stored writeOnly value is never answered by get or list',
  needs: 'a get operation of a resource with writeOnly properties',
  applies: (route, suite) => route.action === 'get' && route.auth.length > 0 && route.aliasOf === null && (resourceOf(route, suite)?.writeOnly.length ?? 0) > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const secret = `stored-secret-${ctx.world.nextSeed()}-x`;
    const full = validValue({ $ref: defsRef(resource.schema) } as never, ctx.world.defs, { seed: ctx.world.nextSeed(), maximal: true }) ?? fail(`cannot build a ${resource.name}`);
    const { value, count } = withSecrets(full, { $ref: defsRef(resource.schema) }, ctx.suite.defs, secret);
    if (count === 0) fail(`no writeOnly path of ${resource.name} could be filled`);
    const data = { ...(value as Json) };
    delete data[resource.id];
    const stored = await ctx.world.loadRecord(resource.name, data);
    const own = ownParam(ctx.route)!;
    const shown = await send(ctx.target, ctx.route, { path: { [own]: stored.id } });
    expectSuccess(shown, ctx.route, `getting a ${resource.name} stored with writeOnly values`);
    if (shown.text.includes(secret)) fail(`the get shows a stored writeOnly value: ${shown.text.slice(0, 200)}`);
    const list = ctx.world.route(resource.name, 'list');
    if (list && list.params.path.length === 0) {
      const listed = await send(ctx.target, list, { ...requiredParams({ ...ctx, route: list }), ...(list.pagination ? { query: { [list.pagination.pageSize]: '100' } } : {}) });
      if (listed.text.includes(secret)) fail('the list shows a stored writeOnly value');
    }
  },
};

const CREATE_TIMES = ['created_at', 'create_time'];
const UPDATE_TIMES = ['updated_at', 'update_time', 'last_updated_at'];

// Seed "Resources and their fields": the audit fields created_at / create_time and updated_at / update_time /
// last_updated_at (workspace): an update moves the update time forward and leaves the create time.
export const updateTimes: Check = {
  name: 'records: an update moves the update time forward and keeps the create time',
  needs: 'an update operation of a resource with update-time fields (x-field-role)',
  applies: (route, suite) =>
    route.action === 'update' && route.auth.length > 0 && route.aliasOf === null && (route.body?.exactlyOneOf ?? []).length === 0 && (resourceOf(route, suite)?.properties.some((p) => UPDATE_TIMES.includes(p)) ?? false),
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const spec = await prepare(ctx);
    const before = await currentRecord(ctx, resource.name, spec.path ?? {});
    await new Promise((r) => setTimeout(r, 5));
    const answer = await send(ctx.target, ctx.route, spec);
    expectSuccess(answer, ctx.route, 'an update');
    const after = recordOf(ctx.route, answer) ?? lacks('the update answer does not carry the record');
    for (const f of resource.properties.filter((p) => UPDATE_TIMES.includes(p))) {
      if (typeof after[f] !== 'string' || typeof before[f] !== 'string') continue;
      if (!(Date.parse(after[f] as string) > Date.parse(before[f] as string))) fail(`${f} was ${before[f]} before the update and ${after[f]} after it`);
    }
    for (const f of resource.properties.filter((p) => CREATE_TIMES.includes(p))) {
      if (before[f] !== undefined && !same(after[f], before[f])) fail(`${f} changed on update: ${JSON.stringify(before[f])} -> ${JSON.stringify(after[f])}`);
    }
  },
};

export const checks: Check[] = [createdRecord, undeclaredFields, writeOnlyFields, storedWriteOnly, uniqueOwnValue, uniqueScope, updateTimes];
