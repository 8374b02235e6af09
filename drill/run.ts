// npm run drill [-- --seed N] [--requests 20000] [--concurrency 8] [--race-size 50] [--race-rounds 5]
//   [--crash-rounds 5] [--only fuzz,races,crash,isolation,secrets] [--db-dir DIR] [--report reports/drill.md]
//   [--summary drill/REPORT.md] [--instances N --db postgres://...] [--pg-restart "command"] [--quiet] [--help]
//   [--soak SECONDS [--rate 20] [--interval S]]
// Starts the sandbox as a child process on a temporary database file (loopback, a free port), runs the drills
// against it, prints what each found and writes the report. Exit 1 on any finding, 2 on bad arguments.
// With --db postgres://... the team-sandbox drills run instead (drill/shared.ts): races, isolation, crash and
// a PostgreSQL restart against --instances instances over that database.
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { crashDrill } from './crash.js';
import { DRILLS, DrillContext, type DrillName, type DrillResult, type Options } from './context.js';
import { fuzzDrill } from './fuzz.js';
import { Recorder } from './http.js';
import { isolationDrill } from './isolation.js';
import { racesDrill } from './races.js';
import { Receiver } from './receiver.js';
import { markdown, printResult } from './report.js';
import { REPO_ROOT, SandboxLog, SandboxProcess } from './sandbox-process.js';
import { secretsDrill } from './secrets.js';
import { runSoak } from './soak.js';
import { runSharedDrills } from './shared-run.js';
import { chooseDb } from '../src/sandbox/storage/open.js';

/** --db takes a PostgreSQL URL only (the file drills make their own database). */
function chooseDbForDrill(value: string): void {
  if (chooseDb(value).engine !== 'postgres') throw new Error(`--db must be a postgres:// URL (the drills on SQLite make their own database file)`);
}

export interface RunOutcome {
  results: DrillResult[];
  ms: number;
  options: Options;
  report: string;
}

export const DEFAULT_CAPS: Record<DrillName, number> = { fuzz: 600, races: 120, crash: 180, isolation: 180, secrets: 120 };

export const USAGE = `Usage: npm run drill -- [options]
  --seed N             seed of every generated request (default: random, printed)
  --requests N         fuzz requests (default 20000)
  --concurrency N      fuzz requests in flight (default 8)
  --race-size N        concurrent requests per race (default 50)
  --race-rounds N      rounds of each race (default 5)
  --crash-rounds N     kill -9 and restart rounds (default 5)
  --only a,b           drills to run: ${DRILLS.join(', ')} (default: all)
  --db-dir DIR         where the sandbox database files go (default /dev/shm when writable, else the temp folder)
  --report FILE        the Markdown report (default reports/drill.md)
  --summary FILE       also write the report here (drill/REPORT.md for the committed summary)
  --instances N        with --db: sandbox instances over the one database (default 3)
  --db URL             a postgres:// URL: run the team-sandbox drills (races, isolation, crash, restart) against
                       --instances instances over it, in a schema of their own (dropped afterwards)
  --pg-restart CMD     how the restart drill restarts PostgreSQL (default: pg_ctlcluster of the local cluster)
  --quiet              print only the last line
  --soak SECONDS       run the soak instead of the drills (drill/soak.ts): mixed traffic over every operation at
                       --rate requests/s (default 20), samples every --interval s (default 60, shorter soaks a
                       thirtieth of the run), then every acknowledged write read back; SQLite, or PostgreSQL with
                       --instances N --db URL. The report goes to --report (docs/soak-sqlite.md, docs/soak-postgres.md)
Time caps per drill (s): ${Object.entries(DEFAULT_CAPS).map(([k, v]) => `${k} ${v}`).join(', ')}. Exit 1 on any finding, 2 on bad arguments.`;

class HelpRequested extends Error {}

/**
 * Where the database files go: /dev/shm when there is one (a kill -9 loses nothing in the page cache either
 * way, and the drills do not measure fsync), else the system's temporary folder.
 */
