// README.md's tour program (its first TypeScript block) runs against a fresh sandbox exactly as written: with only
// the base URL and the key the sandbox prints, no workspace id given, and nothing read from the source.
import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { removeTempDirs, tempDir, transpile } from './npm.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let sandbox: Sandbox;
let server: { baseUrl: string; close(): Promise<void> };

beforeAll(async () => {
  sandbox = await createSandbox({ db: ':memory:', log: () => {} });
  server = await sandbox.listen({ port: 0 });
});

afterAll(async () => {
  await server?.close();
  await sandbox?.close();
  removeTempDirs();
});

/** Runs a node program without blocking this process (the sandbox it calls lives here). */
function runNode(cwd: string, file: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

test("README.md's tour program runs against a fresh sandbox", async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const tour = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(tour, 'README.md has a TypeScript block').toBeDefined();
  expect(tour).toContain('createClient');
  // A project of its own beside nothing but the installed packages (this repository's node_modules, where
  // @evalplatform/client is the generated package).
  const dir = tempDir('readme-tour-');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'tour.js'), transpile(tour!, 'tour.ts'));
  const run = await runNode(dir, 'tour.js', { SANDBOX_URL: server.baseUrl, SANDBOX_API_KEY: sandbox.apiKey });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/^tag \w{22} tour-\d+ #0000ff$/m);
  expect(run.stdout).toMatch(/^run \w{22} PENDING$/m);
  expect(run.stdout).toContain(`${sandbox.defaultWorkspaceId} DEFAULT`);
  expect(run.stdout).toMatch(/^agent in staging \w{22}$/m);
  expect(run.stdout).toMatch(/^404 NOT_FOUND \[ \{ field: 'tag_id'/m);
});
