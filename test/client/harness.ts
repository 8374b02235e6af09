// Test harness: emit a client for a model, write it next to stub `types.ts` / `validators.ts` (the stand-ins for
// the types and validators emitters), transpile every module to JavaScript and import it; plus a recording fake
// fetch. The stubs are written with the same encoder as the generator, keyed by wire names.
import { tokenPagination } from '../../src/model/paging.js';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll } from 'vitest';
import { jsString, propertyKey } from '../../src/encode/index.js';
import { emitClient } from '../../src/emit/client/index.js';
import { buildNames, type Names } from '../../src/emit/naming.js';
import type { ApiModel, MediaContent, Operation, OperationResponse, Parameter } from '../../src/model/ir.js';

// Every temp dir a test file makes is removed when that file's tests are done.
const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

function paramType(p: Parameter): string {
  const schema = typeof p.schema === 'object' ? p.schema : {};
  switch (schema['type']) {
    case 'array':
      return 'string[]';
    case 'integer':
    case 'number':
      return 'number';
    case 'object':
      return 'Record<string, unknown>';
    default:
      return 'string';
  }
}

function isJson(c: MediaContent): boolean {
  return c.mediaType.includes('json');
}

const isSuccess = (r: OperationResponse): boolean => /^2/.test(r.status);

function responseType(op: Operation, r: OperationResponse): string {
  if (r.content.length === 0) return 'void';
  const paging = tokenPagination(op);
  const json = paging !== undefined
    ? `{ ${propertyKey(paging.items)}: { id: string }[]; ${propertyKey(paging.nextPageToken)}?: string | null }`
    : '{ [key: string]: unknown }';
  return [...new Set(r.content.map((c) => (isJson(c) ? json : 'string')))].join(' | ');
}

export function stubTypes(model: ApiModel, names: Names): string {
  const out: string[] = [];
  for (const op of model.operations) {
    const t = (part: 'PathParams' | 'Query' | 'Headers' | 'Body' | 'Response', status?: string): string => names.operationType(op.id, part, status);
    const iface = (name: string, params: Parameter[]): string =>
      `export interface ${name} {\n${params.map((p) => `  ${propertyKey(p.name)}${p.required ? '' : '?'}: ${paramType(p)};`).join('\n')}\n}`;
    if (op.parameters.path.length > 0) out.push(iface(t('PathParams'), op.parameters.path));
    if (op.parameters.query.length > 0) out.push(iface(t('Query'), op.parameters.query));
    if (op.parameters.header.length > 0) out.push(iface(t('Headers'), op.parameters.header));
    if (op.requestBody) {
      const media = op.requestBody.content[0]!;
      out.push(`export type ${t('Body')} = ${isJson(media) || media.mediaType.includes('form') ? '{ [key: string]: unknown }' : 'string'};`);
    }
    for (const r of op.responses) out.push(`export type ${t('Response', r.status)} = ${responseType(op, r)};`);
    const success = op.responses.filter(isSuccess).map((r) => t('Response', r.status));
    out.push(`export type ${t('Response')} = ${success.length > 0 ? success.join(' | ') : 'void'};`);
  }
  return `${out.join('\n')}\n`;
}

/** Stub validators: JSON bodies must be objects without an `invalid` property; text bodies must be strings. */
export function stubValidators(model: ApiModel, names: Names): string {
  const out = [
    'type Result = { ok: true; value: unknown } | { ok: false; errors: { field: string | null; description: string }[] };',
    'type Validator = { validate(value: unknown): Result };',
    "export const objectValidator: Validator = { validate: (value) => typeof value === 'object' && value !== null && !('invalid' in value) ? { ok: true, value } : { ok: false, errors: [{ field: 'invalid', description: 'must not be present' }] } };",
    "export const textValidator: Validator = { validate: (value) => typeof value === 'string' ? { ok: true, value } : { ok: false, errors: [{ field: null, description: 'must be a string' }] } };",
  ];
  for (const op of model.operations) {
    for (const r of op.responses.filter((x) => x.content.length > 0)) {
      const validator = r.content.some(isJson) ? (r.content.every(isJson) ? 'objectValidator' : '{ validate: (v: unknown): Result => (typeof v === "string" ? textValidator : objectValidator).validate(v) }') : 'textValidator';
      out.push(`export const ${names.operationValidator(op.id, 'Response', r.status)}: Validator = ${validator};`);
    }
  }
  return `${out.join('\n')}\n`;
}

export interface Built {
  dir: string;
  files: Record<string, string>;
  // The generated module's exports (typed loosely: the tests exercise them at run time).
  mod: Record<string, any>;
}

/** Emit, write (with stubs), transpile to `.js`, import `index.js`. */
export async function buildClient(model: ApiModel): Promise<Built> {
  const names = buildNames(model);
  const dir = tempDir('client-emit-');
  const files: Record<string, string> = { 'types.ts': stubTypes(model, names), 'validators.ts': stubValidators(model, names) };
  for (const f of emitClient(model, names)) files[f.path.replace(/^client\//, '')] = f.contents;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const [name, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), contents);
    const js = ts.transpileModule(contents, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }, fileName: name });
    writeFileSync(join(dir, name.replace(/\.ts$/, '.js')), js.outputText);
  }
  const mod = (await import(pathToFileURL(join(dir, 'index.js')).href)) as Record<string, any>;
  return { dir, files, mod };
}

/** Diagnostics of a strict type-check of every `.ts` file in `dir` (empty when it compiles). */
export function typeCheck(dir: string, extra: ts.CompilerOptions = {}): string[] {
  const rootNames = readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    declaration: true,
    isolatedDeclarations: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noImplicitOverride: true,
    noImplicitReturns: true,
    noUnusedLocals: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.asynciterable.d.ts'],
    types: [],
    skipLibCheck: true,
    ...extra,
  };
  const program = ts.createProgram(rootNames, options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

export interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  contentType: string | null;
}

export type Reply = Response | (() => Response | Promise<Response>);

/** A fake fetch that records every request and answers from `replies` in turn (the last one repeats). */
export function fakeFetch(...replies: Reply[]): { fetch: (req: Request) => Promise<Response>; calls: Recorded[] } {
  const calls: Recorded[] = [];
  let i = 0;
  return {
    calls,
    fetch: async (req: Request) => {
      calls.push({ method: req.method, url: req.url, headers: Object.fromEntries(req.headers), body: await req.text(), contentType: req.headers.get('content-type') });
      const reply = replies[Math.min(i++, replies.length - 1)]!;
      return typeof reply === 'function' ? reply() : reply.clone();
    },
  };
}

export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export { jsString };
