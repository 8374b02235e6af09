// Converts the JSON Schema 2020-12 the model produces into TypeBox types, inlining `#/$defs/<Name>` references.
// TypeBox's checkers only understand TypeBox's own `[Kind]`-tagged types (a raw JSON Schema wrapped in
// `Type.Unsafe` compiles to an unknown `Unsafe` kind), so a faithful peer needs this.
// Any keyword or form outside what is converted throws: the conversion must never silently drop a constraint.
//
// JSON Schema semantics kept exactly:
// - a type-specific keyword without `type` (`required` in an `if`, `minLength` beside an `anyOf`) constrains only
//   instances of its type: it becomes `not <type> or <type with the keywords>`;
// - `oneOf` is "exactly one": branch i becomes `S_i and not S_j (j != i)`, the branches joined by a union;
// - `if`/`then`/`else` becomes `(if and then) or (not if and else)` (a missing branch is `true`);
// - `format` is checked by ajv-formats' own (full mode) functions, registered with TypeBox's FormatRegistry, so
//   TypeBox and the Ajv peer check formats alike.
import { FormatRegistry, Type, type TSchema } from '@sinclair/typebox';
import { fullFormats } from 'ajv-formats/dist/formats.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Node = boolean | { [keyword: string]: Json };

/** Keywords that carry no validation meaning (annotations and extensions). */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'contentMediaType', 'contentSchema', 'contentEncoding']);

const STRING_KEYS = ['minLength', 'maxLength', 'pattern', 'format'] as const;
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
const ARRAY_KEYS = ['items', 'minItems', 'maxItems', 'uniqueItems'] as const;
const OBJECT_KEYS = ['properties', 'required', 'additionalProperties', 'propertyNames', 'minProperties', 'maxProperties'] as const;
const APPLICATORS = ['$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'] as const;
const HANDLED = new Set<string>(['type', 'enum', 'const', ...APPLICATORS, ...STRING_KEYS, ...NUMBER_KEYS, ...ARRAY_KEYS, ...OBJECT_KEYS]);

/** The instance kinds a type-specific keyword applies to, and the TypeBox type that admits any instance of it. */
const KINDS: { name: 'string' | 'number' | 'array' | 'object'; keys: readonly string[]; any: () => TSchema }[] = [
  { name: 'string', keys: STRING_KEYS, any: () => Type.String() },
  { name: 'number', keys: NUMBER_KEYS, any: () => Type.Number() },
  { name: 'array', keys: ARRAY_KEYS, any: () => Type.Array(Type.Unknown()) },
  { name: 'object', keys: OBJECT_KEYS, any: () => Type.Object({}) },
];

/** Registers every format the schema uses with ajv-formats' check (once per format). */
function registerFormat(name: string): void {
  if (FormatRegistry.Has(name)) return;
  const f = (fullFormats as Record<string, unknown>)[name];
  const check = f instanceof RegExp ? (s: string) => f.test(s) : typeof f === 'function' ? (f as (s: string) => boolean) : typeof f === 'object' && f !== null && 'validate' in f ? (f as { validate: (s: string) => boolean }).validate : undefined;
  if (check === undefined) throw new Error(`json-schema-to-typebox: unknown format "${name}"`);
  FormatRegistry.Set(name, check);
}

function isObj(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pick(node: { [key: string]: Json }, keys: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const k of keys) if (node[k] !== undefined) out[k] = node[k];
  return out;
}

function literal(v: Json): TSchema {
  if (v === null) return Type.Null();
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return Type.Literal(v);
  throw new Error(`json-schema-to-typebox: unsupported enum/const value ${JSON.stringify(v)}`);
}

