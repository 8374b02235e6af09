// What every drill shares: the running sandbox (restartable), the recorder of every exchange, the control
// plane, organizations with their keys (each drill works in an organization of its own), the conformance
// World (valid requests built from the schemas) and the result format.
import { randomBytes } from 'node:crypto';
import { generatedSuite, type Route, type SuiteData } from '../src/conformance/suite-data.js';
import type { ControlAccess, Target } from '../src/conformance/target.js';
import { World } from '../src/conformance/world.js';
import { fillPath, type RequestSpec } from '../src/conformance/http.js';
import { send, type Answer, type Recorder, type SendInit } from './http.js';
import type { SandboxLog, SandboxProcess } from './sandbox-process.js';

export interface Options {
  seed: number;
  requests: number;
  concurrency: number;
  raceSize: number;
  raceRounds: number;
  crashRounds: number;
  /** Per-drill time caps in seconds. */
  caps: Record<DrillName, number>;
  only: DrillName[];
  quiet: boolean;
  /** Folder of the sandbox database files (a fresh temporary folder is made inside). */
  dbDir: string;
  /** A postgres:// URL: the team-sandbox drills against `instances` instances over it (drill/shared.ts). */
  db?: string;
  instances?: number;
  /** The command that restarts PostgreSQL for the restart drill (default: pg_ctlcluster of a local cluster). */
  pgRestart?: string[];
}

export const DRILLS = ['fuzz', 'races', 'crash', 'isolation', 'secrets'] as const;
export type DrillName = (typeof DRILLS)[number];

export interface Finding {
  /** A short category: `5xx`, `no envelope`, `two active tags`, ... */
  kind: string;
  detail: string;
}

export interface DrillResult {
  name: DrillName;
  ok: boolean;
  ms: number;
  /** `label: value` lines: the numbers of the run. */
  numbers: [string, string | number][];
  /** Every finding is counted per kind; the first few of each kind are kept with their request and answer. */
  findings: Finding[];
  findingCounts: Record<string, number>;
  notes: string[];
}

export class Findings {
  readonly kept: Finding[] = [];
  readonly counts: Record<string, number> = {};
  private readonly groups = new Set<string>();
  constructor(private readonly keepPerKind = 5) {}
  /** Counts a finding; keeps its detail while its kind has fewer than keepPerKind, one per `group` when given. */
  add(kind: string, detail: string, group?: string): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    if (group !== undefined) {
      if (this.groups.has(`${kind}\u0000${group}`)) return;
      this.groups.add(`${kind}\u0000${group}`);
    }
    if (this.kept.filter((f) => f.kind === kind).length < this.keepPerKind) this.kept.push({ kind, detail });
  }
  get total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }
}

export interface Org {
  id: string;
  key: string;
  workspaceId: string;
  name: string;
}

