// The generic actions of x-operation (list, create, get, update, delete, versions, revert, restore, duplicate): each
// reads the resource's declared semantics from the route table, so a new resource in the spec works without
// code. Rules adjust them through the write hook or replace them (custom actions).
import { lastTemplate } from '../../data/path-template.js';
import { notFound } from '../errors.js';
import { PLATFORM_ORG, type Json, type StoredRecord } from '../storage/store.js';
import type { ActionResult, RequestContext } from './context.js';
import type { Hooks } from './hooks.js';
import { applyListQuery } from './list-query.js';
import { DEFAULT_PAGE_SIZE, decodeToken, encodeToken, nextLink, pageFor } from './paging.js';
import {
  checkNotFrozen,
  checkUnique,
  clone,
  fieldRules,
  fillPresent,
  findRecord,
  firstPathParam,
  hiddenParents,
  parentResource,
  inScope,
  isBuiltin,
  isHidden,
  newRecordData,
  normalize,
  setOwn,
  stampUpdated,
} from './records.js';
import type { ResourceRow } from './tables.js';
import { hasHistory, recordVersion, snapshot, trackedChanged, versionIdOf } from './versions.js';

/** The operation's resource: every route with a generic action has one (runtime.resource refuses a missing one). */
function resourceOf(ctx: RequestContext): ResourceRow {
  return ctx.runtime.resource(ctx.route.resource!);
}

function target(ctx: RequestContext, options: { includeHidden?: boolean } = {}): StoredRecord {
  const param = firstPathParam(ctx.route);
  const resource = resourceOf(ctx);
  const record = findRecord(ctx, resource.name, param === undefined ? undefined : ctx.path[param], { ...options, field: param });
  // An inferred nested record is found under its own parents only (issue 27).
  for (const parent of hiddenParents(resource, ctx.route)) if (record.data[parent] !== undefined && String(record.data[parent]) !== String(ctx.path[parent])) throw notFound(param ?? null, resource.name.replace(/[_-]/g, ' '));
  return record;
}

/**
 * Query parameters that name a resource property filter the list by equality (docs/sandbox.md "Protocol"). The
 * query holds only the parameters given; the paging ones and the list parameters (x-list-query roles, a rule's
 * own such as sigma levels) name no property of any resource, so the filters are scalars.
 */
function matchesFilters(ctx: RequestContext, resource: ResourceRow, record: StoredRecord): boolean {
  for (const [name, value] of Object.entries(ctx.query)) if (resource.properties.includes(name) && record.data[name] !== value) return false;
  return true;
}

/**
 * A list: the records in scope, filtered and ordered by the query (`order`: the order without order_by; `keep`:
 * a further filter a rule supplies for query parameters that name no property, before paging).
 */
export function listAction(ctx: RequestContext, order?: string, keep?: (record: StoredRecord) => boolean): ActionResult {
  const resource = resourceOf(ctx);
  // A nested collection (baselines of a metric): the parent in the path must exist, and scopes the items.
  // An inferred one may sit under several (paylocity's `/companies/{companyId}/employees/{employeeId}/localTaxes`,
  // issue 27): each is checked and scopes the items, not the first alone.
  const parents = [...new Set([ctx.route.params.path[0]?.name, ...hiddenParents(resource, ctx.route)])].filter((name) => name !== undefined);
  for (const name of parents) {
    const parent = parentResource(ctx.runtime, name);
    if (parent) findRecord(ctx, parent.name, ctx.path[name], { field: name });
  }
  const parentField = parents[0];
  const paged = parentField === undefined && keep === undefined && order === undefined ? pagedInQuery(ctx, resource) : undefined;
  if (paged) return paged;
  const inList = candidates(ctx, resource, parentField)
    .filter((r) => inScope(ctx, resource, r) && !isHidden(resource, r) && matchesFilters(ctx, resource, r))
    .filter((r) => parents.every((name) => r.data[name] === ctx.path[name]))
    .filter((r) => keep === undefined || keep(r));
  const all = applyListQuery(ctx, resource, inList, order);
  const paging = ctx.route.pagination;
  if (!paging) return { records: all, total: all.length };
  const declared = ctx.route.params.query.find((p) => p.name === paging.pageSize)?.default;
  const p = pageFor(all, paging, ctx.query, typeof declared === 'number' ? declared : DEFAULT_PAGE_SIZE);
  if (p.next === undefined || !paging.nextLink) return { records: p.items, total: all.length, nextPageToken: p.next };
  const path = `${ctx.runtime.tables.basePath}${ctx.route.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(ctx.path[name])))}`;
  return { records: p.items, total: all.length, nextPageToken: nextLink(ctx.origin, path, ctx.query, paging.pageToken, p.next) };
}

