// The generated client as a consumer gets it: `npm pack` the package in generated/client, install the tarball into a
// scratch project, type-check a small program that uses several operations under --strict (against the installed
// package, resolved with NodeNext), then transpile it and run it with Node against a fake fetch.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { npm, pack, removeTempDirs, tempDir, typeCheck, type Packed } from './npm.js';

const PACKAGE_DIR = fileURLToPath(new URL('../../generated/client', import.meta.url));
const TIMEOUT = 120_000;
// Tag ids are 22 alphanumerics (the response validators check the pattern).
const TAG_1 = 'Tag01' + 'a'.repeat(17);
const TAG_2 = 'Tag02' + 'b'.repeat(17);
const TAG_3 = 'Tag03' + 'c'.repeat(17);
const MISSING = 'Missing' + 'z'.repeat(15);

afterAll(removeTempDirs);

// The consumer program. The lines marked `// @ts-expect-error` are wrong calls: the strict check must report an
// error on each (an unused directive is itself an error), so the check proves the types are enforced.
const PROGRAM = String.raw`
import { ApiError, createClient, validators, type Client, type FetchLike } from '@evalplatform/client';
import type { Tag, Workspace, WorkspaceStatus } from '@evalplatform/client/types';
import { tagValidator } from '@evalplatform/client/validators';

interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  apiKey: string | null;
  workspace: string | null;
  contentType: string | null;
  trace: string | null;
  body: unknown;
}

const recorded: Recorded[] = [];

function tag(id: string, tagName: string, color: string): Tag {
  return { name: 'tags/' + id, id, tag_name: tagName, color, create_time: '2024-05-01T12:00:00Z' };
}

const workspace: Workspace = {
  id: 'ws_01',
  slug: 'research',
  display_name: 'Research',
  status: 'ACTIVE',
  workspace_type: 'CUSTOM',
  created_at: '2024-04-01T09:00:00Z',
  last_updated_at: '2024-04-02T10:30:00Z',
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_' + recorded.length },
  });
}

// A fetch-compatible fake: records each request and answers canned JSON.
const fakeFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const text = await request.text();
  recorded.push({
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    apiKey: request.headers.get('x-api-key'),
    workspace: request.headers.get('x-service-workspace-id'),
    contentType: request.headers.get('content-type'),
    trace: request.headers.get('x-trace'),
    body: text === '' ? null : JSON.parse(text),
  });
  const route = request.method + ' ' + url.pathname;
  if (route === 'PATCH /v1/tags/${TAG_1}') {
    const change = JSON.parse(text) as { tag_name: string; color: string };
    return json(200, { tag: tag('${TAG_1}', change.tag_name, change.color) });
  }
  if (route === 'GET /v1/workspaces/ws_01') return json(200, { workspace });
  if (route === 'GET /v1/tags') {
    if (url.searchParams.get('page_token') === 'page_2') {
      return json(200, { tags: [tag('${TAG_3}', 'gamma', '#0000ff')], next_page_token: null });
    }
    return json(200, { tags: [tag('${TAG_1}', 'alpha', '#ff0000'), tag('${TAG_2}', 'beta', '#00ff00')], next_page_token: 'page_2' });
  }
  return json(404, { error: { code: 'NOT_FOUND', message: 'Tag not found', details: [{ field: 'tag_id', description: 'no such tag' }] } });
};
const asFetchLike: FetchLike = fakeFetch;

const client: Client = createClient({
  baseUrl: 'https://api.example.test/v1',
  apiKey: 'sk_test_consumer_123',
  workspaceId: 'ws_default',
  fetch: asFetchLike,
  retry: false,
  validateResponses: true,
  headers: { 'X-Trace': 'consumer' },
});

// Wrong calls, never run: each must be a type error.
export function wrongCalls(c: Client): void {
  // @ts-expect-error a tag id is a string, not a number
  void c.tags.updateTag(42, { tag_name: 'x' });
  // @ts-expect-error tag_name is a string
  void c.tags.updateTag('${TAG_1}', { tag_name: 7 });
  // @ts-expect-error getWorkspace needs the workspace id
  void c.workspaces.getWorkspace();
  // @ts-expect-error no such operation
  void c.tags.renameTag('${TAG_1}');
}

async function main(): Promise<void> {
  const updated = await client.tags.updateTag('${TAG_1}', { tag_name: 'renamed', color: '#123456' });
  const updatedTag: Tag = updated.tag;

  const got = await client.workspaces.getWorkspace('ws_01');
  const status: WorkspaceStatus = got.workspace.status;

  const listed: string[] = [];
  for await (const item of client.tags.listTagsAll({ query: { page_size: 2 } })) {
    const t: Tag = item;
    listed.push(t.id + ':' + t.tag_name);
  }

  let notFound: { isApiError: boolean; isError: boolean; name: string; status: number; code: string; message: string; requestId: string | undefined; operationId: string | undefined; details: { field: string | null; description: string }[] } | null = null;
  try {
    await client.tags.getTag('${MISSING}');
  } catch (error) {
    if (error instanceof ApiError) {
      notFound = {
        isApiError: true,
        isError: error instanceof Error,
        name: error.name,
        status: error.status,
        code: error.code,
        message: error.message,
        requestId: error.requestId,
        operationId: error.operationId,
        details: error.details,
      };
    }
  }

  const summary = {
    updatedTag: { id: updatedTag.id, tag_name: updatedTag.tag_name, color: updatedTag.color ?? null },
    workspace: { id: got.workspace.id, display_name: got.workspace.display_name, status },
    listed,
    notFound,
    validators: {
      subpathAcceptsTag: tagValidator.validate(updatedTag).ok,
      namespaceRejectsBadTag: validators.tagValidator.is({ id: 1 }),
    },
    rawHasNoApiKeyInJson: !JSON.stringify(client.raw).includes('sk_test_consumer_123'),
    requests: recorded,
  };
  console.log(JSON.stringify(summary));
}

await main();
`;

