// A team sandbox's pool workers die the moment their listener is killed -9 (Linux: started through util-linux's
// `setpriv --pdeathsig KILL`), so a killed instance starts nothing more, not even from a worker that was waiting in
// a synchronous database call when the kill came (issue 28; the crash drill's "delivered twice" in CI was a worker
// of a killed instance sending a webhook hundreds of ms after the kill).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { describePg, dropSchema, freshSchemaUrl } from '../pg-env.js';

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
/** The pids whose parent is `pid`, read from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const task of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)) if (task !== '') out.push(Number(task));
  return out;
}

const schemas: string[] = [];
afterAll(() => schemas.forEach(dropSchema));

describePg('pool workers and a killed listener', () => {
  it.runIf(process.platform === 'linux' && existsSync('/usr/bin/setpriv'))('are gone within a second of kill -9', async () => {
    const { url, schema } = freshSchemaUrl('pdeath');
    schemas.push(schema);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--json', '--db', url, '--workers', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const started = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.once('exit', (code) => reject(new Error(`the sandbox exited ${code} before its start line`)));
    });
    expect(JSON.parse(started)).toHaveProperty('base_url');
    const workers = childrenOf(child.pid!);
    expect(workers.length).toBe(2);
    expect(workers.every(alive)).toBe(true);
    child.kill('SIGKILL');
    const deadline = Date.now() + 1000;
    while (Date.now() < deadline && workers.some(alive)) await new Promise((r) => setTimeout(r, 20));
    expect(workers.filter(alive)).toEqual([]);
  }, 60_000);
});