function jsonType(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const all = (parts: TSchema[]): TSchema => (parts.length === 0 ? Type.Unknown() : parts.length === 1 ? parts[0]! : Type.Intersect(parts));

export function toTypeBox(root: Node, defs: Record<string, Node>): TSchema {
  const stack: string[] = [];

  const list = (v: Json | undefined, keyword: string): Node[] => {
    if (!Array.isArray(v) || v.length === 0) throw new Error(`json-schema-to-typebox: ${keyword} must be a non-empty array`);
    return v as Node[];
  };

  const convert = (node: Node): TSchema => {
    if (node === true) return Type.Unknown();
    if (node === false) return Type.Never();
    for (const k of Object.keys(node)) {
      if (!HANDLED.has(k) && !ANNOTATIONS.has(k) && !k.startsWith('x-')) throw new Error(`json-schema-to-typebox: unsupported keyword "${k}"`);
    }
    const parts: TSchema[] = [];

    const ref = node.$ref;
    if (ref !== undefined) {
      if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) throw new Error(`unsupported $ref ${JSON.stringify(ref)}`);
      const name = ref.slice('#/$defs/'.length);
      const target = defs[name];
      if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
      if (stack.includes(name)) throw new Error(`recursive $ref ${ref} is not supported`);
      stack.push(name);
      parts.push(convert(target));
      stack.pop();
    }
    if (node.allOf !== undefined) for (const sub of list(node.allOf, 'allOf')) parts.push(convert(sub));
    if (node.anyOf !== undefined) parts.push(Type.Union(list(node.anyOf, 'anyOf').map(convert)));
    if (node.oneOf !== undefined) {
      const branches = list(node.oneOf, 'oneOf').map(convert);
      parts.push(branches.length === 1 ? branches[0]! : Type.Union(branches.map((b, i) => Type.Intersect([b, ...branches.filter((_, j) => j !== i).map((o) => Type.Not(o))]))));
    }
    if (node.not !== undefined) parts.push(Type.Not(convert(node.not as Node)));
    if (node.if !== undefined) {
      const cond = convert(node.if as Node);
      const then = node.then === undefined ? Type.Unknown() : convert(node.then as Node);
      const otherwise = node.else === undefined ? Type.Unknown() : convert(node.else as Node);
      parts.push(Type.Union([Type.Intersect([cond, then]), Type.Intersect([Type.Not(cond), otherwise])]));
    }
    // `then`/`else` without `if` are ignored by JSON Schema; so here.

    const local = convertLocal(node);
    if (local !== null) parts.push(local);
    return all(parts);
  };

  /** The node's own type/enum/const and type-specific constraints, or null if it has none. */
  const convertLocal = (node: { [key: string]: Json }): TSchema | null => {
    const declared = node.type;
    const types: string[] | null = declared === undefined ? null : Array.isArray(declared) ? (declared as string[]) : [declared as string];

    const values: Json[] | null = node.const !== undefined ? [node.const] : Array.isArray(node.enum) ? node.enum : null;
    if (values !== null) {
      if (node.const !== undefined && node.enum !== undefined) throw new Error('const together with enum is not supported');
      // Keep the values the declared type admits; string/number constraints on enum values are not supported.
      for (const k of [...STRING_KEYS, ...NUMBER_KEYS, ...ARRAY_KEYS, ...OBJECT_KEYS]) {
        if (node[k] !== undefined) throw new Error(`"${k}" next to enum/const is not supported`);
      }
      const admitted = values.filter((v) => {
        if (types === null) return true;
        const t = jsonType(v);
        return types.includes(t) || (t === 'integer' && types.includes('number'));
      });
      const lits = admitted.map(literal);
      if (lits.length === 0) return Type.Never();
      return lits.length === 1 ? lits[0]! : Type.Union(lits);
    }

    if (types === null) {
      // Type-specific keywords without a type constrain only instances of their kind.
      const guards = KINDS.filter((kind) => kind.keys.some((k) => node[k] !== undefined)).map((kind) => Type.Union([Type.Not(kind.any()), typed(kind.name, node)]));
      return guards.length === 0 ? null : all(guards);
    }
    const branches = types.map((t) => typed(t, node));
    return branches.length === 1 ? branches[0]! : Type.Union(branches);
  };

  /** One JSON type with the node's keywords for it. */
  const typed = (t: string, node: { [key: string]: Json }): TSchema => {
    switch (t) {
      case 'null':
        return Type.Null();
      case 'boolean':
        return Type.Boolean();
      case 'string':
        if (typeof node.format === 'string') registerFormat(node.format);
        return Type.String(pick(node, STRING_KEYS));
      case 'number':
        return Type.Number(pick(node, NUMBER_KEYS));
      case 'integer':
        return Type.Integer(pick(node, NUMBER_KEYS));
      case 'array': {
        const items = node.items === undefined ? Type.Unknown() : convert(node.items as Node);
        return Type.Array(items, pick(node, ['minItems', 'maxItems', 'uniqueItems']));
      }
      case 'object': {
        const props = isObj(node.properties) ? node.properties : {};
        const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
        const shape: Record<string, TSchema> = {};
        for (const [k, sub] of Object.entries(props)) {
          const t2 = convert(sub as Node);
          shape[k] = required.has(k) ? t2 : Type.Optional(t2);
        }
        for (const k of required) if (!(k in shape)) shape[k] = Type.Unknown();
        const ap = node.additionalProperties;
        const opts: Record<string, unknown> = pick(node, ['minProperties', 'maxProperties']);
        if (ap === false) opts.additionalProperties = false;
        else if (ap !== undefined && ap !== true) opts.additionalProperties = convert(ap as Node);
        const object = Type.Object(shape, opts);
        if (node.propertyNames === undefined) return object;
        // propertyNames: every key matches; TypeBox says it with a record whose keys carry the pattern.
        const names = node.propertyNames;
        if (!isObj(names) || Object.keys(names).some((k) => k !== 'pattern' && k !== 'type' && !ANNOTATIONS.has(k)) || typeof names.pattern !== 'string') {
          throw new Error(`json-schema-to-typebox: propertyNames other than { pattern } is not supported: ${JSON.stringify(names)}`);
        }
        return Type.Intersect([object, Type.Record(Type.String({ pattern: names.pattern }), Type.Unknown(), { additionalProperties: false })]);
      }
      default:
        throw new Error(`unsupported type "${t}"`);
    }
  };

  return convert(root);
}
