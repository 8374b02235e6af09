// npm run sandbox [-- options]: starts the sandbox and prints its base URL, the development API key, the admin
// token, the default workspace and the inspector's login URL (with --json: one JSON object as the first line of
// standard output). With a postgres:// URL, several instances started with the same URL are one sandbox
// (docs/sandbox.md, Storage), and each instance is a pool of worker processes (pool/pool.ts; --workers, default two per
// core; --workers 0 keeps the one engine in this process). The options are declared once in cli/options.ts (usage generated from them).
// Also the bin `evalplatform-sandbox` of the generated package (built from this file; it imports the engine only
// through ./index.js, the package's main module).
// Exit codes: 2 for a bad flag or value (with the usage) and for a database that cannot be used (one line); 1 for
// an unexpected failure; 0 after SIGINT or SIGTERM stopped the server. `npm run sandbox` runs this file in the one
// node process (`node --import tsx`), so the PID a user has is the server's.
import { readFileSync } from 'node:fs';
import { sqlitePathProblem } from './cli/db-path.js';
import { JUDGE_AUTHORIZATION_ENV, parseSandboxArgs, sandboxUsage, type SandboxOptionValues } from './cli/options.js';
import { chooseDb, createSandbox, startSandboxPool, type DbChoice, type Sandbox, type SandboxOptions, type SandboxPool } from './index.js';
import { credentialHint } from './credential-hint.js';
import { outbound } from './http/outbound.js';

/** How long a stop waits for open connections before it exits anyway. */
const STOP_GRACE_MS = 5_000;

function fail(message: string, withUsage: boolean): number {
  process.stderr.write(`sandbox: ${message}\n${withUsage ? sandboxUsage() : ''}`);
  return 2;
}

function isDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_') || /^E[A-Z]+$/.test(code));
}

/** What the command needs of a sandbox: one engine in this process, or a pool of them (PostgreSQL). */
type Served = Sandbox | SandboxPool;

/** The --faults value: JSON, or @file holding it (checked by createSandbox against the spec's operations). */
function readFaultsFlag(value: string): unknown {
  const text = value.startsWith('@') ? readFileSync(value.slice(1), 'utf8') : value;
  try {
    return JSON.parse(text);
  } catch {
    throw new Error('must be JSON ({"seed":1,"rules":[...]}) or @file.json');
  }
}

/** The judge endpoint of --judge-url (createSandbox's `judge`), its Authorization header from the environment. */
function judgeOption(args: SandboxOptionValues): Pick<SandboxOptions, 'judge'> {
  if (args['judge-url'] === undefined) return {};
  const authorization = process.env[JUDGE_AUTHORIZATION_ENV];
  return {
    judge: {
      url: args['judge-url'],
      ...(args['judge-timeout-ms'] === undefined ? {} : { timeoutMs: Number(args['judge-timeout-ms']) }),
      ...(args['judge-model'] === undefined ? {} : { model: args['judge-model'] }),
      ...(authorization ? { headers: { authorization } } : {}),
    },
  };
}

