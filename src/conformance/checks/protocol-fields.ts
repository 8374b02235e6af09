// What the server keeps in a record's fields beyond what the client sends, checked generically from the schemas
// and the x- vocabulary: the audit fields (who and when) on create, on update and on a record stored before,
// free-form objects taken as data key for key (a "__proto__" key included) with every change inside them seen
// by the version history, and the error envelope of conflicts (a held unique value, a frozen record).
import { nextPageParam } from '../paging.js';
import { expectEnvelope, expectError, expectSuccess, send } from '../http.js';
import { fail, lacks, skip } from '../result.js';
import type { ResourceRow, Route, SuiteData } from '../suite-data.js';
import { bodyProperties, fieldRules, ownParam, recordOf } from '../world.js';
import type { Check, } from './context.js';
import { currentRecord, validBody } from './happy.js';

type Json = Record<string, unknown>;

function resourceOf(route: Route, suite: SuiteData): ResourceRow | undefined {
  return suite.resources.find((r) => r.name === route.resource);
}

function plainCreate(route: Route): boolean {
  return route.action === 'create' && route.auth.length > 0 && route.aliasOf === null && route.body !== null && (route.body.exactlyOneOf ?? []).length === 0;
}

function plainUpdate(route: Route): boolean {
  return route.action === 'update' && route.auth.length > 0 && route.aliasOf === null && (route.body?.exactlyOneOf ?? []).length === 0;
}

/** The resource's audit fields, by the role the spec gives them (x-field-role created-at, updated-at, created-by, updated-by). */
function audit(resource: ResourceRow): { createTimes: string[]; updateTimes: string[]; creators: string[]; editors: string[] } {
  return { createTimes: resource.roles.createdAt, updateTimes: resource.roles.updatedAt, creators: resource.roles.createdBy, editors: resource.roles.updatedBy };
}

function declaresAuthor(route: Route, suite: SuiteData): boolean {
  const resource = resourceOf(route, suite);
  return resource !== undefined && resource.roles.createdBy.length + resource.roles.updatedBy.length > 0;
}

