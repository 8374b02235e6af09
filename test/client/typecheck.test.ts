// The emitted modules compile: each one alone through `transpileDeclaration` (what the writer does, and proof
// of isolatedDeclarations), and all together under `strict` with the DOM lib and with Node's types only. A
// consumer file checks that the signatures are precise (wrong calls must be type errors).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, test } from 'vitest';
import { emitClient } from '../../src/emit/client/index.js';
import { RUNTIME_CAMEL_CASE_EXPORTS, runtimeSource } from '../../src/emit/client/runtime-source.js';
import { buildNames } from '../../src/emit/naming.js';
import { tagsModel } from './fixtures.js';
import { buildClient, tempDir, typeCheck, type Built } from './harness.js';

let built: Built;
beforeAll(async () => {
  built = await buildClient(tagsModel());
});

const nodeOnly: ts.CompilerOptions = { lib: ['lib.es2022.d.ts'], types: ['node'], typeRoots: [join(process.cwd(), 'node_modules/@types')] };

describe('emitted modules', () => {
  test('are the four client modules and the runtime modules beside runtime.ts', () => {
    const files = emitClient(tagsModel(), buildNames(tagsModel()));
    expect(files.map((f) => [f.path, f.kind])).toEqual([
      ['client/runtime.ts', 'module'],
      ...['types', 'errors', 'own', 'auth', 'build', 'retry', 'network', 'responses', 'error-codes'].map((part) => [`client/runtime/${part}.ts`, 'module']),
      ['client/operations.ts', 'module'],
      ['client/client.ts', 'module'],
      ['client/index.ts', 'module'],
    ]);
  });

  test('each passes transpileDeclaration (isolatedDeclarations) without diagnostics', () => {
    for (const f of emitClient(tagsModel(), buildNames(tagsModel()))) {
      const out = ts.transpileDeclaration(f.contents, { fileName: f.path, reportDiagnostics: true, compilerOptions: { strict: true, target: ts.ScriptTarget.ES2022 } });
      expect(out.diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), f.path).toEqual([]);
      expect(out.outputText, f.path).not.toBe('');
    }
  });

  test('type-check strictly with the DOM lib', () => {
    expect(typeCheck(built.dir)).toEqual([]);
  });

  test('type-check strictly with Node types and no DOM lib', () => {
    expect(typeCheck(built.dir, nodeOnly)).toEqual([]);
  });

  test('signatures are precise: a consumer compiles, and wrong calls are errors', () => {
    const consumer = `
import { createClient, ApiError, updateTag, type ClientConfig } from './index.js';
const client = createClient({ baseUrl: 'https://h', apiKey: 'k', retry: { attempts: 2 } });
export async function use(config: ClientConfig): Promise<string[]> {
  const page = await client.tags.listFolderTags('f', { query: { page_size: 10, ids: ['a'] }, signal: AbortSignal.timeout(10) });
  const ids: string[] = page.tags.map((t) => t.id);
  for await (const tag of client.tags.listFolderTagsAll('f')) ids.push(tag.id);
  await client.tags.updateTag('t', { name: 'x' }, { headers: { 'X-Service-Workspace-Id': 'w' }, workspaceId: 'w2' });
  await updateTag(config, 't', {});
  const removed: void = await client.tags.deleteTag('t');
  void removed;
  const yaml: string | { [key: string]: unknown } = await client.catalog.getSpec('tags', { accept: 'application/json' });
  void yaml;
  await client.forms.submitForm();
  // @ts-expect-error unknown query parameter
  await client.tags.listFolderTags('f', { query: { nope: 1 } });
  // @ts-expect-error wrong query parameter type
  await client.tags.listFolderTags('f', { query: { page_size: 'ten' } });
  // @ts-expect-error the body is required
  await client.tags.createTag();
  // @ts-expect-error this operation has no query parameters
  await client.tags.createTag({}, { query: { a: 1 } });
  // @ts-expect-error this operation has no header parameters
  await client.tags.createTag({}, { headers: { a: 'b' } });
  // @ts-expect-error the path parameter is required
  await client.tags.deleteTag();
  // @ts-expect-error items are typed
  for await (const tag of client.tags.listFolderTagsAll('f')) tag.nope;
  try {
    await client.catalog.listSpecs();
  } catch (error) {
    if (error instanceof ApiError) ids.push(error.code, String(error.status), error.requestId ?? '', ...error.details.map((d) => d.description));
  }
  return ids;
}
`;
    writeFileSync(join(built.dir, 'consumer.ts'), consumer);
    expect(typeCheck(built.dir)).toEqual([]);
    expect(typeCheck(built.dir, nodeOnly)).toEqual([]);
  });
});

test('the type-check helper does report errors (so the checks above can fail)', () => {
  const dir = tempDir('client-typecheck-');
  writeFileSync(join(dir, 'bad.ts'), "export function f(): number {\n  return 'a';\n}\nexport const g = (x) => x;\n");
  const diagnostics = typeCheck(dir);
  expect(diagnostics.some((d) => d.includes("'string' is not assignable to type 'number'"))).toBe(true);
  expect(diagnostics.some((d) => /implicitly has an 'any' type|isolatedDeclarations/.test(d))).toBe(true);
});

test('RUNTIME_CAMEL_CASE_EXPORTS lists exactly the runtime value exports that start lower case', () => {
  const source = ts.createSourceFile('runtime.ts', runtimeSource(), ts.ScriptTarget.ES2022);
  const exported: string[] = [];
  for (const node of source.statements) {
    const isExported = ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!isExported) continue;
    if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name) exported.push(node.name.text);
    if (ts.isVariableStatement(node)) for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) exported.push(d.name.text);
  }
  expect(exported.filter((n) => /^[a-z]/.test(n)).sort()).toEqual([...RUNTIME_CAMEL_CASE_EXPORTS].sort());
  expect(exported.filter((n) => !/^[a-z]/.test(n)).every((n) => /^[A-Z]/.test(n))).toBe(true);
});

test('the runtime holds no spec-derived content but its error codes: emitting two different models gives the same runtime', () => {
  const runtime = (files: { path: string; contents: string }[]) => files.filter((f) => f.path.startsWith('client/runtime') && f.path !== 'client/runtime/error-codes.ts');
  const a = runtime(emitClient(tagsModel(), buildNames(tagsModel())));
  const other = { ...tagsModel(), operations: tagsModel().operations.slice(0, 1) };
  const b = runtime(emitClient(other, buildNames(other)));
  expect(a.length).toBe(9);
  expect(a).toEqual(b);
  for (const f of a) expect(f.contents).not.toMatch(/X-API-Key|X-Service-Workspace-Id/);
});