/**
 * The records a general list starts from: with the parent of a nested path or an equality filter on a property,
 * only the records holding that value, through the store's indexed field lookup (the organization's and the
 * platform's, merged in storage order as `list` gives them); otherwise every live record of the kind (issue 29:
 * the test cases of one set were found by reading every test case of the organization). The lookup compares JSON
 * values, so it finds at least every record the strict filters after it keep; they still decide.
 */
function candidates(ctx: RequestContext, resource: ResourceRow, parentField: string | undefined): StoredRecord[] {
  const store = ctx.runtime.store;
  const primitive = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  const by: [string, string | number | boolean] | undefined =
    parentField !== undefined && primitive(ctx.path[parentField])
      ? [parentField, ctx.path[parentField] as string | number | boolean]
      : (Object.entries(ctx.query).find((e): e is [string, string | number | boolean] => resource.properties.includes(e[0]) && primitive(e[1])) as [string, string | number | boolean] | undefined);
  if (by === undefined) return store.list(resource.name, { org: ctx.org });
  const own = store.withField(resource.name, ctx.org, by[0], by[1], true);
  const platform = ctx.org === PLATFORM_ORG ? [] : store.withField(resource.name, PLATFORM_ORG, by[0], by[1], true);
  return platform.length === 0 ? own : [...own, ...platform].sort((a, b) => a.seq - b.seq);
}

/**
 * A plain token-paged list (no parent, no filter or order of any kind, nothing hidden but deleted records) asks the
 * store for its page and total (issue 29): the answer is the one the general path gives, but the cost is the page,
 * not every live record of the kind. Undefined when the list needs the general path.
 */
function pagedInQuery(ctx: RequestContext, resource: ResourceRow): ActionResult | undefined {
  const paging = ctx.route.pagination;
  if (!paging || paging.style !== 'token' || paging.nextLink) return undefined;
  // A lifecycle state that hides records (a simulation DELETED) is left out in the query, where its field is a
  // plain name; isHidden compares the field's text, and the hidden states are strings.
  const lc = resource.lifecycle;
  const hides = lc !== null && lc.field !== null && lc.hidden.length > 0;
  if (hides && !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(lc.field!)) return undefined;
  // An equality filter on a property, or any list-query parameter in effect (a given value or a default), the
  // same: only include-builtin when it is not false keeps everything.
  for (const name of Object.keys(ctx.query)) if (resource.properties.includes(name)) return undefined;
  for (const param of ctx.route.params.query) {
    if (param.listQuery === undefined || param.listQuery === null) continue;
    const value = ctx.query[param.name] ?? param.default;
    if (value === undefined || (param.listQuery === 'include-builtin' && value !== false)) continue;
    return undefined;
  }
  const declared = ctx.route.params.query.find((p) => p.name === paging.pageSize)?.default;
  const asked = ctx.query[paging.pageSize];
  const size = typeof asked === 'number' ? Math.max(0, Math.floor(asked)) : typeof declared === 'number' ? declared : DEFAULT_PAGE_SIZE;
  const offset = decodeToken(ctx.query[paging.pageToken], paging.pageToken);
  const workspace = resource.scope === 'workspace' ? { id: ctx.workspace, unsetToo: ctx.workspaceIsDefault } : undefined;
  const { records, total } = ctx.runtime.store.listPage(resource.name, { org: ctx.org, ...(workspace ? { workspace } : {}), ...(hides ? { hidden: { field: lc.field!, values: lc.hidden } } : {}), offset, limit: size });
  // As page(): a next token while records remain after this page (none for a page size of 0).
  const end = offset + records.length;
  return size > 0 && end < total ? { records, total, nextPageToken: encodeToken(end) } : { records, total };
}