/** Keys sorted at every depth, built with own properties only (a "__proto__" key stays a key). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Json)[k])]),
  );
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

const SLACK_MS = 5 * 60_000;

// Seed "Resources and their fields": created_at / create_time and updated_at / update_time / last_updated_at are
// audit times, created_by / updated_by audit authors ("user e-mail address" for a tag's created_by); the spec names
// them by role (x-field-role created-at, updated-at, created-by, updated-by). A record the
// caller has just created was created and last updated then, by the caller: the times fall within the request
// (a few minutes' slack for the server's clock) and the update time is not before the create time; updated_by
// names the same user as created_by.
export const auditOnCreate: Check = {
  name: 'records: a create answers its audit fields: create and update times of the request, created_by (and updated_by, the same user)',
  needs: 'a create operation of a resource with author fields (x-field-role)',
  applies: (route, suite) => plainCreate(route) && declaresAuthor(route, suite),
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const started = Date.now();
    const created = await ctx.world.create(resource.name);
    const ended = Date.now();
    const record = created.record;
    const problems: string[] = [];
    const { createTimes, updateTimes, creators, editors } = audit(resource);
    for (const f of [...createTimes, ...updateTimes]) {
      const at = typeof record[f] === 'string' ? Date.parse(record[f] as string) : NaN;
      if (!(at >= started - SLACK_MS && at <= ended + SLACK_MS)) problems.push(`${f} ${JSON.stringify(record[f])} is not the time of the create`);
    }
    for (const c of createTimes) {
      for (const u of updateTimes) if (typeof record[c] === 'string' && typeof record[u] === 'string' && Date.parse(record[u] as string) < Date.parse(record[c] as string)) problems.push(`${u} ${record[u]} is before ${c} ${record[c]}`);
    }
    for (const f of [...creators, ...editors]) {
      if (typeof record[f] !== 'string' || (record[f] as string).trim() === '') problems.push(`${f} ${JSON.stringify(record[f])}: expected the user who made the record`);
    }
    for (const c of creators) {
      for (const u of editors) if (record[c] !== record[u]) problems.push(`a fresh record was last updated by ${JSON.stringify(record[u])} (${u}), not by its creator ${JSON.stringify(record[c])} (${c})`);
    }
    if (problems.length > 0) fail(problems.join('; '));
  },
};

const STORED_TIME = '2001-02-03T04:05:06.000Z';
const STORED_AUTHOR = 'stored-author@example.com';
const STORED_EDITOR = 'stored-editor@example.com';

// docs/sandbox.md "The control plane": fixtures store records "as they are", audit fields included; seed audit
// fields: an update is a new last update (the update time moves to now, updated_by names the caller, the same user
// that created_by names on a record the caller creates) while the creation (time and author) stays as it was.
export const auditOfStoredRecord: Check = {
  name: 'records: a stored record keeps its audit fields; an update through the API sets the update time and updated_by to the caller, never the creation',
  needs: 'an update operation of a resource with author fields and a get',
  applies: (route, suite) => plainUpdate(route) && declaresAuthor(route, suite) && suite.routes.some((r) => r.resource === route.resource && r.action === 'get' && r.aliasOf === null),
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const { createTimes, updateTimes, creators, editors } = audit(resource);
    const stored: Json = {};
    for (const f of [...createTimes, ...updateTimes]) stored[f] = STORED_TIME;
    for (const f of creators) stored[f] = STORED_AUTHOR;
    for (const f of editors) stored[f] = STORED_EDITOR;
    const legacy = await ctx.world.loadRecord(resource.name, stored);
    const shown = await currentRecord(ctx, resource.name, legacy.path);
    const changed = Object.keys(stored).filter((f) => shown[f] !== stored[f]);
    if (changed.length > 0) fail(`a stored record is shown with other audit values: ${changed.map((f) => `${f} ${JSON.stringify(shown[f])} (stored ${JSON.stringify(stored[f])})`).join(', ')}`);
    // Who the caller is: the author of a record it creates (where the API creates this resource).
    const caller = ctx.world.route(resource.name, 'create') && creators.length > 0 ? (await ctx.world.create(resource.name)).record[creators[0]!] : undefined;
    const body = bodyProperties(ctx.suite, ctx.route).required.length > 0 ? await validBody(ctx.world, ctx.route) : {};
    const started = Date.now();
    const answer = await send(ctx.target, ctx.route, { path: legacy.path, ...(body === undefined ? {} : { body }) });
    expectSuccess(answer, ctx.route, 'an update of a stored record');
    const after = recordOf(ctx.route, answer) ?? (await currentRecord(ctx, resource.name, legacy.path));
    const problems: string[] = [];
    for (const f of [...createTimes, ...creators]) if (after[f] !== stored[f]) problems.push(`${f} changed on update: ${JSON.stringify(stored[f])} -> ${JSON.stringify(after[f])}`);
    for (const f of updateTimes) {
      const at = typeof after[f] === 'string' ? Date.parse(after[f] as string) : NaN;
      if (!(at >= started - SLACK_MS)) problems.push(`${f} is ${JSON.stringify(after[f])} after an update at ${new Date(started).toISOString()}`);
    }
    for (const f of editors) {
      if (typeof after[f] !== 'string' || after[f] === STORED_EDITOR) problems.push(`${f} is ${JSON.stringify(after[f])} after an update through the API, expected the caller`);
      else if (caller !== undefined && after[f] !== caller) problems.push(`${f} is ${JSON.stringify(after[f])}, the caller creates records as ${JSON.stringify(caller)}`);
    }
    if (problems.length > 0) fail(problems.join('; '));
  },
};

/**
 * A free-form object at each step (JSON text, so "__proto__" is a plain key; a null value among the others):
 * each one changes a single thing inside the one before: a nested number, an array turned into an object with
 * the same entries, a value under the "__proto__" key.
 */
const FREE_FORM_STEPS = [
  '{"__proto__": {"level": 1}, "count": 1, "items": [1], "label": "x", "none": null}',
  '{"__proto__": {"level": 1}, "count": 2, "items": [1], "label": "x", "none": null}',
  '{"__proto__": {"level": 1}, "count": 2, "items": {"0": 1}, "label": "x", "none": null}',
  '{"__proto__": {"level": 2}, "count": 2, "items": {"0": 1}, "label": "x", "none": null}',
];
const STEP_WHAT = ['', 'a nested number', 'an array turned into an object with the same entries', 'a value under the "__proto__" key'];

function steps(): Json[] {
  return FREE_FORM_STEPS.map((text) => JSON.parse(text) as Json);
}

/** A tracked field of the update body that takes a free-form object (every step is valid there). */
function freeFormField(update: Route, resource: ResourceRow | undefined): string | undefined {
  return resource?.versioned?.tracked.find((field) => steps().every((value) => update.validators.body?.validate({ [field]: value }).ok === true));
}

function versionCount(route: Route, body: unknown): number {
  const shape = route.success.shape;
  const key = shape.kind === 'other' ? (shape.keys[0] ?? 'versions') : shape.kind === 'list' ? shape.items : 'versions';
  const items = (body as Json | undefined)?.[key];
  if (!Array.isArray(items)) fail(`the versions answer has no ${key} list`);
  return items.length;
}

