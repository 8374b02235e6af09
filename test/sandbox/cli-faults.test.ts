// `npm run sandbox -- --faults ...` (issue 29): faults from the start, through the real CLI and socket; a bad
// configuration is one line naming the field and exit 2.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('npm run sandbox -- --faults', () => {
  it('serves the configured faults from the first request', async () => {
    const faults = JSON.stringify({ seed: 1, rules: [{ operations: ['listTags'], rate_limited: 1, retry_after_seconds: 3 }] });
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--db', ':memory:', '--json', '--faults', faults], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
    });
    const info = JSON.parse(line) as { base_url: string; api_key: string };
    const answer = await fetch(`${info.base_url}/tags`, { headers: { 'x-api-key': info.api_key } });
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('3');
    expect((await fetch(`${info.base_url}/workspaces`, { headers: { 'x-api-key': info.api_key } })).status).toBe(200);
  });

  it('refuses a bad configuration with exit 2 and the field', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--db', ':memory:', '--faults', '{"rules":[{"dropped":3}]}'], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('rules[0].dropped');
    const notJson = spawnSync(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--db', ':memory:', '--faults', '{nope'], { encoding: 'utf8', timeout: 60_000 });
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toContain('--faults');
  });
});
