// A pool worker asks the kernel whether its listener still lives before a webhook leaves (pool/listener-alive.ts):
// the check must turn false the moment the listener is killed -9, while the worker's own event loop has not yet
// heard of it. Three real processes: this test, a listener stand-in, and its child running the check in a busy loop.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const check = fileURLToPath(new URL('../../../src/sandbox/pool/listener-alive.ts', import.meta.url));

it('a worker sees its listener gone at once after kill -9, without waiting for its event loop', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'listener-alive-'));
  const out = join(dir, 'seen.json');
  // The grandchild spins synchronously (its event loop never runs, as when busy on statements) until the check
  // turns false, then writes how many checks said "alive" and exits.
  const grandchild = join(dir, 'worker.mjs');
  writeFileSync(
    grandchild,
    `import { listenerAliveCheck } from ${JSON.stringify(check)};
     import { writeFileSync } from 'node:fs';
     const alive = listenerAliveCheck();
     const first = alive();
     process.send('ready');
     const started = Date.now();
     let checks = 0;
     while (alive() && Date.now() - started < 10000) checks++;
     writeFileSync(${JSON.stringify(out)}, JSON.stringify({ first, checks, after: alive(), ms: Date.now() - started }));
     process.exit(0);`,
  );
  const listener = join(dir, 'listener.mjs');
  writeFileSync(listener, `import { fork } from 'node:child_process';\nconst w = fork(${JSON.stringify(grandchild)}, { execArgv: ['--import', 'tsx'] });\nw.on('message', () => process.send('ready'));\nsetInterval(() => {}, 1000);`);
  const parent = fork(listener, { stdio: 'inherit' });
  await new Promise<void>((resolve) => parent.once('message', () => resolve()));
  parent.kill('SIGKILL');
  const deadline = Date.now() + 15_000;
  let seen: { first: boolean; checks: number; after: boolean; ms: number } | null = null;
  while (!seen && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    try {
      seen = JSON.parse(readFileSync(out, 'utf8'));
    } catch {
      // not written yet
    }
  }
  expect(seen).not.toBeNull();
  expect(seen!.first).toBe(true); // alive while the listener lived
  expect(seen!.checks).toBeGreaterThan(0);
  expect(seen!.after).toBe(false); // and gone after the kill, found by the spinning loop, not by a timeout
  expect(seen!.ms).toBeLessThan(10_000);
}, 30_000);
