// `--db` selects the store: a file path or :memory: is SQLite, a postgres:// URL is PostgreSQL, anything else
// that looks like a URL is refused (exit 2, one line naming what is accepted). A server that refuses the
// credentials or cannot be reached at start-up is one line and exit 2, never a stack trace.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { chooseDb } from '../../src/sandbox/storage/open.js';
import { PG_URL, describePg } from './pg-env.js';

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

function withPassword(url: string, password: string): string {
  const u = new URL(url);
  u.password = password;
  return u.href;
}

describe('--db values', () => {
  it('reads file paths and :memory: as SQLite, postgres:// and postgresql:// URLs as PostgreSQL', () => {
    expect(chooseDb('.sandbox/sandbox.db')).toEqual({ engine: 'sqlite', path: '.sandbox/sandbox.db' });
    expect(chooseDb(':memory:')).toEqual({ engine: 'sqlite', path: ':memory:' });
    expect(chooseDb('postgres://u:secret@db.example:5432/sandbox')).toEqual({ engine: 'postgres', url: 'postgres://u:secret@db.example:5432/sandbox', display: 'postgres://u:***@db.example:5432/sandbox' });
    expect(chooseDb('postgresql://u@db.example/sandbox').engine).toBe('postgres');
  });

  it.each(['mysql://x', 'postgres:/localhost/db', 'postgres:localhost', 'postgress://u@h/db', 'file:sandbox.db', 'postgres://', 'postgres://h/db?schema=Bad-Name'])('refuses %s', (value) => {
    expect(() => chooseDb(value)).toThrow(/file path, :memory: nor a postgres:\/\/ URL|names no host|not a valid PostgreSQL URL|schema must be/);
  });

  it('exits 2 with one line for a value that is neither a path, :memory: nor a postgres:// URL', async () => {
    const { code, stdout, stderr } = await run(['--db', 'mysql://x']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual(['sandbox: --db "mysql:..." is neither a file path, :memory: nor a postgres:// URL']);
  });

  it('exits 2 with one line when the server cannot be reached', async () => {
    const { code, stderr } = await run(['--db', 'postgres://sandbox:pw@127.0.0.1:1/sandbox_test']);
    expect(code).toBe(2);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^sandbox: cannot use PostgreSQL at postgres:\/\/sandbox:\*\*\*@127\.0\.0\.1:1\/sandbox_test: .*refused/);
    expect(stderr).not.toContain('pw@');
  });
});

describePg('--db with a PostgreSQL server', () => {
  it('exits 2 with one line for a wrong password, without echoing it', async () => {
    const { code, stderr } = await run(['--db', withPassword(PG_URL, 'not-the-password')]);
    expect(code).toBe(2);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^sandbox: cannot use PostgreSQL at .*password authentication failed/);
    expect(stderr).not.toContain('not-the-password');
  });
});
