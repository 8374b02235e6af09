// Facts read from a schema object (its types, bounds, value lists, whether a $ref target can be inlined): pure
// reads shared by the code-generation context and the keyword emitters, with no code generation of their own.
import { hasOwn, isObject } from './scope.js';

export type SchemaObject = Record<string, unknown>;

const JSON_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'];

/** The `type` keyword as a list of known type names, or undefined when absent. */
export function typesOf(s: SchemaObject): string[] | undefined {
  if (!hasOwn(s, 'type')) return undefined;
  const t = s.type;
  const list = Array.isArray(t) ? t : [t];
  return list.filter((x): x is string => typeof x === 'string' && JSON_TYPES.includes(x));
}

/** Keywords that apply subschemas to the same instance (and so pass on annotations for unevaluated*). */
export function hasInPlace(s: SchemaObject): boolean {
  return ['$ref', '$dynamicRef', 'allOf', 'anyOf', 'oneOf', 'if', 'dependentSchemas'].some((k) => hasOwn(s, k));
}

export function num(s: SchemaObject, k: string): number | undefined {
  const v = s[k];
  return hasOwn(s, k) && typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function schemaArray(s: SchemaObject, k: string): unknown[] {
  const v = s[k];
  return hasOwn(s, k) && Array.isArray(v) ? v : [];
}

export function schemaMap(s: SchemaObject, k: string): string[] {
  const v = s[k];
  return hasOwn(s, k) && isObject(v) ? Object.keys(v) : [];
}

export function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Longest value list tested with a chain of comparisons; longer lists of primitives use a hoisted Set. */
export const ENUM_CHAIN_MAX = 16;

/** The JSON type names a value satisfies (`integer` values also satisfy `number`). */
function jsonTypesOf(v: unknown): string[] {
  if (v === null) return ['null'];
  if (Array.isArray(v)) return ['array'];
  if (typeof v === 'number') return Number.isInteger(v) ? ['integer', 'number'] : ['number'];
  return [typeof v];
}

/**
 * True when passing `const`/`enum` already proves the `type` keyword (every allowed value has an allowed type),
 * so the fast check can leave the type test out.
 */
export function valuesImplyType(s: SchemaObject, types: string[]): boolean {
  const values = hasOwn(s, 'const') ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
  return values !== undefined && values.every((v) => jsonTypesOf(v).some((t) => types.includes(t)));
}

/** Keywords that apply subschemas: a schema with none of them is a leaf. */
const APPLICATORS = [
  '$ref', '$dynamicRef', 'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'items',
  'prefixItems', 'contains', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas',
  'unevaluatedProperties', 'unevaluatedItems',
];

/**
 * A `$ref` target small enough to inline at the reference instead of calling its function: a leaf (so the
 * inlining cannot recurse) whose code is a few lines (a short value list at most).
 */
export function inlineableTarget(node: unknown): boolean {
  if (typeof node === 'boolean') return true;
  if (!isObject(node) || APPLICATORS.some((k) => hasOwn(node, k))) return false;
  if (hasOwn(node, 'const') && !isPrimitive(node.const)) return false;
  return !Array.isArray(node.enum) || (node.enum.length <= ENUM_CHAIN_MAX && node.enum.every(isPrimitive));
}

export function isPrimitive(v: unknown): boolean {
  return v === null || typeof v !== 'object';
}
