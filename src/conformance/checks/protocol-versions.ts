// Version history (x-versioned) beyond counting versions: what a version holds, how it is named, where the
// record's current_version points, what a revert restores, records that predate versioning, built-in records
// (seed "Versioning"; docs/sandbox.md "Resources": "Versions"). A version's id, number and change type, its name,
// the record's current version and its built-in flag are read by the role the spec gives them (x-field-role).
import { validValue } from '../values/index.js';
import { expectEnvelope, expectError, expectSuccess, send } from '../http.js';
import { fail, lacks } from '../result.js';
import type { ResourceRow, Route, SuiteData } from '../suite-data.js';
import { ownParam, recordOf } from '../world.js';
import type { Check, CheckContext } from './context.js';
import { currentRecord, trackedChange } from './happy.js';
import { defsRef } from '../../model/defs-ref.js';

type Json = Record<string, unknown>;

type Version = Json;

/** The property names of a version's id, number and change type in a schema, by role (x-field-role). */
interface VersionKeys {
  id: string;
  number: string;
  changeType: string;
}

type Roles = ResourceRow['roles'];

function keysOf(roles: Roles): VersionKeys | undefined {
  const { versionId, versionNumber, changeType } = roles;
  return versionId === null || versionNumber === null || changeType === null ? undefined : { id: versionId, number: versionNumber, changeType };
}

/** The keys of a resource's version records (its history's items) and of its references to versions (current version). */
function versionKeys(resource: ResourceRow): { item: VersionKeys; ref: VersionKeys } {
  const v = resource.versioned ?? fail(`${resource.name} is not versioned`);
  return { item: keysOf(v.versionRoles) ?? lacks(`${resource.name}'s version items name no version-id, version-number and change-type roles`), ref: keysOf(v.referenceRoles) ?? lacks(`${resource.name}'s version reference names no version-id, version-number and change-type roles`) };
}

/** The record's current version (its current-version property), or undefined when it declares none. */
function currentOf(resource: ResourceRow, record: Json): Json | undefined {
  const field = resource.roles.currentVersion;
  return field === null ? undefined : (record[field] as Json | undefined);
}

/** Whether a reference to a version names `version` (by id) with the given number and change type. */
function refersTo(ref: Json | undefined, keys: { item: VersionKeys; ref: VersionKeys }, version: Version, number: number, changeType?: string): boolean {
  return ref !== undefined && ref !== null && ref[keys.ref.id] === version[keys.item.id] && ref[keys.ref.number] === number && (changeType === undefined || ref[keys.ref.changeType] === changeType);
}

function versionsOf(route: Route, body: unknown): Version[] {
  const shape = route.success.shape;
  const key = shape.kind === 'other' ? (shape.keys[0] ?? 'versions') : shape.kind === 'list' ? shape.items : 'versions';
  const items = (body as Json | undefined)?.[key];
  if (!Array.isArray(items)) fail(`the versions answer has no ${key} list`);
  return items as Version[];
}

async function listVersions(ctx: CheckContext, history: Route, path: Record<string, string>): Promise<Version[]> {
  const answer = await send(ctx.target, history, { path });
  expectSuccess(answer, history, 'listing versions');
  return versionsOf(history, answer.body);
}

/** The collection segment of the resource's paths (`agents` for /agents/{agent_id}). */
function collection(suite: SuiteData, resource: string): string | undefined {
  const route = suite.routes.find((r) => r.resource === resource && (r.action === 'get' || r.action === 'list') && r.aliasOf === null);
  return route?.path.split('/').find((s) => s !== '' && !s.startsWith('{'));
}

