// The PostgreSQL store: the team sandbox, several stateless instances over one database behaving as one.
//
// - Writes are serialized across instances by a transaction-scoped advisory lock (one per schema), taken when
//   a write transaction begins (in the same round trip as BEGIN). A transaction opened as `read` runs its
//   statements on their own (READ COMMITTED reads, no BEGIN and COMMIT round trips) until its first write,
//   which begins the transaction and takes the lock. The engine's
//   checks (uniqueness among active records, dense version numbers, whole-set replacement) read and write
//   inside one transaction, so under the lock they hold across instances exactly as they hold in one SQLite
//   process: of two concurrent renames to the same name through different instances, the second sees the
//   first's commit and answers 409. Reads take no lock (READ COMMITTED).
// - Nothing is cached: keys, organizations and workspaces are read from the database on every request, so a
//   write through any instance is seen by the next request on every instance (no invalidation to get wrong).
// - The sent log is also the delivery queue (events/deliver.ts, events/queue.ts): an entry is claimed by one
//   instance at a time with a lease; the instance that created it holds it first, and when that instance dies
//   its entries are claimed (FOR UPDATE SKIP LOCKED) by another once the lease runs out.
import { randomUUID } from 'node:crypto';
import { DatabaseUnavailable, PgConnection, lockKey, parsePgUrl } from './pg-connection.js';
import { WRITE_LOCK_CLASS, migrate } from './pg-schema.js';
import { PLATFORM_ORG, type ApiKeyRecord, type Json, type Organization, type RecordFilter, type SentRecord, type Store, type StoredRecord } from './store.js';

/** How long an instance holds a delivery it created before anyone else may take it over. */
const CREATED_LEASE_MS = 10_000;

type Row = Record<string, string | null>;

function toRecord(row: Row): StoredRecord {
  return { kind: row.kind!, id: row.id!, org: row.org!, workspace: row.workspace ?? null, deleted: row.deleted === 't', seq: Number(row.seq), data: JSON.parse(row.data!) as Json };
}

function toSent(row: Row): SentRecord {
  return { id: row.id!, seq: Number(row.seq), org: row.org!, kind: row.kind as SentRecord['kind'], data: JSON.parse(row.data!) as Json };
}

function stateOf(data: Json): string {
  return typeof data.status === 'string' ? data.status : 'delivered';
}

export interface PgStoreInfo {
  /** The URL with the password masked. */
  display: string;
  /** Migrations this start applied. */
  migrated: number[];
}

/**
 * Opens (and migrates) the store at `url`. Throws DatabaseUnavailable when the server cannot be reached or
 * refuses the credentials (its reason is libpq's one line), an Error for a malformed URL or a newer schema.
 */
