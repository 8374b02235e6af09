// npm run sandbox [-- --port N] [--host H] [--db PATH|:memory:|postgres://...] [--admin-token T] [--run-pace-ms N]
// [--agent-timeout-ms N] [--json]
// Starts the sandbox on 127.0.0.1 and prints its base URL, the development API key and the admin token
// (with --json: one JSON object on the first line of standard output). With a postgres:// URL, several
// instances started with the same URL are one sandbox (docs/sandbox.md, Storage).
// Also the bin `evalplatform-sandbox` of the generated package (built from this file; it imports the engine only
// through ./index.js, the package's main module). Bad flags print the usage and exit 2.
import { parseArgs } from 'node:util';
import { chooseDb, createSandbox, type DbChoice, type Sandbox } from './index.js';

const DEFAULT_PORT = 4010;
const DEFAULT_DB = '.sandbox/sandbox.db';
const USAGE =
  `Usage: evalplatform-sandbox (npm run sandbox --) [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--db ${DEFAULT_DB} | :memory: | postgres://user:password@host:port/database] [--admin-token T] [--run-pace-ms 50] [--agent-timeout-ms 10000] [--json]\n` +
  '  --port 0 picks a free port. Data in the database file survives restarts.\n' +
  '  With a postgres:// URL, every instance started with it serves the same sandbox (a team sandbox).\n' +
  '  --run-pace-ms sets the pace of executed runs (ms per step; 0 as fast as the agent answers), --agent-timeout-ms\n' +
  '  the deadline of each call to an agent.\n';

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: {
        port: { type: 'string', default: String(DEFAULT_PORT) },
        host: { type: 'string', default: '127.0.0.1' },
        db: { type: 'string', default: DEFAULT_DB },
        'admin-token': { type: 'string' },
        'run-pace-ms': { type: 'string' },
        'agent-timeout-ms': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    process.stderr.write(`sandbox: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const port = Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`sandbox: --port must be an integer 0-65535, got ${args.port}\n${USAGE}`);
    return 2;
  }
  const runs: { paceMs?: number; agentTimeoutMs?: number } = {};
  for (const [flag, field, min] of [['run-pace-ms', 'paceMs', 0], ['agent-timeout-ms', 'agentTimeoutMs', 1]] as const) {
    const raw = args[flag];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > 600_000) {
      process.stderr.write(`sandbox: --${flag} must be an integer ${min}-600000, got ${raw}\n${USAGE}`);
      return 2;
    }
    runs[field] = value;
  }
  let choice: DbChoice;
  try {
    choice = chooseDb(args.db);
  } catch (error) {
    process.stderr.write(`sandbox: ${(error as Error).message}\n`);
    return 2;
  }
  let sandbox: Sandbox;
  try {
    sandbox = await createSandbox({ db: args.db, runs, ...(args['admin-token'] ? { adminToken: args['admin-token'] } : {}) });
  } catch (error) {
    if (choice.engine !== 'postgres') throw error;
    // A wrong password, an unknown database, a server that is down: one line, exit 2.
    const reason = (error as { reason?: string }).reason ?? (error as Error).message;
    process.stderr.write(`sandbox: cannot use PostgreSQL at ${choice.display}: ${reason}\n`);
    return 2;
  }
  const shown = choice.engine === 'postgres' ? choice.display : choice.path;
  const server = await sandbox.listen({ port, host: args.host });
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ base_url: server.baseUrl, api_key: sandbox.apiKey, admin_token: sandbox.adminToken, control_url: server.controlUrl, inspector_url: server.inspectorUrl })}\n`);
  } else {
    process.stdout.write(
      [
        `Sandbox listening (database: ${shown})`,
        `  base URL:       ${server.baseUrl}`,
        `  API key:        ${sandbox.apiKey}   (development organization, every permission)`,
        `  admin token:    ${sandbox.adminToken}   (control plane: ${server.controlUrl})`,
        `  spec catalog:   ${server.baseUrl}/openapi`,
        `  inspector:      ${server.inspectorUrl}/?token=${encodeURIComponent(sandbox.adminToken)}   (every organization; ?token=<API key> shows one)`,
        'Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
  }
  const stop = (): void => {
    void server.close().then(() => sandbox.close()).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return -1;
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`sandbox: ${(error as Error)?.message ?? String(error)}\n`);
    process.exit(1);
  },
);
