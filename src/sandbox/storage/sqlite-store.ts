// The default storage: one embedded SQLite database (a file, or `:memory:` for tests) through better-sqlite3.
// Durability: WAL journal with synchronous=NORMAL. A transaction is committed (written to the WAL through the
// operating system) before its 2xx is sent, so it survives a crash or kill -9 of the process; only a power
// loss or an OS crash could lose the last transactions (FULL would fsync every commit, several ms each). better-sqlite3 is synchronous, so one request's reads and writes never interleave with
// another's inside a transaction.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { BoundedCache } from './bounded-cache.js';
import { countDecoded } from './decode-count.js';
import { PLATFORM_ORG, type ApiKeyRecord, type Json, type Organization, type RecordFilter, type SentRecord, type Store, type StoredRecord, type StoredVersion } from './store.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS organizations (id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_keys (key TEXT PRIMARY KEY, organization_id TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL, id TEXT NOT NULL, org TEXT NOT NULL, workspace TEXT, deleted INTEGER NOT NULL DEFAULT 0,
  data TEXT NOT NULL, UNIQUE (kind, id));
CREATE INDEX IF NOT EXISTS records_by_owner ON records (kind, org, workspace);
CREATE INDEX IF NOT EXISTS records_live ON records (kind, org) WHERE deleted = 0;
CREATE TABLE IF NOT EXISTS versions (
  kind TEXT NOT NULL, resource_id TEXT NOT NULL, number INTEGER NOT NULL, data TEXT NOT NULL,
  PRIMARY KEY (kind, resource_id, number));
