// Crafted hostile documents (test/hostile/crafted.ts) through the whole generator: loaded from a catalog whose
// spec names are hostile too (and from disk, for comparison), modelled, emitted, rendered and written. For the
// result: the code compiles under `tsc --strict`, importing and using it runs nothing from the spec, every value
// round-trips exactly, and nothing is written outside the output folder.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationSignatures } from '../../src/emit/client/signature.js';
import type { EmittedFile } from '../../src/emit/emitted-file.js';
import { emitAll } from '../../src/emit/index.js';
import { buildNames, type Names } from '../../src/emit/naming.js';
import { confinedPath } from '../../src/encode/index.js';
import { canonicalJson, loadSpecs, type LoadedDocument } from '../../src/load/index.js';
import { pointerKeys } from '../../src/load/errors.js';
import { buildModel } from '../../src/model/index.js';
import type { ApiModel, JsonValue } from '../../src/model/ir.js';
import { renderFiles, writeOutput, type WriteResult } from '../../src/write/write.js';
import { typecheck } from '../support/typecheck.js';
import { craftedDocument, MARKER, PATTERN_CANDIDATES, PATTERNS, PAYLOADS } from './crafted.js';

const BASE = 'https://api.example/v1';
/** Catalog names are free text: they must not steer file names or code either. */
const SPEC_NAMES = ['../../escape*/`${x}`', `__proto__ 日本語\u2028${PAYLOADS[0]}`];

interface Built {
  dir: string;
  parent: string;
  out: string;
  docs: LoadedDocument[];
  model: ApiModel;
  names: Names;
  files: EmittedFile[];
  rendered: Map<string, string>;
  result: WriteResult;
  before: string[];
}

let built: Built;
let workDir: string | undefined;

function listTree(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      out.push(relative(root, full).split(sep).join('/'));
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(root);
  return out.sort();
}

const marker = (): unknown => (globalThis as Record<string, unknown>)[MARKER];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
  workDir = dir;
  const parent = join(dir, 'parent');
  const out = join(parent, 'out');
  mkdirSync(parent);
  writeFileSync(join(parent, 'sibling.txt'), 'must stay alone');
  const texts = [JSON.stringify(craftedDocument('3.1.0')), stringify(craftedDocument('3.0.3'))];
  const fetch = async (url: string): Promise<Response> => {
    if (url === `${BASE}/openapi`) return Response.json({ specs: SPEC_NAMES.map((name, i) => ({ name, url: `${BASE}/openapi/${i}` })) });
    const m = /\/openapi\/(\d)$/.exec(url);
    if (m) return new Response(texts[Number(m[1])], { headers: { 'content-type': m[1] === '0' ? 'application/json' : 'application/yaml' } });
    return new Response('not found', { status: 404 });
  };
  const docs = await loadSpecs(BASE, { fetch });
  const model = buildModel(docs, { policy: 'lenient' });
  const names = buildNames(model);
  const files = emitAll(model, names, { documents: docs });
  const rendered = await renderFiles(files, model.specHash);
  const before = listTree(parent);
  const result = await writeOutput(out, rendered, { check: false });
  built = { dir, parent, out, docs, model, names, files, rendered, result, before };
}, 120_000);

afterAll(() => {
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
});

