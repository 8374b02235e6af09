// `npm run sandbox` prints the inspector's URL (with the admin token), and that URL opens the page.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('npm run sandbox and the inspector', () => {
  it('prints the inspector URL, which sets the session cookie and serves the page', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--db', ':memory:'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      const rl = createInterface({ input: child.stdout! });
      rl.on('line', (l) => {
        if (l.trim().startsWith('inspector:')) resolve(l);
      });
      child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
    });
    const url = /inspector:\s+(\S+)/.exec(line)![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/inspector\/\?token=admin_/);
    const first = await fetch(url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(new URL('/inspector/', url), { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app"></div>');
    const script = await fetch(new URL('/inspector/inspector.js', url), { headers: { cookie } });
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    child.kill('SIGTERM');
  });
});
