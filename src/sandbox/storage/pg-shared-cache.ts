// The PostgreSQL store's cache of what every request reads before its own work (issue 28): API keys,
// organizations and workspace records (the kinds the store is told to cache). Several instances, and the
// worker processes of each, write the same database, so a cached entry is only as good as the database's
// cache epoch: a counter row (`cache_epoch`, migration 3) that every write of a cached row raises in the same
// statement (EPOCH_BUMP, a data-modifying WITH: no extra round trip, and no reader can see the new row without
// the new epoch). A reader checks the epoch before it uses the cache, at most once per request (and at least
// every MAX_AGE_MS for background work outside requests); when it moved, everything cached is dropped. The
// check rides in the same statement as the read of a missing entry, so a request whose entries are cached costs
// one small round trip where it cost one per key, organization and workspace.
//
// Why not LISTEN/NOTIFY: a notification reaches the other instances shortly after the commit, not before the
// committing request answers, so a client that revokes through one instance and calls another at once could be
// let in; the epoch is read in the database, after the commit, so that client is refused.
import type { ApiKeyRecord, Organization, StoredRecord } from './store.js';
import { BoundedCache } from './bounded-cache.js';
import { DatabaseUnavailable } from './pg-connection.js';

/** Prefix of a write of a cached row: raises the epoch in the same statement (and transaction). */
export const EPOCH_BUMP = 'WITH cache_bump AS (UPDATE cache_epoch SET value = value + 1 WHERE id = 1) ';
/** The column a deferred check adds to a read (pg-store.ts): the epoch beside the read's own columns. */
export const EPOCH_COLUMN = 'cache_epoch__';
/** A read with the epoch beside each of its rows (none when the read finds none). */
export const besideEpoch = (select: string): string => `SELECT (SELECT value FROM cache_epoch WHERE id = 1) AS ${EPOCH_COLUMN}, s.* FROM (${select}) s`;
/**
 * A statement that fails with STALE_SQLSTATE unless the epoch is still `epoch` (migration 4): sent in the script
 * that begins a write transaction, it checks a request's cached entries in that round trip (pg-store.ts).
 */
export const epochGuard = (epoch: string): string => `SELECT cache_epoch_is(${BigInt(epoch).toString()})`;
/** The SQLSTATE of a failed epoch guard. */
export const STALE_SQLSTATE = 'SB001';
/** The epoch alone. */
export const EPOCH_QUERY = 'SELECT value AS epoch FROM cache_epoch WHERE id = 1';
/** The epoch beside a row of `table` (null columns when it has none): `SELECT e.value AS epoch, x.<columns> ...`. */
export const withEpoch = (columns: string, table: string, on: string): string => `SELECT e.value AS epoch, ${columns} FROM cache_epoch e LEFT JOIN ${table} x ON ${on} WHERE e.id = 1`;

/** Background work (no request begins) still checks the epoch this often. */
const MAX_AGE_MS = 250;
const ENTRIES = 10_000;

export class SharedCache {
  readonly keys = new BoundedCache<ApiKeyRecord>(ENTRIES);
  readonly organizations = new BoundedCache<Organization>(ENTRIES);
  readonly records = new BoundedCache<StoredRecord>(ENTRIES);
  private epoch: string | null = null;
  private checkedAt = Number.NEGATIVE_INFINITY;
  /** When the epoch was last read (a request beginning does not reset it, unlike checkedAt). */
  private observedAt = Number.NEGATIVE_INFINITY;

  /** A request begins: the epoch is checked again before the next use of the cache. */
  expire(): void {
    this.checkedAt = Number.NEGATIVE_INFINITY;
  }

  /** The epoch the cached entries belong to (null: nothing read yet). */
  get epochRead(): string | null {
    return this.epoch;
  }

  /** Whether the cache may be used without reading the epoch. */
  get current(): boolean {
    return this.epoch !== null && Date.now() - this.checkedAt < MAX_AGE_MS;
  }

  /**
   * Whether a read-only request may use the cache now and have the epoch checked later in the request (the
   * store's deferred check): only while the epoch was read within MAX_AGE_MS, so work between requests never
   * relies on an older check than it does today.
   */
  get recent(): boolean {
    return this.epoch !== null && Date.now() - this.observedAt < MAX_AGE_MS;
  }

  /** The epoch as just read: everything cached goes when it moved. Says whether it moved. */
  observe(epoch: string): boolean {
    const moved = epoch !== this.epoch;
    if (moved) {
      this.keys.clear();
      this.organizations.clear();
      this.records.clear();
      this.epoch = epoch;
    }
    this.checkedAt = this.observedAt = Date.now();
    return moved;
  }

  /** Everything was deleted (the control plane's reset): forget all, check the epoch before the next use. */
  forget(): void {
    this.observe('');
    this.epoch = null;
    this.expire();
  }

  /**
   * This instance wrote a cached row: forget it at once and check the epoch before the next use (not deferred: the
   * write moved the epoch, so a deferred check would only find the request stale and run it again).
   */
  written(cache: BoundedCache<object>, id: string): void {
    cache.delete(id);
    this.expire();
    this.observedAt = Number.NEGATIVE_INFINITY;
  }
}

/**
 * A write of a request that used cached entries another instance has since changed (a deferred check, pg-store.ts):
 * refused before anything is written. Background work meeting it treats it as a brief outage (try again); the
 * request is run again from the start (sandbox.ts), so its caller never sees it.
 */
export class StaleRead extends DatabaseUnavailable {
  constructor() {
    super('cached entries changed during the request');
  }
}
