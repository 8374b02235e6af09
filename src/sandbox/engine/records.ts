// Generic record semantics, all driven by the route table: who may see a record (organization and
// workspace scoping, lifecycle hidden states), how a record is presented (only the schema's properties),
// server-set fields, normalisation and uniqueness.
import { alreadyExists, ApiFailure, notFound } from '../errors.js';
import { mintId } from '../ids.js';
import type { Json, StoredRecord } from '../storage/store.js';
import { PLATFORM_ORG } from '../storage/store.js';
import type { RequestContext, Runtime } from './context.js';
import type { FieldRule, ResourceRow, Route } from './tables.js';
import { FILL_ITEMS } from '../../data/fill-items.js';
import { setOwn } from '../../data/own-property.js';
import { lastTemplate } from '../../data/path-template.js';
import { pluralResourceFor } from '../../data/param-resource.js';

/** The one data-safe key writer, re-exported for this layer's modules. */
export { setOwn };

export const SANDBOX_USER = 'sandbox-user@example.com';

export function clone<T>(value: T): T {
  return value === null || typeof value !== 'object' ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Json = {};
    // An undefined value is kept as undefined, which JSON.stringify leaves out like a missing key.
    for (const key of Object.keys(value).sort()) setOwn(out, key, canonical((value as Json)[key]));
    return out;
  }
  return value;
}

/** The collection segment of a resource's paths (`tags` for `/tags/{tag_id}`), from its list or get route. */
export function collectionOf(runtime: Runtime, resource: string): string {
  const route = runtime.tables.routes.find((r) => r.resource === resource && (r.action === 'get' || r.action === 'list') && r.aliasOf === null);
  const first = route?.path.split('/').find((s) => s !== '' && !s.startsWith('{'));
  return first ?? `${resource}s`;
}

/** Whether a lifecycle state hides the record (workspace DELETED, alert DELETED, ...). */
export function isHidden(resource: ResourceRow, record: StoredRecord): boolean {
  if (record.deleted) return true;
  const lc = resource.lifecycle;
  return lc !== null && lc.field !== null && lc.hidden.includes(String(record.data[lc.field]));
}

/** Organization and workspace scoping: another organization's record, or another workspace's, is not there. */
export function inScope(ctx: RequestContext, resource: ResourceRow, record: StoredRecord): boolean {
  if (record.org !== ctx.org && record.org !== PLATFORM_ORG) return false;
  if (resource.scope !== 'workspace' || record.org === PLATFORM_ORG) return true;
  if (record.workspace === null) return ctx.workspaceIsDefault;
  return record.workspace === ctx.workspace;
}

/** The record named by the route's first path parameter, in scope; hidden ones only when asked for. */
export function findRecord(ctx: RequestContext, resourceName: string, id: unknown, options: { includeHidden?: boolean; field?: string } = {}): StoredRecord {
  const resource = ctx.runtime.resource(resourceName);
  // A path id of an integer parameter arrives coerced to a number; records are kept under the id's text.
  const record = typeof id === 'string' || typeof id === 'number' ? ctx.runtime.store.get(resourceName, String(id)) : undefined;
  if (!record || !inScope(ctx, resource, record) || (!options.includeHidden && isHidden(resource, record))) {
    throw notFound(options.field ?? null, resourceName.replace(/[_-]/g, ' '));
  }
  return record;
}

/**
 * The path parameter that names the operation's own resource: `<resource>_id`; else, under a parent
 * (`/owners/{ownerId}/pets/{petId}`, an inferred nested collection: issue 27), the one that ends the path; else the first.
 */
export function firstPathParam(route: Route): string | undefined {
  const own = route.resource === null ? undefined : `${route.resource.replace(/-/g, '_')}_id`;
  const named = route.params.path.find((p) => p.name === own);
  if (named) return named.name;
  const ending = lastTemplate(route.path)?.name;
  const last = route.params.path.length > 1 ? route.params.path.find((p) => p.name === ending) : undefined;
  return (last ?? route.params.path[0])?.name;
}

/**
 * The parents of an inferred nested resource: the route's path parameters other than its own that are no property
 * of the resource (ours name parents by properties, `metric_id`). Their values are kept on the record, never
 * answered, and scope it: listed and found under the same parents only (issue 27).
 */
export function hiddenParents(resource: ResourceRow, route: Route): string[] {
  const own = route.action === 'create' || route.action === 'list' ? undefined : firstPathParam(route);
  return route.params.path.map((p) => p.name).filter((name) => name !== own && !resource.properties.includes(name));
}

