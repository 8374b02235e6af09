// Every generated package as a team installs it: `npm pack` each, install the tarballs into a project outside the
// repository (only those tarballs and the registry), and there: start the sandbox with its bin, run the
// conformance bin against it over its socket with its control plane, run a --strict-typed program that uses the
// client against it (and the sandbox's and conformance suite's declarations), and run a vitest file that uses
// createSandbox in process with the client's `fetch` option. The sandbox and the conformance suite depend on the
// client package of the same version (installed once, beside them), not on copies of it.
//
// better-sqlite3 (the sandbox's one native dependency) is built from source when no prebuilt binary can be
// downloaded, which takes minutes. The scratch project therefore lives on between runs in the temporary folder
// (one per Node ABI), as a consumer's project does: each run installs the new tarballs into it, and npm keeps
// the better-sqlite3 it built while its version still satisfies the range. CONSUMER_FRESH=1 starts it anew.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { npm, pack, removeTempDirs, tempDir, transpile, typeCheck, type Packed } from './npm.js';

const GENERATED = fileURLToPath(new URL('../../generated', import.meta.url));
const ROOT_MANIFEST = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { devDependencies: Record<string, string> };
const PACKAGES = { client: '@evalplatform/client', sandbox: '@evalplatform/sandbox', conformance: '@evalplatform/conformance' } as const;
const INSTALL_TIMEOUT = 20 * 60_000;

let scratch: string;
const packed: Record<string, Packed> = {};
let sandboxProcess: ReturnType<typeof spawn> | undefined;
let started: { base_url: string; api_key: string; admin_token: string; control_url: string };

const bin = (name: string): string => join(scratch, 'node_modules', '.bin', name);

function runIn(cwd: string, command: string, args: string[], timeout = 15 * 60_000): { code: number | null; out: string; err: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, NO_COLOR: '1' } });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

beforeAll(async () => {
  const work = tempDir('packages-');
  for (const dir of Object.keys(PACKAGES)) {
    packed[dir] = pack(join(GENERATED, dir), work);
    console.log(`${packed[dir]!.filename}: ${packed[dir]!.size} bytes packed, ${packed[dir]!.unpackedSize} bytes unpacked, ${packed[dir]!.files.length} files`);
  }
  scratch = join(tmpdir(), `evalplatform-consumer-node${process.versions.modules}`);
  if (process.env.CONSUMER_FRESH === '1') rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  for (const file of ['consumer.test.js', 'main.ts', 'main.js', 'conformance.xml', 'vitest.json']) rmSync(join(scratch, file), { force: true });
  if (!existsSync(join(scratch, 'package.json'))) {
    writeFileSync(join(scratch, 'package.json'), `${JSON.stringify({ name: 'consumer-app', version: '1.0.0', private: true, type: 'module', allowScripts: { 'better-sqlite3': true } }, null, 2)}\n`);
  }
  const installStarted = performance.now();
  // Install scripts run here: better-sqlite3 needs its native build.
  npm(['install', '--no-audit', '--no-fund', ...Object.keys(PACKAGES).map((dir) => join(work, packed[dir]!.filename)), `vitest@${ROOT_MANIFEST.devDependencies.vitest}`], scratch, { scripts: true, timeout: INSTALL_TIMEOUT });
  console.log(`npm install in ${scratch}: ${Math.round((performance.now() - installStarted) / 1000)} s`);

  // The sandbox's bin, as a CI job starts it: a free port, a database in memory, the JSON start line.
  sandboxProcess = spawn(bin('evalplatform-sandbox'), ['--port', '0', '--db', ':memory:', '--json'], { cwd: scratch, stdio: ['ignore', 'pipe', 'inherit'] });
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: sandboxProcess!.stdout! });
    lines.once('line', resolve);
    sandboxProcess!.once('exit', (code) => reject(new Error(`evalplatform-sandbox exited with ${code}`)));
  });
  started = JSON.parse(firstLine) as typeof started;
}, INSTALL_TIMEOUT + 60_000);

afterAll(() => {
  sandboxProcess?.kill('SIGTERM');
  removeTempDirs();
});

