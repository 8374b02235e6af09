// Where the PostgreSQL tests find their server: SANDBOX_PG_URL, default the role and database .ci/run creates
// (postgres://sandbox:sandbox@127.0.0.1:5432/sandbox_test). Every test sandbox gets a schema of its own
// (`?schema=`), dropped afterwards, so test files running in parallel never see each other's data.
//
// Without a reachable server the PostgreSQL tests are skipped LOCALLY with a warning that names the reason
// (and the skip shows in vitest's output); under CI=true they fail instead.
import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { finishPq, newPq } from '../../src/sandbox/storage/pg-connection.js';

export const PG_URL = process.env.SANDBOX_PG_URL ?? 'postgres://sandbox:sandbox@127.0.0.1:5432/sandbox_test';

/** Why PostgreSQL cannot be used, or null when it can. */
function probe(): string | null {
  const pq = newPq();
  try {
    pq.connectSync(`${PG_URL}${PG_URL.includes('?') ? '&' : '?'}connect_timeout=3`);
    return null;
  } catch (error) {
    return ((error as Error).message.trim().split('\n')[0] ?? 'connection failed').replace(/:[^:@/]*@/, ':***@');
  } finally {
    finishPq(pq);
  }
}

export const pgUnavailable = probe();

/** describe() for tests that need PostgreSQL: skipped loudly without it, failing under CI. */
export function describePg(name: string, body: () => void): void {
  if (pgUnavailable === null) {
    describe(name, body);
    return;
  }
  const reason = `PostgreSQL at ${PG_URL.replace(/:[^:@/]*@/, ':***@')} is unavailable (${pgUnavailable}); set SANDBOX_PG_URL or start it (see .ci/run)`;
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs PostgreSQL (CI=true)', () => {
        throw new Error(reason);
      });
    });
    return;
  }
  console.warn(`\n!!! SKIPPED: ${name}: ${reason}\n`);
  describe.skip(`${name} [SKIPPED: ${reason}]`, body);
}

/**
 * A URL of PG_URL with a new schema; `dropSchema` removes it. Commits of test sandboxes are not waited for on
 * disk (synchronous_commit off, a session setting): durability is the drills' concern, not the suite's.
 */
export function freshSchemaUrl(prefix = 't'): { url: string; schema: string } {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  return { url: `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}&options=${encodeURIComponent('-c synchronous_commit=off')}`, schema };
}

/** Runs SQL as the test role (set-up and inspection), returning rows as objects of text. */
export function pgQuery(text: string, params: string[] = [], schema?: string): Record<string, string | null>[] {
  const pq = newPq();
  pq.connectSync(PG_URL);
  try {
    pq.exec('SET client_min_messages = warning');
    if (schema) pq.exec(`SET search_path TO "${schema}"`);
    pq.execParams(text, params);
    const message = pq.resultErrorMessage();
    if (message) throw new Error(message);
    const rows: Record<string, string | null>[] = [];
    for (let r = 0; r < pq.ntuples(); r++) {
      const row: Record<string, string | null> = {};
      for (let c = 0; c < pq.nfields(); c++) row[pq.fname(c)] = pq.getisnull(r, c) ? null : pq.getvalue(r, c);
      rows.push(row);
    }
    return rows;
  } finally {
    finishPq(pq);
  }
}

export function dropSchema(schema: string): void {
  pgQuery(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
