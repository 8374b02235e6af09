// `npm run corpus`: the generator against real-world OpenAPI documents.
//
// For every spec under CORPUS_DIR (default ../shared/specs: one folder, or one file, per spec) this loads the
// document with the lenient policy, builds the model, emits and writes the packages into a temp folder exactly
// as `npm run generate` does, type-checks the client package under `tsc --strict` (the emitted TypeScript
// sources and the shipped .d.ts files), and runs every example the document carries through the generated
// validators. It prints a table, writes it to reports/corpus.md and exits 1 when any spec fails.
//
// Examples: media-type examples (`example`, `examples.*.value`) of JSON, form and multipart bodies and
// responses, and schema examples (`example`/`examples` at any depth of a component or parameter schema). An
// example on the operation part or named schema that has a shipped validator is checked with that validator;
// one deeper inside a schema (a property's example) with a validator compiled by the same compiler for that
// location of the same schema document. An example our validator rejects is checked again with Ajv (draft
// 2020-12, ajv-formats): when Ajv rejects it too, the example contradicts its own schema (an error in the
// document, listed with Ajv's reason, not counted against the generator); when Ajv accepts it, the row fails.
//
// Environment: CORPUS_DIR (the specs), CORPUS_ONLY (comma-separated spec names), CORPUS_JOBS (parallel
// workers, default 2), CORPUS_KEEP=1 (keep the temp output and print where it is).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findOracle } from '../test/support/oracles.js';
import { typecheckClient } from './corpus-typecheck.js';
import { readCommandLine } from './command-line.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SPEC_EXT = new Set(['.yaml', '.yml', '.json']);

// ---------------------------------------------------------------------------------------------------------
// Result of one spec (a worker writes it as JSON).

interface ExampleCheck {
  /** Where the example is: JSON pointer of the example in the document, or of the schema that carries it. */
  where: string;
  /** The first errors our validator gave (field: description). */
  ours: string[];
  /** Ajv's verdict when ours rejected the example: `rejects: <reason>`, `accepts`, or `could not compile: ...`. */
  ajv?: string;
}

interface Row {
  spec: string;
  entry: string;
  openapi: string;
  bytes: number;
  files: number;
  operations: number;
  schemas: number;
  ms: { load: number; model: number; emit: number; write: number; tsc: number; examples: number; total: number };
  /** The first stage that threw, with its message. */
  error?: { stage: string; message: string };
  tsc: { files: number; errors: string[] };
  examples: { passed: number; failed: number; invalidInDocument: number; skipped: number; jsonText: number; wireForm: number };
  failures: ExampleCheck[];
  documentErrors: ExampleCheck[];
  out?: string;
}

const emptyRow = (spec: string, entry: string): Row => ({
  spec,
  entry,
  openapi: '',
  bytes: 0,
  files: 0,
  operations: 0,
  schemas: 0,
  ms: { load: 0, model: 0, emit: 0, write: 0, tsc: 0, examples: 0, total: 0 },
  tsc: { files: 0, errors: [] },
  examples: { passed: 0, failed: 0, invalidInDocument: 0, skipped: 0, jsonText: 0, wireForm: 0 },
  failures: [],
  documentErrors: [],
});

const rowFailed = (r: Row): boolean => r.error !== undefined || r.tsc.errors.length > 0 || r.examples.failed > 0;

// ---------------------------------------------------------------------------------------------------------
// Finding the specs and their entry documents.

interface CorpusSpec {
  name: string;
  /** What the generator is given: the entry document (a file), or a folder of documents. */
  entry: string;
  /** Spec files (for the size column). */
  files: string[];
}

function specFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...specFiles(full));
    else if (SPEC_EXT.has(extname(entry.name))) out.push(full);
  }
  return out;
}

