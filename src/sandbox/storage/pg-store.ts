// The PostgreSQL store: the team sandbox, several stateless instances (each a pool of worker processes, one
// store per worker: pool/pool.ts) over one database behaving as one.
//
// - Writes are serialized per organization, not globally: a write transaction takes the transaction-scoped
//   advisory lock of each organization it touches (scopeLockKey: the schema's hash and the organization's),
//   before its first statement that names that organization, reads included, so the engine's checks
//   (uniqueness among active records, dense version numbers, whole-set replacement), which read and write
//   inside one transaction, hold across instances exactly as in one SQLite process: of two concurrent renames to
//   the same name in one organization, the second sees the first's commit and answers 409. Writes of different
//   organizations never wait for each other. A record read by id (`get`) names its organization only once
//   read: the lock is then taken and the record read again under it, in one round trip. The meta table has a
//   scope of its own (META_SCOPE); platform records (organization `*`, written by the control plane and the
//   seed) have the scope `*`, which an organization's write does not take: a request reads them as committed.
//   Two transactions taking two organizations' locks in opposite orders (only the control plane touches
//   several) end in PostgreSQL's deadlock detection: the victim answers 503, try again.
// - A transaction opened as `read` runs its statements on their own (READ COMMITTED reads, no BEGIN and COMMIT
//   round trips) until its first write, which begins the transaction and takes the lock. A `write`
//   transaction also begins only with its first locked statement (reads before it run on their own, as they
//   would under READ COMMITTED), and one that never writes sends neither BEGIN nor COMMIT.
// - Inside a begun transaction, a write whose answer nothing reads (an insert, an update, a version, a delete) is
//   not sent on its own: it waits and goes ahead of the transaction's next statement, or with its COMMIT, in one
//   script (a create is the script that begins the transaction and the insert with COMMIT: two round trips). A
//   waiting write that fails fails that script, which aborts the transaction as the write would have.
// - Keys, organizations and the records of the kinds named at open (workspaces) are cached per store and
//   checked against the database's cache epoch once per request (pg-shared-cache.ts): a write through any
//   instance raises the epoch in the same statement, so the next request on every instance sees it. Reads
//   inside a transaction that holds a lock never use the cache (they read under the lock, as before).
// - The sent log is also the delivery queue (events/deliver.ts, events/queue.ts): an entry is claimed by one
//   instance at a time with a lease; the instance that created it holds it first, and when that instance dies
//   its entries are claimed (FOR UPDATE SKIP LOCKED) by another once the lease runs out.
import { randomUUID } from 'node:crypto';
import { countDecoded } from './decode-count.js';
import { DatabaseUnavailable, PgConnection, PgError, parsePgUrl } from './pg-connection.js';
import { INDEX_SCOPE, META_SCOPE, migrate, scopeLockKey } from './pg-schema.js';
import { besideEpoch, EPOCH_BUMP, EPOCH_COLUMN, EPOCH_QUERY, epochGuard, SharedCache, STALE_SQLSTATE, StaleRead, withEpoch } from './pg-shared-cache.js';
import { PLATFORM_ORG, type OpenStoreOptions, type ApiKeyRecord, type Json, type Organization, type RecordFilter, type SentRecord, type Store, type StoredRecord } from './store.js';

/** The seq of an insert not yet sent (a bigserial never reaches it: 2^52 rows). */
const UNSENT_SEQ = 2 ** 52;
/** How long an instance holds a delivery it created before anyone else may take it over. */
const CREATED_LEASE_MS = 10_000;

type Row = Record<string, string | null>;

function toRecord(row: Row): StoredRecord {
  countDecoded();
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
  /** Round trips to the database so far (a cost measure: tests read it around one request). */
  roundTrips(): number;
}

/**
 * Opens (and migrates) the store at `url`. Throws DatabaseUnavailable when the server cannot be reached or
 * refuses the credentials (its reason is libpq's one line), an Error for a malformed URL or a newer schema.
 */
