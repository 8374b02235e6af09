// Typed access to the store's records of a resource: the data typed as the generated type of the resource
// (generated/sandbox/resource-types.ts, from the spec's x-resource schemas), so rules read and write records
// through the types the client ships instead of casting each field. The store itself stays untyped JSON (the
// engine is generic); this module is the one place where its records are given their resource's type.
import type { ResourceTypes } from '../../../generated/sandbox/resource-types.js';
import type { Json, RecordFilter, Store, StoredRecord } from './store.js';

export type { ResourceTypes };

/** A resource name of the route table (`alert`, `run`, ...). */
export type ResourceKind = keyof ResourceTypes & string;

/**
 * A stored record of a resource. Its data is the resource's generated type; the sandbox's own bookkeeping fields
 * (named with a leading `_`, never presented) are there too, as `unknown`.
 */
export type RecordOf<K extends ResourceKind> = Omit<StoredRecord, 'kind' | 'data'> & { kind: K; data: ResourceTypes[K] & Json };

// The one cast: a record of a resource's kind is stored only by that resource's create (a validated body plus
// the server-set fields), its updates and its fixtures, so its data has the resource's type.
function typed<K extends ResourceKind>(record: StoredRecord): RecordOf<K> {
  return record as RecordOf<K>;
}

/** `store.list` of a resource's records, typed. */
export function listRecords<K extends ResourceKind>(store: Store, kind: K, filter?: RecordFilter): RecordOf<K>[] {
  return store.list(kind, filter).map((r) => typed<K>(r));
}

/** `store.get` of a resource's record, typed. */
export function getRecord<K extends ResourceKind>(store: Store, kind: K, id: string): RecordOf<K> | undefined {
  const record = store.get(kind, id);
  return record && typed<K>(record);
}

/** `store.withField` of a resource's records, typed. */
export function recordsWithField<K extends ResourceKind>(store: Store, kind: K, org: string, field: string, value: unknown, live = false): RecordOf<K>[] {
  return store.withField(kind, org, field, value, live).map((r) => typed<K>(r));
}

/** A record the engine handed over (`findRecord`, an action's result) seen as the resource it is of. */
export function asResource<K extends ResourceKind>(kind: K, record: StoredRecord): RecordOf<K> {
  if (record.kind !== kind) throw new Error(`sandbox: a record of kind ${record.kind} is not a record of ${kind}`);
  return typed<K>(record);
}
