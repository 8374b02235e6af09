// Forward-only version history (x-versioned): a save that changes a tracked field records a version and
// advances the record's current version (its x-field-role current-version property); cosmetic and no-op saves
// record none; a record without history (loaded by fixture, predating versioning) gets its first version on its
// next save or first use in a run. A version is stamped as the x-field-role properties of its item schema say.
import { ulid } from '../ids.js';
import type { Json, StoredRecord } from '../storage/store.js';
import type { Runtime } from './context.js';
import { clone, collectionOf, deepEqual, SANDBOX_USER, setOwn } from './records.js';
import type { ResourceRow } from './tables.js';

export interface VersionRef {
  ulid: string;
  version_number: number;
  change_type: string;
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

/**
 * Appends a version of `record` (its current data), stamped as its item schema's roles say, and points the record's
 * current-version property at it. Caller writes the record.
 */
export function recordVersion(runtime: Runtime, resource: ResourceRow, record: StoredRecord, changeType: string, extra: Json = {}): VersionRef {
  const history = runtime.store.listVersions(resource.name, record.id);
  const number = (history[0]?.number ?? 0) + 1;
  const id = ulid();
  const now = runtime.clock.now().toISOString();
  const ref: VersionRef = { ulid: id, version_number: number, change_type: changeType };
  const roles = resource.versioned!.versionRoles;
  const data: Json = {};
  if (roles.resourceName !== null) setOwn(data, roles.resourceName, `${collectionOf(runtime, resource.name)}/${record.id}/versions/${id}`);
  for (const [k, v] of Object.entries(ref)) setOwn(data, k, v);
  for (const f of roles.createdAt) setOwn(data, f, now);
  for (const f of roles.createdBy) setOwn(data, f, SANDBOX_USER);
  for (const [k, v] of Object.entries({ ...extra, ...snapshot(resource, record.data) })) setOwn(data, k, v);
  runtime.store.addVersion({ kind: resource.name, resourceId: record.id, number, data });
  const current = resource.roles.currentVersion;
  if (current !== null) setOwn(record.data, current, ref);
  return ref;
}

export function hasHistory(runtime: Runtime, resource: ResourceRow, record: StoredRecord): boolean {
  return runtime.store.listVersions(resource.name, record.id).length > 0;
}

/** The version a run pins: the newest one, minting the first version of a record that has no history. */
export function pinVersion(runtime: Runtime, resource: ResourceRow, record: StoredRecord): VersionRef {
  const newest = runtime.store.listVersions(resource.name, record.id)[0];
  if (!newest) {
    const ref = recordVersion(runtime, resource, record, 'save');
    runtime.store.update(record);
    return ref;
  }
  const { ulid: id, version_number: number, change_type: changeType } = newest.data;
  return { ulid: String(id), version_number: Number(number), change_type: String(changeType) };
}
