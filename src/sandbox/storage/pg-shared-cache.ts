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

/** Prefix of a write of a cached row: raises the epoch in the same statement (and transaction). */
export const EPOCH_BUMP = 'WITH cache_bump AS (UPDATE cache_epoch SET value = value + 1 WHERE id = 1) ';
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

  /** A request begins: the epoch is checked again before the next use of the cache. */
  expire(): void {
    this.checkedAt = Number.NEGATIVE_INFINITY;
  }

  /** Whether the cache may be used without reading the epoch. */
  get current(): boolean {
    return this.epoch !== null && Date.now() - this.checkedAt < MAX_AGE_MS;
  }

  /** The epoch as just read: everything cached goes when it moved. */
  observe(epoch: string): void {
    if (epoch !== this.epoch) {
      this.keys.clear();
      this.organizations.clear();
      this.records.clear();
      this.epoch = epoch;
    }
    this.checkedAt = Date.now();
  }

  /** Everything was deleted (the control plane's reset): forget all, check the epoch before the next use. */
  forget(): void {
    this.observe('');
    this.epoch = null;
    this.expire();
  }

  /** This instance wrote a cached row: forget it at once and check the epoch before the next use. */
  written(cache: BoundedCache<object>, id: string): void {
    cache.delete(id);
    this.expire();
  }
}