/** Stores a new record in the request's scope; a versioned resource records its first version. */
function insertNew(ctx: RequestContext, resource: ResourceRow, data: Json): StoredRecord {
  const record: StoredRecord = ctx.runtime.store.insert({
    kind: resource.name,
    id: String(data[resource.id]),
    org: ctx.org,
    workspace: resource.scope === 'workspace' ? ctx.workspace : null,
    deleted: false,
    data,
  });
  if (resource.versioned) {
    recordVersion(ctx.runtime, resource, record, 'save');
    ctx.runtime.store.update(record);
  }
  return record;
}

/**
 * The id a create body gives, when its schema lets the client choose it (the id is not readOnly and the body
 * declares it: specs without our vocabulary, issue 27) and no record has it yet; else the sandbox mints one.
 * Ours never declares the id in a create body, so its ids are always minted.
 */
function givenId(ctx: RequestContext, resource: ResourceRow, body: Json): string | undefined {
  const raw = body[resource.id];
  // An integer id (issue 27) is kept by its text, as the store keys records.
  const given = typeof raw === 'number' && resource.idFormat.kind === 'integer' && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof given !== 'string' || given === '' || resource.readOnly.includes(resource.id)) return undefined;
  return ctx.runtime.store.peek(resource.name, given) ? undefined : given;
}

export function createAction(ctx: RequestContext, hooks: Hooks): ActionResult {
  const resource = resourceOf(ctx);
  const rules = fieldRules(resource, ctx.route);
  const body: Json = {};
  for (const [k, v] of Object.entries(ctx.route.body?.defaults ?? {})) setOwn(body, k, clone(v));
  for (const [k, v] of Object.entries(ctx.body)) if (v !== null) setOwn(body, k, v);
  // A nested collection records its parent id (metric_id of a baseline).
  // An inferred nested collection keeps its parents' ids on the record, unanswered (hiddenParents).
  const hidden = hiddenParents(resource, ctx.route);
  // Every parent the path names must exist for the caller (404 on the parameter otherwise), as a list under it
  // checks: the ones the record holds as fields too (iotsitewise's gatewayId of a gateway's capability, issue 27),
  // so a create under another organization's parent makes nothing. The parameter ending the path that names the
  // resource itself (a create at its own item path, `PUT /things/{thingId}`) names the new record, no parent; a
  // parent of the same kind (`/folders/{folderId}/folders`) is checked.
  const own = lastTemplate(ctx.route.path)?.name;
  for (const p of ctx.route.params.path) {
    const parent = parentResource(ctx.runtime, p.name);
    if (parent && !(p.name === own && parent.name === resource.name)) findRecord(ctx, parent.name, ctx.path[p.name], { field: p.name });
  }
  for (const p of ctx.route.params.path) if (resource.properties.includes(p.name) || hidden.includes(p.name)) setOwn(body, p.name, ctx.path[p.name]);
  const data = newRecordData(ctx.runtime, resource, body, ctx.now, givenId(ctx, resource, body));
  normalize(rules, data);
  hooks.write(ctx, data, undefined);
  checkUnique(ctx, resource, rules, data, null);
  return { record: insertNew(ctx, resource, data) };
}

export function getAction(ctx: RequestContext): ActionResult {
  return { record: target(ctx) };
}

/** Applies an update body to stored data, per field: null clears, is ignored, or is left to a rule. */
export function applyUpdate(ctx: RequestContext, resource: ResourceRow, data: Json): void {
  const rules = fieldRules(resource, ctx.route);
  for (const [field, value] of Object.entries(ctx.body)) {
    const rule = rules[field];
    if (value === null) {
      if (rule?.null === 'ignore' || rule?.null === 'rule') continue;
      if (rule?.null === 'clear') {
        delete data[field];
        continue;
      }
    }
    setOwn(data, field, clone(value));
  }
  // An inferred resource's objects and array items an update sends are completed as a create's are (issue 27).
  if (resource.fixed !== undefined) fillPresent(data, resource.fixed);
  normalize(rules, data);
}

