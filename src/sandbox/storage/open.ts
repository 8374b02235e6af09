// Which store a `--db` value (or createSandbox's `db`) selects: `:memory:` or a file path for SQLite, a
// `postgres://` (or `postgresql://`) URL for PostgreSQL. Anything else that looks like a URL (`mysql://x`,
// `postgres:/host/db`, `postgress://...`) is refused: it would otherwise become a SQLite file in a folder named
// after the scheme.
import { isPostgresUrl, parsePgUrl } from './pg-connection.js';
import { openPgStore } from './pg-store.js';
import { openSqliteStore } from './sqlite-store.js';
import type { OpenStoreOptions, Store } from './store.js';

export type DbChoice = { engine: 'sqlite'; path: string } | { engine: 'postgres'; url: string; display: string };

/** Reads a `db` value; throws an Error whose message says what is accepted. */
export function chooseDb(value: string): DbChoice {
  if (value === '') throw new Error('--db is empty; give a file path, :memory: or a postgres:// URL');
  if (isPostgresUrl(value)) return { engine: 'postgres', url: value, display: parsePgUrl(value).display };
  // A scheme (letters, then a colon) that is not a Windows drive letter: a URL of an engine we do not have,
  // or a mistyped PostgreSQL URL.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value);
  if (value !== ':memory:' && scheme && !/^[A-Za-z]:[\\/]/.test(value)) {
    const hint = /^postgres/i.test(scheme[1]!) ? ' (a PostgreSQL URL is postgres://user:password@host:port/database)' : '';
    throw new Error(`--db ${JSON.stringify(scheme[0] + (value.length > scheme[0].length ? '...' : ''))} is neither a file path, :memory: nor a postgres:// URL${hint}`);
  }
  return { engine: 'sqlite', path: value };
}

export function openStore(value: string, options: OpenStoreOptions = {}): Store {
  const choice = chooseDb(value);
  return choice.engine === 'postgres' ? openPgStore(choice.url, options) : openSqliteStore(choice.path);
}
