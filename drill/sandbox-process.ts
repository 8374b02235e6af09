// The sandbox as a child process (`node --import tsx src/sandbox/cli.ts --port 0 --db <file> --json`), so the
// drills talk to a real socket on 127.0.0.1, the crash drill can kill -9 it, and the secrets drill can read
// every line it wrote. Lines of every process started in a run are kept in one log.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface SandboxInfo {
  base_url: string;
  api_key: string;
  admin_token: string;
  control_url: string;
}

export interface LogLine {
  /** Which start of the sandbox (1, 2, ...) wrote it. */
  start: number;
  stream: 'stdout' | 'stderr';
  line: string;
  /** The `--json` start-up line: it prints the development key and the admin token by design. */
  startup: boolean;
}

export class SandboxLog {
  readonly lines: LogLine[] = [];
  starts = 0;
  /** Exits nobody asked for (a crash of the sandbox): start number, code and signal. */
  readonly unexpectedExits: { start: number; code: number | null; signal: string | null }[] = [];
}

/** Processes still running; killed when the drill exits (also on Ctrl+C), so none is left behind. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export class SandboxProcess {
  private stopping = false;
  private exited = false;
  private exitWait: Promise<void>;

  private constructor(
    readonly child: ChildProcess,
    readonly info: SandboxInfo,
    readonly start: number,
    readonly db: string,
  ) {
    this.exitWait = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        this.exited = true;
        resolve();
      } else
        child.once('exit', () => {
          this.exited = true;
          resolve();
        });
    });
  }

  /** Starts the sandbox on `db` and waits for its start-up line. */
  static async launch(db: string, log: SandboxLog, timeoutMs = 60_000, nodeArgs: readonly string[] = []): Promise<SandboxProcess> {
    const start = ++log.starts;
    // nodeArgs: options for node itself (the soak's memory probe, `--import ./drill/memory-probe.mjs`).
    // DRILL_SANDBOX_NODE_ARGS adds more, to profile the sandboxes a drill or soak starts (`--cpu-prof
    // --cpu-prof-dir=/tmp/prof`: NODE_OPTIONS refuses --cpu-prof).
    const extra = (process.env.DRILL_SANDBOX_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');
    const child = spawn(process.execPath, [...extra, ...nodeArgs, '--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--db', db, '--json'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    live.add(child);
    child.once('exit', () => live.delete(child));
    let first: ((line: string) => void) | undefined;
    const firstLine = new Promise<string>((resolve, reject) => {
      first = resolve;
      child.once('exit', (code, signal) => reject(new Error(`the sandbox exited before its start-up line (code ${code}, signal ${signal}): ${log.lines.filter((l) => l.start === start).map((l) => l.line).join(' | ').slice(0, 500)}`)));
      setTimeout(() => reject(new Error(`no start-up line from the sandbox within ${timeoutMs} ms`)), timeoutMs).unref();
    });
    for (const stream of ['stdout', 'stderr'] as const) {
      let pending = '';
      child[stream]!.setEncoding('utf8');
      child[stream]!.on('data', (chunk: string) => {
        pending += chunk;
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          const startup = stream === 'stdout' && first !== undefined;
          log.lines.push({ start, stream, line, startup });
          if (startup) {
            const f = first!;
            first = undefined;
            f(line);
          }
        }
      });
      child[stream]!.on('end', () => {
        if (pending !== '') log.lines.push({ start, stream, line: pending, startup: false });
        pending = '';
      });
    }
    let line: string;
    try {
      line = await firstLine;
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    const info = JSON.parse(line) as SandboxInfo;
    const proc = new SandboxProcess(child, info, start, db);
    child.once('exit', (code, signal) => {
      if (!proc.stopping) log.unexpectedExits.push({ start, code, signal });
    });
    return proc;
  }

  get pid(): number {
    return this.child.pid!;
  }

  alive(): boolean {
    return !this.exited && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resident memory of the process in kB (Linux), when readable. */
  rssKb(): number | undefined {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return m ? Number(m[1]) : undefined;
    } catch {
      return undefined;
    }
  }

  /** CPU time the process has used so far, in seconds (Linux), when readable. */
  cpuSeconds(): number | undefined {
    try {
      const fields = readFileSync(`/proc/${this.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return undefined;
    }
  }

  /** kill -9, and wait until it is gone. */
  async kill9(): Promise<void> {
    this.stopping = true;
    if (this.alive()) this.child.kill('SIGKILL');
    await this.exitWait;
  }

  /** SIGTERM (the CLI closes the server and the database), SIGKILL after 5 s. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (!this.alive()) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exitWait;
    clearTimeout(timer);
  }
}
