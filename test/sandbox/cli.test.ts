// `npm run sandbox`: the --json first line, a real socket, and data that survives a kill -9 and a restart on
// the same database file (the same development key and admin token too).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  info: { base_url: string; api_key: string; admin_token: string; control_url: string };
}

async function start(db: string): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--db', db, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return { child, info: JSON.parse(line) as Started['info'] };
}

describe('npm run sandbox', () => {
  it('prints one JSON line, serves on 127.0.0.1, and keeps acknowledged writes across kill -9 and restart', async () => {
    const db = join(dir, 'data', 'sandbox.db');
    const first = await start(db);
    expect(first.info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(first.info.control_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/control$/);
    const created = await fetch(`${first.info.base_url}/tags`, {
      method: 'POST',
      headers: { 'x-api-key': first.info.api_key, 'content-type': 'application/json' },
      body: JSON.stringify({ tag_name: 'durable' }),
    });
    expect(created.status).toBe(201);
    const { tag } = (await created.json()) as { tag: { id: string } };
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await start(db);
    expect(second.info.api_key).toBe(first.info.api_key);
    expect(second.info.admin_token).toBe(first.info.admin_token);
    const got = await fetch(`${second.info.base_url}/tags/${tag.id}`, { headers: { 'x-api-key': second.info.api_key } });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { tag: { tag_name: string } }).tag.tag_name).toBe('durable');
    const health = await fetch(`${second.info.control_url}/health`, { headers: { authorization: `Bearer ${second.info.admin_token}` } });
    expect(health.status).toBe(200);
    second.child.kill('SIGTERM');
  });

  it('refuses a bad --port with exit code 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', 'abc'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
  });
});