function defaultDbDir(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

export function parseOptions(argv: string[]): Options & { report: string; summary?: string; soak?: { seconds: number; rate: number; interval?: number } } {
  const { values } = parseArgs({
    args: argv,
    options: {
      seed: { type: 'string' },
      requests: { type: 'string', default: '20000' },
      concurrency: { type: 'string', default: '8' },
      'race-size': { type: 'string', default: '50' },
      'race-rounds': { type: 'string', default: '5' },
      'crash-rounds': { type: 'string', default: '5' },
      only: { type: 'string' },
      report: { type: 'string', default: 'reports/drill.md' },
      summary: { type: 'string' },
      'db-dir': { type: 'string' },
      instances: { type: 'string' },
      db: { type: 'string' },
      'pg-restart': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      soak: { type: 'string' },
      rate: { type: 'string', default: '20' },
      interval: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) throw new HelpRequested();
  const int = (name: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${v}`);
    return n;
  };
  const only = values.only ? values.only.split(',').map((s) => s.trim()) : [...DRILLS];
  for (const d of only) if (!(DRILLS as readonly string[]).includes(d)) throw new Error(`--only: unknown drill ${d} (drills: ${DRILLS.join(', ')})`);
  if (values.db !== undefined) chooseDbForDrill(values.db);
  if (values.instances !== undefined && values.db === undefined) throw new Error('--instances needs --db postgres://...');
  return {
    seed: values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : int('seed', values.seed, 0),
    requests: int('requests', values.requests, 1),
    concurrency: int('concurrency', values.concurrency, 1),
    raceSize: int('race-size', values['race-size'], 2),
    raceRounds: int('race-rounds', values['race-rounds'], 1),
    crashRounds: int('crash-rounds', values['crash-rounds'], 1),
    caps: { ...DEFAULT_CAPS },
    only: only as DrillName[],
    quiet: values.quiet,
    report: values.report!,
    dbDir: values['db-dir'] ?? defaultDbDir(),
    ...(values.db ? { db: values.db, instances: int('instances', values.instances ?? '3', 1) } : {}),
    ...(values['pg-restart'] ? { pgRestart: values['pg-restart'].split(' ').filter((s) => s !== '') } : {}),
    ...(values.summary ? { summary: values.summary } : {}),
    ...(values.soak === undefined ? {} : { soak: { seconds: int('soak', values.soak, 30), rate: int('rate', values.rate, 1), ...(values.interval === undefined ? {} : { interval: int('interval', values.interval, 1) }) } }),
  };
}

/** Runs the drills; never throws for a drill's failure (an exception inside a drill is its finding). */
export async function runDrills(options: Options): Promise<RunOutcome> {
  const started = performance.now();
  const loadBefore = loadavg();
  const dir = mkdtempSync(join(options.dbDir, 'drill-'));
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir);
  const rec = new Recorder();
  const log = new SandboxLog();
  const receiver = new Receiver();
  await receiver.start();
  const ctx = new DrillContext(options, rec, log);
  const results: DrillResult[] = [];
  if (options.db) {
    try {
      results.push(...(await runSharedDrills({ ...options, db: options.db, instances: options.instances ?? 3 }, rec, log, receiver)));
    } finally {
      await receiver.stop();
      removeDir();
      process.removeListener('exit', removeDir);
    }
    const ms = performance.now() - started;
    return { results, ms, options, report: markdown(results, options, ms, rec, { before: loadBefore, after: loadavg() }) };
  }
  const say = (line: string): void => {
    if (!options.quiet) process.stderr.write(`${line}\n`);
  };
  try {
    ctx.sandbox = await SandboxProcess.launch(join(dir, 'sandbox.db'), log);
    ctx.addSecret(ctx.info.api_key, 'API key of the development organization');
    ctx.addSecret(ctx.info.admin_token, 'admin token of the control plane');
    say(`drill: sandbox pid ${ctx.sandbox.pid} at ${ctx.info.base_url} (database ${join(dir, 'sandbox.db')}), seed ${options.seed}`);
    const order: DrillName[] = ['fuzz', 'races', 'crash', 'isolation', 'secrets'];
    for (const name of order) {
      if (!options.only.includes(name)) continue;
      say(`drill: ${name} ...`);
      const drillStarted = performance.now();
      const requestsBefore = rec.requests;
      let result: DrillResult;
      try {
        if (!ctx.sandbox.alive()) ctx.sandbox = await SandboxProcess.launch(join(dir, 'sandbox.db'), log);
        result = await withCap(
          name === 'fuzz' ? fuzzDrill(ctx, receiver) : name === 'races' ? racesDrill(ctx) : name === 'crash' ? crashDrill(ctx, join(dir, 'crash.db')) : name === 'isolation' ? isolationDrill(ctx) : secretsDrill(ctx, receiver),
          (options.caps[name] + 120) * 1000,
          name,
        );
      } catch (error) {
        // The drill's own failure, with the seed that replays it.
        result = { name, ok: false, ms: performance.now() - drillStarted, numbers: [], findings: [{ kind: 'drill error', detail: `seed ${options.seed}: ${(error as Error)?.stack ?? String(error)}` }], findingCounts: { 'drill error': 1 }, notes: [] };
      }
      result.numbers.push(['HTTP requests of this drill (set-up and control plane included)', rec.requests - requestsBefore]);
      // Findings quote requests as sent: keys and tokens in them are replaced before anything is printed.
      result.findings = result.findings.map((f) => ({ ...f, detail: redact(f.detail, rec.secrets) }));
      results.push(result);
      if (!options.quiet) process.stdout.write(`${printResult(result)}\n`);
    }
  } finally {
    await ctx.sandbox?.stop();
    await receiver.stop();
    removeDir();
    process.removeListener('exit', removeDir);
  }
  const ms = performance.now() - started;
  const report = markdown(results, options, ms, rec, { before: loadBefore, after: loadavg() });
  return { results, ms, options, report };
}

function redact(text: string, secrets: Map<string, string>): string {
  let out = text;
  for (const [value, what] of secrets) out = out.split(value).join(`<${what}>`);
  return out;
}

function withCap<T>(work: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the ${name} drill did not finish within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, cap]).finally(() => clearTimeout(timer));
}

async function main(): Promise<number> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (error instanceof HelpRequested) {
      console.log(USAGE);
      return 0;
    }
    console.error(`drill: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (options.soak) {
    // The soak instead of the drills (drill/soak.ts): its own report, exit 1 when it fails.
    const command = `npm run drill -- ${process.argv.slice(2).join(' ')}`;
    const soak = await runSoak({ ...options.soak, seed: options.seed, dbDir: options.dbDir, quiet: options.quiet, ...(options.db ? { db: options.db, instances: options.instances ?? 3 } : {}) }, command);
    const soakPath = resolve(REPO_ROOT, options.report);
    mkdirSync(dirname(soakPath), { recursive: true });
    writeFileSync(soakPath, soak.report);
    console.log(`\nsoak: ${soak.ok ? 'pass' : 'FAIL'} (seed ${options.seed}); report: ${options.report}`);
    return soak.ok ? 0 : 1;
  }
  const outcome = await runDrills(options);
  const failed = outcome.results.filter((r) => !r.ok);
  const reportPath = resolve(REPO_ROOT, options.report);
  mkdirSync(dirname(reportPath), { recursive: true });
  writeFileSync(reportPath, outcome.report);
  if (options.summary) writeFileSync(resolve(REPO_ROOT, options.summary), outcome.report);
  console.log(`\ndrill: ${outcome.results.length - failed.length} of ${outcome.results.length} drills passed in ${Math.round(outcome.ms / 1000)} s (seed ${options.seed}); report: ${options.report}`);
  return failed.length > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(REPO_ROOT, 'drill/run.ts')) {
  // Ctrl+C: exit, which kills the sandbox processes (drill/sandbox-process.ts).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`drill: ${(error as Error)?.stack ?? String(error)}`);
      process.exit(2);
    },
  );
}
