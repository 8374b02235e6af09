// Fixture documents loaded through the control plane: any resource of the route table (as stored, with the
// create body's defaults for what it omits, without history unless asked), plus records the API cannot create (run templates, custom voices and sounds,
// review annotations, platform voices and phone numbers, built-in metrics with `platform: true`).
import { invalid, notFound } from '../errors.js';
import { mintId, alnum } from '../ids.js';
import type { Runtime } from '../engine/context.js';
import { newRecordData, setOwn } from '../engine/records.js';
import { recordVersion } from '../engine/versions.js';
import type { Json, StoredRecord } from '../storage/store.js';
import { PLATFORM_ORG } from '../storage/store.js';

/** Kinds that are not API resources but that rules read. */
export const EXTRA_KINDS = ['run_template', 'custom_voice', 'custom_sound', 'annotation', 'voice', 'phone_number'] as const;

export interface FixtureEntry {
  kind: string;
  id?: string;
  workspace_id?: string | null;
  /** Visible to every organization (built-in metrics, platform voices). */
  platform?: boolean;
  deleted?: boolean;
  /** Record a first version now (default: no history, as for a resource that predates versioning). */
  with_history?: boolean;
  data: Json;
}

export function loadFixtures(runtime: Runtime, org: string, entries: FixtureEntry[]): { kind: string; id: string }[] {
  const organization = runtime.store.getOrganization(org);
  return runtime.store.transaction(() =>
    entries.map((entry, index) => {
      const resource = runtime.tables.resources.find((r) => r.name === entry.kind);
      const extra = (EXTRA_KINDS as readonly string[]).includes(entry.kind);
      if (!resource && !extra) throw invalid(`records[${index}].kind`, `unknown kind: expected one of ${[...runtime.tables.resources.map((r) => r.name), ...EXTRA_KINDS].join(', ')}`);
      if (entry.data === null || typeof entry.data !== 'object' || Array.isArray(entry.data)) throw invalid(`records[${index}].data`, 'must be an object');
      const now = runtime.clock.now().toISOString();
      let data: Json;
      let id: string;
      if (resource) {
        const given = entry.data[resource.id];
        id = entry.id ?? (typeof given === 'string' ? given : typeof given === 'number' && resource.idFormat.kind === 'integer' ? String(given) : mintId(resource.idFormat));
        // What a create would have filled in: the create body's schema defaults, for the fields the entry omits
        // (rules read records as the API makes them: an alert's evaluation_type, a list's []).
        const defaults = runtime.tables.routes.find((r) => r.resource === resource.name && r.action === 'create' && r.aliasOf === null)?.body?.defaults ?? {};
        data = newRecordData(runtime, resource, { ...structuredClone(defaults), ...entry.data }, now, id);
      } else {
        id = entry.id ?? (typeof entry.data.id === 'string' ? entry.data.id : alnum(22));
        data = { ...entry.data };
        setOwn(data, 'id', id);
        // An annotation is placed in insight windows by its create_time: the time it was loaded unless given.
        if (entry.kind === 'annotation' && data.create_time === undefined) setOwn(data, 'create_time', now);
      }
      if (runtime.store.get(entry.kind, id)) throw invalid(`records[${index}].id`, `a ${entry.kind} with this id already exists`);
      const workspace =
        entry.workspace_id !== undefined ? entry.workspace_id : resource?.scope === 'workspace' || extra ? (organization?.default_workspace_id ?? null) : null;
      const record: StoredRecord = runtime.store.insert({ kind: entry.kind, id, org: entry.platform ? PLATFORM_ORG : org, workspace, deleted: entry.deleted === true, data });
      if (resource?.versioned && entry.with_history) {
        recordVersion(runtime, resource, record, 'save');
        runtime.store.update(record);
      }
      return { kind: entry.kind, id };
    }),
  );
}

/** A loaded record of the organization (any kind fixtures can load), or 404 on record_id. */
function ownRecord(runtime: Runtime, org: string, kind: string, id: string): StoredRecord {
  const known = runtime.tables.resources.some((r) => r.name === kind) || (EXTRA_KINDS as readonly string[]).includes(kind);
  if (!known) throw invalid('kind', `unknown kind: expected one of ${[...runtime.tables.resources.map((r) => r.name), ...EXTRA_KINDS].join(', ')}`);
  const record = runtime.store.get(kind, id);
  if (!record || record.org !== org) throw notFound('record_id', kind.replace(/[_-]/g, ' '));
  return record;
}

/**
 * Changes a stored record as it is (no API rule runs): `data` is merged into it field by field (null removes a
 * field), `deleted` soft-deletes or restores it. For example `{ data: { active: false } }` deactivates a run
 * template, so it no longer blocks deleting its agent.
 */
export function changeFixture(runtime: Runtime, org: string, kind: string, id: string, change: Json): { kind: string; id: string; deleted: boolean; data: Json } {
  if (change.data !== undefined && (change.data === null || typeof change.data !== 'object' || Array.isArray(change.data))) throw invalid('data', 'must be an object');
  if (change.deleted !== undefined && typeof change.deleted !== 'boolean') throw invalid('deleted', 'must be a boolean');
  return runtime.store.transaction(() => {
    const record = ownRecord(runtime, org, kind, id);
    for (const [key, value] of Object.entries((change.data ?? {}) as Json)) {
      const resource = runtime.tables.resources.find((r) => r.name === kind);
      // The id is the record's key: changing it would orphan the record.
      if (key === (resource?.id ?? 'id')) throw invalid(`data.${key}`, 'the id of a record cannot be changed');
      if (value === null) delete record.data[key];
      else setOwn(record.data, key, value);
    }
    if (typeof change.deleted === 'boolean') record.deleted = change.deleted;
    runtime.store.update(record);
    return { kind, id, deleted: record.deleted, data: record.data };
  });
}

/** Removes a loaded record (and its version history) for good. */
export function removeFixture(runtime: Runtime, org: string, kind: string, id: string): void {
  runtime.store.transaction(() => {
    ownRecord(runtime, org, kind, id);
    runtime.store.remove(kind, id);
  });
}