/** A parent resource named by a path parameter: `<resource>_id`, else one named by its plural (`guild_id`: `guilds`), else (an inferred one) the resource whose get path ends with it. */
export function parentResource(runtime: Runtime, param: string): ResourceRow | undefined {
  const resources = runtime.tables.resources;
  const named = resources.find((r) => `${r.name.replace(/-/g, '_')}_id` === param) ?? pluralResourceFor(resources, runtime.tables.routes, param);
  if (named || param.endsWith('_id')) return named;
  const getter = runtime.tables.routes.find((r) => r.action === 'get' && r.aliasOf === null && r.resource !== null && lastTemplate(r.path)?.name === param);
  return getter ? resources.find((r) => r.name === getter.resource) : undefined;
}

/**
 * Only the properties of the resource's schema, in schema order, without writeOnly ones at any depth (a
 * channel's auth_token); internal state (tokens, flags) stays in storage.
 */
export function present(resource: ResourceRow, record: StoredRecord): Json {
  const out: Json = {};
  for (const prop of resource.properties) {
    const value = record.data[prop];
    // Shared, not copied: the answer is serialised at once.
    if (value !== undefined) setOwn(out, prop, value);
  }
  if (resource.writeOnly.length === 0) return out;
  // A copy loses the secrets, so the stored data stays whole.
  const answer = clone(out);
  for (const path of resource.writeOnly) dropPath(answer, path);
  return answer;
}

/** Deletes what a writeOnly path (property names, `[]` for every item of an array) reaches; paths are never empty. */
export function dropPath(value: unknown, path: readonly string[]): void {
  if (value === null || typeof value !== 'object') return;
  const [head, ...rest] = path;
  if (head === '[]') {
    if (Array.isArray(value)) for (const item of value) dropPath(item, rest);
    return;
  }
  if (!Object.prototype.hasOwnProperty.call(value, head!)) return;
  if (rest.length === 0) delete (value as Json)[head!];
  else dropPath((value as Json)[head!], rest);
}

/** A fresh record's server fields (x-field-role): its times and authors, unless already given (fixtures, rules). */
export function stampCreated(resource: ResourceRow, data: Json, now: string): void {
  const { createdAt, updatedAt, createdBy, updatedBy } = resource.roles;
  for (const f of [...createdAt, ...updatedAt]) if (data[f] === undefined) setOwn(data, f, now);
  for (const f of [...createdBy, ...updatedBy]) if (data[f] === undefined) setOwn(data, f, SANDBOX_USER);
}

/** A changed record's server fields (x-field-role updated-at, updated-by). */
export function stampUpdated(resource: ResourceRow, data: Json, now: string): void {
  for (const f of resource.roles.updatedAt) setOwn(data, f, now);
  for (const f of resource.roles.updatedBy) setOwn(data, f, SANDBOX_USER);
}

/** A built-in record (a platform record, or one whose x-field-role builtin-flag is true): it has no history of its own. */
export function isBuiltin(resource: ResourceRow, record: StoredRecord): boolean {
  const flag = resource.roles.builtinFlag;
  return record.org === PLATFORM_ORG || (flag !== null && record.data[flag] === true);
}

/** A fresh record's data: schema defaults, then the body, then server-set fields (id, resource name, state, times). */
export function newRecordData(runtime: Runtime, resource: ResourceRow, body: Json, now: string, id = mintId(resource.idFormat)): Json {
  const data: Json = {};
  for (const [k, v] of Object.entries(resource.defaults)) setOwn(data, k, clone(v));
  for (const [k, v] of Object.entries(body)) setOwn(data, k, clone(v));
  // An integer id is stored as its text (the store's key) and answered as the number its schema says.
  setOwn(data, resource.id, resource.idFormat.kind === 'integer' ? Number(id) : id);
  const nameField = resource.roles.resourceName;
  if (nameField !== null && data[nameField] === undefined) setOwn(data, nameField, `${resource.namePrefix ?? collectionOf(runtime, resource.name)}/${id}`);
  const lc = resource.lifecycle;
  if (lc?.field && lc.initial !== null && data[lc.field] === undefined) setOwn(data, lc.field, lc.initial);
  stampCreated(resource, data, now);
  if (resource.fill !== undefined) fillAbsent(data, resource.fill);
  if (resource.fixed !== undefined) fillPresent(data, resource.fixed);
  return data;
}