/** Whether a file is an OpenAPI document (has a top-level `openapi` key) rather than a fragment it references. */
function isRootDocument(file: string): boolean {
  const text = readFileSync(file, 'utf8');
  if (extname(file) === '.json') {
    try {
      const value = JSON.parse(text) as unknown;
      return value !== null && typeof value === 'object' && 'openapi' in value;
    } catch {
      return false;
    }
  }
  return /^["']?openapi["']?\s*:/m.test(text);
}

/** A spec folder's entry: its shallowest OpenAPI document(s) (one file, or their folder when there are several). */
export function findSpecs(corpusDir: string): CorpusSpec[] {
  const specs: CorpusSpec[] = [];
  for (const entry of readdirSync(corpusDir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(corpusDir, entry.name);
    if (entry.isFile() && SPEC_EXT.has(extname(entry.name))) {
      specs.push({ name: basename(entry.name, extname(entry.name)), entry: full, files: [full] });
      continue;
    }
    if (!entry.isDirectory()) continue;
    const files = specFiles(full);
    const roots = files.filter(isRootDocument);
    if (roots.length === 0) {
      specs.push({ name: entry.name, entry: full, files });
      continue;
    }
    const depth = (f: string) => relative(full, f).split(sep).length;
    const shallowest = Math.min(...roots.map(depth));
    const top = roots.filter((f) => depth(f) === shallowest);
    specs.push({ name: entry.name, entry: top.length === 1 ? top[0]! : dirname(top[0]!), files });
  }
  return specs;
}

// ---------------------------------------------------------------------------------------------------------
// The worker: one spec, every stage.

async function runOne(spec: CorpusSpec): Promise<Row> {
  const { loadSpecs } = await import('../src/load/index.js');
  const { buildModel } = await import('../src/model/index.js');
  const { buildNames } = await import('../src/emit/naming.js');
  const { emitAll } = await import('../src/emit/index.js');
  const { renderFiles, writeOutput } = await import('../src/write/write.js');

  const row = emptyRow(spec.name, relative(ROOT, spec.entry));
  row.files = spec.files.length;
  row.bytes = spec.files.reduce((n, f) => n + statSync(f).size, 0);
  const work = mkdtempSync(join(tmpdir(), `corpus-${spec.name.replace(/[^\w.-]/g, '_')}-`));
  const started = performance.now();
  let stage = 'load';
  let t = performance.now();
  const lap = (): number => {
    const now = performance.now();
    const ms = Math.round(now - t);
    t = now;
    return ms;
  };
  try {
    const docs = await loadSpecs(spec.entry, { policy: 'lenient' });
    row.ms.load = lap();
    stage = 'model';
    const model = buildModel(docs, { policy: 'lenient' });
    row.ms.model = lap();
    row.openapi = [...new Set(model.catalog.map((c) => c.openapi))].join(', ');
    row.operations = model.operations.length;
    row.schemas = Object.keys(model.schemas).length;
    stage = 'emit';
    const names = buildNames(model);
    const files = emitAll(model, names, { documents: docs });
    const rendered = await renderFiles(files, model.specHash);
    row.ms.emit = lap();
    stage = 'write';
    const out = join(work, 'out');
    await writeOutput(out, rendered, { check: false });
    row.ms.write = lap();

    stage = 'tsc';
    row.tsc = await typecheckClient(files, work, out);
    row.ms.tsc = lap();

    stage = 'examples';
    await checkExamples(row, model, names, out, work);
    row.ms.examples = lap();
    if (process.env.CORPUS_KEEP === '1') row.out = out;
  } catch (error) {
    const message = error instanceof Error ? (error.name === 'SpecError' ? error.message : (error.stack ?? error.message)) : String(error);
    row.error = { stage, message: message.split('\n').slice(0, 6).join('\n') };
  } finally {
    row.ms.total = Math.round(performance.now() - started);
    if (process.env.CORPUS_KEEP !== '1') rmSync(work, { recursive: true, force: true });
  }
  return row;
}

// ---------------------------------------------------------------------------------------------------------
// Examples.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = boolean | { [key: string]: Json };

interface Validator {
  validate(value: unknown): { ok: true } | { ok: false; errors: { field: string | null; description: string }[] };
  readonly '~standard': { validate(value: unknown): { issues?: { message: string; path: (string | number)[] }[] } };
}

const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SINGLES = ['items', 'not', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'contentSchema', 'additionalItems'];

const token = (t: string | number): string => String(t).replace(/~/g, '~0').replace(/\//g, '~1');
const fragment = (tokens: (string | number)[]): string => `#${tokens.map((t) => `/${encodeURIComponent(token(t))}`).join('')}`;

/** Every schema node with an `examples` array, with its path from `schema` (refs are not followed). */
function schemaExamples(schema: Schema, path: (string | number)[] = [], out: { path: (string | number)[]; examples: Json[] }[] = []): typeof out {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return out;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) out.push({ path, examples: schema.examples });
  for (const key of MAPS) {
    const map = schema[key];
    if (map && typeof map === 'object' && !Array.isArray(map)) for (const name of Object.keys(map)) schemaExamples(map[name] as Schema, [...path, key, name], out);
  }
  for (const key of ARRAYS) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((s, i) => schemaExamples(s as Schema, [...path, key, i], out));
  }
  for (const key of SINGLES) if (key in schema) schemaExamples(schema[key] as Schema, [...path, key], out);
  return out;
}

/** Media types whose examples are JSON-shaped values of the schema (form fields and multipart parts included). */
function checksExamples(mediaType: string): boolean {
  const essence = mediaType.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || essence.endsWith('+json') || essence === 'application/x-www-form-urlencoded' || essence.startsWith('multipart/') || essence === '*/*';
}

async function checkExamples(row: Row, model: import('../src/model/ir.js').ApiModel, names: import('../src/emit/naming.js').Names, out: string, work: string): Promise<void> {
  const { preferredMedia, isJsonMedia } = await import('../src/model/media.js');
  const { compileValidatorModule } = await import('../src/emit/validators/compile.js');
  const shipped = (await import(pathToFileURL(join(out, 'client', 'validators.js')).href)) as Record<string, Validator>;

  // The schema document the validators are compiled from: named schemas under $defs (what emitValidators does),
  // plus the schemas of operation parts under keys no schema name can take.
  const defs: Record<string, Json> = {};
  const define = (key: string, schema: Schema): void => {
    Object.defineProperty(defs, key, { value: schema, enumerable: true, writable: true, configurable: true });
  };
  for (const [name, named] of Object.entries(model.schemas)) define(name, named.schema as Schema);

  interface Pending {
    where: string;
    value: Json;
    /** The shipped validator, when one covers exactly this schema. */
    validator?: Validator;
    /** Otherwise: where the schema is in `defs`. */
    tokens: (string | number)[];
    /** The views the example may show: a request (write), a response (read), or either. */
    views: View[];
    /** A media-type example of a JSON media type (may be written as JSON text). */
    json?: boolean;
    /** A media-type example of a form or multipart body (may be written as wire strings), with the body schema. */
    form?: boolean;
    schema?: Schema;
  }
  const pending: Pending[] = [];

  for (const [name, named] of Object.entries(model.schemas)) {
    for (const found of schemaExamples(named.schema as Schema)) {
      const where = `${named.pointer}${found.path.map((t) => `/${token(t)}`).join('')}`;
      const validator = found.path.length === 0 ? shipped[names.schemaValidator(name)] : undefined;
      found.examples.forEach((value, i) => pending.push({ where: `${where}/examples/${i}`, value, ...(validator ? { validator } : {}), tokens: [name, ...found.path], views: ['read', 'write'] }));
    }
  }

  for (const op of model.operations) {
    const base = op.pointer;
    for (const [location, params] of Object.entries(op.parameters)) {
      for (const p of params) {
        const key = `\u0000${op.id}\u0000param\u0000${location}\u0000${p.name}`;
        define(key, p.schema as Schema);
        for (const found of schemaExamples(p.schema as Schema)) {
          found.examples.forEach((value, i) => pending.push({ where: `${base} parameter ${location} ${JSON.stringify(p.name)} schema${found.path.map((t) => `/${token(t)}`).join('')}/examples/${i}`, value, tokens: [key, ...found.path], views: ['write'] }));
        }
      }
    }
    const media = (label: string, content: import('../src/model/ir.js').MediaContent[], validatorName: string | undefined): void => {
      const preferred = preferredMedia(content);
      const view: View = label === 'requestBody' ? 'write' : 'read';
      for (const c of content) {
        const key = `\u0000${op.id}\u0000${label}\u0000${c.mediaType}`;
        define(key, c.schema as Schema);
        const where = `${base}/${label.replace(/ /g, '/')}/content/${token(c.mediaType)}`;
        for (const found of schemaExamples(c.schema as Schema)) {
          found.examples.forEach((value, i) => pending.push({ where: `${where}/schema${found.path.map((t) => `/${token(t)}`).join('')}/examples/${i}`, value, tokens: [key, ...found.path], views: [view] }));
        }
        if (!checksExamples(c.mediaType)) {
          row.examples.skipped += c.examples.length;
          continue;
        }
        const validator = c === preferred && validatorName !== undefined ? shipped[validatorName] : undefined;
        c.examples.forEach((value, i) => pending.push({ where: `${where} example ${i}`, value, ...(validator ? { validator } : {}), tokens: [key], views: [view], json: isJsonMedia(c.mediaType), ...(isJsonMedia(c.mediaType) ? {} : { form: true, schema: c.schema as Schema }) }));
      }
    };
    if (op.requestBody) media('requestBody', op.requestBody.content, names.operationValidator(op.id, 'Body'));
    for (const r of op.responses) media(`responses ${r.status}`, r.content, names.operationValidator(op.id, 'Response', r.status));
  }

  // One extra module, from the same compiler and the same schema document, for the locations without a shipped validator.
  const extra = pending.filter((p) => p.validator === undefined);
  if (extra.length > 0) {
    const pointers = [...new Set(extra.map((p) => fragment(['$defs', ...p.tokens])))];
    const exportOf = new Map(pointers.map((p, i) => [p, `v${i}`]));
    const { js } = compileValidatorModule({ $defs: defs }, pointers.map((pointer) => ({ exportName: exportOf.get(pointer)!, pointer })), { assertFormats: true });
    const file = join(work, 'example-validators.mjs');
    writeFileSync(file, js);
    const module = (await import(pathToFileURL(file).href)) as Record<string, Validator>;
    for (const p of extra) p.validator = module[exportOf.get(fragment(['$defs', ...p.tokens]))!];
  }

  let ajv: Awaited<ReturnType<typeof ajvChecker>> | undefined;
  for (const p of pending) {
    const validator = p.validator!;
    let value = p.value;
    if (validator.validate(value).ok) {
      row.examples.passed++;
      continue;
    }
    // A JSON example written as a string of JSON text (the document's serialisation, not a string value).
    if (p.json && typeof value === 'string' && /^\s*[[{]/.test(value)) {
      try {
        value = JSON.parse(value) as Json;
        if (validator.validate(value).ok) {
          row.examples.passed++;
          row.examples.jsonText++;
          continue;
        }
      } catch {
        // not JSON text: judged as the string it is
      }
    }
    // A form or multipart example written as wire values: every field a string (`Record: "true"`, `Price: "10"`).
    if (p.form && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const typed = fromWire(value, p.schema!, defs);
      if (typed !== undefined && validator.validate(typed).ok) {
        row.examples.passed++;
        row.examples.wireForm++;
        continue;
      }
    }
    ajv ??= await ajvChecker(defs);
    const issues = validator['~standard'].validate(value).issues ?? [];
    const verdict = ajv(p.tokens, value, p.views);
    const show = (path: (string | number)[]): string => (path.length === 0 ? '(value)' : `/${path.map(token).join('/')}`);
    const check: ExampleCheck = { where: p.where, ours: issues.slice(0, 3).map((i) => `${show(i.path)}: ${i.message}`), ajv: verdict.text };
    // Invalid in the document only when Ajv rejects it too, and at the places ours does (no error of ours unexplained).
    const prefix = (a: string[], b: string[]): boolean => a.every((t, i) => b[i] === t);
    const unexplained = verdict.paths === undefined ? issues : issues.filter((i) => !verdict.paths!.some((q) => prefix(q, i.path.map(String)) || prefix(i.path.map(String), q)));
    if (verdict.paths !== undefined && unexplained.length === 0) {
      row.examples.invalidInDocument++;
      row.documentErrors.push(check);
    } else {
      if (verdict.paths !== undefined) check.ajv = `${verdict.text}; but not at ${unexplained.slice(0, 3).map((i) => show(i.path)).join(', ')}`;
      row.examples.failed++;
      row.failures.push(check);
    }
  }
}

/**
 * A form body example read as a server reads form fields: a string becomes a boolean or number where the field's
 * schema wants one (and does not take strings), and a single value becomes a one-element list. Undefined when
 * nothing changes.
 */
function fromWire(value: { [key: string]: Json }, schema: Schema, defs: Record<string, Json>): Json | undefined {
  const resolve = (node: Json | undefined): { [key: string]: Json } | undefined => {
    for (let hops = 0; hops < 8 && node && typeof node === 'object' && !Array.isArray(node); hops++) {
      const m = typeof node.$ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(node.$ref) : null;
      if (!m) return node;
      node = defs[decodeURIComponent(m[1]!).replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return undefined;
  };
  const types = (node: Json | undefined): string[] => {
    const s = resolve(node);
    if (!s) return [];
    if (Array.isArray(s.type)) return s.type as string[];
    const branches = [...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])];
    return branches.flatMap((b) => types(b));
  };
  const props = resolve(schema as Json)?.properties;
  if (!props || typeof props !== 'object' || Array.isArray(props)) return undefined;
  const scalar = (text: string, want: string[]): Json => {
    if (want.includes('string')) return text;
    if (want.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
    if ((want.includes('number') || want.includes('integer')) && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
    return text;
  };
  let changed = false;
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(value)) {
    let v: Json = value[key]!;
    const want = types(props[key]);
    if (typeof v === 'string') {
      if (want.includes('array') && !want.includes('string')) {
        const items = resolve(props[key])?.items;
        v = [scalar(v, types(items))];
      } else v = scalar(v, want);
    }
    if (v !== value[key]) changed = true;
    Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : undefined;
}

type View = 'read' | 'write';

/** A deep copy of a schema in one view: `required` leaves out readOnly properties (write) or writeOnly ones (read). */
function inView(node: Json, view: View, defs: Record<string, Json>): Json {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((n) => inView(n, view, defs));
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(node)) {
    const value = node[key]!;
    const copy = key === 'enum' || key === 'const' || key === 'default' || key === 'examples' ? value : inView(value, view, defs);
    Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
  }
  const props = node.properties;
  if (Array.isArray(node.required) && props && typeof props === 'object' && !Array.isArray(props)) {
    const flag = view === 'write' ? 'readOnly' : 'writeOnly';
    const hidden = (name: string): boolean => {
      let prop = (props as Record<string, Json>)[name];
      for (let hops = 0; hops < 8 && prop && typeof prop === 'object' && !Array.isArray(prop) && typeof prop.$ref === 'string'; hops++) {
        if (prop[flag] === true) return true;
        const m = /^#\/\$defs\/([^/]+)$/.exec(prop.$ref);
        prop = m ? defs[decodeURIComponent(m[1]!).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
      }
      return prop !== null && typeof prop === 'object' && !Array.isArray(prop) && prop[flag] === true;
    };
    out.required = node.required.filter((name) => typeof name !== 'string' || !hidden(name));
  }
  return out;
}

/**
 * An independent opinion (Ajv, draft 2020-12, formats asserted) on an example our validator rejected, with the
 * OpenAPI meaning of readOnly/writeOnly: a request example is judged in the write view (readOnly properties are
 * not required), a response example in the read view, a schema example in either.
 */
async function ajvChecker(defs: Record<string, Json>): Promise<(tokens: (string | number)[], value: Json, views: View[]) => { text: string; paths?: string[][] }> {
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const formatsModule = (await import('ajv-formats')) as unknown as { default: ((ajv: unknown) => unknown) | { default: (ajv: unknown) => unknown } };
  const addFormats = typeof formatsModule.default === 'function' ? formatsModule.default : formatsModule.default.default;
  type AjvError = { instancePath: string; keyword: string; message?: string; params?: { missingProperty?: string } };
  type Compiled = ((value: unknown) => boolean) & { errors?: AjvError[] | null };
  const instances = new Map<View, { getSchema(key: string): Compiled | undefined }>();
  const id = 'urn:corpus:schemas';
  const instance = (view: View) => {
    let ajv = instances.get(view);
    if (!ajv) {
      const created = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, logger: false });
      addFormats(created);
      created.addSchema({ $id: id, $defs: inView(defs, view, defs) } as never);
      ajv = created as never;
      instances.set(view, ajv!);
    }
    return ajv!;
  };
  const pathOf = (e: AjvError): string[] => {
    const path = e.instancePath === '' ? [] : e.instancePath.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    return e.keyword === 'required' && e.params?.missingProperty !== undefined ? [...path, e.params.missingProperty] : path;
  };
  return (tokens, value, views) => {
    let rejected: { text: string; paths: string[][] } | undefined;
    for (const view of views) {
      try {
        const validate = instance(view).getSchema(`${id}${fragment(['$defs', ...tokens])}`);
        if (!validate) return { text: 'could not compile: no schema at that location' };
        if (validate(value)) return { text: `accepts (${view} view)` };
        const errors = validate.errors ?? [];
        const e = errors[0];
        rejected ??= { text: `rejects: ${e ? `${e.instancePath || '(value)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}` : 'invalid'}`, paths: errors.map(pathOf) };
      } catch (error) {
        return { text: `could not compile: ${(error as Error).message.split('\n')[0]}` };
      }
    }
    return rejected!;
  };
}

// ---------------------------------------------------------------------------------------------------------
// The driver: workers in parallel, the table, the report.

function runWorker(spec: CorpusSpec, resultFile: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--worker', spec.name, resultFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolvePromise({ code, output }));
  });
}

const kb = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);
const sec = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function table(rows: Row[]): string {
  const head = ['spec', 'OpenAPI', 'size', 'operations', 'schemas', 'load', 'model', 'emit', 'tsc --strict', 'examples passed / failed', 'result'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((h, i) => (i >= 2 && i <= 7 ? '---:' : '---')).join('|')}|`];
  for (const r of rows) {
    const tsc = r.error && ['load', 'model', 'emit', 'write', 'tsc'].includes(r.error.stage) ? '-' : r.tsc.errors.length === 0 ? `ok (${r.tsc.files} files)` : `${r.tsc.errors.length} error(s)`;
    const examples = r.error && r.error.stage !== 'examples' ? '-' : `${r.examples.passed} / ${r.examples.failed}${r.examples.invalidInDocument > 0 ? ` (+${r.examples.invalidInDocument} invalid in the document)` : ''}`;
    const result = rowFailed(r) ? `**fail**${r.error ? ` (${r.error.stage})` : ''}` : 'pass';
    const files = r.files > 1 ? ` (${r.files} files)` : '';
    lines.push(`| ${[r.spec, r.openapi || '-', `${kb(r.bytes)}${files}`, r.operations, r.schemas, sec(r.ms.load), sec(r.ms.model), sec(r.ms.emit + r.ms.write), tsc, examples, result].join(' | ')} |`);
  }
  return lines.join('\n');
}

function details(rows: Row[]): string {
  const out: string[] = [];
  for (const r of rows) {
    const parts: string[] = [];
    if (r.error) parts.push(`- **${r.error.stage} failed**:\n\n  \`\`\`\n${r.error.message.split('\n').map((l) => `  ${l}`).join('\n')}\n  \`\`\``);
    for (const e of r.tsc.errors.slice(0, 20)) parts.push(`- tsc: \`${e.replace(/`/g, "'")}\``);
    if (r.tsc.errors.length > 20) parts.push(`- tsc: ... ${r.tsc.errors.length - 20} more`);
    for (const f of r.failures.slice(0, 20)) parts.push(`- example rejected by our validator but accepted by Ajv (${f.ajv}): \`${f.where}\`: ${f.ours.join('; ')}`);
    if (r.failures.length > 20) parts.push(`- ... ${r.failures.length - 20} more rejected examples`);
    // Examples invalid in the document, grouped by Ajv's reason with the instance paths and values left out.
    const groups = new Map<string, ExampleCheck[]>();
    for (const f of r.documentErrors) {
      const reason = (f.ajv ?? '').replace(/^rejects: /, '').replace(/ \{.*$/, '').replace(/^\/\S*/, '<field>').replace(/"[^"]*"/g, '"..."');
      groups.set(reason, [...(groups.get(reason) ?? []), f]);
    }
    for (const [reason, list] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
      parts.push(`- ${list.length} example(s) invalid in the document (Ajv agrees): ${reason}; e.g. \`${list[0]!.where}\`: ${list[0]!.ajv!.replace(/^rejects: /, '')}`);
    }
    if (r.examples.jsonText > 0) parts.push(`- ${r.examples.jsonText} example(s) of JSON media types are written as strings of JSON text; they were parsed and pass`);
    if (r.examples.wireForm > 0) parts.push(`- ${r.examples.wireForm} form/multipart example(s) are written as wire strings (\`"true"\`, \`"10"\`, one value for a list); read as a server reads a form, they pass`);
    if (r.examples.skipped > 0) parts.push(`- ${r.examples.skipped} example(s) of non-JSON media types (text, XML, binary) not checked`);
    if (parts.length > 0) out.push(`### ${r.spec}\n\n${parts.join('\n')}`);
  }
  return out.join('\n\n');
}

