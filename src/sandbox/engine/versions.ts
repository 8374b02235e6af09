// Forward-only version history (x-versioned): a save that changes a tracked field records a version and
// advances the record's current version (its x-field-role current-version property); cosmetic and no-op saves
// record none; a record without history (loaded by fixture, predating versioning) gets its first version on its
// next save or first use in a run. A version is stamped and found as the x-field-role properties of its item schema
// say (version-id, version-number, change-type, reverted-from, times and authors); a reference to a version is built
// from the roles of the version reference's schema.
import { ulid } from '../ids.js';
import type { Json, StoredRecord } from '../storage/store.js';
import type { Runtime } from './context.js';
import { clone, collectionOf, deepEqual, SANDBOX_USER, setOwn } from './records.js';
import type { FieldRoles, ResourceRow } from './tables.js';
import type { VersionRef as GeneratedVersionRef } from '../../../generated/client/types.js';

/** A reference to a version, as the rules read it: the generated type of the spec's version reference schema. */
export type VersionRef = GeneratedVersionRef;

/** A version's id, number and change type: what a reference to it carries. */
interface VersionFacts {
  id: string;
  number: number;
  changeType: string;
}

/** The version facts under the property names a schema's roles give (a role no property plays is left out). */
function byRoles(roles: FieldRoles, facts: VersionFacts): Json {
  const out: Json = {};
  for (const [field, value] of [[roles.versionId, facts.id], [roles.versionNumber, facts.number], [roles.changeType, facts.changeType]] as const) {
    if (field !== null) setOwn(out, field, value);
  }
  return out;
}

/**
 * A reference to a version. The spec's reference schema names its properties by role (the model refuses one
 * without all three), so the object built here is of its generated type.
 */
function reference(resource: ResourceRow, facts: VersionFacts): VersionRef {
  return byRoles(resource.versioned!.referenceRoles, facts) as unknown as VersionRef;
}

/**
 * The tracked fields of a versioned resource's data (a field the data does not hold stays undefined, which
 * storage and comparisons treat as absent).
 */
export function snapshot(resource: ResourceRow, data: Json): Json {
  const out: Json = {};
  for (const field of resource.versioned!.tracked) setOwn(out, field, clone(data[field]));
  return out;
}

export function trackedChanged(resource: ResourceRow, before: Json, after: Json): boolean {
  return !deepEqual(snapshot(resource, before), snapshot(resource, after));
}

/** The id of a stored version (its version-id property). */
export function versionIdOf(resource: ResourceRow, version: { data: Json }): unknown {
  const field = resource.versioned!.versionRoles.versionId;
  return field === null ? undefined : version.data[field];
}

/**
 * Appends a version of `record` (its current data), stamped as its item schema's roles say, and points the record's
 * current-version property at it. `revertedFrom`: the id of the version a revert re-applies. Caller writes the record.
 */
export function recordVersion(runtime: Runtime, resource: ResourceRow, record: StoredRecord, changeType: string, revertedFrom?: unknown): VersionRef {
  // Numbered after the newest alone (the whole history is read only where it is shown).
  const facts: VersionFacts = { id: ulid(), number: (runtime.store.newestVersion(resource.name, record.id)?.number ?? 0) + 1, changeType };
  const now = runtime.clock.now().toISOString();
  const roles = resource.versioned!.versionRoles;
  const data: Json = {};
  if (roles.resourceName !== null) setOwn(data, roles.resourceName, `${collectionOf(runtime, resource.name)}/${record.id}/versions/${facts.id}`);
  for (const [k, v] of Object.entries(byRoles(roles, facts))) setOwn(data, k, v);
  for (const f of roles.createdAt) setOwn(data, f, now);
  for (const f of roles.createdBy) setOwn(data, f, SANDBOX_USER);
  if (revertedFrom !== undefined && roles.revertedFrom !== null) setOwn(data, roles.revertedFrom, revertedFrom);
  for (const [k, v] of Object.entries(snapshot(resource, record.data))) setOwn(data, k, v);
  runtime.store.addVersion({ kind: resource.name, resourceId: record.id, number: facts.number, data });
  const ref = reference(resource, facts);
  const current = resource.roles.currentVersion;
  if (current !== null) setOwn(record.data, current, ref);
  return ref;
}

export function hasHistory(runtime: Runtime, resource: ResourceRow, record: StoredRecord): boolean {
  return runtime.store.newestVersion(resource.name, record.id) !== undefined;
}

/** The version a run pins: the newest one, minting the first version of a record that has no history. */
export function pinVersion(runtime: Runtime, resource: ResourceRow, record: StoredRecord): VersionRef {
  const newest = runtime.store.newestVersion(resource.name, record.id);
  if (!newest) {
    const ref = recordVersion(runtime, resource, record, 'save');
    runtime.store.update(record);
    return ref;
  }
  const roles = resource.versioned!.versionRoles;
  const changeType = roles.changeType === null ? undefined : newest.data[roles.changeType];
  return reference(resource, { id: String(versionIdOf(resource, newest)), number: newest.number, changeType: String(changeType) });
}
