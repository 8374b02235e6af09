// Several sandbox instances over one PostgreSQL database (the team sandbox), as child processes on loopback:
// started together (their migrations race under the advisory lock), each killable on its own. The drills'
// data lives in a schema of its own (`?schema=`), dropped at the end.
import { randomBytes } from 'node:crypto';
import { finishPq, newPq } from '../src/sandbox/storage/pg-connection.js';
import type { SandboxLog } from './sandbox-process.js';
import { SandboxProcess } from './sandbox-process.js';

export interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  /** A network error or no answer within the timeout (status 0). */
  error?: string;
}

/** The URL of a new schema in `url`'s database. */
export function drillSchemaUrl(url: string, seed: number): { url: string; schema: string } {
  const schema = `drill_${seed}_${randomBytes(4).toString('hex')}`;
  return { url: `${url}${url.includes('?') ? '&' : '?'}schema=${schema}`, schema };
}

/** Runs one statement on `url`'s database (drill set-up and clean-up). */
export function pgExec(url: string, sql: string): void {
  const clean = new URL(url);
  clean.searchParams.delete('schema');
  const pq = newPq();
  try {
    pq.connectSync(clean.href);
    pq.exec('SET client_min_messages = warning');
    pq.exec(sql);
    const message = pq.resultErrorMessage();
    if (message) throw new Error(message.trim());
  } finally {
    finishPq(pq);
  }
}

export class Instances {
  requests = 0;
  private constructor(
    readonly all: SandboxProcess[],
    private readonly url: string,
    private readonly log: SandboxLog,
  ) {}

  /** Starts `n` instances on `url` at once. */
  static async launch(url: string, n: number, log: SandboxLog, nodeArgs: readonly string[] = []): Promise<Instances> {
    return new Instances(await Promise.all(Array.from({ length: n }, () => SandboxProcess.launch(url, log, 60_000, nodeArgs))), url, log);
  }

  get info(): SandboxProcess['info'] {
    return this.all[0]!.info;
  }

  alive(): SandboxProcess[] {
    return this.all.filter((p) => p.alive());
  }

  /** Replaces instance `i` (after a kill) with a new process on the same database. */
  async restart(i: number): Promise<void> {
    this.all[i] = await SandboxProcess.launch(this.url, this.log);
  }

  /** A request to the API (`/v1...`) or control plane (`/control...`) of instance `p`, never throwing. */
  async call(p: SandboxProcess, method: string, path: string, body?: unknown, key?: string, timeoutMs = 20_000): Promise<Answer> {
    this.requests++;
    const control = path.startsWith('/control');
    const base = control ? p.info.control_url.replace(/\/control$/, '') : p.info.base_url.replace(/\/v1$/, '');
    const headers: Record<string, string> = control ? { authorization: `Bearer ${p.info.admin_token}` } : { 'x-api-key': key ?? p.info.api_key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(timeoutMs) });
      const text = await res.text();
      let parsed: Record<string, unknown> | null = null;
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        parsed = null;
      }
      return { status: res.status, body: parsed };
    } catch (error) {
      return { status: 0, body: null, error: (error as Error)?.name === 'TimeoutError' ? 'timeout' : 'network error' };
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.all.map((p) => p.stop()));
  }
}
