// The sandbox as a process, started as a user starts it: `npm run -s sandbox` (the npm script) and the bin's
// module itself. SIGTERM or SIGINT to the PID the user has stops the server and exits (no orphan keeps the port);
// the --json line is the first line of standard output and its inspector URL opens the page; bad flags and
// unusable database paths exit 2 with the usage or one line.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'sandbox-process-'));
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Info {
  base_url: string;
  api_key: string;
  admin_token: string;
  inspector_url: string;
  default_workspace_id: string;
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing`)));
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const portOf = (info: Info): number => Number(new URL(info.base_url).port);

describe('started as a user starts it', () => {
  it('npm run -s sandbox -- --json: the JSON line is the first line; SIGTERM to npm’s PID frees the port', async () => {
    const child = spawn('npm', ['run', '-s', 'sandbox', '--', '--port', '0', '--db', ':memory:', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const info = JSON.parse(await firstLine(child)) as Info;
    const port = portOf(info);
    expect(await listening(port)).toBe(true);

    // The inspector URL of the line opens the page (it carries the login), and the default workspace is real.
    // As a browser does: the login URL sets the cookie and redirects to the page, which then opens.
    const login = await fetch(info.inspector_url, { redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(new URL(login.headers.get('location')!, info.inspector_url), { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const workspace = await fetch(`${info.base_url}/workspaces/${info.default_workspace_id}`, { headers: { 'x-api-key': info.api_key } });
    expect(workspace.status).toBe(200);

    child.kill('SIGTERM');
    const end = await exited(child);
    expect(end.code === 0 || end.signal === 'SIGTERM').toBe(true);
    // An orphaned server would still hold the port.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await listening(port)).toBe(false);
  });

  it('the bin’s module stops on SIGINT and exits 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--db', join(dir, 'fresh', 'sandbox.db')], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let banner = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
    });
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (banner.includes('Press Ctrl+C')) {
          clearInterval(poll);
          resolve();
        }
      }, 50);
      child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    // The banner names the default workspace (what a call without a workspace header works in).
    expect(banner).toMatch(/default workspace: +[A-Za-z0-9]{22} /);
    const port = Number(/127\.0\.0\.1:(\d+)\/v1/.exec(banner)![1]);
    child.kill('SIGINT');
    expect(await exited(child)).toEqual({ code: 0, signal: null });
    expect(await listening(port)).toBe(false);
  });
});

describe('bad input: exit 2', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args], { encoding: 'utf8' });

  it('an unknown flag or a bad value prints the reason and the usage', () => {
    const unknown = run('--prot', '1');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^sandbox: Unknown option '--prot'/);
    expect(unknown.stderr).toContain('Usage: evalplatform-sandbox');
    const port = run('--port', 'ten');
    expect(port.status).toBe(2);
    expect(port.stderr).toMatch(/^sandbox: --port must be an integer 0-65535/);
    expect(port.stderr).toContain('--db PATH');
  });

  it('a database path that cannot be used is one line naming it', () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'not a folder');
    const underFile = run('--db', join(file, 'x.db'));
    expect(underFile.status).toBe(2);
    expect(underFile.stderr).toBe(`sandbox: --db ${file} is not a folder\n`);
    const deep = run('--db', join(dir, 'no', 'such', 'x.db'));
    expect(deep.status).toBe(2);
    expect(deep.stderr).toBe(`sandbox: --db folder ${join(dir, 'no')} does not exist (create it first)\n`);
    const notDb = run('--db', file);
    expect(notDb.status).toBe(2);
    expect(notDb.stderr).toBe(`sandbox: cannot use the SQLite database ${file}: file is not a database\n`);
  });
});