// A free-form object (JSON Schema `type: object` with any keys) is data: every key is stored and answered as
// sent, "__proto__" too. Seed "Versioning" 1-2: a save that changes behaviour-affecting configuration records a
// version, one that changes nothing records none; a change anywhere inside a tracked object is a change.
export const freeFormObjects: Check = {
  name: 'records: a free-form object is stored key for key ("__proto__" too), and every change inside a tracked one records a version',
  needs: 'a create or update body with a free-form object field',
  applies: (route, suite) => {
    const resource = resourceOf(route, suite);
    return plainUpdate(route) && resource?.versioned?.history != null && freeFormField(route, resource) !== undefined;
  },
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const history = ctx.suite.routes.find((r) => r.id === resource.versioned!.history) ?? lacks(`${resource.name} has no history operation`);
    const field = freeFormField(ctx.route, resource)!;
    const created = await ctx.world.create(resource.name);
    const count = async (): Promise<number> => {
      const listed = await send(ctx.target, history, { path: created.path });
      expectSuccess(listed, history, 'listing versions');
      return versionCount(history, listed.body);
    };
    let before = 0;
    for (const [i, value] of steps().entries()) {
      if (i === 1) before = await count();
      const answer = await send(ctx.target, ctx.route, { path: created.path, body: { [field]: value } });
      expectSuccess(answer, ctx.route, `saving ${field} ${FREE_FORM_STEPS[i]}`);
      const shown = recordOf(ctx.route, answer) ?? (await currentRecord(ctx, resource.name, created.path));
      if (!same(shown[field], value)) fail(`${field} saved as ${FREE_FORM_STEPS[i]} is answered as ${JSON.stringify(shown[field])}`);
      if (!Object.prototype.hasOwnProperty.call(shown[field] ?? {}, '__proto__')) fail(`${field} lost its "__proto__" key: ${JSON.stringify(shown[field])}`);
      if (i === 0) continue;
      const after = await count();
      if (after !== before + i) fail(`changing ${STEP_WHAT[i]} inside ${field} recorded ${after - before - (i - 1)} version(s), expected 1`);
    }
    const got = await currentRecord(ctx, resource.name, created.path);
    if (!same(got[field], steps().at(-1))) fail(`a get shows ${field} ${JSON.stringify(got[field])}, saved ${FREE_FORM_STEPS.at(-1)}`);
  },
};

function uniqueFields(route: Route, suite: SuiteData): string[] {
  const props = bodyProperties(suite, route).properties;
  return Object.entries(fieldRules(suite, route))
    .filter(([k, r]) => r.unique !== undefined && k in props)
    .map(([k]) => k);
}

// Seed "Errors": 409 ALREADY_EXISTS for a duplicate, in the envelope `{ error: { code, message, details: [ { field,
// description } ] } }` (only internal errors may omit details); seed "Tags": renaming to a name another active tag
// holds is 409. The value is taken by a record of the caller's own scope.
export const uniqueClashEnvelope: Check = {
  name: 'records: a value another record holds is 409 ALREADY_EXISTS in the full error envelope, the detail naming the field',
  needs: 'a create or update operation with a unique field (x-unique)',
  applies: (route, suite) => (plainCreate(route) || plainUpdate(route)) && uniqueFields(route, suite).length > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    for (const field of uniqueFields(ctx.route, ctx.suite)) {
      const value = `held-${ctx.world.nextSeed()}-${field}`.slice(0, 40);
      await ctx.world.create(resource.name, { [field]: value });
      let answer;
      if (ctx.route.action === 'create') {
        const body = (await ctx.world.bodyFor(ctx.route)) ?? {};
        answer = await send(ctx.target, ctx.route, { body: { ...body, [field]: value } });
      } else {
        const other = await ctx.world.create(resource.name);
        answer = await send(ctx.target, ctx.route, { path: other.path, body: { [field]: value } });
      }
      expectError(answer, 409, 'ALREADY_EXISTS', field, `${ctx.route.action} with the ${field} another record holds`);
      expectEnvelope(answer, `${field} held by another record`);
    }
  },
};

