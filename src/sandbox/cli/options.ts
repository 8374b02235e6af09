// The sandbox command's options, declared once: `parseArgs` reads this table as its option config, the usage
// text is generated from it, and each entry's `check` says why a value is wrong. Adding a flag is one entry here
// (name, type, placeholder, default, help, optional check) and one read of `values.<name>` in ../cli.ts.
import { parseArgs } from 'node:util';
import { defaultWorkerCount, MAX_WORKERS } from '../pool/pool.js';

export interface CliOption {
  readonly type: 'string' | 'boolean';
  /** The value's placeholder in the usage (`N`, `PATH`). */
  readonly value?: string;
  readonly default?: string | boolean;
  readonly help: string;
  /** Why a given value is wrong (the message names no flag: the caller prefixes it), or undefined when it is fine. */
  readonly check?: (value: string) => string | undefined;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_DB = '.sandbox/sandbox.db';
/** Where the judge endpoint's Authorization header comes from (the flags stay free of secrets). */
export const JUDGE_AUTHORIZATION_ENV = 'SANDBOX_JUDGE_AUTHORIZATION';

function portCheck(value: string): string | undefined {
  const port = Number(value);
  return /^\d+$/.test(value) && Number.isInteger(port) && port <= 65535 ? undefined : `must be an integer 0-65535 (0 picks a free port), got ${JSON.stringify(value)}`;
}

function httpUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be an http(s) URL, got ${JSON.stringify(value)}`;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : `must be an http(s) URL, got ${JSON.stringify(value)}`;
}

function wholeNumber(min: number, max: number): (value: string) => string | undefined {
  return (value) => (/^\d+$/.test(value) && Number(value) >= min && Number(value) <= max ? undefined : `must be a whole number ${min}-${max}, got ${JSON.stringify(value)}`);
}

export const SANDBOX_OPTIONS = {
  port: { type: 'string', value: 'N', default: String(DEFAULT_PORT), help: 'TCP port; 0 picks a free one', check: portCheck },
  host: { type: 'string', value: 'HOST', default: '127.0.0.1', help: 'address to listen on (0.0.0.0 for every interface)', check: (v) => (v.trim() === '' ? 'must not be empty' : undefined) },
  db: {
    type: 'string',
    value: 'PATH | :memory: | postgres://user:password@host:port/database',
    default: DEFAULT_DB,
    help: 'SQLite file (kept across restarts; its folder is created when only the last level is missing), :memory:, or a PostgreSQL URL (instances started with one URL are one team sandbox)',
  },
  workers: {
    type: 'string',
    value: 'N',
    help: `PostgreSQL only: worker processes per instance, each answering one request at a time (0-${MAX_WORKERS}; 0 runs the one engine in this process; default ${defaultWorkerCount()}: two per core)`,
    check: (v) => (/^\d+$/.test(v) && Number(v) <= MAX_WORKERS ? undefined : `must be an integer 0-${MAX_WORKERS}, got ${JSON.stringify(v)}`),
  },
  'admin-token': { type: 'string', value: 'T', help: 'the control plane admin token to use (default: made at first start and kept in the database)' },
  'run-pace-ms': { type: 'string', value: 'N', default: '50', help: 'pace of executed runs: milliseconds of each step (queued, started, each persona turn); 0 runs as fast as the agent answers', check: wholeNumber(0, 3_600_000) },
  'agent-timeout-ms': { type: 'string', value: 'N', default: '10000', help: "deadline of each call to an agent's chat endpoint", check: wholeNumber(1, 600_000) },
  'judge-url': {
    type: 'string',
    value: 'URL',
    help: `a chat-completions endpoint that answers judged metrics instead of the sandbox's deterministic stand-ins (off by default; docs/sandbox.md "Issue 25, round 2"); its Authorization header, if it needs one, is read from the environment variable ${JUDGE_AUTHORIZATION_ENV} (never a flag: a command line is visible to every user of the machine)`,
    check: httpUrl,
  },
  'judge-timeout-ms': { type: 'string', value: 'N', help: 'with --judge-url: deadline of each call to the judge endpoint (default 10000)', check: wholeNumber(1, 600_000) },
  'judge-model': { type: 'string', value: 'NAME', help: 'with --judge-url: the `model` of each request to the judge endpoint (default sandbox-judge)', check: (v) => (v.trim() === '' ? 'must not be empty' : undefined) },
  faults: { type: 'string', value: 'JSON | @file.json', help: 'faults on demand from the start, as PUT /control/faults takes them: {"seed":1,"rules":[{"unavailable":0.2}]} (docs/sandbox.md, "Faults on demand")' },
  json: { type: 'boolean', default: false, help: 'print one JSON line (base_url, api_key, admin_token, control_url, inspector_url, organization_id, default_workspace_id) as the first line of standard output instead of the banner; with npm use `npm run -s sandbox -- --json`' },
  help: { type: 'boolean', default: false, help: 'print this usage and exit' },
} as const satisfies Record<string, CliOption>;

export type SandboxOptionValues = ReturnType<typeof parseSandboxArgs>;

/** The usage text, from the table. */
export function sandboxUsage(): string {
  const entries: [string, CliOption][] = Object.entries(SANDBOX_OPTIONS);
  const flags = entries.map(([name, o]) => `  --${name}${o.value === undefined ? '' : ` ${o.value}`}`);
  const width = Math.min(Math.max(...flags.map((f) => f.length)), 28) + 2;
  const lines = entries.map(([, o], i) => {
    const flag = flags[i]!;
    const help = o.default === undefined || typeof o.default === 'boolean' ? o.help : `${o.help} (default ${o.default})`;
    return flag.length < width ? `${flag.padEnd(width)}${help}` : `${flag}\n${' '.repeat(width)}${help}`;
  });
  return ['Usage: evalplatform-sandbox [options]     (from a checkout: npm run sandbox -- [options])', ...lines, ''].join('\n');
}

/** Parses the command line by the table; throws a TypeError naming the flag and why (unknown flag, bad value). */
export function parseSandboxArgs(args: readonly string[]) {
  const { values } = parseArgs({ args: [...args], options: SANDBOX_OPTIONS, strict: true, allowPositionals: false });
  for (const [name, option] of Object.entries(SANDBOX_OPTIONS) as [string, CliOption][]) {
    const value = (values as Record<string, unknown>)[name];
    const problem = typeof value === 'string' ? option.check?.(value) : undefined;
    if (problem !== undefined) throw new TypeError(`--${name} ${problem}`);
  }
  return values;
}
