// Child processes for the benches: run a command to completion and measure its wall time, CPU time and peak
// memory; start a server process and stop it; statistics over repeated runs.
//
// Peak memory and CPU time come from a small preload module (written to a temp folder, passed to every Node
// process of the child's tree through NODE_OPTIONS=--import) that appends `process.resourceUsage()` to a file when
// the process exits. As a cross-check (and for processes that die without running exit handlers), the direct
// child's /proc/<pid>/status VmHWM (the kernel's high-water mark of its resident set) is polled while it runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Median, min and max of repeated measurements. */
export interface Stats {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

export function stats(samples: number[]): Stats {
  if (samples.length === 0) throw new Error('stats of no samples');
  const s = [...samples].sort((a, b) => a - b);
  const m = s.length >> 1;
  const median = s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  return { median, min: s[0]!, max: s[s.length - 1]!, samples };
}

// ---------------------------------------------------------------------------------------------------------------
// Temp folders (removed by cleanupTemp, which bench/run.ts calls at the end).

const temps: string[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `evalbench-${prefix}-`));
  temps.push(dir);
  return dir;
}

export function cleanupTemp(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------------------------
// The preload module.

/**
 * Source of the preload. On exit it appends one JSON line `{ pid, maxRssKb, userMs, systemMs }` to the file named
 * by BENCH_RUSAGE_FILE.
 */
const PRELOAD = `
import { appendFileSync } from 'node:fs';
process.on('exit', () => {
  const file = process.env.BENCH_RUSAGE_FILE;
  if (!file) return;
  const u = process.resourceUsage();
  const line = { pid: process.pid, maxRssKb: u.maxRSS, userMs: u.userCPUTime / 1000, systemMs: u.systemCPUTime / 1000 };
  try { appendFileSync(file, JSON.stringify(line) + '\\n'); } catch {}
});
`;

let preloadUrl: string | undefined;

function preload(): string {
  if (preloadUrl === undefined) {
    const dir = tempDir('preload');
    const file = join(dir, 'rusage.mjs');
    writeFileSync(file, PRELOAD);
    preloadUrl = pathToFileURL(file).href;
  }
  return preloadUrl;
}

interface RusageLine {
  pid: number;
  maxRssKb: number;
  userMs: number;
  systemMs: number;
}

function readRusage(file: string): RusageLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RusageLine);
}

/** VmHWM (peak resident set) of a live process, in kB, or undefined when it cannot be read. */
export function vmHwmKb(pid: number): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU time (user + system) a live process has used so far, in ms, from /proc/<pid>/stat (USER_HZ = 100 ticks per
 * second, so 10 ms resolution), or undefined when it cannot be read.
 */
