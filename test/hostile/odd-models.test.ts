// Models the lenient policy lets through, fed to every emitter: documents that break the OpenAPI schema but
// still describe an API (no responses, only a default response, empty paths, boolean and empty schemas, refs
// into paths through other refs, names that collide every way). Every emitter must produce its files; and a
// failure anywhere in the CLI is one line `error: <spec>: <JSON pointer>: <reason>` with exit 2.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emitAll } from '../../src/emit/index.js';
import { buildNames } from '../../src/emit/naming.js';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';

const dir = mkdtempSync(join(tmpdir(), 'odd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const info = { title: 'odd', version: '1' };

const DOCUMENTS: [string, Record<string, unknown>][] = [
  ['operations without responses', { openapi: '3.0.3', info, paths: { '/a': { get: { operationId: 'getA' }, delete: {} } } }],
  ['only a default response', { openapi: '3.1.0', info, paths: { '/a': { get: { responses: { default: { description: 'any', content: { 'application/json': { schema: true } } } } } } } }],
  ['no paths at all', { openapi: '3.1.0', info, components: { schemas: { Lonely: { type: 'string' } } } }],
  ['empty and boolean schemas everywhere', { openapi: '3.1.0', info, paths: { '/a': { post: { requestBody: { content: { 'application/json': { schema: {} } } }, responses: { '200': { description: 'ok', content: { 'application/json': { schema: false } } } } } } }, components: { schemas: { Any: {}, None: false } } }],
  [
    'a ref into paths through another ref',
    {
      openapi: '3.0.3',
      info,
      paths: {
        '/a': {
          post: {
            requestBody: { content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/W' }] } } } },
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/paths/~1a/post/requestBody/content/application~1json/schema/allOf/0/properties/d' } } } } },
          },
        },
      },
      components: { schemas: { W: { type: 'object', properties: { d: { type: 'integer' } } } } },
    },
  ],
  [
    'no component schemas, one media type referring to another (a ref into paths, found only in operations)',
    {
      openapi: '3.0.3',
      info,
      paths: {
        '/': {
          get: {
            operationId: 'getRoot',
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string' } } } }, 'text/xml': { schema: { $ref: '#/paths/~1/get/responses/200/content/application~1json/schema' } } } } },
          },
        },
      },
    },
  ],
  ['an extension beside the paths (paths/x-codegen-contextRoot)', { openapi: '3.0.3', info, paths: { 'x-codegen-contextRoot': '/api', '/a': { get: { responses: { '204': { description: 'none' } } } } } }],
  [
    'names colliding every way (schema FooBody, operation foo with a body, case and separator twins, reserved words)',
    {
      openapi: '3.1.0',
      info,
      paths: {
        '/foo': { post: { operationId: 'foo', tags: ['raw'], requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/FooBody' } } } }, responses: { '200': { description: 'ok' } } } },
        '/foo2': { get: { operationId: 'Foo', tags: ['Raw'], responses: { '200': { description: 'ok' } } } },
        '/x': { get: { operationId: 'delete', responses: { '200': { description: 'ok' } } } },
      },
      components: { schemas: { FooBody: { type: 'object' }, fooBody: { type: 'string', enum: ['a'] }, 'foo-body': { type: 'integer' }, Validator: { type: 'object' }, class: { type: 'boolean' } } },
    },
  ],
];

describe('odd models through every emitter', () => {
  it.each(DOCUMENTS)('%s', async (name, document) => {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(document));
    const docs = await loadSpecs(file, { policy: 'lenient' });
    const model = buildModel(docs, { policy: 'lenient' });
    const files = emitAll(model, buildNames(model), { documents: docs });
    // Every artifact is there: types, validators, client, package, sandbox routes.
    const paths = files.map((f) => f.path);
    for (const expected of ['client/types.ts', 'client/validators.js', 'client/operations.ts', 'client/client.ts', 'client/package.json', 'sandbox/routes.ts']) expect(paths).toContain(expected);
    for (const f of files) expect(f.contents.length, f.path).toBeGreaterThan(0);
  });
});

describe('the CLI never prints a stack trace', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/generate.ts', ...args], { encoding: 'utf8' });

  it('a refused spec is one line with spec, pointer and reason, exit 2', () => {
    const file = join(dir, 'cycle.json');
    writeFileSync(file, JSON.stringify({ openapi: '3.1.0', info, paths: {}, components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } } }));
    const result = run('--spec', file, '--out', join(dir, 'out'));
    expect(result.status).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: cycle: #\/components\/schemas\/[AB]\S*( \(line \d+\))?: .+/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('a bad option value is one error line naming the flag, then the usage; exit 2', () => {
    const result = run('--policy', 'sloppy', '--spec', join(dir, 'none.json'));
    expect(result.status).toBe(2);
    const [first, ...rest] = result.stderr.trim().split('\n');
    expect(first).toMatch(/^error: .*--policy must be strict or lenient/);
    expect(rest.join('\n')).toMatch(/^usage: npm run generate -- /m);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});