/**
 * Fields of an inferred resource's fill (ResourceRow.fill) that `data` lacks, at any depth of plain objects: what
 * was sent, the id and the stamps always win (issue 27).
 */
export function fillAbsent(data: Json, fill: Json): void {
  for (const [k, v] of Object.entries(fill)) {
    const have = data[k];
    const template = itemTemplate(v);
    if (template !== undefined) fillItems(have, template);
    else if (have === undefined) setOwn(data, k, clone(v));
    else if (isPlainObject(have) && isPlainObject(v)) fillAbsent(have, v);
  }
}

/** The fixed values of ResourceRow.fixed inside the objects `data` holds; an object it lacks stays absent. */
export function fillPresent(data: Json, fixed: Json): void {
  for (const [k, v] of Object.entries(fixed)) {
    const have = data[k];
    const template = itemTemplate(v);
    if (template !== undefined) fillItems(have, template);
    else if (isPlainObject(have) && isPlainObject(v)) fillAbsent(have, v);
  }
}

/**
 * A fixed tree's item template (`{ [FILL_ITEMS]: template }`) completes each object item of the array a write sent;
 * an array it did not send stays absent (no item is made up).
 */
function itemTemplate(v: unknown): Json | undefined {
  if (!isPlainObject(v) || !Object.prototype.hasOwnProperty.call(v, FILL_ITEMS)) return undefined;
  const template = v[FILL_ITEMS];
  return isPlainObject(template) ? template : undefined;
}

function fillItems(have: unknown, template: Json): void {
  if (Array.isArray(have)) for (const item of have) if (isPlainObject(item)) fillAbsent(item, template);
}

const isPlainObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Field rules of a resource and of the route's body, merged (body rules win), per route. */
const fieldRulesOfRoute = new WeakMap<Route, Record<string, FieldRule>>();

/** The operation's resource's field rules merged with its body rules (computed once per operation). */
export function fieldRules(resource: ResourceRow, route: Route): Record<string, FieldRule> {
  let rules = fieldRulesOfRoute.get(route);
  if (!rules) {
    rules = mergeFieldRules(resource, route);
    fieldRulesOfRoute.set(route, rules);
  }
  return rules;
}

function mergeFieldRules(resource: ResourceRow, route: Route): Record<string, FieldRule> {
  const out: Record<string, FieldRule> = {};
  for (const [k, v] of Object.entries(resource.fields)) out[k] = v;
  for (const [k, v] of Object.entries(route.body?.fields ?? {})) out[k] = { ...out[k], ...v };
  return out;
}

export function normalize(rules: Record<string, FieldRule>, data: Json): void {
  for (const [field, rule] of Object.entries(rules)) {
    if (rule.normalize === 'lowercase' && typeof data[field] === 'string') setOwn(data, field, (data[field] as string).toLowerCase());
  }
}

/** x-unique: another record (active ones only, when so declared) of the same scope holding the value is 409. */
export function checkUnique(ctx: RequestContext, resource: ResourceRow, rules: Record<string, FieldRule>, data: Json, selfId: string | null): void {
  for (const [field, rule] of Object.entries(rules)) {
    if (!rule.unique || data[field] === undefined) continue;
    // Looked up by value in the database among the organization's records (unique fields hold strings: the
    // validators see to that); hidden holders (deleted ones included) count only where the rule says all.
    const clash = ctx.runtime.store
      .withField(resource.name, ctx.org, field, data[field])
      .find(
        (r) =>
          r.id !== selfId &&
          (rule.unique!.scope === 'organization' || r.workspace === ctx.workspace) &&
          (rule.unique!.among === 'all' || !isHidden(resource, r)) &&
          deepEqual(r.data[field], data[field]),
      );
    if (clash) throw alreadyExists(field, `Another ${rule.unique.among === 'active' ? 'active ' : ''}${resource.name.replace(/[_-]/g, ' ')} already has this ${field}.`);
  }
}

/** x-lifecycle frozen: updating or deleting a record in a frozen state is a lifecycle conflict (409). */
export function checkNotFrozen(resource: ResourceRow, record: StoredRecord): void {
  for (const cond of resource.lifecycle?.frozen ?? []) {
    if (deepEqual(record.data[cond.field], cond.equals)) {
      throw new ApiFailure(409, 'ALREADY_EXISTS', `A ${resource.name} whose ${cond.field} is ${String(cond.equals)} cannot be changed.`, [
        { field: cond.field, description: `is ${String(cond.equals)}: the ${resource.name} cannot be changed or deleted` },
      ]);
    }
  }
}