/** Where a version item holds a tracked field: at the top, or inside the item's snapshot object (metric_metadata). */
function heldValue(route: Route, version: Version, field: string): unknown {
  const item = route.versionItem;
  if (!item || item.properties.includes(field) || item.snapshotInto === null) return version[field];
  return (version[item.snapshotInto] as Json | undefined)?.[field];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function updateOf(ctx: CheckContext, resource: string): Route {
  return ctx.world.route(resource, 'update') ?? lacks(`${resource} has no update operation to make versions with`);
}

function versioned(route: Route, suite: SuiteData): boolean {
  return suite.resources.find((r) => r.name === route.resource)?.versioned?.history === route.id;
}

/** The resource's built-in flag (x-field-role builtin-flag), when it has one. */
function builtinFlag(route: Route, suite: SuiteData): string | null {
  return suite.resources.find((r) => r.name === route.resource)?.roles.builtinFlag ?? null;
}

// docs/sandbox.md "Versions": "version 1 is recorded on create; a save changing a tracked field records the next
// one; version names are <collection>/<id>/versions/<ulid>; metric versions hold the configuration in
// metric_metadata". Seed "Versioning": the current version is exposed inline as current_version; history newest
// first; a version captures the configuration of its time.
export const versionContents: Check = {
  name: 'versions: each version holds the tracked configuration of its time, is named <collection>/<id>/versions/<ulid>, and current_version is the newest',
  needs: 'a versioned resource (x-versioned) with a history listing',
  applies: versioned,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const keys = versionKeys(resource);
    const { id, number, changeType } = keys.item;
    const created = await ctx.world.create(resource.name);
    const own = ownParam(ctx.route)!;
    const first = await listVersions(ctx, ctx.route, created.path);
    if (first.length !== 1 || first[0]![number] !== 1 || first[0]![changeType] !== 'save') fail(`after create: expected one version, number 1, save; got ${JSON.stringify(first.map((v) => [v[number], v[changeType]]))}`);
    const before = await currentRecord(ctx, resource.name, created.path);
    const update = updateOf(ctx, resource.name);
    const change = await trackedChange(ctx.world, update, resource.versioned!.tracked, before);
    const [field] = Object.keys(change);
    const saved = await send(ctx.target, update, { path: created.path, body: change });
    expectSuccess(saved, update, `a tracked change of ${field}`);
    const after = recordOf(update, saved) ?? (await currentRecord(ctx, resource.name, created.path));
    const versions = await listVersions(ctx, ctx.route, created.path);
    if (versions.map((v) => v[number]).join(',') !== '2,1') fail(`after one tracked change: expected versions 2,1 (newest first), got ${versions.map((v) => v[number]).join(',')}`);
    const segment = collection(ctx.suite, resource.name);
    const nameField = resource.versioned!.versionRoles.resourceName;
    for (const v of versions) {
      if (v[changeType] !== 'save') fail(`version ${v[number]}: ${changeType} ${v[changeType]}, expected save`);
      const expected = `${segment}/${created.path[own]}/versions/${v[id]}`;
      if (segment && nameField !== null && v[nameField] !== expected) fail(`version ${v[number]} is named ${JSON.stringify(v[nameField])}, expected ${expected}`);
    }
    const [newest, oldest] = versions as [Version, Version];
    if (oldest[id] !== first[0]![id]) fail(`the first version changed its ${id} after a later save`);
    if (!same(heldValue(ctx.route, newest, field!), after[field!])) fail(`version 2 holds ${field} ${JSON.stringify(heldValue(ctx.route, newest, field!))}, the record has ${JSON.stringify(after[field!])}`);
    if (!same(heldValue(ctx.route, oldest, field!), before[field!])) fail(`version 1 holds ${field} ${JSON.stringify(heldValue(ctx.route, oldest, field!))}, the record had ${JSON.stringify(before[field!])} before the change`);
    // Every tracked field the version item declares (at the top, or in its snapshot object) holds the record's value.
    const item = ctx.route.versionItem;
    const placed = resource.versioned!.tracked.filter((f) => item === null || item.properties.includes(f) || item.snapshotInto !== null);
    const off = placed.filter((f) => !same(heldValue(ctx.route, newest, f), after[f]));
    if (off.length > 0) fail(`version 2 does not hold the record's ${off.map((f) => `${f} (${JSON.stringify(heldValue(ctx.route, newest, f))} vs ${JSON.stringify(after[f])})`).join(', ')}`);
    if (resource.roles.currentVersion !== null && !refersTo(currentOf(resource, after), keys, newest, 2, 'save')) {
      fail(`${resource.roles.currentVersion} is ${JSON.stringify(currentOf(resource, after))}, expected version 2 (${newest[id]}, save)`);
    }
  },
};

