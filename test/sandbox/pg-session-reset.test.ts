// A connection whose server forgot the session's state (DISCARD ALL from a pooler or by hand, DEALLOCATE ALL)
// keeps answering: the store's prepared statements and search path are made again and the statement retried
// once (src/sandbox/storage/pg-connection.ts, recoverSession), instead of every later request failing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DatabaseUnavailable, PgConnection, parsePgUrl } from '../../src/sandbox/storage/pg-connection.js';
import { describePg, dropSchema, freshSchemaUrl, pgQuery } from './pg-env.js';

describePg('a PostgreSQL session reset behind the store', () => {
  const { url, schema } = freshSchemaUrl('reset');
  let connection: PgConnection;
  beforeAll(() => {
    pgQuery(`CREATE SCHEMA "${schema}"`);
    pgQuery(`CREATE TABLE "${schema}".items (id text PRIMARY KEY, name text)`);
    pgQuery(`INSERT INTO "${schema}".items VALUES ('a', 'first'), ('b', 'second')`);
    const target = parsePgUrl(url);
    // The table is found through the search path only (unqualified), as the store's statements find theirs.
    connection = new PgConnection(target, (c) => void c.query(`SET search_path TO "${target.schema}"`));
    connection.open();
  });
  afterAll(() => {
    connection?.close();
    dropSchema(schema);
  });

  const nameOf = (id: string): string | null | undefined => connection.query('SELECT name FROM items WHERE id = $1', [id])[0]?.name;

  it('answers the next statement after DISCARD ALL (prepared statements and search path both forgotten)', () => {
    expect(nameOf('a')).toBe('first');
    connection.query('DISCARD ALL');
    // Without the recovery: "prepared statement sandbox_0 does not exist" (26000), a plain error.
    expect(nameOf('b')).toBe('second');
    expect(nameOf('a')).toBe('first');
    // The session's own settings came back too (DISCARD ALL resets them to the server's defaults).
    expect(connection.query('SHOW statement_timeout')[0]?.statement_timeout).toBe('10s');
  });

  it('answers 503 (try again) for a transaction that met forgotten statements, and the next statement answers', () => {
    expect(nameOf('a')).toBe('first');
    connection.query('BEGIN');
    connection.inTransaction = true;
    connection.query('DEALLOCATE ALL');
    expect(() => nameOf('a')).toThrow(DatabaseUnavailable);
    connection.query('ROLLBACK');
    connection.inTransaction = false;
    expect(nameOf('a')).toBe('first');
    expect(nameOf('b')).toBe('second');
  });

  it('sets the session up again before the next transaction when the last one met the reset (write after write)', () => {
    // As the store sends a write: marked as in a transaction, then BEGIN and the first read as one script.
    const script = (): string | null | undefined => connection.query("BEGIN; SELECT name FROM items WHERE id = 'b'")[0]?.name;
    connection.query('DISCARD ALL');
    connection.inTransaction = true;
    expect(script).toThrow(DatabaseUnavailable);
    connection.query('ROLLBACK');
    connection.inTransaction = false;
    connection.inTransaction = true;
    expect(script()).toBe('second');
    connection.query('COMMIT');
    connection.inTransaction = false;
  });

  it('still reports a statement that is wrong as an error (retried once, not forever)', () => {
    expect(() => connection.query('SELECT name FROM no_such_table WHERE id = $1', ['a'])).toThrow(/no_such_table/);
    expect(nameOf('a')).toBe('first');
  });
});