/** Shortens a text for a report line (keeps both ends). */
export function clip(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 60)} ...(${flat.length} chars)... ${flat.slice(-40)}`;
}

export class DrillContext {
  readonly suite: SuiteData = generatedSuite;
  sandbox!: SandboxProcess;

  constructor(
    readonly options: Options,
    readonly rec: Recorder,
    readonly log: SandboxLog,
  ) {}

  /** Secret values that must never appear in an API answer or a log line, with what they are. */
  get secrets(): Map<string, string> {
    return this.rec.secrets;
  }

  get info(): SandboxProcess['info'] {
    return this.sandbox.info;
  }

  get origin(): { host: string; port: number; basePath: string } {
    const url = new URL(this.info.base_url);
    return { host: url.hostname, port: Number(url.port), basePath: url.pathname.replace(/\/$/, '') };
  }

  addSecret(value: string, what: string): void {
    if (value.length >= 12) this.secrets.set(value, what);
  }

  /** A fresh secret-looking token (registered as a secret). */
  token(what: string): string {
    const t = `whtok_${randomBytes(18).toString('base64url')}`;
    this.addSecret(t, what);
    return t;
  }

  /** A request to the API (`path` below the base URL). */
  api(drill: string, label: string, method: string, path: string, init: SendInit & { key?: string | null; json?: unknown } = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key) headers['X-API-Key'] = init.key;
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] ??= 'application/json';
    }
    return send(this.rec, drill, label, method, `${this.info.base_url}${path}`, { ...init, headers, ...(body === undefined ? {} : { body }) });
  }

  /** A request of a route built from a conformance RequestSpec. */
  route(drill: string, route: Route, spec: RequestSpec, key: string): Promise<Answer> {
    const query = spec.query && Object.keys(spec.query).length > 0 ? `?${new URLSearchParams(spec.query).toString()}` : '';
    const headers: Record<string, string> = { ...spec.headers };
    return this.api(drill, route.id, route.method, `${fillPath(route, spec.path ?? {})}${query}`, { headers, key, ...(spec.body === undefined ? {} : { json: spec.body }) });
  }

  /** A control-plane call (admin token); recorded, but kept out of the secrets scan. */
  async control(method: string, path: string, json?: unknown): Promise<Answer> {
    const answer = await send(
      this.rec,
      'control',
      `${method} ${path}`,
      method,
      `${this.info.control_url}${path}`,
      { headers: { authorization: `Bearer ${this.info.admin_token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) }, ...(json === undefined ? {} : { body: JSON.stringify(json) }), timeoutMs: 120_000 },
      true,
    );
    if (answer.status < 200 || answer.status >= 300) throw new Error(`control plane ${method} ${path}: ${answer.status} ${clip(answer.text || answer.error || '', 400)}`);
    return answer;
  }

  async createOrganization(name: string): Promise<Org> {
    const answer = await this.control('POST', '/organizations', { display_name: name });
    const body = answer.body as { organization: { id: string }; default_workspace: { id: string }; api_key: { key: string } };
    this.addSecret(body.api_key.key, `API key of organization "${name}"`);
    return { id: body.organization.id, key: body.api_key.key, workspaceId: body.default_workspace.id, name };
  }

  async createApiKey(org: Org, permissions: string[]): Promise<string> {
    const answer = await this.control('POST', `/organizations/${org.id}/api-keys`, { permissions });
    const key = (answer.body as { api_key: { key: string } }).api_key.key;
    this.addSecret(key, `API key of "${org.name}" with ${permissions.length} permissions`);
    return key;
  }

  async completeRun(org: Org, body: Record<string, unknown>): Promise<{ run: Record<string, unknown>; sent: Record<string, unknown>[] }> {
    const answer = await this.control('POST', `/organizations/${org.id}/run-completions`, body);
    return answer.body as { run: Record<string, unknown>; sent: Record<string, unknown>[] };
  }

  /** A conformance World working in `org` (valid bodies, references filled with resources it creates). */
  world(drill: string, org: Org): World {
    const control: ControlAccess = {
      createApiKey: (permissions) => this.createApiKey(org, permissions),
      createOtherOrganizationKey: async () => (await this.createOrganization(`${drill} other`)).key,
      loadFixtures: async (records) => ((await this.control('POST', `/organizations/${org.id}/fixtures`, { records })).body as { records: { kind: string; id: string }[] }).records,
      completeRun: async (body) => this.completeRun(org, { wait_for_deliveries: true, ...body }),
      // Runs the World launches are records the drills compare before and after, not executions (issue 25).
      setRunExecution: async (mode) => void (await this.control('PUT', `/organizations/${org.id}/run-execution`, { mode })),
    };
    const target: Target = {
      name: this.info.base_url,
      apiKey: org.key,
      control,
      request: async (method, path, init = {}) => {
        const answer = await send(this.rec, drill, `world ${method} ${path.split('?')[0]}`, method, `${this.info.base_url}${path}`, { headers: init.headers ?? {}, ...(init.body === undefined ? {} : { body: init.body }) });
        if (answer.status === 0) throw new Error(`no answer for ${method} ${path}: ${answer.error}`);
        return new Response(answer.status === 204 ? null : answer.text, { status: answer.status, headers: answer.headers });
      },
    };
    return new World(target, this.suite);
  }
}

/** Runs `work` on `items` with at most `limit` at a time; stops taking new items once `stop()` says so. */
export async function pool<T>(items: Iterable<T>, limit: number, work: (item: T) => Promise<void>, stop: () => boolean = () => false): Promise<void> {
  const it = items[Symbol.iterator]();
  const runners = Array.from({ length: limit }, async () => {
    for (;;) {
      if (stop()) return;
      const next = it.next();
      if (next.done) return;
      await work(next.value);
    }
  });
  await Promise.all(runners);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