interface Summary {
  updatedTag: { id: string; tag_name: string; color: string | null };
  workspace: { id: string; display_name: string; status: string };
  listed: string[];
  notFound: Record<string, unknown> | null;
  validators: { subpathAcceptsTag: boolean; namespaceRejectsBadTag: boolean };
  rawHasNoApiKeyInJson: boolean;
  requests: { method: string; path: string; query: Record<string, string>; apiKey: string | null; workspace: string | null; contentType: string | null; trace: string | null; body: unknown }[];
}

// The same kind of program against the sandbox over a real socket: base URL and key from the environment.
const SANDBOX_PROGRAM = String.raw`
import { ApiError, createClient } from '@evalplatform/client';
import type { Tag } from '@evalplatform/client/types';

// The scratch project has no Node type definitions: only what the program needs is declared.
declare const process: { env: Record<string, string | undefined> };

const client = createClient({ baseUrl: process.env.SANDBOX_BASE_URL!, apiKey: process.env.SANDBOX_API_KEY!, validateResponses: true, retry: false });

async function main(): Promise<void> {
  const { workspace } = await client.workspaces.createWorkspace({ slug: 'consumer-team', display_name: 'Consumer team' });
  const scoped = createClient({ baseUrl: process.env.SANDBOX_BASE_URL!, apiKey: process.env.SANDBOX_API_KEY!, workspaceId: workspace.id, validateResponses: true });
  const created: Tag = (await scoped.tags.createTag({ tag_name: 'Consumer-Tag', color: '#112233' })).tag;
  const updated: Tag = (await scoped.tags.updateTag(created.id, { color: '#445566' })).tag;
  const names: string[] = [];
  for await (const t of client.tags.listTagsAll({ query: { page_size: 1 } })) names.push(t.tag_name);
  let missing: { status: number; code: string; field: string | null } | null = null;
  try {
    await client.tags.getTag('Missing' + 'z'.repeat(15));
  } catch (error) {
    if (error instanceof ApiError) missing = { status: error.status, code: error.code, field: error.details[0]?.field ?? null };
  }
  console.log(JSON.stringify({ workspaceType: workspace.workspace_type, created: created.tag_name, color: updated.color, names, missing }));
}

await main();
`;