export function openPgStore(url: string, options: OpenStoreOptions = {}): Store & { info: PgStoreInfo } {
  const target = parsePgUrl(url);
  const connection = new PgConnection(target, (c) => void c.query(`SET search_path TO "${target.schema}"`));
  connection.open();
  const migrated = migrate(connection, target.schema);
  /** This instance, as the owner of the deliveries it claims. */
  const owner = randomUUID();
  /** Inside transaction(): whether a transaction was asked for, and in which mode; connection.inTransaction says it has begun. */
  let open = false;
  let openMode: 'read' | 'write' = 'write';
  /** The scopes (organizations, META_SCOPE, INDEX_SCOPE) whose lock the open transaction holds. */
  const held = new Set<string>();
  const cache = new SharedCache();
  const cachedKinds = new Set(options.cachedKinds ?? []);
  // The deferred check (store.ts newRequest): a request that may run again uses cached entries at once
  // (`pending`: not yet checked against the epoch). Its first read of the database carries the epoch beside its
  // rows, or the script that begins its write transaction carries a guard that fails when the epoch moved (one
  // round trip where the check cost one of its own: a GET by id is one statement, a create three, not four).
  // When the epoch moved, the request is `stale`: nothing of it is written (a write is refused before it is
  // sent, or the guard aborts its transaction) and it runs again (sandbox.ts). A request that reads nothing else
  // checks the epoch at its end (requestStale), as it would have at its start. Once a request has committed a
  // write it defers nothing more (running it again would write twice).
  let deferring = false;
  let pending = false;
  let stale = false;
  /** The epoch the script being sent guards (null: it carries no guard). */
  let guarded: string | null = null;
  /** The epoch as read: a pending check is done; the request is stale when the epoch moved under it. */
  const observed = (epoch: string): void => {
    const moved = cache.observe(epoch);
    if (pending) {
      pending = false;
      if (moved) stale = true;
    }
  };
  /** Before anything is written or locked: a pending check is made, and a stale request writes nothing. */
  const settle = (): void => {
    if (pending) observed(send(EPOCH_QUERY)[0]!.epoch!);
    if (stale) throw new StaleRead();
  };

  /** `text` with its `$n` parameters written in as quoted literals: for a statement sent in a script (no parameters there). */
  const inlined = (text: string, params: readonly (string | null)[]): string =>
    text.replace(/\$(\d+)/g, (_, n: string) => {
      const value = params[Number(n) - 1];
      return value === null || value === undefined ? 'NULL' : connection.literal(value);
    });
  /** Writes of the begun transaction not yet sent (inlined): they go ahead of its next statement (send). */
  let waiting: string[] = [];
  /** Inserts the open transaction has queued (their stand-in seqs keep their order); counted again from 0 by the next. */
  let unsentInserts = 0;
  /** Queues a write whose answer nothing reads; outside a begun transaction it is sent at once. */
  const later = (text: string, params: (string | null)[]): void => {
    if (open && connection.inTransaction) waiting.push(inlined(text, params));
    else q(text, params);
  };
  /** Sends a statement (with its parameters) or a script (without), the waiting writes ahead of it in one script. */
  const send = (text: string, params?: (string | null)[]): Row[] => {
    if (waiting.length === 0) return connection.query(text, params);
    const script = `${waiting.join('; ')}; ${params === undefined ? text : inlined(text, params)}`;
    waiting = [];
    return connection.query(script);
  };

  const q = (text: string, params: (string | null)[] = []): Row[] => {
    // Only a lone SELECT outside a transaction carries the epoch (a script or a read under a lock does not).
    if (!pending || connection.inTransaction || !text.startsWith('SELECT ') || text.includes(';') || text.includes('cache_epoch')) return send(text, params);
    const rows = connection.query(besideEpoch(text), params);
    if (rows.length > 0) {
      const epoch = rows[0]![EPOCH_COLUMN]!;
      for (const row of rows) delete row[EPOCH_COLUMN];
      observed(epoch);
    }
    return rows;
  };
  /** Whether a statement naming a scope must hold its lock: inside a write transaction, or a read one that has written. */
  const locking = (): boolean => open && (openMode === 'write' || connection.inTransaction);
  /**
   * The SQL that takes `scope`'s lock (beginning the transaction first when it has not begun), to be sent
   * alone or ahead of a statement in one script; '' when no lock is needed or it is held. Marks it held.
   */
  const lockScript = (scope: string): string => {
    if (!locking() || held.has(scope)) return '';
    if (stale) throw new StaleRead();
    const epoch = cache.epochRead;
    // A pending check rides in the script as the epoch guard; without an epoch to compare, it is read first.
    if (pending && epoch === null) settle();
    guarded = pending ? epoch : null;
    const guard = guarded === null ? '' : `; ${epochGuard(guarded)}`;
    const begin = connection.inTransaction ? '' : 'BEGIN; ';
    connection.inTransaction = true;
    held.add(scope);
    return `${begin}SELECT pg_advisory_xact_lock(${scopeLockKey(target.schema, scope)})${guard}`;
  };
  /** Sends a script lockScript began; a failed epoch guard makes the request stale (its transaction is aborted). */
  const sendLocked = (script: string): Row[] => {
    const epoch = guarded;
    guarded = null;
    try {
      const rows = send(script);
      if (epoch !== null) {
        pending = false;
        cache.observe(epoch);
      }
      return rows;
    } catch (error) {
      if (epoch !== null && error instanceof PgError && error.sqlState === STALE_SQLSTATE) {
        pending = false;
        stale = true;
        cache.forget();
        throw new StaleRead();
      }
      throw error;
    }
  };
  /** Before a statement of `scope` (a write, or a read inside a write transaction): holds its lock. */
  const scoped = (scope: string): void => {
    const script = lockScript(scope);
    // Without parameters: the script may hold BEGIN and the lock (one round trip).
    if (script !== '') sendLocked(script);
  };
  /**
   * A statement of `scope` that must hold its lock: when the lock is still to be taken, BEGIN, the lock and the
   * statement go as one script (one round trip where they took two; a script takes no parameters, so the
   * values go inline as quoted literals).
   */
  const lockedQuery = (scope: string, text: string, params: (string | null)[]): Row[] => {
    const script = lockScript(scope);
    if (script === '') return q(text, params);
    return sendLocked(`${script}; ${inlined(text, params)}`);
  };
  /** Before a write that names no organization (versions, index creation): the transaction has begun. */
  const begun = (): void => {
    settle();
    if (open && !connection.inTransaction) {
      q('BEGIN');
      connection.inTransaction = true;
    }
  };
  // Lookups by a field (uniqueness checks) use an expression index per kind and field, created on first use
  // inside a write transaction when the catalog lacks it, under a lock of its own (two instances never create
  // one at once; creating takes a share lock on the records table until commit, so it is done once per index).
  // Kinds and fields that are not plain names (spec-derived text never reaches SQL unchecked) are looked up
  // unindexed.
  const indexed = new Set<string>();
  const plainName = (kind: string, field: string): boolean => /^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(field) && /^[A-Za-z][A-Za-z0-9_-]{0,40}$/.test(kind);
  const fieldSelect = (kind: string, field: string, live: boolean): string =>
    `SELECT * FROM records WHERE kind = '${kind}' AND org = $1 AND (data::jsonb -> '${field}') = $2::jsonb${live ? ' AND NOT deleted' : ''} ORDER BY seq`;
  /** Whether the lookup by this kind and field needs no index creation first (indexed already, or never indexed). */
  const lookupReady = (kind: string, field: string): boolean => !plainName(kind, field) || indexed.has(`${kind}\u0000${field}`);
  const fieldQuery = (kind: string, field: string, live: boolean): string | null => {
    if (!plainName(kind, field)) return null;
    const cacheKey = `${kind}\u0000${field}`;
    if (!indexed.has(cacheKey) && connection.inTransaction) {
      const name = `records_${kind.replace(/-/g, '_')}_by_${field}`;
      if (q('SELECT 1 FROM pg_class WHERE relname = $1 AND relnamespace = current_schema()::regnamespace', [name]).length === 0) {
        scoped(INDEX_SCOPE);
        q(`CREATE INDEX IF NOT EXISTS "${name}" ON records (org, (data::jsonb -> '${field}')) WHERE kind = '${kind}'`);
      }
      indexed.add(cacheKey);
    }
    return fieldSelect(kind, field, live);
  };
  const unindexedFieldSelect = (live: boolean): string => `SELECT * FROM records WHERE kind = $1 AND org = $2 AND (data::jsonb -> $3) = $4::jsonb${live ? ' AND NOT deleted' : ''} ORDER BY seq`;
  const sentColumns = 'seq, id, org, kind, data';

  /** Whether a read may use the cache: outside any begun transaction and any lock (a committed view only). */
  const cacheable = (): boolean => !connection.inTransaction && !locking();
  /**
   * A cached entry while the epoch has not moved (read once per request); else runs `fetch`, whose statement
   * reads the epoch beside the row (withEpoch), and caches what it found.
   */
  const cached = <T extends object>(entries: { get(id: string): T | undefined; set(id: string, value: T): T }, id: string, fetch: () => Row | undefined, parse: (row: Row) => T | undefined): T | undefined => {
    // Cached but not checked since the request began: the epoch alone says whether it still holds, read now or,
    // for a read-only request while the last check is recent, beside the request's next read (deferred).
    if (!cache.current && entries.get(id)) {
      if (deferring && cache.recent) pending = true;
      else observed(q(EPOCH_QUERY)[0]!.epoch!);
    }
    if (cache.current || pending) {
      const hit = entries.get(id);
      if (hit) return hit;
    }
    const row = fetch();
    if (row?.epoch) observed(row.epoch);
    const value = row ? parse(row) : undefined;
    return value === undefined ? undefined : entries.set(id, value);
  };
  /** The prefix of a write of `kind`'s records: raises the epoch when the kind is cached. */
  const bumpOf = (kind: string, id: string): string => {
    if (!cachedKinds.has(kind)) return '';
    cache.written(cache.records, `${kind}\u0000${id}`);
    return EPOCH_BUMP;
  };

  /** Before a write inside transaction(): begins it unless it has begun, and holds `scope`'s lock. */
  const writing = (scope: string): void => {
    if (!open) return settle();
    if (stale) throw new StaleRead();
    if (openMode === 'read' && !connection.inTransaction) openMode = 'write';
    scoped(scope);
  };

  const store: Store & { info: PgStoreInfo } = {
    info: { display: target.display, migrated, roundTrips: () => connection.roundTrips },
    transaction<T>(fn: () => T, mode: 'read' | 'write' = 'write'): T {
      if (open) return fn();
      open = true;
      openMode = mode;
      try {
        const result = fn();
        if (connection.inTransaction) {
          q('COMMIT');
          // Written: the request is not run again from here on, so it checks before it uses the cache.
          deferring = false;
        }
        return result;
      } catch (error) {
        waiting = []; // never sent: nothing of them to undo
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
        waiting = [];
        unsentInserts = 0;
        held.clear();
        connection.inTransaction = false;
      }
    },
    meta(key) {
      return lockedQuery(META_SCOPE, 'SELECT value FROM meta WHERE key = $1', [key])[0]?.value ?? undefined;
    },
    setMeta(key, value) {
      writing(META_SCOPE);
      q('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
    },
    putOrganization(org) {
      writing(org.id);
      cache.written(cache.organizations, org.id);
      q(EPOCH_BUMP + 'INSERT INTO organizations (id, data) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET data = excluded.data', [org.id, JSON.stringify(org)]);
    },
    getOrganization(id) {
      if (cacheable()) {
        return cached(cache.organizations, id, () => q(withEpoch('x.data', 'organizations', 'x.id = $1'), [id])[0], (row) => (row.data ? (JSON.parse(row.data) as Organization) : undefined));
      }
      const row = lockedQuery(id, 'SELECT data FROM organizations WHERE id = $1', [id])[0];
      return row ? (JSON.parse(row.data!) as Organization) : undefined;
    },
    putKey(key) {
      writing(key.organization_id);
      cache.written(cache.keys, key.key);
      q(EPOCH_BUMP + 'INSERT INTO api_keys (key, organization_id, data) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET data = excluded.data', [key.key, key.organization_id, JSON.stringify(key)]);
    },
    findKey(key) {
      if (cacheable()) return cached(cache.keys, key, () => q(withEpoch('x.data', 'api_keys', 'x.key = $1'), [key])[0], (row) => (row.data ? (JSON.parse(row.data) as ApiKeyRecord) : undefined));
      const row = q('SELECT data FROM api_keys WHERE key = $1', [key])[0];
      return row ? (JSON.parse(row.data!) as ApiKeyRecord) : undefined;
    },
    insert(record) {
      writing(record.org);
      const text = bumpOf(record.kind, record.id) + 'INSERT INTO records (kind, id, org, workspace, deleted, data) VALUES ($1, $2, $3, $4, $5, $6)';
      const params = [record.kind, record.id, record.org, record.workspace, record.deleted ? 't' : 'f', JSON.stringify(record.data)];
      if (!connection.inTransaction) return { ...record, seq: Number(q(`${text} RETURNING seq`, params)[0]!.seq) };
      // Sent with the transaction's next statement: until it is read back, its seq is one past every stored
      // record's (and in the order of the transaction's inserts), which is where the database will put it.
      later(text, params);
      return { ...record, seq: UNSENT_SEQ + unsentInserts++ };
    },
    update(record) {
      writing(record.org);
      later(bumpOf(record.kind, record.id) + 'UPDATE records SET org = $1, workspace = $2, deleted = $3, data = $4 WHERE kind = $5 AND id = $6', [record.org, record.workspace, record.deleted ? 't' : 'f', JSON.stringify(record.data), record.kind, record.id]);
    },
    remove(kind, id) {
      const record = store.get(kind, id);
      if (!record) return;
      writing(record.org);
      later(bumpOf(kind, id) + 'DELETE FROM records WHERE kind = $1 AND id = $2', [kind, id]);
      later('DELETE FROM versions WHERE kind = $1 AND resource_id = $2', [kind, id]);
    },
    get(kind, id) {
      const row = q('SELECT * FROM records WHERE kind = $1 AND id = $2', [kind, id])[0];
      if (!row) return undefined;
      // Read before its organization's lock was held: read again under it (one script), the answer as of now.
      const script = lockScript(row.org!);
      if (script === '') return toRecord(row);
      const again = sendLocked(`${script}; SELECT * FROM records WHERE kind = ${connection.literal(kind)} AND id = ${connection.literal(id)}`)[0];
      return again ? toRecord(again) : undefined;
    },
    peek(kind, id) {
      if (!cachedKinds.has(kind) || !cacheable()) return store.get(kind, id);
      return cached(cache.records, `${kind}\u0000${id}`, () => q(withEpoch('x.*', 'records', 'x.kind = $1 AND x.id = $2'), [kind, id])[0], (row) => (row.kind ? toRecord(row) : undefined));
    },
    list(kind, filter: RecordFilter = {}) {
      // Tombstones are skipped in the query (sqlite-store.ts says why).
      const live = filter.includeDeleted === true ? '' : ' AND NOT deleted';
      const rows = filter.org === undefined ? q(`SELECT * FROM records WHERE kind = $1${live} ORDER BY seq`, [kind]) : lockedQuery(filter.org, `SELECT * FROM records WHERE kind = $1 AND (org = $2 OR org = $3)${live} ORDER BY seq`, [kind, filter.org, PLATFORM_ORG]);
      return rows
        .map(toRecord)
        .filter((r) => (filter.includeDeleted === true || !r.deleted) && (filter.workspace === undefined || r.workspace === filter.workspace));
    },
    listPage(kind, query) {
      // The rows of the page query (store.ts PageQuery); the count and the page each read them in the query.
      const where = `kind = $1 AND (org = $2 OR org = $3) AND NOT deleted AND ($4::boolean IS NOT TRUE OR org = $3 OR workspace = $5 OR (workspace IS NULL AND $6::boolean))
        AND ($7::text IS NULL OR jsonb_typeof(data::jsonb -> $7::text) IS DISTINCT FROM 'string' OR NOT ((data::jsonb ->> $7::text) = ANY (ARRAY(SELECT jsonb_array_elements_text($8::jsonb)))))`;
      const params = [kind, query.org, PLATFORM_ORG, query.workspace ? 't' : 'f', query.workspace?.id ?? null, query.workspace?.unsetToo === true ? 't' : 'f', query.hidden?.field ?? null, JSON.stringify(query.hidden?.values ?? [])];
      const total = Number(lockedQuery(query.org, `SELECT count(*) AS n FROM records WHERE ${where}`, params)[0]!.n);
      if (query.limit <= 0 || query.offset >= total) return { records: [], total };
      const rows = q(`SELECT * FROM records WHERE ${where} ORDER BY seq LIMIT $9 OFFSET $10`, [...params, String(query.limit), String(query.offset)]);
      return { records: rows.map(toRecord), total };
    },
    withField(kind, org, field, value, live = false) {
      const json = JSON.stringify(value) ?? 'null';
      // The usual case: the lock and the lookup in one round trip. The first lookup of a kind and field in this
      // store takes the lock alone first, then checks (and may create) its index inside the transaction.
      if (lookupReady(kind, field)) {
        const rows = plainName(kind, field) ? lockedQuery(org, fieldSelect(kind, field, live), [org, json]) : lockedQuery(org, unindexedFieldSelect(live), [kind, org, field, json]);
        return rows.map(toRecord);
      }
      scoped(org);
      const indexedQuery = fieldQuery(kind, field, live);
      const rows = indexedQuery ? q(indexedQuery, [org, json]) : q(unindexedFieldSelect(live), [kind, org, field, json]);
      return rows.map(toRecord);
    },
    addVersion(v) {
      // The engine numbers a version after reading its record (which took the organization's lock); the
      // primary key (kind, resource_id, number) refuses a number twice whatever the caller.
      begun();
      later('INSERT INTO versions (kind, resource_id, number, data) VALUES ($1, $2, $3, $4)', [v.kind, v.resourceId, String(v.number), JSON.stringify(v.data)]);
    },
    listVersions(kind, resourceId) {
      return q('SELECT number, data FROM versions WHERE kind = $1 AND resource_id = $2 ORDER BY number DESC', [kind, resourceId]).map((row) => ({
        kind,
        resourceId,
        number: Number(row.number),
        data: JSON.parse(row.data!) as Json,
      }));
    },
    newestVersion(kind, resourceId) {
      const row = q('SELECT number, data FROM versions WHERE kind = $1 AND resource_id = $2 ORDER BY number DESC LIMIT 1', [kind, resourceId])[0];
      return row === undefined ? undefined : { kind, resourceId, number: Number(row.number), data: JSON.parse(row.data!) as Json };
    },
    addSent(entry) {
      writing(entry.org);
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
        begun();
        q('DELETE FROM organizations');
        q('DELETE FROM api_keys');
        q('DELETE FROM records');
        q('DELETE FROM versions');
        q('DELETE FROM sent');
        q('UPDATE cache_epoch SET value = value + 1 WHERE id = 1');
        cache.forget();
      });
    },
    newRequest(deferrable) {
      cache.expire();
      deferring = deferrable === true;
      pending = false;
      stale = false;
    },
    requestStale() {
      deferring = false;
      try {
        if (pending) observed(connection.query(EPOCH_QUERY)[0]!.epoch!);
      } catch {
        // The database went away: run the request again without deferring; it answers the outage itself.
        pending = false;
        stale = true;
      }
      const answer = stale;
      stale = false;
      return answer;
    },
    close: () => connection.close(),
  };
  return store;
}

export { DatabaseUnavailable };