// Seed "Errors": 409 ALREADY_EXISTS "also used for workspace lifecycle conflicts", in the full envelope;
// docs/sandbox.md "Resources": the DEFAULT workspace cannot be updated or deleted (409, field workspace_type).
export const frozenEnvelope: Check = {
  name: 'records: changing a record in a frozen state is 409 ALREADY_EXISTS in the full error envelope, the detail naming the field',
  needs: 'an update or delete of a resource with frozen states (x-lifecycle)',
  applies: (route, suite) => (plainUpdate(route) || (route.action === 'delete' && route.auth.length > 0)) && (resourceOf(route, suite)?.lifecycle?.frozen.length ?? 0) > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const list = ctx.world.route(resource.name, 'list') ?? lacks('no list operation to find a frozen record with');
    const listed = await send(ctx.target, list, {});
    expectSuccess(listed, list, 'listing');
    const shape = list.success.shape;
    const items = (shape.kind === 'list' ? (listed.body as Json)[shape.items] : undefined) as Json[] | undefined;
    const frozen = resource.lifecycle!.frozen;
    const record = (items ?? []).find((r) => frozen.some((c) => JSON.stringify(r[c.field]) === JSON.stringify(c.equals))) ?? skip(`no ${resource.name} in a frozen state to try`);
    const field = frozen.find((c) => JSON.stringify(record[c.field]) === JSON.stringify(c.equals))!.field;
    const body = await validBody(ctx.world, ctx.route);
    const answer = await send(ctx.target, ctx.route, { path: { [ownParam(ctx.route)!]: String(record[resource.id]) }, ...(body === undefined ? {} : { body }) });
    expectError(answer, 409, 'ALREADY_EXISTS', field, `${ctx.route.action} of a ${resource.name} whose ${field} is ${JSON.stringify(record[field])}`);
    expectEnvelope(answer, `${ctx.route.action} of a frozen ${resource.name}`);
    const after = await currentRecord(ctx, resource.name, { [ownParam(ctx.route)!]: String(record[resource.id]) });
    if (!same(after, record)) fail(`the refused ${ctx.route.action} changed the ${resource.name}: ${JSON.stringify(record).slice(0, 200)} -> ${JSON.stringify(after).slice(0, 200)}`);
  },
};

// Seed "Versioning" 6: built-in metrics are the platform's ("no per-organization history"; the spec names the flag
// by role, x-field-role builtin-flag); the control plane
// (src/sandbox/control/openapi.yaml): "`platform: true` makes the record visible to every organization (built-in
// metrics)". Another organization reads the same built-in record, by id and in its list.
export const builtinEverywhere: Check = {
  name: 'records: a built-in record is visible to every organization (get and list)',
  needs: 'a get operation of a resource with a built-in flag (x-field-role)',
  applies: (route, suite) => route.action === 'get' && route.auth.length > 0 && route.aliasOf === null && (resourceOf(route, suite)?.roles.builtinFlag ?? null) !== null,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const control = ctx.target.control ?? skip('needs the control plane to load a built-in record');
    const otherKey = ctx.target.otherApiKey ?? (await control.createOtherOrganizationKey());
    const builtin = await ctx.world.loadRecord(resource.name, { [resource.roles.builtinFlag!]: true }, { platform: true });
    const own = ownParam(ctx.route)!;
    for (const [who, key] of [
      ['this organization', undefined],
      ['another organization', otherKey],
    ] as const) {
      const answer = await send(ctx.target, ctx.route, { path: { [own]: builtin.id }, ...(key === undefined ? {} : { key }) });
      expectSuccess(answer, ctx.route, `getting a built-in ${resource.name} from ${who}`);
      if (recordOf(ctx.route, answer)?.[resource.id] !== builtin.id) fail(`${who} got another ${resource.name} for the built-in ${builtin.id}`);
    }
    const list = ctx.world.route(resource.name, 'list');
    if (list && list.params.path.length === 0 && list.success.shape.kind === 'list') {
      const items = list.success.shape.items;
      // A list with an include-builtin parameter (x-list-query; include_builtin, default false) shows built-in records only when asked.
      const include = list.params.query.find((p) => p.listQuery === 'include-builtin')?.name;
      const size = { ...(list.pagination ? { [list.pagination.pageSize]: '100' } : {}), ...(include === undefined ? {} : { [include]: 'true' }) };
      const found = async (key: string): Promise<boolean> => {
        let token: string | undefined;
        for (let page = 0; page < 50; page++) {
          const answer = await send(ctx.target, list, { key, query: { ...size, ...(token && list.pagination ? { [list.pagination.pageToken]: token } : {}) } });
          expectSuccess(answer, list, 'listing from another organization');
          if (((answer.body as Json)[items] as Json[]).some((r) => r[resource.id] === builtin.id)) return true;
          const next = nextPageParam(list, answer.body);
          if (next === undefined) return false;
          token = next;
        }
        return false;
      };
      if (!(await found(otherKey))) fail(`another organization's ${list.id} does not show the built-in ${resource.name} ${builtin.id}`);
    }
  },
};

export const checks: Check[] = [auditOnCreate, auditOfStoredRecord, freeFormObjects, uniqueClashEnvelope, frozenEnvelope, builtinEverywhere];