CREATE TABLE IF NOT EXISTS sent (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, org TEXT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
`;

/** The rows of a PageQuery (parameters in the order countPage and page name them). */
const PAGE_WHERE =
  "kind = ? AND (org = ? OR org = ?) AND deleted = 0 AND (? = 0 OR org = ? OR workspace = ? OR (workspace IS NULL AND ? = 1)) AND (? IS NULL OR json_type(data, ?) IS NOT 'text' OR json_extract(data, ?) NOT IN (SELECT value FROM json_each(?)))";

/** kind, org, platform, scoped, platform, workspace, unsetToo, then the hidden field's path three times (null: none) and its values. */
type PageParams = [string, string, string, number, string, string | null, number, string | null, string | null, string | null, string];

interface RecordRow {
  seq: number;
  kind: string;
  id: string;
  org: string;
  workspace: string | null;
  deleted: number;
  data: string;
}

function toRecord(row: RecordRow): StoredRecord {
  countDecoded();
  return { kind: row.kind, id: row.id, org: row.org, workspace: row.workspace, deleted: row.deleted === 1, seq: row.seq, data: JSON.parse(row.data) as Json };
}

export function openSqliteStore(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Pages are read through a memory map instead of one read system call each (system calls are the
  // dominant per-request cost on virtualised machines). The page cache then holds only pages being written and
  // pages read from the WAL, so 4 MiB serves as well as 64 MiB did (`npm run bench -- --only sandbox`, side by side,
  // 2026-12-07: GET, PATCH and create rates within the runs' spread), and it is full within minutes: a 64 MiB cache
  // filled for hours, by about half the database's growth, which the hour's soak read as native memory growing
  // (issue 29; a 420 s soak at 100/s: RSS +19.2 MB with 64 MiB, +12.6 MB with 4 MiB, the database +7.1 MB in both).
  db.pragma('mmap_size = 1073741824');
  db.pragma('cache_size = -4096');
  db.exec(SCHEMA);
  dropWholeTableFieldIndexes(db);

  const q = {
    meta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
    setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    putOrg: db.prepare('INSERT INTO organizations (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data'),
    getOrg: db.prepare<[string], { data: string }>('SELECT data FROM organizations WHERE id = ?'),
    putKey: db.prepare('INSERT INTO api_keys (key, organization_id, data) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET data = excluded.data'),
    findKey: db.prepare<[string], { data: string }>('SELECT data FROM api_keys WHERE key = ?'),
    insert: db.prepare('INSERT INTO records (kind, id, org, workspace, deleted, data) VALUES (?, ?, ?, ?, ?, ?)'),
    update: db.prepare('UPDATE records SET org = ?, workspace = ?, deleted = ?, data = ? WHERE kind = ? AND id = ?'),
    remove: db.prepare('DELETE FROM records WHERE kind = ? AND id = ?'),
    removeVersions: db.prepare('DELETE FROM versions WHERE kind = ? AND resource_id = ?'),
    get: db.prepare<[string, string], RecordRow>('SELECT * FROM records WHERE kind = ? AND id = ?'),
    listKind: db.prepare<[string], RecordRow>('SELECT * FROM records WHERE kind = ? ORDER BY seq'),
    listOrg: db.prepare<[string, string, string], RecordRow>('SELECT * FROM records WHERE kind = ? AND (org = ? OR org = ?) ORDER BY seq'),
    // Deleted records stay (tombstones: versions, events and "deleted" answers refer to them); lists skip them in
    // the query, not after parsing each, so a list costs what is live, not the history (the hour-long soak: p99
    // rose with ~300 tombstones of each kind).
    listKindLive: db.prepare<[string], RecordRow>('SELECT * FROM records WHERE kind = ? AND deleted = 0 ORDER BY seq'),
    listOrgLive: db.prepare<[string, string, string], RecordRow>('SELECT * FROM records WHERE kind = ? AND (org = ? OR org = ?) AND deleted = 0 ORDER BY seq'),
    // A list's page and its total (store.ts PageQuery): the live rows of the organization and the platform, of one
    // workspace (and the unset ones) when scoped, without the hidden lifecycle states (PageParams).
    countPage: db.prepare<PageParams, { n: number }>(`SELECT count(*) AS n FROM records WHERE ${PAGE_WHERE}`),
    page: db.prepare<[...PageParams, number, number], RecordRow>(`SELECT * FROM records WHERE ${PAGE_WHERE} ORDER BY seq LIMIT ? OFFSET ?`),
    addVersion: db.prepare('INSERT INTO versions (kind, resource_id, number, data) VALUES (?, ?, ?, ?)'),
    listVersions: db.prepare<[string, string], { number: number; data: string }>('SELECT number, data FROM versions WHERE kind = ? AND resource_id = ? ORDER BY number DESC'),
    newestVersion: db.prepare<[string, string], { number: number; data: string }>('SELECT number, data FROM versions WHERE kind = ? AND resource_id = ? ORDER BY number DESC LIMIT 1'),
    addSent: db.prepare('INSERT INTO sent (id, org, kind, data) VALUES (?, ?, ?, ?)'),
    updateSent: db.prepare('UPDATE sent SET data = ? WHERE id = ?'),
    beginRead: db.prepare('BEGIN'),
    beginWrite: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    listSent: db.prepare<[], { seq: number; id: string; org: string; kind: string; data: string }>('SELECT * FROM sent ORDER BY seq'),
  };

  // Lookups by a field (uniqueness checks) use an expression index per kind and field, created on first use,
  // so a create stays constant-time as records pile up. The index is partial (only that kind's rows), so a
  // write to a record of another kind neither evaluates nor rewrites it. Kinds and fields that are not plain
  // names (spec-derived text never reaches SQL unchecked) are scanned instead.
  const byFieldStatements = new Map<string, Database.Statement<[string, string, string], RecordRow>>();
  const fieldStatement = (kind: string, field: string, live: boolean): Database.Statement<[string, string, string], RecordRow> => {
    const cacheKey = `${kind}\u0000${field}\u0000${live ? 'live' : 'all'}`;
    let statement = byFieldStatements.get(cacheKey);
    if (!statement) {
      const alive = live ? ' AND deleted = 0' : '';
      if (/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(field) && /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(kind)) {
        const index = `records_${kind.replace(/-/g, '_')}_by_${field}`;
        db.exec(`CREATE INDEX IF NOT EXISTS "${index}" ON records (org, json_extract(data, '$.${field}')) WHERE kind = '${kind}'`);
        statement = db.prepare<[string, string, string], RecordRow>(`SELECT * FROM records WHERE kind = '${kind}' AND kind = ? AND org = ? AND json_extract(data, '$.${field}') = json_extract(?, '$')${alive} ORDER BY seq`);
      } else {
        const quoted = JSON.stringify(field).replace(/'/g, "''");
        statement = db.prepare<[string, string, string], RecordRow>(`SELECT * FROM records WHERE kind = ? AND org = ? AND json_extract(data, '$.' || json_quote('${quoted.slice(1, -1)}')) = json_extract(?, '$')${alive} ORDER BY seq`);
      }
      byFieldStatements.set(cacheKey, statement);
    }
    return statement;
  };

  // Keys and organizations are read on every request and change only through this store: kept parsed in
  // memory (bounded), written through on put, dropped on reset.
  const keys = new BoundedCache<ApiKeyRecord>(10_000);
  const organizations = new BoundedCache<Organization>(10_000);
  // Records read on every request (the workspace a request runs in) through peek(); an update drops the entry.
  const peeked = new BoundedCache<StoredRecord>(10_000);

  return {
    transaction<T>(fn: () => T, mode: 'read' | 'write' = 'write'): T {
      if (db.inTransaction) return fn();
      // Plain BEGIN/COMMIT statements prepared once (better-sqlite3's db.transaction() builds new wrapper
      // functions on every call). A read takes no write lock up front: a deferred transaction still upgrades
      // if a rule writes.
      (mode === 'read' ? q.beginRead : q.beginWrite).run();
      try {
        const result = fn();
        q.commit.run();
        return result;
      } catch (error) {
        if (db.inTransaction) q.rollback.run();
        throw error;
      }
    },
    peek(kind, id) {
      const key = `${kind}\u0000${id}`;
      const cached = peeked.get(key);
      if (cached) return cached;
      const row = q.get.get(kind, id);
      if (!row) return undefined;
      const record = toRecord(row);
      // Only a committed row is cached: inside a transaction it could be this transaction's own write.
      return db.inTransaction ? record : peeked.set(key, record);
    },
    meta: (key) => q.meta.get(key)?.value,
    setMeta: (key, value) => void q.setMeta.run(key, value),
    putOrganization(org) {
      q.putOrg.run(org.id, JSON.stringify(org));
      organizations.delete(org.id);
    },
    getOrganization(id) {
      const cached = organizations.get(id);
      if (cached) return cached;
      const row = q.getOrg.get(id);
      if (!row) return undefined;
      const org = JSON.parse(row.data) as Organization;
      // Not cached inside a transaction: the row might be this transaction's own write, and it could roll back.
      return db.inTransaction ? org : organizations.set(id, org);
    },
    putKey(key) {
      q.putKey.run(key.key, key.organization_id, JSON.stringify(key));
      keys.delete(key.key);
    },
    findKey(key) {
      const cached = keys.get(key);
      if (cached) return cached;
      const row = q.findKey.get(key);
      if (!row) return undefined;
      const record = JSON.parse(row.data) as ApiKeyRecord;
      return db.inTransaction ? record : keys.set(key, record);
    },
    insert(record) {
      const info = q.insert.run(record.kind, record.id, record.org, record.workspace, record.deleted ? 1 : 0, JSON.stringify(record.data));
      return { ...record, seq: Number(info.lastInsertRowid) };
    },
    update(record) {
      peeked.delete(`${record.kind}\u0000${record.id}`);
      q.update.run(record.org, record.workspace, record.deleted ? 1 : 0, JSON.stringify(record.data), record.kind, record.id);
    },
    remove(kind, id) {
      peeked.delete(`${kind}\u0000${id}`);
      q.remove.run(kind, id);
      q.removeVersions.run(kind, id);
    },
    get(kind, id) {
      const row = q.get.get(kind, id);
      return row ? toRecord(row) : undefined;
    },
    list(kind, filter: RecordFilter = {}) {
      const live = filter.includeDeleted !== true;
      const rows = filter.org === undefined ? (live ? q.listKindLive : q.listKind).all(kind) : (live ? q.listOrgLive : q.listOrg).all(kind, filter.org, PLATFORM_ORG);
      return rows
        .map(toRecord)
        .filter((r) => (filter.includeDeleted === true || !r.deleted) && (filter.workspace === undefined || r.workspace === filter.workspace));
    },
    listPage(kind, query) {
      // The hidden field is a plain name (the engine checks), so it is a JSON path as it is.
      const path = query.hidden ? `$.${query.hidden.field}` : null;
      const where: PageParams = [kind, query.org, PLATFORM_ORG, query.workspace ? 1 : 0, PLATFORM_ORG, query.workspace?.id ?? null, query.workspace?.unsetToo === true ? 1 : 0, path, path, path, JSON.stringify(query.hidden?.values ?? [])];
      const total = q.countPage.get(...where)!.n;
      const records = query.limit <= 0 || query.offset >= total ? [] : q.page.all(...where, query.limit, query.offset).map(toRecord);
      return { records, total };
    },
    withField(kind, org, field, value, live = false) {
      return fieldStatement(kind, field, live).all(kind, org, JSON.stringify(value)).map(toRecord);
    },
    addVersion: (v) => void q.addVersion.run(v.kind, v.resourceId, v.number, JSON.stringify(v.data)),
    listVersions(kind, resourceId) {
      return q.listVersions.all(kind, resourceId).map((row) => ({ kind, resourceId, number: row.number, data: JSON.parse(row.data) as Json }));
    },
    newestVersion(kind, resourceId) {
      const row = q.newestVersion.get(kind, resourceId);
      return row === undefined ? undefined : { kind, resourceId, number: row.number, data: JSON.parse(row.data) as Json };
    },
    addSent(entry) {
      const info = q.addSent.run(entry.id, entry.org, entry.kind, JSON.stringify(entry.data));
      return { ...entry, seq: Number(info.lastInsertRowid) };
    },
    updateSent: (entry) => void q.updateSent.run(JSON.stringify(entry.data), entry.id),
    listSent(filter) {
      return q.listSent
        .all()
        .filter((row) => (filter.org === undefined || row.org === filter.org) && (filter.kind === undefined || row.kind === filter.kind))
        .map((row) => ({ id: row.id, seq: row.seq, org: row.org, kind: row.kind as SentRecord['kind'], data: JSON.parse(row.data) as Json }));
    },
    reset() {
      keys.clear();
      organizations.clear();
      peeked.clear();
      db.exec('DELETE FROM organizations; DELETE FROM api_keys; DELETE FROM records; DELETE FROM versions; DELETE FROM sent;');
    },
    close: () => db.close(),
  };
}

export type { StoredVersion };

/**
 * Databases written by earlier versions carry one field index over all kinds (`records_by_<field>`), which
 * every write re-evaluates; the partial per-kind indexes replace them.
 */
function dropWholeTableFieldIndexes(db: Database.Database): void {
  const old = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'records\\_by\\_%' ESCAPE '\\' AND name <> 'records_by_owner'").all();
  for (const { name } of old) db.exec(`DROP INDEX IF EXISTS "${name.replace(/"/g, '""')}"`);
}
