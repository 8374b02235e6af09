// Runs a SQL metric's query read-only over data frames (frames.ts) in an in-memory SQLite database
// (better-sqlite3), in a child process of its own. A query is the metric author's input, and SQLite cannot be
// interrupted from JavaScript (a recursive CTE can loop forever in native code, which no worker thread can be
// terminated out of), so the process is the unit that can be stopped: one query at a time, each under a time
// limit, a row limit and an output size limit; over the time or size limit the process is killed and the next
// query starts a fresh one. The child is started on first use and kept (unref'd) for the next query.
//
// Read-only: the tables are filled, then `PRAGMA query_only` is set, and a statement better-sqlite3 does not
// report as `readonly` is refused before it runs.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { FRAME_TABLES, type Frames } from './frames.js';

export const SQL_LIMITS = { timeMs: 2000, startMs: 20_000, rows: 10_000, outputBytes: 4 * 1024 * 1024, heapBytes: 64 * 1024 * 1024 } as const;

export type QueryAnswer = { ok: true; columns: string[]; rows: Record<string, unknown>[] } | { ok: false; error: string };

// The child's program, run with `node -e`: it needs nothing but better-sqlite3, whose path it is given (resolved
// here, so it works from the bundled package as from the repository).
const CHILD = String.raw`
const Database = require(process.argv[1]);
const heap = Number(process.argv[2]);
const lines = require('node:readline').createInterface({ input: process.stdin });
const quote = (name) => '"' + name.replace(/"/g, '""') + '"';
function run(job) {
  const db = new Database(':memory:');
  try {
    db.pragma('hard_heap_limit = ' + heap);
    for (const t of job.tables) {
      db.exec('CREATE TABLE ' + quote(t.name) + ' (' + t.columns.map((c) => quote(c.name) + ' ' + c.sql_type).join(', ') + ')');
      const insert = db.prepare('INSERT INTO ' + quote(t.name) + ' VALUES (' + t.columns.map(() => '?').join(', ') + ')');
      for (const row of job.frames[t.name] || []) insert.run(t.columns.map((c) => (row[c.name] === undefined ? null : row[c.name])));
    }
    db.pragma('query_only = ON');
    let stmt;
    try {
      stmt = db.prepare(job.sql);
    } catch (e) {
      return { ok: false, error: String(e.message) };
    }
    if (!stmt.readonly) return { ok: false, error: 'the statement writes: only read-only queries run' };
    if (!stmt.reader) return { ok: false, error: 'the statement returns no rows: it must be a query' };
    const columns = stmt.columns().map((c) => c.name);
    const rows = [];
    for (const row of stmt.iterate()) {
      if (rows.length >= job.maxRows) return { ok: false, error: 'the query returned more than ' + job.maxRows + ' rows' };
      rows.push(row);
    }
    return { ok: true, columns, rows };
  } catch (e) {
    return { ok: false, error: String(e.message) };
  } finally {
    db.close();
  }
}
lines.on('line', (line) => {
  const job = JSON.parse(line);
  process.stdout.write(JSON.stringify({ id: job.id, answer: run(job) }) + '\n');
});
lines.on('close', () => process.exit(0));
process.stdout.write('ready\n');
`;

interface Child {
  process: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  onLine: ((line: string) => void) | null;
}

let child: Child | null = null;
let queue: Promise<unknown> = Promise.resolve();
let nextId = 0;

function start(): Child {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const proc = spawn(process.execPath, ['--max-old-space-size=128', '-e', CHILD, sqlite, String(SQL_LIMITS.heapBytes)], { stdio: 'pipe' });
  const started: Child = { process: proc, ready: Promise.resolve(), onLine: null };
  let buffered = '';
  let sawReady = false;
  let markReady: () => void = () => {};
  let failReady: (error: Error) => void = () => {};
  started.ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    if (buffered.length > SQL_LIMITS.outputBytes) {
      buffered = '';
      started.onLine?.(JSON.stringify({ answer: { ok: false, error: `the query's result is larger than ${SQL_LIMITS.outputBytes} bytes` } }));
      stop(started);
      return;
    }
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (!sawReady && line === 'ready') {
        sawReady = true;
        markReady();
      } else started.onLine?.(line);
      newline = buffered.indexOf('\n');
    }
  });
  proc.stderr.resume();
  // A write to a child that just died fails with EPIPE on stdin; its exit answers the pending query.
  proc.stdin.on('error', () => {});
  const gone = (): void => {
    if (child === started) child = null;
    failReady(new Error('the SQL process ended'));
    started.onLine?.(JSON.stringify({ answer: { ok: false, error: 'the SQL process ended before answering' } }));
  };
  proc.on('exit', gone);
  proc.on('error', gone);
  // An idle child does not keep the sandbox's process alive (it exits when its stdin closes).
  proc.unref();
  for (const stream of [proc.stdin, proc.stdout, proc.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
  return started;
}

function stop(c: Child): void {
  if (child === c) child = null;
  c.process.kill('SIGKILL');
}

async function runOne(sql: string, frames: Frames): Promise<QueryAnswer> {
  const c = child ?? (child = start());
  const startTimer = setTimeout(() => stop(c), SQL_LIMITS.startMs);
  try {
    await c.ready;
  } catch {
    return { ok: false, error: 'the SQL process could not start' };
  } finally {
    clearTimeout(startTimer);
  }
  const id = ++nextId;
  return new Promise<QueryAnswer>((resolve) => {
    const timer = setTimeout(() => {
      c.onLine = null;
      stop(c);
      resolve({ ok: false, error: `the query ran longer than ${SQL_LIMITS.timeMs} ms` });
    }, SQL_LIMITS.timeMs);
    c.onLine = (line) => {
      clearTimeout(timer);
      c.onLine = null;
      let parsed: { id?: number; answer?: QueryAnswer };
      try {
        parsed = JSON.parse(line) as typeof parsed;
      } catch {
        parsed = { answer: { ok: false, error: 'the SQL process answered something unreadable' } };
      }
      resolve(parsed.answer ?? { ok: false, error: `the SQL process answered query ${String(parsed.id)} instead of ${id}` });
    };
    c.process.stdin.write(`${JSON.stringify({ id, sql, frames, tables: FRAME_TABLES, maxRows: SQL_LIMITS.rows })}\n`);
  });
}

/** Runs `sql` over `frames`; queries run one at a time. Never rejects: every failure is an answer with `error`. */
export function runFrameQuery(sql: string, frames: Frames): Promise<QueryAnswer> {
  const answer = queue.then(() => runOne(sql, frames));
  queue = answer.catch(() => undefined);
  return answer.catch((error: unknown) => ({ ok: false as const, error: (error as Error)?.message ?? String(error) }));
}
