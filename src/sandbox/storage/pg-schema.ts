// Versioned schema of the PostgreSQL store. Each migration runs once, in order, in its own transaction, and is
// recorded in schema_migrations. Instances starting at the same time take a session advisory lock first, so
// exactly one applies a migration and the others find it applied; a database migrated by a newer sandbox is
// refused rather than written with the wrong layout.
import { lockKey, type PgConnection } from './pg-connection.js';

/** Advisory lock class (first key) of the migration lock; the second key is the schema. */
export const MIGRATION_LOCK_CLASS = 0x53414e44;

/**
 * The transaction-scoped advisory lock of one scope of a schema's data (an organization's records, the meta
 * table, the creation of lookup indexes): one 64-bit key, the schema's hash then the scope's. Single-key locks
 * are a key space of their own in PostgreSQL, apart from the two-key migration lock.
 */
export function scopeLockKey(schema: string, scope: string): string {
  return BigInt.asIntN(64, (BigInt(lockKey(schema)) << 32n) | BigInt(lockKey(scope) >>> 0)).toString();
}

/** Scopes that are not organizations (an organization id never starts with a NUL). */
export const META_SCOPE = '\u0000meta';
export const INDEX_SCOPE = '\u0000index';

interface Migration {
  version: number;
  name: string;
  sql: string;
}

// Records keep their JSON as text (the key order a client wrote is the order it reads back; jsonb would sort
// keys); lookups by a field cast it to jsonb. Sequence numbers give insertion order (writes of one organization
// are serialized by its lock, so within an organization seq order is commit order).
const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'documents',
    sql: `
CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE organizations (id text PRIMARY KEY, data text NOT NULL);
CREATE TABLE api_keys (key text PRIMARY KEY, organization_id text NOT NULL, data text NOT NULL);
CREATE TABLE records (
  seq bigserial PRIMARY KEY,
  kind text NOT NULL, id text NOT NULL, org text NOT NULL, workspace text, deleted boolean NOT NULL DEFAULT false,
  data text NOT NULL, UNIQUE (kind, id));
CREATE INDEX records_by_owner ON records (kind, org, workspace);
CREATE TABLE versions (
  kind text NOT NULL, resource_id text NOT NULL, number integer NOT NULL, data text NOT NULL,
  PRIMARY KEY (kind, resource_id, number));
CREATE TABLE sent (seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, org text NOT NULL, kind text NOT NULL, data text NOT NULL);
`,
  },
  {
    version: 2,
    name: 'delivery queue',
    sql: `
ALTER TABLE sent ADD COLUMN state text NOT NULL DEFAULT 'delivered';
ALTER TABLE sent ADD COLUMN next_attempt_at timestamptz;
ALTER TABLE sent ADD COLUMN lease_owner text;
ALTER TABLE sent ADD COLUMN lease_until timestamptz;
CREATE INDEX sent_due ON sent (next_attempt_at) WHERE state IN ('pending', 'retrying');
`,
  },
  {
    version: 3,
    name: 'cache epoch',
    // One row every write of an API key, an organization or a workspace raises (pg-shared-cache.ts).
    sql: `
CREATE TABLE cache_epoch (id integer PRIMARY KEY CHECK (id = 1), value bigint NOT NULL);
INSERT INTO cache_epoch (id, value) VALUES (1, 0);
`,
  },
  {
    version: 4,
    name: 'cache epoch guard',
    // A write request that used cached entries checks them in the script that begins its transaction
    // (pg-shared-cache.ts EPOCH_GUARD): the script fails with STALE_SQLSTATE when the epoch moved, so nothing
    // of the request is written and no round trip of its own is spent on the check.
    sql: `
CREATE FUNCTION cache_epoch_is(expected bigint) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  IF (SELECT value FROM cache_epoch WHERE id = 1) IS DISTINCT FROM expected THEN
    RAISE EXCEPTION 'cached entries changed during the request' USING ERRCODE = 'SB001';
  END IF;
END
$fn$;
`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Creates the schema when missing and applies the migrations it lacks; returns the versions applied. */
export function migrate(connection: PgConnection, schema: string): number[] {
  const key = String(lockKey(schema));
  connection.query('SELECT pg_advisory_lock($1, $2)', [String(MIGRATION_LOCK_CLASS), key]);
  try {
    connection.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    connection.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const current = Number(connection.query('SELECT coalesce(max(version), 0) AS v FROM schema_migrations')[0]?.v ?? 0);
    if (current > SCHEMA_VERSION) {
      throw new Error(`the database schema is at version ${current}, newer than this sandbox's ${SCHEMA_VERSION}; upgrade the sandbox`);
    }
    const applied: number[] = [];
    for (const m of MIGRATIONS.filter((m) => m.version > current)) {
      connection.exec(`BEGIN; ${m.sql}; INSERT INTO schema_migrations (version, name) VALUES (${m.version}, '${m.name}'); COMMIT;`);
      applied.push(m.version);
    }
    return applied;
  } catch (error) {
    if (connection.connected) connection.query('ROLLBACK');
    throw error;
  } finally {
    if (connection.connected) connection.query('SELECT pg_advisory_unlock($1, $2)', [String(MIGRATION_LOCK_CLASS), key]);
  }
}