async function main(): Promise<number> {
  // `npm run corpus -- --directory [...]`: the public API directory instead (scripts/corpus-directory.ts).
  if (process.argv.includes('--directory')) return (await import('./corpus-directory.js')).directoryMain(process.argv.slice(2));
  // `--worker` is this script calling itself for one spec; any other flag is a user's mistake.
  if (process.argv[2] !== '--worker') {
    readCommandLine({
      command: 'corpus',
      usage: [
        'usage: npm run corpus                 every spec of ../shared/specs (or CORPUS_DIR); CORPUS_ONLY=a,b and CORPUS_JOBS=N narrow it',
        '       npm run corpus -- --directory  the public API directory instead (npm run corpus -- --directory --help)',
      ].join('\n'),
      options: {},
    });
  }
  // The corpus lives beside the project (../shared/specs) or where CORPUS_DIR says.
  // Missing: under CI an error (exit 1); elsewhere a loud skip (exit 0).
  const found = findOracle('corpus');
  if (found.dir === undefined) {
    console.error(`corpus: ${process.env.CI === 'true' ? 'FAILED' : '*** SKIPPED ***'}: ${found.missing}; set CORPUS_DIR to the folder of real-world specs`);
    return process.env.CI === 'true' ? 1 : 0;
  }
  const corpusDir = found.dir;
  let specs = findSpecs(corpusDir);
  const only = process.env.CORPUS_ONLY?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (only && only.length > 0) specs = specs.filter((s) => only.includes(s.name));

  if (process.argv[2] === '--worker') {
    const spec = specs.find((s) => s.name === process.argv[3]);
    if (!spec) throw new Error(`no spec ${process.argv[3]} in ${corpusDir}`);
    writeFileSync(process.argv[4]!, JSON.stringify(await runOne(spec)));
    return 0;
  }

  if (specs.length === 0) {
    console.error(`corpus: no specs in ${corpusDir}`);
    return 1;
  }
  const jobs = Math.max(1, Number(process.env.CORPUS_JOBS ?? Math.min(2, availableParallelism())));
  console.log(`corpus: ${specs.length} spec(s) from ${corpusDir}, ${jobs} at a time`);
  const started = performance.now();
  const results = mkdtempSync(join(tmpdir(), 'corpus-results-'));
  const rows = new Map<string, Row>();
  // Largest first, so the long ones do not end up last on one worker.
  const queue = [...specs].sort((a, b) => sizeOf(b) - sizeOf(a));
  const worker = async (): Promise<void> => {
    for (let spec = queue.shift(); spec; spec = queue.shift()) {
      const file = join(results, `${specs.indexOf(spec)}.json`);
      const { code, output } = await runWorker(spec, file);
      let row: Row;
      try {
        row = JSON.parse(readFileSync(file, 'utf8')) as Row;
      } catch {
        row = emptyRow(spec.name, relative(ROOT, spec.entry));
        row.error = { stage: 'worker', message: `the worker exited with ${code}: ${output.trim().split('\n').slice(-6).join('\n')}` };
      }
      rows.set(spec.name, row);
      console.log(`  ${rowFailed(row) ? 'FAIL' : 'ok  '} ${spec.name} (${sec(row.ms.total)})${row.out ? ` -> ${row.out}` : ''}`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  rmSync(results, { recursive: true, force: true });
  const ordered = specs.map((s) => rows.get(s.name)!);
  const elapsed = performance.now() - started;

  const failed = ordered.filter(rowFailed);
  const summary = `${ordered.length - failed.length} of ${ordered.length} specs pass; corpus run ${sec(elapsed)} with ${jobs} worker(s) on ${availableParallelism()} CPU(s), Node ${process.version}.`;
  const md = [
    '# Real-world specs',
    '',
    `Generated by \`npm run corpus\` on ${new Date().toISOString().slice(0, 10)} from \`${relative(ROOT, corpusDir) || corpusDir}\`. ${summary}`,
    '',
    'Columns: load, model and emit (emit, format and write) are the generator\'s stages; `tsc --strict` checks the',
    'client package\'s emitted TypeScript sources and its shipped `.d.ts` files; examples are the document\'s own media-type',
    'and schema examples run through the generated validators. An example the validators reject is checked again',
    'with Ajv: when Ajv rejects it as well, it contradicts its own schema and is listed as invalid in the document.',
    '',
    table(ordered),
    '',
    details(ordered),
    '',
  ].join('\n');
  mkdirSync(join(ROOT, 'reports'), { recursive: true });
  writeFileSync(join(ROOT, 'reports', 'corpus.md'), md);
  writeFileSync(join(ROOT, 'reports', 'corpus.json'), `${JSON.stringify({ corpus: corpusDir, ms: Math.round(elapsed), rows: ordered }, null, 2)}\n`);
  console.log(`\n${table(ordered)}\n`);
  const text = details(ordered);
  if (text !== '') console.log(`${text}\n`);
  console.log(summary);
  console.log('report: reports/corpus.md (every example verdict in reports/corpus.json)');
  return failed.length > 0 ? 1 : 0;
}

function sizeOf(spec: CorpusSpec): number {
  return spec.files.reduce((n, f) => n + statSync(f).size, 0);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(2);
  },
);