describe('crafted hostile documents', () => {
  it('load from a catalog with hostile spec names exactly as from disk', async () => {
    const specs = join(built.dir, 'specs');
    mkdirSync(specs, { recursive: true });
    writeFileSync(join(specs, 'a.json'), JSON.stringify(craftedDocument('3.1.0')));
    writeFileSync(join(specs, 'b.yaml'), stringify(craftedDocument('3.0.3')));
    const fromDisk = await loadSpecs(specs);
    expect(fromDisk.map((d) => d.hash)).toEqual(built.docs.map((d) => d.hash));
    expect(built.docs.map((d) => d.name).sort()).toEqual([...SPEC_NAMES].sort());
    // The loaded values are the crafted ones: NUL, U+2028 and `__proto__` keys survive JSON and YAML alike.
    for (const d of fromDisk) {
      const schemas = (d.document.components as Record<string, Record<string, unknown>>).schemas!;
      expect(Object.prototype.hasOwnProperty.call(schemas, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(schemas)).toBe(Object.prototype);
      expect((schemas['hasOwnProperty'] as { enum: string[] }).enum).toEqual(PAYLOADS);
    }
  });

  it('generate code that compiles under tsc --strict (sources and shipped declarations)', () => {
    const src = join(built.dir, 'src');
    const roots: string[] = [];
    for (const f of built.files) {
      const target = confinedPath(src, f.path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, f.contents);
      if (f.kind === 'module' || f.path.endsWith('.d.ts')) roots.push(target);
    }
    for (const path of built.rendered.keys()) if (path.endsWith('.d.ts')) roots.push(join(built.out, path));
    expect(roots.length).toBeGreaterThan(10);
    expect(typecheck(roots)).toEqual([]);
  });

  it('generate code in which no spec text is code: no payload identifier, no raw separators, NUL or </script>', () => {
    for (const [path, text] of built.rendered) {
      if (!/\.(?:[cm]?js|ts)$/.test(path)) continue;
      const file = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
      const identifiers: string[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isIdentifier(node) && node.text === MARKER) identifiers.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
        ts.forEachChild(node, visit);
      };
      visit(file);
      expect(identifiers, path).toEqual([]);
      expect((file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics, path).toEqual([]);
      expect(text, path).not.toMatch(/[\u2028\u2029\u0000]/);
      expect(text.toLowerCase(), path).not.toContain('</script');
    }
  });

  it('import and run without executing anything from the spec', async () => {
    expect(marker()).toBeUndefined();
    const modules = [...built.rendered.keys()].filter((p) => p.endsWith('.js'));
    expect(modules).toEqual(expect.arrayContaining(['client/index.js', 'client/types.js', 'client/validators.js', 'client/operations.js', 'client/client.js']));
    for (const path of modules) await import(pathToFileURL(join(built.out, path)).href);
    const validators = (await import(pathToFileURL(join(built.out, 'client/validators.js')).href)) as Record<string, { validate(v: unknown): { ok: boolean } }>;
    for (const v of Object.values(validators)) for (const value of [...PAYLOADS, {}, [], null, JSON.parse('{"__proto__":{"x":1}}')]) v.validate(value);
    expect(marker()).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined(); // nothing polluted Object.prototype
  });

  it('round-trip every enum value into the generated value lists, in order', async () => {
    const types = (await import(pathToFileURL(join(built.out, 'client/types.js')).href)) as Record<string, unknown>;
    let lists = 0;
    for (const [irName, named] of Object.entries(built.model.schemas)) {
      const schema = named.schema as Record<string, JsonValue>;
      const raw = sourceOf(built.docs, named.specs[0]!, named.pointer) as Record<string, unknown>;
      if (Array.isArray(schema.enum) && Array.isArray(raw.enum) && !raw.nullable) {
        expect(types[built.names.enumValues(irName)], irName).toEqual(raw.enum);
        lists++;
      }
      const props = schema.properties as Record<string, Record<string, JsonValue>> | undefined;
      for (const prop of Object.keys(props ?? {})) {
        const rawProp = (raw.properties as Record<string, { enum?: unknown[] }>)[prop]!;
        if (!Array.isArray(props![prop]!.enum) || !Array.isArray(rawProp.enum)) continue;
        expect(types[built.names.enumValues(irName, prop)], `${irName}.${prop}`).toEqual(rawProp.enum);
        lists++;
      }
    }
    expect(lists).toBeGreaterThan(2 * PAYLOADS.length);
  });

  it('validate enum values, hostile patterns and __proto__ keys exactly as the spec says', async () => {
    const v = (await import(pathToFileURL(join(built.out, 'client/validators.js')).href)) as Record<string, { validate(v: unknown): { ok: boolean } }>;
    const enumName = irName('hasOwnProperty');
    const enumValidator = v[built.names.schemaValidator(enumName)]!;
    for (const p of PAYLOADS) {
      expect(enumValidator.validate(p).ok, JSON.stringify(p)).toBe(true);
      expect(enumValidator.validate(`${p}!`).ok, JSON.stringify(p)).toBe(false);
    }
    const mixed = Object.keys(built.model.schemas).find((n) => ((built.model.schemas[n]!.schema as { enum?: unknown[] }).enum ?? []).includes('null'))!;
    const mixedValidator = v[built.names.schemaValidator(mixed)]!;
    for (const value of [0, -1, 1.5, true, false, null, '0', 'true', 'null']) expect(mixedValidator.validate(value).ok, JSON.stringify(value)).toBe(true);
    for (const value of ['1.5', 1, 'false', 'NULL', [], {}]) expect(mixedValidator.validate(value).ok, JSON.stringify(value)).toBe(false);

    const objectName = irName('__proto__');
    const objectValidator = v[built.names.schemaValidator(objectName)]!;
    const base = (): Record<string, unknown> => JSON.parse(JSON.stringify({ [PAYLOADS[0]!]: PAYLOADS[1], constructor: PAYLOADS[2] }).replace(/^\{/, `{"__proto__":${JSON.stringify(PAYLOADS[3])},`));
    expect(Object.prototype.hasOwnProperty.call(base(), '__proto__')).toBe(true);
    expect(objectValidator.validate(base()).ok).toBe(true);
    const missing = base();
    delete missing['__proto__'];
    expect(objectValidator.validate(missing).ok).toBe(false); // `__proto__` is a required key like any other
    PATTERNS.forEach((pattern, i) => {
      const re = new RegExp(pattern, 'u');
      for (const candidate of PATTERN_CANDIDATES) {
        const value = base();
        value[`pattern${i}`] = candidate;
        expect(objectValidator.validate(value).ok, `${pattern} vs ${JSON.stringify(candidate)}`).toBe(re.test(candidate));
      }
    });
  });

  it('serve the documents and server URLs exactly as loaded', async () => {
    const { documents } = (await import(pathToFileURL(join(built.out, 'sandbox/documents.js')).href)) as { documents: { name: string; document: unknown }[] };
    expect(documents.map((d) => d.name)).toEqual(built.docs.map((d) => d.name));
    // Byte for byte: canonical JSON keeps own `__proto__` keys, NUL, U+2028 and key order-independent equality.
    documents.forEach((d, i) => expect(canonicalJson(d.document)).toBe(canonicalJson(built.docs[i]!.document)));
    documents.forEach((d, i) => expect(d.document).toEqual(built.docs[i]!.document));
    const { SERVER_URLS } = (await import(pathToFileURL(join(built.out, 'client/client.js')).href)) as { SERVER_URLS: string[] };
    const urls = [...new Set(built.docs.flatMap((d) => (d.document.servers as { url: string }[]).map((s) => s.url)))];
    expect(SERVER_URLS).toEqual(urls);
  });

  it('send exactly the wire names: path, query, headers and the API key', async () => {
    const client = (await import(pathToFileURL(join(built.out, 'client/index.js')).href)) as Record<string, unknown>;
    const requests: Request[] = [];
    const fetch = async (request: Request): Promise<Response> => {
      requests.push(request);
      return Response.json({});
    };
    const config = (client.createConfig as (o: unknown) => unknown)({ baseUrl: 'https://h.example/base', apiKey: 'k3y', fetch, retry: false });
    const sigs = operationSignatures(built.model, built.names);
    expect(sigs.length).toBe(built.model.operations.length);
    for (const sig of sigs) {
      const op = sig.op;
      const values = new Map(op.parameters.path.map((p, i) => [p.name, (p.schema as { type?: string[] }).type?.includes('integer') ? 7 + i : `v${i} x`]));
      const args: unknown[] = [...new Set(sig.template.params)].map((name) => values.get(name));
      if (sig.hasBody) args.push({});
      const query = Object.fromEntries(op.parameters.query.map((p) => [p.name, PAYLOADS[0]]));
      const headers = Object.fromEntries(op.parameters.header.map((p) => [p.name, 'h v']));
      args.push({ query, headers });
      requests.length = 0;
      await (client[sig.fn] as (...a: unknown[]) => Promise<unknown>)(config, ...args);
      expect(requests.length, op.id).toBe(1);
      const request = requests[0]!;
      const url = new URL(request.url);
      expect(request.method).toBe(op.method.toUpperCase());
      const expected = `/base${op.path.replace(/\{([^{}]+)\}/g, (_, name: string) => String(values.get(name)))}`;
      expect(decodeURIComponent(url.pathname), op.id).toBe(expected);
      for (const p of op.parameters.query) expect(url.searchParams.getAll(p.name), `${op.id} ?${p.name}`).toEqual([PAYLOADS[0]]);
      for (const p of op.parameters.header) expect(request.headers.get(p.name), `${op.id} ${p.name}`).toBe('h v');
      const needsKey = op.security.length > 0 && op.security[0]!.length > 0;
      expect(request.headers.get("X-Key'`"), op.id).toBe(needsKey ? 'k3y' : null);
    }
    expect(marker()).toBeUndefined();
  });

  it('write nothing outside the output folder', () => {
    const after = listTree(built.parent);
    const added = after.filter((p) => !built.before.includes(p));
    expect(added.length).toBeGreaterThan(0);
    for (const p of added) expect(p === 'out' || p.startsWith('out/'), p).toBe(true);
    expect(built.before).toEqual(['sibling.txt']);
    expect(readFileSync(join(built.parent, 'sibling.txt'), 'utf8')).toBe('must stay alone');
    for (const path of built.result.written) expect(relative(built.out, confinedPath(built.out, path)).startsWith('..')).toBe(false);
  });
});

describe('the writer confines every path', () => {
  const bad = ['../escape.txt', 'client/../../escape.txt', '/etc/passwd', 'a\u0000b.txt', '..', '.', ''];
  it.each(bad)('refuses %j', (path) => {
    expect(() => confinedPath('/tmp/out', path)).toThrow(/refusing/);
  });

  it('writes nothing when one path of a batch escapes, and never through a symlink that leaves the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-write-'));
    try {
      const out = join(dir, 'out');
      await expect(writeOutput(out, new Map([['client/ok.txt', 'x'], ['client/../../escape.txt', 'x']]), { check: false })).rejects.toThrow(/refusing/);
      expect(listTree(dir).filter((p) => p.includes('escape'))).toEqual([]);
      // A package folder that is a symlink to somewhere else: writing through it would land outside `out`.
      mkdirSync(join(dir, 'elsewhere'));
      mkdirSync(out, { recursive: true });
      symlinkSync(join(dir, 'elsewhere'), join(out, 'client'));
      await expect(writeOutput(out, new Map([['client/index.js', 'x']]), { check: false })).rejects.toThrow(/outside/);
      expect(readdirSync(join(dir, 'elsewhere'))).toEqual([]);
      expect(lstatSync(join(out, 'client')).isSymbolicLink()).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The IR name of a schema of the first (3.1) document: its own name, or spec-qualified when the documents differ. */
function irName(local: string): string {
  const qualified = `${built.docs[0]!.name}.${local}`;
  const has = (n: string): boolean => Object.prototype.hasOwnProperty.call(built.model.schemas, n);
  if (has(qualified)) return qualified;
  if (has(local)) return local;
  throw new Error(`no schema ${local}`);
}

/** The raw value at a pointer of one loaded document (the one named `spec`). */
function sourceOf(docs: LoadedDocument[], spec: string, pointer: string): unknown {
  const doc = docs.find((d) => d.name === spec)!;
  let node: unknown = doc.document;
  for (const key of pointerKeys(pointer)) node = (node as Record<string, unknown>)[key];
  return node;
}
