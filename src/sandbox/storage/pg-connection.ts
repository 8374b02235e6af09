// One synchronous connection to PostgreSQL for the sandbox's store, through libpq (node-postgres's binding of
// the PostgreSQL C client, the engine under pg-native). The Store interface is synchronous (the engine and the
// rule modules call it without awaiting), so every statement blocks this instance's event loop for one round
// trip, exactly as better-sqlite3 blocks it for one page read; requests of one instance run one at a time.
//
// Connection loss: a statement outside a transaction that finds the connection dropped (the server restarted,
// an idle connection was cut) reconnects and runs again once. Inside a transaction, or when the server cannot
// be reached, the caller gets DatabaseUnavailable: the API's 503 INTERNAL envelope (the seed's transient
// outage). After a failed connection attempt, statements fail fast for RECONNECT_PAUSE_MS instead of each
// waiting for the server, so an outage never turns into a queue of hanging requests.
/// <reference path="./libpq.d.ts" />
import { createRequire } from 'node:module';
import type PQType from 'libpq';
import { ApiFailure } from '../errors.js';

// Loaded through require: imported as an ES module, libpq takes itself for a command and prints its include
// folder on standard output (which would break the sandbox's `--json` first line).
// Loaded on the first connection, so a sandbox on SQLite never needs the native binding (the sandbox package lists
// it as an optional peer: only a team sandbox on PostgreSQL installs it).
type PQ = PQType;
let loaded: typeof PQType | undefined;
function pqClass(): typeof PQType {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)('libpq') as typeof PQType;
    } catch (error) {
      throw new Error(`PostgreSQL needs the libpq package (npm install libpq; it builds against libpq's headers): ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return loaded;
}

const RECONNECT_PAUSE_MS = 250;
/** Statements (lock waits included) are cancelled after this: a stuck database answers 503, not a hang. */
const STATEMENT_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_S = 3;
/**
 * Statements with parameters are prepared once per connection and then only executed (issue 28: the server
 * parses and plans each once, not on every request). The store's texts are a fixed set plus one per looked-up
 * kind and field; past this many, further texts run unprepared.
 */
const PREPARED_MAX = 256;
/**
 * What a statement meets when the server forgot the session's state (recoverSession): a prepared statement that
 * does not exist (26000) or a table not on the search path (42P01).
 */
const SESSION_FORGOTTEN = new Set(['26000', '42P01']);
/** libpq's PQtransactionStatus when the session is in no transaction block. */
const PQTRANS_IDLE = 0;

/** The database cannot be reached: answered as 503 INTERNAL with the error envelope. */
export class DatabaseUnavailable extends ApiFailure {
  constructor(readonly reason: string) {
    super(503, 'INTERNAL', 'The sandbox database is unavailable; try again.', []);
    this.name = 'DatabaseUnavailable';
  }
}

/** An error PostgreSQL reported for a statement (a bug in the store, or a constraint): a plain 500. */
export class PgError extends Error {
  constructor(
    message: string,
    readonly sqlState: string | undefined,
  ) {
    super(message);
    this.name = 'PgError';
  }
}

export interface PgTarget {
  /** What libpq is given: the URL without our own parameters, with a connect timeout. */
  conninfo: string;
  /** The schema the sandbox's tables live in (`?schema=` in the URL; default `public`). */
  schema: string;
  /** The URL with its password masked, for messages. */
  display: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Whether `value` is meant as a PostgreSQL URL (what the store selection checks first). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/**
 * Reads `postgres://user:password@host:port/database[?schema=name&<libpq parameters>]`. Throws an Error whose
 * message says what is wrong (never echoing the password).
 */
export function parsePgUrl(value: string): PgTarget {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('not a valid PostgreSQL URL (expected postgres://user:password@host:port/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('a PostgreSQL URL starts with postgres:// or postgresql://');
  if (url.hostname === '') throw new Error('the PostgreSQL URL names no host (expected postgres://user:password@host:port/database)');
  const schema = url.searchParams.get('schema') ?? 'public';
  if (!SCHEMA_NAME.test(schema)) throw new Error(`schema must be a lower-case SQL name (letters, digits, _), got ${JSON.stringify(schema)}`);
  const display = new URL(url.href);
  if (display.password !== '') display.password = '***';
  url.searchParams.delete('schema');
  if (!url.searchParams.has('connect_timeout')) url.searchParams.set('connect_timeout', String(CONNECT_TIMEOUT_S));
  // URLSearchParams writes a space as `+`, which libpq does not decode (a literal + is written %2B).
  url.search = url.search.replace(/\+/g, '%20');
  return { conninfo: url.href, schema, display: display.href };
}

export type Row = Record<string, string | null>;

export class PgConnection {
  private pq: PQ | null = null;
  private closed = false;
  private lastFailure = { at: 0, reason: '' };
  /** Set by the store while a transaction is open (a lost connection then cannot be retried). */
  inTransaction = false;
  /** Round trips sent (one per query() call): a cost measure the tests read around one request. */
  roundTrips = 0;
  /** The statements prepared on the current connection: their names by text (a new connection has none). */
  private readonly prepared = new Map<string, string>();
  /** The server forgot this session's state inside a transaction: set it up again once the transaction ends. */
  private sessionLost = false;

  constructor(
    readonly target: PgTarget,
    /** Session set-up run after every (re)connect, e.g. the search path. */
    private readonly setUp: (connection: PgConnection) => void,
  ) {}

  /** Connects now; throws DatabaseUnavailable with libpq's one-line reason when the server refuses. */
  open(): void {
    this.lastFailure.at = 0;
    this.ensure();
  }

  private ensure(): PQ {
    if (this.pq) return this.pq;
    if (this.closed) throw new DatabaseUnavailable('the store is closed');
    if (Date.now() - this.lastFailure.at < RECONNECT_PAUSE_MS) throw new DatabaseUnavailable(this.lastFailure.reason);
    const PQ = pqClass();
    const pq = new PQ();
    try {
      pq.connectSync(this.target.conninfo);
    } catch (error) {
      finishPq(pq);
      const reason = firstLine((error as Error).message) || 'connection failed';
      this.lastFailure = { at: Date.now(), reason };
      throw new DatabaseUnavailable(reason);
    }
    this.pq = pq;
    try {
      this.setUpSession(pq);
    } catch (error) {
      this.drop();
      throw error;
    }
    return pq;
  }

  /** This session's settings and the caller's set-up (after a connect, or after the server forgot them). */
  private setUpSession(pq: PQ): void {
    // libpq prints server notices ("already exists, skipping") on standard error otherwise.
    this.run(pq, `SET statement_timeout = ${STATEMENT_TIMEOUT_MS}; SET client_min_messages = warning`, undefined);
    this.setUp(this);
  }

  /**
   * The server forgot this session's state while the connection stayed up: `DISCARD ALL` (run by a pooler
   * between clients, or by hand), `DEALLOCATE ALL`, a pooler that hands the session another server connection.
   * The prepared statements are gone (26000) and the search path with them (a table of the sandbox's schema is
   * then undefined, 42P01). The state is made again from scratch: every name this connection prepared is
   * dropped on the server too (some may survive a partial reset and would clash with a fresh prepare), then the
   * settings and search path. Runs outside a transaction only (an aborted one takes no statement).
   */
  private recoverSession(pq: PQ): void {
    this.prepared.clear();
    this.sessionLost = false;
    this.run(pq, 'DEALLOCATE ALL', undefined);
    this.setUpSession(pq);
  }

  /**
   * Runs one statement; `$1`... take `params` (strings, or null for NULL). Without params the text may hold
   * several statements separated by `;` (one round trip); the rows are the last statement's.
   */
  query(text: string, params?: (string | null)[]): Row[] {
    this.roundTrips++;
    for (let attempt = 0; ; attempt++) {
      const pq = this.ensure();
      // The server's own word (no transaction block open), not inTransaction: the store sets that before sending the
      // script that begins one, and a session left unrecovered would fail every such script in turn.
      if (this.sessionLost && pq.transactionStatus() === PQTRANS_IDLE) this.recoverSession(pq);
      try {
        return this.run(pq, text, params);
      } catch (error) {
        if (error instanceof PgError && SESSION_FORGOTTEN.has(error.sqlState ?? '') && attempt === 0) {
          // Inside a transaction the error aborted it: the caller rolls back and answers 503 (try again), and the
          // session is set up again before the next statement. Outside one, the statement runs again once.
          this.prepared.clear();
          this.sessionLost = true;
          if (this.inTransaction) throw new DatabaseUnavailable(error.message);
          continue;
        }
        if (!(error instanceof DatabaseUnavailable)) throw error;
        this.drop();
        // Outside a transaction a statement that met a dropped connection runs again on a new one, once.
        if (this.inTransaction || attempt > 0) throw error;
      }
    }
  }

  /** `value` as a quoted SQL literal, for the few statements sent as one script with others (no parameters there). */
  literal(value: string): string {
    return this.ensure().escapeLiteral(value);
  }

  /** Runs a script of several statements (migrations) on the current connection, without retrying. */
  exec(script: string): void {
    this.run(this.ensure(), script, undefined);
  }

  private run(pq: PQ, text: string, params: (string | null)[] | undefined): Row[] {
    if (params === undefined) pq.exec(text);
    else {
      let name = this.prepared.get(text);
      if (name === undefined && this.prepared.size < PREPARED_MAX) {
        const next = `sandbox_${this.prepared.size}`;
        pq.prepare(next, text, params.length);
        this.check(pq);
        this.prepared.set(text, next);
        name = next;
      }
      if (name === undefined) pq.execParams(text, params);
      else pq.execPrepared(name, params);
    }
    this.check(pq);
    const rows: Row[] = [];
    const columns = Array.from({ length: pq.nfields() }, (_, i) => pq.fname(i));
    for (let r = 0, n = pq.ntuples(); r < n; r++) {
      const row: Row = {};
      columns.forEach((name, c) => (row[name] = pq.getisnull(r, c) ? null : pq.getvalue(r, c)));
      rows.push(row);
    }
    return rows;
  }

  private check(pq: PQ): void {
    const status = pq.resultStatus();
    if (status === 'PGRES_TUPLES_OK' || status === 'PGRES_COMMAND_OK') return;
    const message = firstLine(pq.resultErrorMessage() || pq.errorMessage()) || status;
    const sqlState = pq.resultErrorFields()?.sqlState;
    // Class 08 (connection exception), 57P0x (the server shut down or restarted), 55P03 and 57014 (a lock
    // wait or statement cancelled by the timeouts), 40P01 (chosen as a deadlock's victim: two transactions
    // took two organizations' locks in opposite orders), or no result at all (the socket closed): transient.
    if (pq.transactionStatus() === 4 || !sqlState || sqlState.startsWith('08') || /^57P0[1-3]$/.test(sqlState) || sqlState === '55P03' || sqlState === '57014' || sqlState === '40P01') {
      throw new DatabaseUnavailable(message);
    }
    throw new PgError(message, sqlState);
  }

  /** Closes the connection for good (statements then fail as unavailable). */
  close(): void {
    this.closed = true;
    this.drop();
  }

  /** Forgets the connection (the next statement reconnects). */
  drop(): void {
    const pq = this.pq;
    this.pq = null;
    this.prepared.clear();
    if (pq) finishPq(pq);
  }

  get connected(): boolean {
    return this.pq !== null && this.pq.transactionStatus() !== 4;
  }
}

/**
 * Closes a libpq connection. libpq's finish() starts closing its socket watcher (completed by the event loop)
 * and lets the object be collected at once; collected before the loop completes the close, the process aborts
 * in libuv. So the object is kept reachable for a moment after.
 */
export function finishPq(pq: PQ): void {
  try {
    pq.finish();
  } catch {
    // Already closed.
  }
  setTimeout(() => void pq, 1000).unref();
}

/** A connection through libpq (for tools and tests that need one outside a store). */
export function newPq(): PQ {
  const PQ = pqClass();
  return new PQ();
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}

/** A 32-bit signed hash (FNV-1a) of a name: the advisory lock key of a schema (and half of a scope's key). */
export function lockKey(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}
