// The client against the real types and validators emitters (not stubs): for the project's own `spec/` and
// for the hand-built fixture, the emitted client, types and validators type-check together, and
// `validateResponses` runs the real validators.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { emitClient } from '../../src/emit/client/index.js';
import { buildNames } from '../../src/emit/naming.js';
import { emitTypes } from '../../src/emit/types/emit-types.js';
import { emitValidators } from '../../src/emit/validators/emit-validators.js';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import type { ApiModel } from '../../src/model/ir.js';
import { renderFiles } from '../../src/write/write.js';
import { tagsModel } from './fixtures.js';
import { fakeFetch, jsonResponse, tempDir, typeCheck } from './harness.js';

/** Write the client package (real types + validators + client) to a temp dir, with `.js` for the `.ts` modules. */
function writePackage(model: ApiModel): string {
  const names = buildNames(model);
  const dir = tempDir('client-real-');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const f of [emitTypes(model, names), ...emitValidators(model, names), ...emitClient(model, names)]) {
    const name = f.path.replace(/^client\//, '');
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), f.contents);
    if (name.endsWith('.ts') && !name.endsWith('.d.ts')) {
      const js = ts.transpileModule(f.contents, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }, fileName: name });
      writeFileSync(join(dir, name.replace(/\.ts$/, '.js')), js.outputText);
    }
  }
  return dir;
}

describe('with the real types and validators emitters', () => {
  test('the hand-built fixture type-checks', () => {
    expect(typeCheck(writePackage(tagsModel()))).toEqual([]);
  });

  test("the project's spec/ type-checks, and every operation is reachable through its group", async () => {
    const model = buildModel(await loadSpecs('spec'), { policy: 'strict' });
    const dir = writePackage(model);
    expect(typeCheck(dir)).toEqual([]);
    const mod = await import(pathToFileURL(join(dir, 'index.js')).href);
    const client = mod.createClient({ baseUrl: 'https://h/v1', apiKey: 'k' });
    const names = buildNames(model);
    for (const op of model.operations) expect(typeof client[names.group(op.group)]?.[names.groupMethod(op.id)], op.id).toBe('function');
  }, 60_000);

  test('validateResponses runs the real response validators', async () => {
    const model = tagsModel();
    model.operations = model.operations.map((op) =>
      op.id === 'updateTag' ? { ...op, responses: [{ status: '200', description: 'tag', headers: [], content: [{ mediaType: 'application/json', examples: [], schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } }] }] } : op,
    );
    const mod = await import(pathToFileURL(join(writePackage(model), 'index.js')).href);
    const valid = fakeFetch(jsonResponse(200, { id: 't' }));
    expect(await mod.createClient({ baseUrl: 'https://h', fetch: valid.fetch, validateResponses: true }).tags.updateTag('t', {})).toEqual({ id: 't' });
    const invalid = fakeFetch(jsonResponse(200, { id: 7 }));
    const error = await mod.createClient({ baseUrl: 'https://h', fetch: invalid.fetch, validateResponses: true }).tags.updateTag('t', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RESPONSE_VALIDATION', status: 200 });
    expect(error.details.length).toBeGreaterThan(0);
    expect(error.details[0].field).toBe('id');
  });
});

test("through the project's writer: the .d.ts type-check for a consumer and the .js run", async () => {
  const model = tagsModel();
  const names = buildNames(model);
  const rendered = await renderFiles([emitTypes(model, names), ...emitValidators(model, names), ...emitClient(model, names)], model.specHash);
  const root = tempDir('client-written-');
  for (const [path, contents] of rendered) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), contents);
  }
  expect([...rendered.keys()].filter((p) => /client\/(client|operations|runtime|index)\./.test(p)).sort()).toEqual([
    'client/client.d.ts', 'client/client.js', 'client/index.d.ts', 'client/index.js', 'client/operations.d.ts', 'client/operations.js', 'client/runtime.d.ts', 'client/runtime.js',
  ]);
  const dir = join(root, 'client');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'consumer.ts'),
    `import { createClient, ApiError, type Client } from './index.js';
export const client: Client = createClient({ baseUrl: 'https://h', apiKey: 'k' });
export async function names(): Promise<string[]> {
  const out: string[] = [];
  for await (const tag of client.tags.listFolderTagsAll('f', { query: { page_size: 2 } })) out.push(String(tag));
  try { await client.tags.updateTag('t', {}, { workspaceId: 'w' }); } catch (e) { if (e instanceof ApiError) out.push(e.code); }
  // @ts-expect-error the body is required
  await client.tags.createTag();
  return out;
}
`,
  );
  expect(typeCheck(dir, { noUnusedLocals: false })).toEqual([]);
  const mod = await import(pathToFileURL(join(dir, 'index.js')).href);
  const f = fakeFetch(jsonResponse(404, { error: { code: 'NOT_FOUND', message: 'no such tag' } }));
  const error = await mod.createClient({ baseUrl: 'https://h', apiKey: 'k', fetch: f.fetch }).tags.updateTag('a b', { name: 'x' }).catch((e: unknown) => e);
  expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'no such tag' });
  expect(f.calls[0]!.url).toBe('https://h/tags/a%20b');
}, 60_000);