export function updateAction(ctx: RequestContext, hooks: Hooks): ActionResult {
  const resource = resourceOf(ctx);
  const record = target(ctx);
  checkNotFrozen(resource, record);
  const previous = clone(record.data);
  applyUpdate(ctx, resource, record.data);
  hooks.write(ctx, record.data, previous);
  checkUnique(ctx, resource, fieldRules(resource, ctx.route), record.data, record.id);
  stampUpdated(resource, record.data, ctx.now);
  if (resource.versioned && (!hasHistory(ctx.runtime, resource, record) || trackedChanged(resource, previous, record.data))) {
    recordVersion(ctx.runtime, resource, record, 'save');
  }
  ctx.runtime.store.update(record);
  return { record };
}

export function deleteAction(ctx: RequestContext): ActionResult {
  const resource = resourceOf(ctx);
  const soft = ctx.route.softDelete;
  const record = target(ctx, { includeHidden: soft?.repeat === 'ok' });
  checkNotFrozen(resource, record);
  if (!isHidden(resource, record)) {
    record.deleted = true;
    const lc = resource.lifecycle;
    if (lc?.field && lc.deleted) setOwn(record.data, lc.field, lc.deleted);
    stampUpdated(resource, record.data, ctx.now);
    ctx.runtime.store.update(record);
  }
  // The success shape decides what is answered: the record, `{}` or nothing (x-soft-delete respond says the same).
  return { record };
}

export function versionsAction(ctx: RequestContext): ActionResult {
  const resource = resourceOf(ctx);
  const record = target(ctx);
  const item = ctx.route.versionItem;
  const versions =
    isBuiltin(resource, record)
      ? []
      : ctx.runtime.store.listVersions(resource.name, record.id).map((v) => {
          if (!item?.snapshotInto) return v.data;
          // The item schema holds the captured configuration in one object property (metric_metadata):
          // tracked fields that are not item properties move there.
          const top: Json = {};
          const nested: Json = {};
          const tracked = new Set(resource.versioned?.tracked ?? []);
          for (const [k, value] of Object.entries(v.data)) setOwn(tracked.has(k) && !item.properties.includes(k) ? nested : top, k, value);
          setOwn(top, item.snapshotInto, nested);
          return top;
        });
  const shape = ctx.route.success.shape;
  const key = shape.kind === 'other' ? (shape.keys[0] ?? 'versions') : 'versions';
  return { body: { [key]: versions } };
}

export function revertAction(ctx: RequestContext): ActionResult {
  const resource = resourceOf(ctx);
  const record = target(ctx);
  const versionParam = ctx.route.params.path[1]?.name;
  const versionId = versionParam === undefined ? undefined : ctx.path[versionParam];
  const version = ctx.runtime.store.listVersions(resource.name, record.id).find((v) => versionIdOf(resource, v) === versionId);
  if (!version) throw notFound(versionParam ?? null, 'version');
  // Reverting to the current version is refused by the version-revert rule (x-rules), not here.
  for (const field of resource.versioned!.tracked) delete record.data[field];
  for (const [k, v] of Object.entries(snapshot(resource, version.data))) setOwn(record.data, k, v);
  stampUpdated(resource, record.data, ctx.now);
  recordVersion(ctx.runtime, resource, record, 'revert', versionId);
  ctx.runtime.store.update(record);
  return { record };
}

export function restoreAction(ctx: RequestContext): ActionResult {
  const resource = resourceOf(ctx);
  const record = target(ctx, { includeHidden: true });
  if (!isHidden(resource, record)) {
    if (ctx.route.restore?.noopWhenActive !== false) return { record };
  }
  record.deleted = false;
  // A restored record is back in the state a new one starts in (x-lifecycle initial).
  const lc = resource.lifecycle;
  if (lc?.field && lc.initial !== null) setOwn(record.data, lc.field, lc.initial);
  ctx.runtime.store.update(record);
  return { record };
}

