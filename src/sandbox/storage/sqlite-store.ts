// The default storage: one embedded SQLite database (a file, or `:memory:` for tests) through better-sqlite3.
// Durability: WAL journal with synchronous=NORMAL. A transaction is committed (written to the WAL through the
// operating system) before its 2xx is sent, so it survives a crash or kill -9 of the process; only a power
// loss or an OS crash could lose the last transactions (FULL would fsync every commit, several ms each). better-sqlite3 is synchronous, so one request's reads and writes never interleave with
// another's inside a transaction.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { ApiKeyRecord, Json, Organization, RecordFilter, SentRecord, Store, StoredRecord, StoredVersion } from './store.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS organizations (id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_keys (key TEXT PRIMARY KEY, organization_id TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL, id TEXT NOT NULL, org TEXT NOT NULL, workspace TEXT, deleted INTEGER NOT NULL DEFAULT 0,
  data TEXT NOT NULL, UNIQUE (kind, id));
CREATE INDEX IF NOT EXISTS records_by_owner ON records (kind, org, workspace);
CREATE TABLE IF NOT EXISTS versions (
  kind TEXT NOT NULL, resource_id TEXT NOT NULL, number INTEGER NOT NULL, data TEXT NOT NULL,
  PRIMARY KEY (kind, resource_id, number));
CREATE TABLE IF NOT EXISTS sent (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, org TEXT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
`;

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
  return { kind: row.kind, id: row.id, org: row.org, workspace: row.workspace, deleted: row.deleted === 1, seq: row.seq, data: JSON.parse(row.data) as Json };
}

export function openSqliteStore(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);

  const q = {
    meta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
    setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    putOrg: db.prepare('INSERT INTO organizations (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data'),
    getOrg: db.prepare<[string], { data: string }>('SELECT data FROM organizations WHERE id = ?'),
    putKey: db.prepare('INSERT INTO api_keys (key, organization_id, data) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET data = excluded.data'),
    findKey: db.prepare<[string], { data: string }>('SELECT data FROM api_keys WHERE key = ?'),
    insert: db.prepare('INSERT INTO records (kind, id, org, workspace, deleted, data) VALUES (?, ?, ?, ?, ?, ?)'),
    update: db.prepare('UPDATE records SET org = ?, workspace = ?, deleted = ?, data = ? WHERE kind = ? AND id = ?'),
    get: db.prepare<[string, string], RecordRow>('SELECT * FROM records WHERE kind = ? AND id = ?'),
    listKind: db.prepare<[string], RecordRow>('SELECT * FROM records WHERE kind = ? ORDER BY seq'),
    listOrg: db.prepare<[string, string], RecordRow>('SELECT * FROM records WHERE kind = ? AND (org = ? OR org = \'*\') ORDER BY seq'),
    addVersion: db.prepare('INSERT INTO versions (kind, resource_id, number, data) VALUES (?, ?, ?, ?)'),
    listVersions: db.prepare<[string, string], { number: number; data: string }>('SELECT number, data FROM versions WHERE kind = ? AND resource_id = ? ORDER BY number DESC'),
    addSent: db.prepare('INSERT INTO sent (id, org, kind, data) VALUES (?, ?, ?, ?)'),
    updateSent: db.prepare('UPDATE sent SET data = ? WHERE id = ?'),
    listSent: db.prepare<[], { seq: number; id: string; org: string; kind: string; data: string }>('SELECT * FROM sent ORDER BY seq'),
  };

  // Lookups by a field (uniqueness checks) use an expression index per field, created on first use, so a
  // create stays constant-time as records pile up. Only plain identifiers are indexed; others scan.
  const byFieldStatements = new Map<string, Database.Statement<[string, string, string], RecordRow>>();
  const fieldStatement = (field: string): Database.Statement<[string, string, string], RecordRow> => {
    let statement = byFieldStatements.get(field);
    if (!statement) {
      if (/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(field)) {
        db.exec(`CREATE INDEX IF NOT EXISTS "records_by_${field}" ON records (kind, org, json_extract(data, '$.${field}'))`);
        statement = db.prepare<[string, string, string], RecordRow>(`SELECT * FROM records WHERE kind = ? AND org = ? AND json_extract(data, '$.${field}') = json_extract(?, '$') ORDER BY seq`);
      } else {
        const quoted = JSON.stringify(field).replace(/'/g, "''");
        statement = db.prepare<[string, string, string], RecordRow>(`SELECT * FROM records WHERE kind = ? AND org = ? AND json_extract(data, '$.' || json_quote('${quoted.slice(1, -1)}')) = json_extract(?, '$') ORDER BY seq`);
      }
      byFieldStatements.set(field, statement);
    }
    return statement;
  };

  return {
    transaction<T>(fn: () => T): T {
      if (db.inTransaction) return fn();
      return db.transaction(fn).immediate();
    },
    meta: (key) => q.meta.get(key)?.value,
    setMeta: (key, value) => void q.setMeta.run(key, value),
    putOrganization: (org) => void q.putOrg.run(org.id, JSON.stringify(org)),
    getOrganization(id) {
      const row = q.getOrg.get(id);
      return row ? (JSON.parse(row.data) as Organization) : undefined;
    },
    putKey: (key) => void q.putKey.run(key.key, key.organization_id, JSON.stringify(key)),
    findKey(key) {
      const row = q.findKey.get(key);
      return row ? (JSON.parse(row.data) as ApiKeyRecord) : undefined;
    },
    insert(record) {
      const info = q.insert.run(record.kind, record.id, record.org, record.workspace, record.deleted ? 1 : 0, JSON.stringify(record.data));
      return { ...record, seq: Number(info.lastInsertRowid) };
    },
    update(record) {
      q.update.run(record.org, record.workspace, record.deleted ? 1 : 0, JSON.stringify(record.data), record.kind, record.id);
    },
    get(kind, id) {
      const row = q.get.get(kind, id);
      return row ? toRecord(row) : undefined;
    },
    list(kind, filter: RecordFilter = {}) {
      const rows = filter.org === undefined ? q.listKind.all(kind) : q.listOrg.all(kind, filter.org);
      return rows
        .map(toRecord)
        .filter((r) => (filter.includeDeleted === true || !r.deleted) && (filter.workspace === undefined || r.workspace === filter.workspace));
    },
    withField(kind, org, field, value) {
      return fieldStatement(field).all(kind, org, JSON.stringify(value)).map(toRecord);
    },
    addVersion: (v) => void q.addVersion.run(v.kind, v.resourceId, v.number, JSON.stringify(v.data)),
    listVersions(kind, resourceId) {
      return q.listVersions.all(kind, resourceId).map((row) => ({ kind, resourceId, number: row.number, data: JSON.parse(row.data) as Json }));
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
      db.exec('DELETE FROM organizations; DELETE FROM api_keys; DELETE FROM records; DELETE FROM versions; DELETE FROM sent;');
    },
    close: () => db.close(),
  };
}

export type { StoredVersion };
