// The sandbox's storage interface: a small document store the engine needs, so that another backend (a
// shared server database for a team sandbox) can be added without touching the engine.

export type Json = Record<string, unknown>;

/** Whether a stored value is a JSON object (a record's nested object, the sandbox's own bookkeeping fields). */
export function isJsonObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * An organization's live records of a kind whose `data[field]` equals `value`, in insertion order, through the
 * store's indexed field lookup (issue 29: "the rows of this test set" read by listing every live record of the
 * kind cost what the organization holds). Only the organization's own records: the platform's are not included.
 */
export function liveWithField(store: Pick<Store, 'withField'>, kind: string, org: string, field: string, value: unknown): StoredRecord[] {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return [];
  return store.withField(kind, org, field, value, true);
}

/** The owner of platform records every organization sees (built-in metrics, voices): `StoredRecord.org`. */
export const PLATFORM_ORG = '*';

export interface Organization {
  id: string;
  display_name: string;
  created_at: string;
  default_workspace_id: string;
}

export interface ApiKeyRecord {
  key: string;
  organization_id: string;
  permissions: string[];
  created_at: string;
}

export interface StoredRecord {
  kind: string;
  id: string;
  /** Owning organization; PLATFORM_ORG for platform records every organization sees. */
  org: string;
  /** Owning workspace, or null for organization-scoped records (and legacy records whose workspace is unset). */
  workspace: string | null;
  deleted: boolean;
  /** Insertion order: lists are stable and paging is by position. */
  seq: number;
  data: Json;
}

export interface StoredVersion {
  kind: string;
  resourceId: string;
  number: number;
  data: Json;
}

/** Something the sandbox sent (or tried to send): an alert notification or a webhook delivery. */
export interface SentRecord {
  id: string;
  seq: number;
  org: string;
  kind: 'alert_notification' | 'webhook_delivery';
  data: Json;
}

export interface RecordFilter {
  org?: string;
  workspace?: string | null;
  includeDeleted?: boolean;
}

/**
 * One page of an organization's live records of a kind, in insertion order (issue 29: a list pages in the query,
 * so its cost is its page, not every live record of the kind). The platform's records are included, as in list().
 */
export interface PageQuery {
  org: string;
  /**
   * For workspace-scoped kinds: the organization's records of workspace `id`, plus those whose workspace is unset
   * when `unsetToo` (they belong to the default workspace); the platform's records always.
   */
  workspace?: { id: string | null; unsetToo: boolean };
  /** A lifecycle state that hides a record: records whose `data[field]` is one of these strings are left out. */
  hidden?: { field: string; values: readonly string[] };
  offset: number;
  limit: number;
}

/** A page of records and the number of records the page query matches in all (the list's total). */
export interface RecordPage {
  records: StoredRecord[];
  total: number;
}

/** How a store is opened (options a backend may ignore). */
export interface OpenStoreOptions {
  /** Record kinds read by id on every request (the workspace resource): a shared store caches them like keys and organizations. */
  cachedKinds?: readonly string[];
}

export interface Store {
  /**
   * Runs `fn` as one atomic transaction; nested calls join the outer one. `read` says the caller expects not
   * to write (a backend may then skip taking the write lock first); writing anyway must still work.
   */
  transaction<T>(fn: () => T, mode?: 'read' | 'write'): T;
  meta(key: string): string | undefined;
  setMeta(key: string, value: string): void;

  putOrganization(org: Organization): void;
  getOrganization(id: string): Organization | undefined;
  putKey(key: ApiKeyRecord): void;
  findKey(key: string): ApiKeyRecord | undefined;

  insert(record: Omit<StoredRecord, 'seq'>): StoredRecord;
  update(record: StoredRecord): void;
  /** Removes a record and its version history for good (the control plane's fixture removal). */
  remove(kind: string, id: string): void;
  get(kind: string, id: string): StoredRecord | undefined;
  /**
   * Like get(), for hot read paths outside transactions: the answer may be a shared, cached object that the
   * caller must not change (an update through this store refreshes it).
   */
  peek(kind: string, id: string): StoredRecord | undefined;
  list(kind: string, filter?: RecordFilter): StoredRecord[];
  /** A page of live records and their count, both in the query (what list() answers, sliced). */
  listPage(kind: string, query: PageQuery): RecordPage;
  /**
   * Records of an organization whose `data[field]` equals `value` (scalars), deleted ones included unless `live`
   * (then left out in the query: tombstones pile up where records are made and deleted over and over).
   */
  withField(kind: string, org: string, field: string, value: unknown, live?: boolean): StoredRecord[];

  addVersion(version: StoredVersion): void;
  listVersions(kind: string, resourceId: string): StoredVersion[];
  /** The newest version of a record (highest number), or undefined: what numbering and pinning need, without reading the whole history. */
  newestVersion(kind: string, resourceId: string): StoredVersion | undefined;

  addSent(entry: Omit<SentRecord, 'seq'>): SentRecord;
  updateSent(entry: SentRecord): void;
  listSent(filter: { org?: string; kind?: string }): SentRecord[];

  // The delivery queue of a store shared by several instances (PostgreSQL). Optional: a store without them
  // (SQLite, one process) delivers from memory, each entry by the instance that created it.
  /**
   * Claims a pending or retrying entry for `leaseMs` when this instance holds it already or nobody's claim is
   * live; returns its current state, or undefined when another instance has it or it is finished.
   */
  claimSent?(id: string, leaseMs: number): SentRecord | undefined;
  /** Claims up to `limit` entries that are due (next attempt reached) and held by nobody: the takeover. */
  claimDueSent?(leaseMs: number, limit: number): SentRecord[];
  /**
   * Stores an entry after an attempt and says when the next one is due (`retryInMs`; null when it is
   * finished). The claim is kept `holdMs` past the retry time, then anyone may take the entry over.
   */
  releaseSent?(entry: SentRecord, retryInMs: number | null, holdMs: number): void;

  /**
   * A request begins (optional): a store shared by several instances that caches keys, organizations or
   * workspaces checks them against the other instances' writes before their next use (PostgreSQL). A request that
   * can be run again from the start (`deferrable`: its body can be read again, it calls out to nothing before it
   * commits) may use them first and have them checked by its first read of the database, or by the script that
   * begins its write transaction, instead of a round trip of its own; nothing is written unless the check passed,
   * and a request that used an entry since changed is refused there (503, as a brief outage) and told so by
   * requestStale() at its end: it is then run again.
   */
  newRequest?(deferrable?: boolean): void;
  /** The request ends (optional): whether what it read from the cache had changed (run it again, not deferred). */
  requestStale?(): boolean;

  /** Deletes everything (organizations, keys, records, history, sent items), keeping meta. */
  reset(): void;
  close(): void;
}