export function procCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state(0) ppid(1) ... utime(11) stime(12).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Polls a process's VmHWM every `everyMs` and keeps the largest value seen. */
function pollPeak(pid: number | undefined, everyMs = 50): { stop(): number | undefined } {
  let peak: number | undefined;
  const read = (): void => {
    if (pid === undefined) return;
    const v = vmHwmKb(pid);
    if (v !== undefined && (peak === undefined || v > peak)) peak = v;
  };
  read();
  const timer = setInterval(read, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

function childEnv(rusageFile: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const nodeOptions = [process.env.NODE_OPTIONS ?? '', `--import=${preload()}`].join(' ').trim();
  return { ...process.env, NODE_OPTIONS: nodeOptions, BENCH_RUSAGE_FILE: rusageFile, FORCE_COLOR: '0', NO_COLOR: '1', ...extra };
}

// ---------------------------------------------------------------------------------------------------------------
// Running a command to completion.

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Killed (SIGKILL) after this long; the run then fails. Default 15 minutes. */
  timeoutMs?: number;
}

export interface RunResult {
  ok: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Spawn to exit, as seen by this process (includes Node's start-up). */
  wallMs: number;
  /** User + system CPU time summed over the Node processes of the tree (from the preload); undefined if none reported. */
  cpuMs: number | undefined;
  /** Largest peak resident set of any process of the tree, in MB (preload maxRSS, else polled VmHWM). */
  peakRssMb: number | undefined;
  stdout: string;
  stderr: string;
  /** A one-line reason when !ok. */
  error?: string;
}

export function runMeasured(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const dir = tempDir('run');
  const rusageFile = join(dir, 'rusage.jsonl');
  return new Promise((resolvePromise) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: childEnv(rusageFile, options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    const poll = pollPeak(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 15 * 60_000);
    let spawnError: Error | undefined;
    child.on('error', (e) => (spawnError = e));
    child.on('close', (code, signal) => {
      const wallMs = performance.now() - started;
      clearTimeout(timer);
      const polledKb = poll.stop();
      const lines = readRusage(rusageFile);
      rmSync(dir, { recursive: true, force: true });
      const cpuMs = lines.length > 0 ? lines.reduce((s, l) => s + l.userMs + l.systemMs, 0) : undefined;
      const rssKb = Math.max(polledKb ?? 0, ...lines.map((l) => l.maxRssKb));
      const ok = !timedOut && spawnError === undefined && code === 0;
      const lastLine = (text: string): string =>
        text
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== '')
          .slice(-3)
          .join(' | ');
      const error = ok
        ? undefined
        : timedOut
          ? `timed out after ${Math.round((options.timeoutMs ?? 15 * 60_000) / 1000)} s`
          : spawnError
            ? spawnError.message
            : `exit ${code ?? signal}: ${lastLine(stderr) || lastLine(stdout) || '(no output)'}`;
      resolvePromise({ ok, code, signal, wallMs, cpuMs, peakRssMb: rssKb > 0 ? rssKb / 1024 : undefined, stdout, stderr, ...(error ? { error } : {}) });
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Servers.

export interface ServerProcess {
  child: ChildProcess;
  /** Lines of standard output read so far (the first 1,000). */
  stdoutLines: string[];
  stderr(): string;
  /** SIGTERM (SIGKILL after `graceMs`); resolves with the peak resident set in MB. */
  stop(graceMs?: number): Promise<{ peakRssMb: number | undefined; code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts a long-running process and resolves once `ready` says so: called with each stdout line, or polled
 * (every 200 ms) with no line when `poll` is set. Rejects when the process exits first or after `timeoutMs`.
 */
export function startServer(
  command: string,
  args: string[],
  options: RunOptions & { ready: (line: string | undefined) => boolean | Promise<boolean>; poll?: boolean; timeoutMs?: number },
): Promise<ServerProcess> {
  const dir = tempDir('server');
  const rusageFile = join(dir, 'rusage.jsonl');
  const child = spawn(command, args, { cwd: options.cwd, env: childEnv(rusageFile, options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  const poll = pollPeak(child.pid, 200);
  const stdoutLines: string[] = [];
  let stderr = '';
  let pending = '';
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('close', (code, signal) => {
      exited = { code, signal };
      r(exited);
    }),
  );
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-20_000)));
  const server: ServerProcess = {
    child,
    stdoutLines,
    stderr: () => stderr,
    async stop(graceMs = 10_000) {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exitPromise;
        clearTimeout(timer);
      }
      const polledKb = poll.stop();
      const lines = readRusage(rusageFile);
      const rssKb = Math.max(polledKb ?? 0, ...lines.map((l) => l.maxRssKb));
      return { peakRssMb: rssKb > 0 ? rssKb / 1024 : undefined, ...exited! };
    },
  };
  return new Promise((resolvePromise, reject) => {
    let done = false;
    const finish = (error?: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(poller);
      if (error) {
        void server.stop(1000);
        reject(error);
      } else resolvePromise(server);
    };
    const check = async (line: string | undefined): Promise<void> => {
      try {
        if (!done && (await options.ready(line))) finish();
      } catch {
        // not ready yet
      }
    };
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      pending += d;
      let i: number;
      while ((i = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, i);
        pending = pending.slice(i + 1);
        if (stdoutLines.length < 1000) stdoutLines.push(line);
        void check(line);
      }
    });
    const poller = setInterval(() => {
      if (options.poll) void check(undefined);
    }, 200);
    const timer = setTimeout(() => finish(new Error(`${command} ${args.join(' ')} not ready after ${(options.timeoutMs ?? 120_000) / 1000} s: ${stderr.slice(-500)}`)), options.timeoutMs ?? 120_000);
    void exitPromise.then((e) => finish(new Error(`${command} ${args.join(' ')} exited (${e.code ?? e.signal}) before it was ready: ${stderr.slice(-500)}`)));
  });
}

/** A free TCP port on 127.0.0.1 (for servers that cannot be told to pick one). */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      srv.close(() => resolvePromise(port));
    });
  });
}

/** The version of an installed package (from node_modules). */
export function packageVersion(pkg: string): string {
  const url = new URL(`../node_modules/${pkg}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}