// Seed "Versioning" 3: "Resources that predate versioning receive their first version on their next save";
// docs/sandbox.md "Versions": "A record loaded without history gets version 1 on its next save (even a cosmetic one)".
export const firstVersionOnSave: Check = {
  name: 'versions: a record that predates versioning has no versions until its next save, which records version 1',
  needs: 'an update of a versioned resource with a history listing',
  applies: (route, suite) => route.action === 'update' && route.auth.length > 0 && route.aliasOf === null && suite.resources.find((r) => r.name === route.resource)?.versioned?.history != null,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const keys = versionKeys(resource);
    const history = ctx.suite.routes.find((r) => r.id === resource.versioned!.history)!;
    // Its tracked configuration in full, as a record saved before versioning existed would hold it.
    const full = (validValue({ $ref: defsRef(resource.schema) } as never, ctx.world.defs, { seed: ctx.world.nextSeed(), maximal: true }) ?? {}) as Json;
    const tracked = Object.fromEntries(Object.entries(full).filter(([k]) => resource.versioned!.tracked.includes(k)));
    const legacy = await ctx.world.loadRecord(resource.name, tracked);
    const none = await listVersions(ctx, history, legacy.path);
    if (none.length !== 0) fail(`a record loaded without history lists ${none.length} versions`);
    const saved = await send(ctx.target, ctx.route, { path: legacy.path, body: {} });
    expectSuccess(saved, ctx.route, 'a save without changes of a record without history');
    const versions = await listVersions(ctx, history, legacy.path);
    if (versions.length !== 1 || versions[0]![keys.item.number] !== 1) fail(`after its first save: expected version 1 only, got ${JSON.stringify(versions.map((v) => v[keys.item.number]))}`);
    const current = currentOf(resource, recordOf(ctx.route, saved) ?? {});
    if (resource.roles.currentVersion !== null && !refersTo(current, keys, versions[0]!, 1)) fail(`${resource.roles.currentVersion} after the first save is ${JSON.stringify(current)}, expected version 1 (${versions[0]![keys.item.id]})`);
  },
};

// Seed "States and transitions" (Agent): revert re-applies the configuration of version T ("Configuration of T
// re-applied"); docs/sandbox.md "Resources": "Reverting to a version that does not exist is 404 on version_id".
export const revertRestores: Check = {
  name: 'versions: a revert restores the tracked configuration of the version; a version that does not exist is 404 on its parameter',
  needs: 'a revert operation (x-operation: revert)',
  applies: (route) => route.action === 'revert' && route.auth.length > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const history = ctx.suite.routes.find((r) => r.id === resource.versioned?.history) ?? lacks(`${resource.name} has no history operation`);
    const { item } = versionKeys(resource);
    const versionParam = ctx.route.params.path.find((p) => p.name !== ownParam(ctx.route))?.name ?? lacks('the revert names no version');
    const created = await ctx.world.create(resource.name);
    const original = await currentRecord(ctx, resource.name, created.path);
    const update = updateOf(ctx, resource.name);
    const change = await trackedChange(ctx.world, update, resource.versioned!.tracked, original);
    expectSuccess(await send(ctx.target, update, { path: created.path, body: change }), update, 'a tracked change');
    const versions = await listVersions(ctx, history, created.path);
    const first = versions.find((v) => v[item.number] === 1) ?? fail('no version 1 after create and a change');
    const answer = await send(ctx.target, ctx.route, { path: { ...created.path, [versionParam]: String(first[item.id]) } });
    expectSuccess(answer, ctx.route, 'reverting to version 1');
    const reverted = recordOf(ctx.route, answer) ?? (await currentRecord(ctx, resource.name, created.path));
    const differing = resource.versioned!.tracked.filter((f) => !same(reverted[f], original[f]));
    if (differing.length > 0) fail(`after reverting to version 1 these tracked fields differ from version 1: ${differing.map((f) => `${f} ${JSON.stringify(reverted[f])} (was ${JSON.stringify(original[f])})`).join('; ')}`);
    const shown = await currentRecord(ctx, resource.name, created.path);
    if (!same(currentOf(resource, shown), currentOf(resource, reverted))) fail('a get after the revert shows another current version than the revert answered');
    // A well-formed ULID (26 Crockford characters) that no version has: minted ones start with the clock's 0/1.
    const missing = await send(ctx.target, ctx.route, { path: { ...created.path, [versionParam]: `7${'Z'.repeat(25)}` } });
    expectError(missing, 404, 'NOT_FOUND', versionParam, 'a revert to a version that does not exist');
    expectEnvelope(missing, 'a revert to a version that does not exist');
  },
};

// Seed "Versioning" 6: "Built-in metrics have no per-organization history and return an empty list"; docs/sandbox.md
// "Resources": built-in metrics are platform records with is_builtin: true (x-field-role builtin-flag).
export const builtinNoVersions: Check = {
  name: 'versions: a built-in record lists no versions',
  needs: 'a versioned resource with a built-in flag',
  applies: (route, suite) => versioned(route, suite) && builtinFlag(route, suite) !== null,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const builtin = await ctx.world.loadRecord(resource.name, { [resource.roles.builtinFlag!]: true }, { platform: true, with_history: true });
    const versions = await listVersions(ctx, ctx.route, builtin.path);
    if (versions.length !== 0) fail(`a built-in ${resource.name} lists ${versions.length} versions`);
  },
};