describe('the generated packages installed from their tarballs', () => {
  test('each tarball holds its runtime, declarations and bin; the runtimes depend on the client package of their version, not on copies', () => {
    for (const [dir, name] of Object.entries(PACKAGES)) {
      const files = packed[dir]!.files.map((f) => f.path);
      expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'CHANGELOG.md', 'index.js', 'index.d.ts']));
      const installed = JSON.parse(readFileSync(join(scratch, 'node_modules', name, 'package.json'), 'utf8')) as Record<string, any>;
      expect(installed.name).toBe(name);
      if (dir !== 'client') {
        expect(files).toContain('cli.js');
        expect(installed.bin).toEqual({ [`evalplatform-${dir}`]: './cli.js' });
        // Nothing from this repository's source or its other generated folders is needed at run time.
        expect(files.filter((f) => f.startsWith('src/') || f === 'routes.js')).toEqual([]);
        // The client's declarations are the client package's, imported by name.
        expect(files.filter((f) => f.startsWith('types/generated/client/'))).toEqual([]);
      }
    }
    const manifest = (name: string): { version: string; dependencies: Record<string, string> } => JSON.parse(readFileSync(join(scratch, 'node_modules', name, 'package.json'), 'utf8'));
    const client = manifest(PACKAGES.client);
    expect(manifest(PACKAGES.sandbox).dependencies).toEqual({ [PACKAGES.client]: client.version, 'better-sqlite3': expect.any(String), yaml: expect.any(String) });
    expect(manifest(PACKAGES.conformance).dependencies[PACKAGES.client]).toBe(client.version);
    // One client in the project: the runtimes resolve the installed one.
    for (const dir of ['sandbox', 'conformance'] as const) expect(existsSync(join(scratch, 'node_modules', PACKAGES[dir], 'node_modules', PACKAGES.client))).toBe(false);
    // The conformance suite declares its public API (runConformance, its options, the results, the reports) only.
    expect(packed.conformance!.files.map((f) => f.path).filter((f) => f.startsWith('types/')).sort()).toEqual(
      ['index.d.ts', 'report.d.ts', 'result.d.ts', 'run-conformance.d.ts'].map((f) => `types/src/conformance/${f}`),
    );
  });

  test('evalplatform-sandbox prints its JSON start line; both bins refuse bad flags with their usage and status 2', () => {
    expect(started.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(started.control_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/control$/);
    expect(started.api_key).toMatch(/^sk_/);
    for (const name of ['evalplatform-sandbox', 'evalplatform-conformance']) {
      const bad = runIn(scratch, bin(name), ['--no-such-flag']);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(new RegExp(`Usage: ${name}`));
    }
    expect(runIn(scratch, bin('evalplatform-sandbox'), ['--port', 'eighty']).code).toBe(2);
  });

  test('evalplatform-conformance against the evalplatform-sandbox bin over its socket, with its control plane: every check passes, none skipped', () => {
    // As a consumer's CI runs it: the two bins as two processes, the API and the control plane over HTTP, webhook
    // deliveries to the conformance bin's receiver on 127.0.0.1.
    const args = ['--base-url', started.base_url, '--control-url', started.control_url, '--admin-token', started.admin_token, '--junit', 'conformance.xml', '--quiet'];
    const began = performance.now();
    const result = runIn(scratch, bin('evalplatform-conformance'), args, 20 * 60_000);
    console.log(`evalplatform-conformance over HTTP against evalplatform-sandbox: ${Math.round((performance.now() - began) / 1000)} s`);
    const line = /Conformance: (\d+) passed, (\d+) failed, (\d+) skipped/.exec(result.out);
    expect(line, result.out.slice(-3000) + result.err.slice(-3000)).not.toBeNull();
    const problems = result.out.split('\n').filter((l) => /^(FAIL|skip) /.test(l));
    expect({ failed: Number(line![2]), skipped: Number(line![3]) }, problems.join('\n')).toEqual({ failed: 0, skipped: 0 });
    expect(Number(line![1])).toBeGreaterThan(1000);
    expect(result.code).toBe(0);
    expect(result.out).toContain(`Target: ${started.base_url}`);
    expect(readFileSync(join(scratch, 'conformance.xml'), 'utf8')).toMatch(/<testsuites name="conformance" tests="\d+" failures="0" skipped="0">/);
  }, 20 * 60_000);

  test('a --strict-typed program uses the client against the sandbox bin', () => {
    const program = String.raw`
import { ApiError, createClient } from '@evalplatform/client';
import type { Tag } from '@evalplatform/client/types';
import type { CheckResult, ConformanceOptions } from '@evalplatform/conformance';
import type { Sandbox, SandboxOptions } from '@evalplatform/sandbox';

declare const process: { env: Record<string, string | undefined> };

const client = createClient({ baseUrl: process.env.SANDBOX_BASE_URL!, apiKey: process.env.SANDBOX_API_KEY!, validateResponses: true, retry: false });

// The runtimes' declarations, read strictly with the client's they reference.
export const sandboxOptions: SandboxOptions = { db: ':memory:' };
export const conformanceOptions: ConformanceOptions = { baseUrl: process.env.SANDBOX_BASE_URL!, apiKey: process.env.SANDBOX_API_KEY!, timeoutMs: 60_000 };
export const basePathOf = (sandbox: Sandbox): string => sandbox.basePath;
export const failures = (results: CheckResult[]): string[] => results.filter((r) => r.outcome === 'fail').map((r) => r.operation + ': ' + r.check);

async function main(): Promise<void> {
  const created: Tag = (await client.tags.createTag({ tag_name: 'Packaged', color: '#0a0b0c' })).tag;
  const got: Tag = (await client.tags.getTag(created.id)).tag;
  let conflict: number | null = null;
  try {
    await client.tags.createTag({ tag_name: 'PACKAGED' });
  } catch (error) {
    if (error instanceof ApiError) conflict = error.status;
  }
  console.log(JSON.stringify({ name: got.tag_name, color: got.color, conflict }));
}

await main();
`;
    writeFileSync(join(scratch, 'main.ts'), program);
    const checked = typeCheck(join(scratch, 'main.ts'));
    expect(checked.diagnostics.map((d) => d.text)).toEqual([]);
    // The sandbox's declarations name the client's validators through the installed client package.
    expect(checked.sourceFiles.filter((f) => f.includes('/types/generated/client/'))).toEqual([]);
    expect(checked.sourceFiles).toContain(join(scratch, 'node_modules/@evalplatform/client/validators.d.ts'));
    expect(checked.sourceFiles).toContain(join(scratch, 'node_modules/@evalplatform/sandbox/types/src/contracts/route-table.d.ts'));
    writeFileSync(join(scratch, 'main.js'), transpile(program, 'main.ts'));
    const result = spawnSync(process.execPath, ['main.js'], { cwd: scratch, encoding: 'utf8', env: { ...process.env, SANDBOX_BASE_URL: started.base_url, SANDBOX_API_KEY: started.api_key } });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim())).toEqual({ name: 'packaged', color: '#0a0b0c', conflict: 409 });
  });

  test('a vitest file runs createSandbox in process with the client fetch option, and runConformance', () => {
    writeFileSync(
      join(scratch, 'consumer.test.js'),
      String.raw`
import { expect, test } from 'vitest';
import { createClient, ApiError } from '@evalplatform/client';
import { createSandbox } from '@evalplatform/sandbox';
import { runConformance } from '@evalplatform/conformance';

test('the client talks to the sandbox in process', async () => {
  const sandbox = await createSandbox({ db: ':memory:', log: () => {} });
  const client = createClient({ baseUrl: 'http://sandbox.test' + sandbox.basePath, apiKey: sandbox.apiKey, fetch: (input, init) => sandbox.fetch(new Request(input, init)), retry: false });
  const { tag } = await client.tags.createTag({ tag_name: 'In-Process' });
  expect(tag.tag_name).toBe('in-process');
  const listed = [];
  for await (const t of client.tags.listTagsAll()) listed.push(t.id);
  expect(listed).toEqual([tag.id]);
  await expect(client.tags.getTag('Missing' + 'z'.repeat(15))).rejects.toBeInstanceOf(ApiError);
  await sandbox.close();
});

test('runConformance returns the results to the test runner', async () => {
  const results = await runConformance({ operation: 'Tag' });
  expect(results.length).toBeGreaterThan(20);
  expect(results.filter((r) => r.outcome !== 'pass')).toEqual([]);
}, 300000);
`,
    );
    const result = runIn(scratch, bin('vitest'), ['run', 'consumer.test.js', '--reporter=json', '--outputFile=vitest.json']);
    const report = JSON.parse(readFileSync(join(scratch, 'vitest.json'), 'utf8')) as { numPassedTests: number; numFailedTests: number; numTotalTests: number };
    expect({ passed: report.numPassedTests, failed: report.numFailedTests }, result.out + result.err).toEqual({ passed: 2, failed: 0 });
    expect(result.code).toBe(0);
  }, 10 * 60_000);
});