/**
 * The value a renamed field of a copy gets: `<value> (copy)`, or `(copy 2)`, `(copy 3)`, ... while a unique field's
 * value is taken; the original is cut so the result fits the field's maxLength.
 */
function copyName(ctx: RequestContext, resource: ResourceRow, field: string, value: string, maxLength: number | null): string {
  const unique = fieldRules(resource, ctx.route)[field]?.unique;
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
    const base = maxLength === null ? value : [...value].slice(0, Math.max(0, maxLength - suffix.length)).join('');
    const candidate = `${base}${suffix}`;
    if (!unique) return candidate;
    const taken = ctx.runtime.store
      .withField(resource.name, ctx.org, field, candidate)
      .some((r) => (unique.scope === 'organization' || r.workspace === ctx.workspace) && (unique.among === 'all' || !isHidden(resource, r)));
    if (!taken) return candidate;
  }
}

/**
 * A copy of the record under a new id (x-operation action duplicate): its configuration (every stored property
 * the schema does not mark readOnly, except x-operation.resets, and the copies-with fields only when the body's
 * flag is true), with the x-operation.renames fields marked as a copy; server fields are fresh, and a versioned
 * resource records the copy's own first version. Rules adjust it through the write hook.
 */
export function duplicateAction(ctx: RequestContext, hooks: Hooks): ActionResult {
  const resource = resourceOf(ctx);
  const source = target(ctx);
  const skipped = new Set(ctx.route.resets ?? []);
  for (const { flag, fields } of ctx.route.copiesWith ?? []) if (ctx.body[flag] !== true) for (const f of fields) skipped.add(f);
  const body: Json = {};
  // A field not copied is what a create gives it: the create body's default, else nothing (write rules may fill it).
  const create = ctx.runtime.tables.routes.find((r) => r.resource === resource.name && r.action === 'create' && r.aliasOf === null);
  for (const prop of skipped) {
    const fallback = create?.body?.defaults[prop];
    if (fallback !== undefined) setOwn(body, prop, clone(fallback));
  }
  for (const prop of resource.properties) {
    if (prop === resource.id || resource.readOnly.includes(prop) || skipped.has(prop) || source.data[prop] === undefined) continue;
    setOwn(body, prop, clone(source.data[prop]));
  }
  for (const { field, maxLength } of ctx.route.renames ?? []) {
    if (typeof body[field] === 'string') setOwn(body, field, copyName(ctx, resource, field, body[field] as string, maxLength));
  }
  const data = newRecordData(ctx.runtime, resource, body, ctx.now);
  const rules = fieldRules(resource, ctx.route);
  normalize(rules, data);
  hooks.write(ctx, data, undefined);
  checkUnique(ctx, resource, rules, data, null);
  return { record: insertNew(ctx, resource, data) };
}

/**
 * A custom action that moves its record to a state (x-operation.sets, e.g. archive sets status ARCHIVED):
 * refused in a frozen state (409), idempotent when the record is already there.
 */
export function transitionAction(ctx: RequestContext): ActionResult {
  const resource = resourceOf(ctx);
  const record = target(ctx);
  checkNotFrozen(resource, record);
  const sets = ctx.route.sets ?? {};
  if (Object.entries(sets).some(([k, v]) => JSON.stringify(record.data[k]) !== JSON.stringify(v))) {
    for (const [k, v] of Object.entries(sets)) setOwn(record.data, k, clone(v));
    stampUpdated(resource, record.data, ctx.now);
    ctx.runtime.store.update(record);
  }
  return { record };
}

export const GENERIC_ACTIONS: Record<string, (ctx: RequestContext, hooks: Hooks) => ActionResult> = {
  list: (ctx) => listAction(ctx),
  create: createAction,
  get: getAction,
  update: updateAction,
  delete: deleteAction,
  versions: versionsAction,
  revert: revertAction,
  restore: restoreAction,
  duplicate: duplicateAction,
};
