// Small expression builders shared by the check (c/a) and error (e) emitters.
// Every schema value reaches generated code through the project encoder (jsString / jsValue).
import { jsString, jsValue, propertyAccess } from '../../encode/index.js';
import type { Body, Gen } from './context.js';
import { ENUM_CHAIN_MAX, isPrimitive, } from './schema-facts.js';

export type Group = 'string' | 'number' | 'array' | 'object';

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
      return `Number.isFinite(${x})`; // false for anything that is not a number
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

/** Expression true when `x` deep-equals the JSON constant `value`. */
export function eqExpr(g: Gen, x: string, value: unknown): string {
  if (isPrimitive(value)) return `${x} === ${jsValue(value)}`;
  return `${g.use('$eq')}(${x}, ${g.constant('k', jsValue(value))})`;
}

/** Expression true when `x` equals one of `values`: a comparison chain, or a hoisted Set for long primitive lists. */
export function enumExpr(g: Gen, x: string, values: unknown[]): string {
  if (values.length === 0) return 'false';
  // A chain of === (identity for most strings) beats Set#has (hashing, a builtin call) for short lists.
  if (values.length > ENUM_CHAIN_MAX && values.every(isPrimitive)) return `${g.constant('s', `new Set(${jsValue(values)})`)}.has(${x})`;
  return values.map((v) => eqExpr(g, x, v)).join(' || ');
}

/** A module-level RegExp compiled from the pattern text (a JSON string literal, never a regex literal). */
export function patternRe(g: Gen, source: string): string {
  return g.constant('r', `${g.use('$re')}(${jsString(source)})`);
}

/**
 * Expression true when the string in `x` matches the pattern. A pattern whose whole text is one of a few
 * common forms is answered by a trusted runtime helper (chosen by comparing the text, never built from it):
 * `\S` ("not blank") stops at the first non-space character, where a RegExp call costs tens of nanoseconds.
 */
export function patternTest(g: Gen, source: string, x: string): string {
  if (source === '\\S') return `${g.use('$nonBlank')}(${x})`;
  return `${patternRe(g, source)}.test(${x})`;
}

/** Expression true when the key `k` is one of the declared property names. */
export function declaredExpr(g: Gen, names: string[], k: string): string {
  if (names.length === 0) return 'false';
  if (names.length > ENUM_CHAIN_MAX) return `${g.constant('s', `new Set(${jsValue(names)})`)}.has(${k})`;
  return names.map((n) => `${k} === ${jsString(n)}`).join(' || ');
}

/**
 * Property names that exist on Object.prototype (in current engines, plus a few legacy ones): for these a
 * read would find the inherited member, so presence needs an own-property test.
 */
const PROTO_NAMES = new Set([
  '__proto__', 'constructor', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', 'toString',
  'valueOf', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__', 'toSource', 'watch',
  'unwatch', '__count__', '__parent__', '__noSuchMethod__',
]);

/**
 * Presence of the property `name` on the object in `x`: it is present when reading it gives a value other than
 * `undefined`, so a key set to `undefined` counts as absent, as it does for JSON.stringify (JSON has no
 * undefined). That is one property read and no call, which keeps the valid path cheap. For names that
 * Object.prototype has (`__proto__`, `constructor`, `toString`, ...) the read would find the inherited member,
 * so those also need an own-property test. (Keys that loops visit, for additionalProperties and the like, are
 * the own enumerable keys, whatever their values.)
 */
export function presentExpr(g: Gen, x: string, name: string): string {
  const read = `${propertyAccess(x, name)} !== undefined`;
  return PROTO_NAMES.has(name) ? `${g.use('$hasOwn')}.call(${x}, ${jsString(name)}) && ${read}` : read;
}

export function absentExpr(g: Gen, x: string, name: string): string {
  const read = `${propertyAccess(x, name)} === undefined`;
  return PROTO_NAMES.has(name) ? `(!${g.use('$hasOwn')}.call(${x}, ${jsString(name)}) || ${read})` : read;
}

/** Bind property `name` of `x` to a fresh variable and open a block that runs only when it is present. */
export function openPresent(g: Gen, b: Body, x: string, name: string): string {
  const v = b.v('v');
  if (PROTO_NAMES.has(name)) {
    b.line(`const ${v} = ${g.use('$hasOwn')}.call(${x}, ${jsString(name)}) ? ${propertyAccess(x, name)} : undefined;`);
  } else b.line(`const ${v} = ${propertyAccess(x, name)};`);
  b.open(`if (${v} !== undefined)`);
  return v;
}

/** Bind property `name` of `x` to a fresh variable, running `fail` when it is absent. */
export function requirePresent(g: Gen, b: Body, x: string, name: string, fail: string): string {
  const v = b.v('v');
  if (PROTO_NAMES.has(name)) {
    b.line(`const ${v} = ${g.use('$hasOwn')}.call(${x}, ${jsString(name)}) ? ${propertyAccess(x, name)} : undefined;`);
  } else b.line(`const ${v} = ${propertyAccess(x, name)};`);
  b.line(`if (${v} === undefined) ${fail}`);
  return v;
}