async function open(args: SandboxOptionValues, choice: DbChoice, faults: unknown): Promise<Served | string> {
  const adminToken = args['admin-token'] ? { adminToken: args['admin-token'] } : {};
  // How launched runs are executed (docs/sandbox.md "Runs at work"); the option table checked the values.
  const runs = { ...(args['run-pace-ms'] === undefined ? {} : { paceMs: Number(args['run-pace-ms']) }), ...(args['agent-timeout-ms'] === undefined ? {} : { agentTimeoutMs: Number(args['agent-timeout-ms']) }) };
  const engine = { runs, ...(faults === undefined ? {} : { faults }), ...judgeOption(args) };
  const workers = args.workers === undefined ? undefined : Number(args.workers);
  try {
    // On PostgreSQL a pool of engines in worker processes (unless --workers 0); on SQLite the one engine here.
    if (choice.engine === 'postgres' && workers !== 0) return await startSandboxPool({ db: args.db, ...(workers ? { workers } : {}), ...adminToken, engine });
    return await createSandbox({ db: args.db, ...adminToken, ...engine });
  } catch (error) {
    // Faults that do not fit the spec (an unknown operation, fractions over 1): one line naming the field.
    if ((error as Error).message.startsWith('faults: ')) return `--${(error as Error).message}`;
    // A wrong password, an unknown database, a server that is down, a file that is not a database: one line.
    if (choice.engine === 'postgres') return `cannot use PostgreSQL at ${choice.display}: ${(error as { reason?: string }).reason ?? (error as Error).message}`;
    if (isDatabaseError(error)) return `cannot use the SQLite database ${choice.path}: ${(error as Error).message}`;
    throw error;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  let args: SandboxOptionValues;
  try {
    args = parseSandboxArgs(argv);
  } catch (error) {
    return fail((error as Error).message, true);
  }
  if (args.help) {
    process.stdout.write(sandboxUsage());
    return 0;
  }
  let choice: DbChoice;
  try {
    choice = chooseDb(args.db);
  } catch (error) {
    // A database value that is not a path, :memory: or a PostgreSQL URL: one line, as for a path that cannot be used.
    return fail((error as Error).message, false);
  }
  if (args['judge-url'] === undefined && (args['judge-timeout-ms'] !== undefined || args['judge-model'] !== undefined)) return fail('--judge-timeout-ms and --judge-model need --judge-url', true);
  if (args.workers !== undefined && choice.engine !== 'postgres') return fail('--workers needs a postgres:// --db (a SQLite sandbox is one engine in one process)', true);
  if (choice.engine === 'sqlite' && choice.path !== ':memory:') {
    const problem = sqlitePathProblem(choice.path);
    if (problem !== undefined) return fail(`--db ${problem}`, false);
  }
  let faults: unknown;
  try {
    faults = args.faults === undefined ? undefined : readFaultsFlag(args.faults);
  } catch (error) {
    return fail(`--faults ${(error as Error).message}`, false);
  }
  const opened = await open(args, choice, faults);
  if (typeof opened === 'string') return fail(opened, false);
  const sandbox = opened;
  const shown = choice.engine === 'postgres' ? choice.display : choice.path;
  const server = await sandbox.listen({ port: Number(args.port), host: args.host });
  // This process calls out itself (a pool's workers warm their own: pool/worker.ts).
  if ('runtime' in sandbox) outbound.warm();
  // The inspector's URL carries the admin token once: the page sets a cookie and works from then on.
  const inspectorLogin = `${server.inspectorUrl}/?token=${encodeURIComponent(sandbox.adminToken)}`;
  const workspace = sandbox.defaultWorkspaceId;
  // How to send the key in the spec's own scheme (a pool's engines are in its workers: our spec's X-API-Key there).
  const hint = 'runtime' in sandbox ? credentialHint(sandbox.runtime.tables.routes, sandbox.apiKey) : undefined;
  // The handlers go in before the start line is printed: a supervisor may signal as soon as it reads the line.
  let stopping = false;
  const stop = (): void => {
    // A second signal while stopping exits at once.
    if (stopping) process.exit(0);
    stopping = true;
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
    void server
      .close()
      .then(() => sandbox.close())
      .then(
        () => process.exit(0),
        () => process.exit(0),
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (args.json) {
    const info = {
      base_url: server.baseUrl,
      api_key: sandbox.apiKey,
      admin_token: sandbox.adminToken,
      control_url: server.controlUrl,
      inspector_url: inspectorLogin,
      organization_id: sandbox.organizationId,
      default_workspace_id: workspace ?? null,
    };
    process.stdout.write(`${JSON.stringify(info)}\n`);
  } else {
    process.stdout.write(
      [
        `Sandbox listening (database: ${shown}; pid ${process.pid})`,
        `  base URL:          ${server.baseUrl}`,
        `  API key:           ${sandbox.apiKey}   (development organization ${sandbox.organizationId}, every permission)`,
        `  default workspace: ${workspace ?? '(none: archived)'}   (used when a call names none; GET ${server.baseUrl}/workspaces lists them, POST creates one)`,
        ...(hint === undefined ? [] : [`  send it as:        ${hint}`]),
        `  admin token:       ${sandbox.adminToken}   (control plane: ${server.controlUrl})`,
        `  spec catalog:      ${server.baseUrl}/openapi`,
        `  inspector:         ${inspectorLogin}   (every organization; ?token=<API key> shows one)`,
        'Press Ctrl+C (or send SIGTERM) to stop.',
        '',
      ].join('\n'),
    );
  }
  return -1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`sandbox: ${(error as Error)?.message ?? String(error)}\n`);
    process.exit(1);
  },
);