/** A tracked field of the update body that takes an object with two free keys, with such an object. */
function objectField(update: Route, tracked: readonly string[]): [string, Json] | undefined {
  for (const field of tracked) {
    const value = { alpha_key: 'one', beta_key: 'two' };
    if (update.validators.body?.validate({ [field]: value }).ok) return [field, value];
  }
  return undefined;
}

// Seed "Versioning" 2: "Cosmetic or no-op saves (... saving with no meaningful change) create no version": the
// stored configuration sent again, with an object's keys in another order, is no change.
export const noopResave: Check = {
  name: 'versions: saving the stored configuration again (object keys in another order) records no version',
  needs: 'an update of a versioned resource',
  applies: (route, suite) => {
    const resource = suite.resources.find((r) => r.name === route.resource);
    return route.action === 'update' && route.auth.length > 0 && route.aliasOf === null && resource?.versioned?.history != null && objectField(route, resource.versioned.tracked) !== undefined;
  },
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const history = ctx.suite.routes.find((r) => r.id === resource.versioned!.history)!;
    const [field, value] = objectField(ctx.route, resource.versioned!.tracked)!;
    const created = await ctx.world.create(resource.name);
    expectSuccess(await send(ctx.target, ctx.route, { path: created.path, body: { [field]: value } }), ctx.route, `setting ${field}`);
    const before = (await listVersions(ctx, history, created.path)).length;
    const reordered = Object.fromEntries(Object.entries(value).reverse());
    expectSuccess(await send(ctx.target, ctx.route, { path: created.path, body: { [field]: reordered } }), ctx.route, `saving ${field} again, keys reordered`);
    const after = (await listVersions(ctx, history, created.path)).length;
    if (after !== before) fail(`saving ${field} with the same content (keys in another order) recorded ${after - before} version(s)`);
  },
};

/** Body fields of a create that name a versioned resource (agent_id, metric_ids), with that resource. */
function versionedReferences(route: Route, suite: SuiteData): [string, string][] {
  const out: [string, string][] = [];
  for (const field of route.body?.properties ?? []) {
    const name = /^(.*)_ids?$/.exec(field)?.[1];
    const resource = suite.resources.find((r) => r.name.replace(/-/g, '_') === name && r.versioned?.history);
    if (resource) out.push([field, resource.name]);
  }
  return out;
}

// Seed "Versioning" 8: "A launched run records the version of each resource it executes against" (the current
// one); a version is recorded only by a save that changes behaviour (Versioning 1-2), so launching adds none to a
// resource that has its history already (docs/sandbox.md "Runs": a first version is minted only "where needed").
export const pinWithoutNewVersions: Check = {
  name: 'rule run-pin-versions: launching pins the current versions without recording new ones',
  needs: 'a create operation with the run-pin-versions rule and references to versioned records',
  applies: (route, suite) => route.action === 'create' && route.rules.includes('run-pin-versions') && versionedReferences(route, suite).length > 0,
  async run(ctx) {
    const refs = versionedReferences(ctx.route, ctx.suite);
    const made = new Map<string, { field: string; created: Awaited<ReturnType<typeof ctx.world.create>> }>();
    for (const [field, resource] of refs) made.set(field, { field, created: await ctx.world.create(resource) });
    const count = async (): Promise<Record<string, number>> => {
      const out: Record<string, number> = {};
      for (const [field, { created }] of made) {
        const history = ctx.suite.routes.find((r) => r.id === ctx.world.resource(created.resource).versioned!.history)!;
        out[field] = (await listVersions(ctx, history, created.path)).length;
      }
      return out;
    };
    const before = await count();
    const body = (await ctx.world.bodyFor(ctx.route)) ?? {};
    for (const [field, { created }] of made) body[field] = field.endsWith('_ids') ? [created.id] : created.id;
    expectSuccess(await send(ctx.target, ctx.route, { body }), ctx.route, 'launching');
    const after = await count();
    const grown = Object.keys(before).filter((f) => after[f] !== before[f]);
    if (grown.length > 0) fail(`launching recorded versions of ${grown.map((f) => `${f} (${before[f]} -> ${after[f]})`).join(', ')}`);
  },
};

export const checks: Check[] = [versionContents, firstVersionOnSave, revertRestores, builtinNoVersions, noopResave, pinWithoutNewVersions];
