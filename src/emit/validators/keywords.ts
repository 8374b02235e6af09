// Schema facts and small expression builders shared by the check (c/a) and error (e) emitters.
// Every schema value reaches generated code through the project encoder (jsString / jsValue).
import { jsString, jsValue } from '../../encode/index.js';
import type { Gen } from './context.js';
import { hasOwn, isObject } from './scope.js';

export type SchemaObject = Record<string, unknown>;
export type Group = 'string' | 'number' | 'array' | 'object';

const JSON_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'];

/** The `type` keyword as a list of known type names, or undefined when absent. */
export function typesOf(s: SchemaObject): string[] | undefined {
  if (!hasOwn(s, 'type')) return undefined;
  const t = s.type;
  const list = Array.isArray(t) ? t : [t];
  return list.filter((x): x is string => typeof x === 'string' && JSON_TYPES.includes(x));
}

/** Expression true when `x` is a JSON value of type `t` (objects: non-null, non-array). */
export function typeCond(t: string, x: string): string {
  switch (t) {
    case 'null':
      return `${x} === null`;
    case 'boolean':
      return `typeof ${x} === "boolean"`;
    case 'string':
      return `typeof ${x} === "string"`;
    case 'number':
      return `(typeof ${x} === "number" && Number.isFinite(${x}))`;
    case 'integer':
      return `Number.isInteger(${x})`;
    case 'array':
      return `Array.isArray(${x})`;
    case 'object':
      return `(typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x}))`;
    default:
      return 'false';
  }
}

export function typesCond(types: string[], x: string): string {
  return types.length === 0 ? 'false' : types.map((t) => typeCond(t, x)).join(' || ');
}

function groupOfType(t: string): Group | undefined {
  if (t === 'integer' || t === 'number') return 'number';
  if (t === 'string' || t === 'array' || t === 'object') return t;
  return undefined;
}

/**
 * How type-specific keywords of a group are guarded once `type` has been checked: 'dead' when the type
 * check already excludes the group, 'bare' when it guarantees it, otherwise the guard expression.
 */
export function groupGuard(types: string[] | undefined, group: Group, x: string): 'dead' | 'bare' | string {
  if (types) {
    const groups = types.map(groupOfType);
    if (!groups.includes(group)) return 'dead';
    if (groups.every((gr) => gr === group)) return 'bare';
  }
  switch (group) {
    case 'string':
      return `typeof ${x} === "string"`;
    case 'number':
      return `typeof ${x} === "number"`;
    case 'array':
      return `Array.isArray(${x})`;
    case 'object':
      return `typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x})`;
  }
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

function isPrimitive(v: unknown): boolean {
  return v === null || typeof v !== 'object';
}

/** Expression true when `x` deep-equals the JSON constant `value`. */
export function eqExpr(g: Gen, x: string, value: unknown): string {
  if (isPrimitive(value)) return `${x} === ${jsValue(value)}`;
  return `${g.use('$eq')}(${x}, ${g.constant('k', jsValue(value))})`;
}

/** Expression true when `x` equals one of `values`: a comparison chain, or a hoisted Set for long primitive lists. */
export function enumExpr(g: Gen, x: string, values: unknown[]): string {
  if (values.length === 0) return 'false';
  if (values.length > 6 && values.every(isPrimitive)) return `${g.constant('s', `new Set(${jsValue(values)})`)}.has(${x})`;
  return values.map((v) => eqExpr(g, x, v)).join(' || ');
}

/** A module-level RegExp compiled from the pattern text (a JSON string literal, never a regex literal). */
export function patternRe(g: Gen, source: string): string {
  return g.constant('r', `${g.use('$re')}(${jsString(source)})`);
}

/** Expression true when the key `k` is one of the declared property names. */
export function declaredExpr(g: Gen, names: string[], k: string): string {
  if (names.length === 0) return 'false';
  if (names.length > 8) return `${g.constant('s', `new Set(${jsValue(names)})`)}.has(${k})`;
  return names.map((n) => `${k} === ${jsString(n)}`).join(' || ');
}