const EXPECT_ERROR = '// @ts-expect-error';

let scratch: string;
let mainTs: string;
let packed: Packed;

beforeAll(() => {
  const work = tempDir('consumer-');
  const cache = join(work, 'npm-cache');
  const packDir = join(work, 'pack');
  scratch = join(work, 'app');
  mkdirSync(packDir);
  mkdirSync(scratch);

  packed = pack(PACKAGE_DIR, packDir, cache);
  const tarball = join(packDir, packed.filename);

  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer-app', version: '1.0.0', private: true, type: 'module' }, null, 2));
  try {
    npm(['install', '--no-audit', '--no-fund', '--offline', tarball], scratch, { cache });
  } catch {
    npm(['install', '--no-audit', '--no-fund', tarball], scratch, { cache });
  }

  mainTs = join(scratch, 'main.ts');
  writeFileSync(mainTs, PROGRAM);
}, TIMEOUT);

describe('the packed client in a consumer project', () => {
  test('the tarball holds every module of the exports map, and installs with no dependencies', () => {
    // The version is the one generated/client/package.json carries (it follows the spec's changes).
    const { version } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string };
    expect(packed.filename).toBe(`evalplatform-client-${version}.tgz`);
    const files = packed.files.map((f) => f.path);
    for (const m of ['index', 'client', 'operations', 'runtime', 'types', 'validators']) {
      expect(files).toContain(`${m}.js`);
      expect(files).toContain(`${m}.d.ts`);
    }
    expect(readdirSync(join(scratch, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual(['@evalplatform']);
    const installed = JSON.parse(readFileSync(join(scratch, 'node_modules/@evalplatform/client/package.json'), 'utf8'));
    expect(installed.name).toBe('@evalplatform/client');
    expect(installed.dependencies).toBeUndefined();
    const lock = JSON.parse(readFileSync(join(scratch, 'package-lock.json'), 'utf8'));
    expect(Object.keys(lock.packages)).toEqual(['', 'node_modules/@evalplatform/client']);
  });

  test('the program type-checks under --strict with zero diagnostics, against the installed package', () => {
    const { diagnostics, sourceFiles } = typeCheck(mainTs);
    expect(diagnostics.map((d) => d.text)).toEqual([]);
    const installed = join(scratch, 'node_modules/@evalplatform/client');
    expect(sourceFiles).toContain(join(installed, 'index.d.ts'));
    expect(sourceFiles).toContain(join(installed, 'types.d.ts'));
    expect(sourceFiles).toContain(join(installed, 'validators.d.ts'));
    expect(sourceFiles.filter((f) => f.includes('/generated/client/'))).toEqual([]);
  });

  test('each wrong call is a type error (without its @ts-expect-error the check fails there)', () => {
    const lines = PROGRAM.split('\n');
    const marked = lines.flatMap((l, i) => (l.trim().startsWith(EXPECT_ERROR) ? [i + 2] : [])); // 1-based line after the directive
    expect(marked).toHaveLength(4);
    const unmarked = join(scratch, 'unmarked.ts');
    writeFileSync(unmarked, lines.map((l) => (l.trim().startsWith(EXPECT_ERROR) ? '' : l)).join('\n'));
    const { diagnostics } = typeCheck(unmarked);
    expect([...new Set(diagnostics.map((d) => d.line))].sort((a, b) => a - b)).toEqual(marked);
    expect(diagnostics.map((d) => d.text).join('\n')).toMatch(/'number' is not assignable to parameter of type 'string'/);
    expect(diagnostics.map((d) => d.text).join('\n')).toMatch(/renameTag/);
  });

  test('the transpiled program runs with Node against a fake fetch', () => {
    const js = ts.transpileModule(PROGRAM, {
      fileName: 'main.ts',
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(scratch, 'main.js'), js.outputText);
    const stdout = execFileSync(process.execPath, ['main.js'], { cwd: scratch, encoding: 'utf8' });
    const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as Summary;

    // updateTag: PATCH with the API key, the client's default workspace, the extra header and a JSON body.
    expect(summary.updatedTag).toEqual({ id: TAG_1, tag_name: 'renamed', color: '#123456' });
    const [patch, getWs, page1, page2, missing, ...rest] = summary.requests;
    expect(rest).toEqual([]);
    expect(patch).toEqual({
      method: 'PATCH',
      path: `/v1/tags/${TAG_1}`,
      query: {},
      apiKey: 'sk_test_consumer_123',
      workspace: 'ws_default',
      contentType: expect.stringMatching(/^application\/json/),
      trace: 'consumer',
      body: { tag_name: 'renamed', color: '#123456' },
    });

    // getWorkspace.
    expect(summary.workspace).toEqual({ id: 'ws_01', display_name: 'Research', status: 'ACTIVE' });
    expect(getWs).toMatchObject({ method: 'GET', path: '/v1/workspaces/ws_01', apiKey: 'sk_test_consumer_123', body: null });

    // listTagsAll: two pages, the second asked for with the first page's token.
    expect(summary.listed).toEqual([`${TAG_1}:alpha`, `${TAG_2}:beta`, `${TAG_3}:gamma`]);
    expect(page1).toMatchObject({ method: 'GET', path: '/v1/tags', query: { page_size: '2' }, apiKey: 'sk_test_consumer_123' });
    expect(page2).toMatchObject({ method: 'GET', path: '/v1/tags', query: { page_size: '2', page_token: 'page_2' }, apiKey: 'sk_test_consumer_123' });

    // getTag on a missing tag: ApiError from the error envelope.
    expect(missing).toMatchObject({ method: 'GET', path: `/v1/tags/${MISSING}` });
    expect(summary.notFound).toEqual({
      isApiError: true,
      isError: true,
      name: 'ApiError',
      status: 404,
      code: 'NOT_FOUND',
      message: 'Tag not found',
      requestId: 'req_5',
      operationId: 'getTag',
      details: [{ field: 'tag_id', description: 'no such tag' }],
    });

    // The validators, from the subpath and from the index namespace; the key stays out of the config's JSON.
    expect(summary.validators).toEqual({ subpathAcceptsTag: true, namespaceRejectsBadTag: false });
    expect(summary.rawHasNoApiKeyInJson).toBe(true);
  });

  test('a program using several operations type-checks and runs against the sandbox on a real socket', async () => {
    const file = join(scratch, 'sandbox-main.ts');
    writeFileSync(file, SANDBOX_PROGRAM);
    expect(typeCheck(file).diagnostics.map((d) => d.text)).toEqual([]);
    const js = ts.transpileModule(SANDBOX_PROGRAM, { fileName: 'sandbox-main.ts', compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    writeFileSync(join(scratch, 'sandbox-main.js'), js.outputText);
    const sandbox = await createSandbox({ db: ':memory:', log: () => {} });
    const server = await sandbox.listen({ port: 0 });
    try {
      const { execFile } = await import('node:child_process');
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['sandbox-main.js'], { cwd: scratch, env: { ...process.env, SANDBOX_BASE_URL: server.baseUrl, SANDBOX_API_KEY: sandbox.apiKey } }, (error, out) => (error ? reject(error) : resolve(out))),
      );
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
        workspaceType: 'CUSTOM',
        created: 'consumer-tag',
        color: '#445566',
        names: ['consumer-tag'],
        missing: { status: 404, code: 'NOT_FOUND', field: 'tag_id' },
      });
    } finally {
      await server.close();
      await sandbox.close();
    }
  }, TIMEOUT);
});