export function openPgStore(url: string): Store & { info: PgStoreInfo } {
  const target = parsePgUrl(url);
  const connection = new PgConnection(target, (c) => void c.query(`SET search_path TO "${target.schema}"`));
  connection.open();
  const migrated = migrate(connection, target.schema);
  const writeLock = [String(WRITE_LOCK_CLASS), String(lockKey(target.schema))];
  /** This instance, as the owner of the deliveries it claims. */
  const owner = randomUUID();
  /** Inside transaction(): whether a transaction was asked for; connection.inTransaction says it has begun. */
  let open = false;
  const begin = `BEGIN; SELECT pg_advisory_xact_lock(${writeLock[0]}, ${writeLock[1]})`;

  const q = (text: string, params: (string | null)[] = []): Row[] => connection.query(text, params);
  /** Before a write inside transaction(): begins it, with the write lock, unless it has begun. */
  const writing = (): void => {
    if (open && !connection.inTransaction) {
      connection.query(begin);
      connection.inTransaction = true;
    }
  };
  // Lookups by a field (uniqueness checks) use an expression index per kind and field, created on first use
  // inside a write transaction (under the write lock, so two instances never create one at once). Kinds and
  // fields that are not plain names (spec-derived text never reaches SQL unchecked) are looked up unindexed.
  const indexed = new Set<string>();
  const plainName = (kind: string, field: string): boolean => /^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(field) && /^[A-Za-z][A-Za-z0-9_-]{0,40}$/.test(kind);
  const fieldQuery = (kind: string, field: string): string | null => {
    if (!plainName(kind, field)) return null;
    const cacheKey = `${kind}\u0000${field}`;
    if (!indexed.has(cacheKey) && connection.inTransaction) {
      q(`CREATE INDEX IF NOT EXISTS "records_${kind.replace(/-/g, '_')}_by_${field}" ON records (org, (data::jsonb -> '${field}')) WHERE kind = '${kind}'`);
      indexed.add(cacheKey);
    }
    return `SELECT * FROM records WHERE kind = '${kind}' AND org = $1 AND (data::jsonb -> '${field}') = $2::jsonb ORDER BY seq`;
  };
  const sentColumns = 'seq, id, org, kind, data';

  const store: Store & { info: PgStoreInfo } = {
    info: { display: target.display, migrated },
    transaction<T>(fn: () => T, mode: 'read' | 'write' = 'write'): T {
      if (open) return fn();
      open = true;
      try {
        if (mode === 'write') writing();
        const result = fn();
        if (connection.inTransaction) q('COMMIT');
        return result;
      } catch (error) {
        if (connection.inTransaction && connection.connected) {
          try {
            q('ROLLBACK');
          } catch {
            connection.drop();
          }
        }
        throw error;
      } finally {
        open = false;
        connection.inTransaction = false;
      }
    },
    meta: (key) => q('SELECT value FROM meta WHERE key = $1', [key])[0]?.value ?? undefined,
    setMeta(key, value) {
      writing();
      q('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
    },
    putOrganization(org) {
      writing();
      q('INSERT INTO organizations (id, data) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET data = excluded.data', [org.id, JSON.stringify(org)]);
    },
    getOrganization(id) {
      const row = q('SELECT data FROM organizations WHERE id = $1', [id])[0];
      return row ? (JSON.parse(row.data!) as Organization) : undefined;
    },
    putKey(key) {
      writing();
      q('INSERT INTO api_keys (key, organization_id, data) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET data = excluded.data', [key.key, key.organization_id, JSON.stringify(key)]);
    },
    findKey(key) {
      const row = q('SELECT data FROM api_keys WHERE key = $1', [key])[0];
      return row ? (JSON.parse(row.data!) as ApiKeyRecord) : undefined;
    },
    insert(record) {
      writing();
      const row = q('INSERT INTO records (kind, id, org, workspace, deleted, data) VALUES ($1, $2, $3, $4, $5, $6) RETURNING seq', [
        record.kind,
        record.id,
        record.org,
        record.workspace,
        record.deleted ? 't' : 'f',
        JSON.stringify(record.data),
      ])[0]!;
      return { ...record, seq: Number(row.seq) };
    },
    update(record) {
      writing();
      q('UPDATE records SET org = $1, workspace = $2, deleted = $3, data = $4 WHERE kind = $5 AND id = $6', [record.org, record.workspace, record.deleted ? 't' : 'f', JSON.stringify(record.data), record.kind, record.id]);
    },
    remove(kind, id) {
      writing();
      q('DELETE FROM records WHERE kind = $1 AND id = $2', [kind, id]);
      q('DELETE FROM versions WHERE kind = $1 AND resource_id = $2', [kind, id]);
    },
    get(kind, id) {
      const row = q('SELECT * FROM records WHERE kind = $1 AND id = $2', [kind, id])[0];
      return row ? toRecord(row) : undefined;
    },
    peek(kind, id) {
      return store.get(kind, id);
    },
    list(kind, filter: RecordFilter = {}) {
      const rows = filter.org === undefined ? q('SELECT * FROM records WHERE kind = $1 ORDER BY seq', [kind]) : q('SELECT * FROM records WHERE kind = $1 AND (org = $2 OR org = $3) ORDER BY seq', [kind, filter.org, PLATFORM_ORG]);
      return rows
        .map(toRecord)
        .filter((r) => (filter.includeDeleted === true || !r.deleted) && (filter.workspace === undefined || r.workspace === filter.workspace));
    },
    withField(kind, org, field, value) {
      const json = JSON.stringify(value) ?? 'null';
      const indexedQuery = fieldQuery(kind, field);
      const rows = indexedQuery ? q(indexedQuery, [org, json]) : q('SELECT * FROM records WHERE kind = $1 AND org = $2 AND (data::jsonb -> $3) = $4::jsonb ORDER BY seq', [kind, org, field, json]);
      return rows.map(toRecord);
    },
    addVersion(v) {
      writing();
      q('INSERT INTO versions (kind, resource_id, number, data) VALUES ($1, $2, $3, $4)', [v.kind, v.resourceId, String(v.number), JSON.stringify(v.data)]);
    },
    listVersions(kind, resourceId) {
      return q('SELECT number, data FROM versions WHERE kind = $1 AND resource_id = $2 ORDER BY number DESC', [kind, resourceId]).map((row) => ({
        kind,
        resourceId,
        number: Number(row.number),
        data: JSON.parse(row.data!) as Json,
      }));
    },
    addSent(entry) {
      writing();
      const state = stateOf(entry.data);
      const open = state === 'pending' || state === 'retrying';
      const row = q(
        `INSERT INTO sent (id, org, kind, data, state, lease_owner, lease_until) VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $6::text IS NULL THEN NULL ELSE clock_timestamp() + make_interval(secs => $7::double precision / 1000) END) RETURNING seq`,
        [entry.id, entry.org, entry.kind, JSON.stringify(entry.data), state, open ? owner : null, String(CREATED_LEASE_MS)],
      )[0]!;
      return { ...entry, seq: Number(row.seq) };
    },
    updateSent(entry) {
      q('UPDATE sent SET data = $1, state = $2 WHERE id = $3', [JSON.stringify(entry.data), stateOf(entry.data), entry.id]);
    },
    listSent(filter) {
      return q(`SELECT ${sentColumns} FROM sent WHERE ($1::text IS NULL OR org = $1) AND ($2::text IS NULL OR kind = $2) ORDER BY seq`, [filter.org ?? null, filter.kind ?? null]).map(toSent);
    },
    claimSent(id, leaseMs) {
      const row = q(
        `UPDATE sent SET lease_owner = $2, lease_until = clock_timestamp() + make_interval(secs => $3::double precision / 1000)
         WHERE id = $1 AND state IN ('pending', 'retrying') AND (lease_owner = $2 OR lease_until IS NULL OR lease_until < clock_timestamp())
         RETURNING ${sentColumns}`,
        [id, owner, String(leaseMs)],
      )[0];
      return row ? toSent(row) : undefined;
    },
    claimDueSent(leaseMs, limit) {
      return q(
        `UPDATE sent SET lease_owner = $1, lease_until = clock_timestamp() + make_interval(secs => $2::double precision / 1000)
         WHERE seq IN (SELECT seq FROM sent WHERE state IN ('pending', 'retrying') AND (lease_until IS NULL OR lease_until < clock_timestamp())
                         AND (next_attempt_at IS NULL OR next_attempt_at <= clock_timestamp()) ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING ${sentColumns}`,
        [owner, String(leaseMs), String(limit)],
      )
        .map(toSent)
        .sort((a, b) => a.seq - b.seq);
    },
    releaseSent(entry, retryInMs, holdMs) {
      // While this instance waits out the backoff it keeps the entry (holdMs past the retry time); if it dies
      // meanwhile, another instance takes the entry over once that passes, at the attempt it had reached.
      q(
        `UPDATE sent SET data = $1, state = $2,
           next_attempt_at = CASE WHEN $3::double precision IS NULL THEN NULL ELSE clock_timestamp() + make_interval(secs => $3::double precision / 1000) END,
           lease_until = CASE WHEN $3::double precision IS NULL THEN NULL ELSE clock_timestamp() + make_interval(secs => ($3::double precision + $4::double precision) / 1000) END
         WHERE id = $5 AND lease_owner = $6`,
        [JSON.stringify(entry.data), stateOf(entry.data), retryInMs === null ? null : String(retryInMs), String(holdMs), entry.id, owner],
      );
    },
    reset() {
      store.transaction(() => {
        q('DELETE FROM organizations');
        q('DELETE FROM api_keys');
        q('DELETE FROM records');
        q('DELETE FROM versions');
        q('DELETE FROM sent');
      });
    },
    close: () => connection.close(),
  };
  return store;
}

export { DatabaseUnavailable };
