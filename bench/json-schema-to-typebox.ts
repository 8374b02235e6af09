// Converts the JSON Schema 2020-12 subset used by the benchmarked bodies into TypeBox types, inlining
// `#/$defs/<Name>` references. TypeBox's checkers only understand TypeBox's own `[Kind]`-tagged types (a raw
// JSON Schema wrapped in `Type.Unsafe` compiles to an unknown `Unsafe` kind), so a faithful peer needs this.
// Any keyword outside the supported subset throws: the conversion must never silently drop a constraint.
import { Type, type TSchema } from '@sinclair/typebox';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Node = boolean | { [keyword: string]: Json };

/** Keywords that carry no validation meaning (annotations and extensions). */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'contentMediaType', 'contentSchema', 'contentEncoding']);

const STRING_KEYS = ['minLength', 'maxLength', 'pattern'] as const;
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
const ARRAY_KEYS = ['items', 'minItems', 'maxItems', 'uniqueItems'] as const;
const OBJECT_KEYS = ['properties', 'required', 'additionalProperties'] as const;
const HANDLED = new Set<string>(['type', 'enum', 'const', '$ref', 'allOf', ...STRING_KEYS, ...NUMBER_KEYS, ...ARRAY_KEYS, ...OBJECT_KEYS]);

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

export function toTypeBox(root: Node, defs: Record<string, Node>): TSchema {
  const stack: string[] = [];

  const convert = (node: Node): TSchema => {
    if (node === true) return Type.Unknown();
    if (node === false) return Type.Never();
    for (const k of Object.keys(node)) {
      if (!HANDLED.has(k) && !ANNOTATIONS.has(k) && !k.startsWith('x-')) {
        throw new Error(`json-schema-to-typebox: unsupported keyword "${k}"`);
      }
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

    const allOf = node.allOf;
    if (allOf !== undefined) {
      if (!Array.isArray(allOf)) throw new Error('allOf must be an array');
      for (const sub of allOf) parts.push(convert(sub as Node));
    }

    const local = convertLocal(node);
    if (local !== null) parts.push(local);

    if (parts.length === 0) return Type.Unknown();
    if (parts.length === 1) return parts[0]!;
    return Type.Intersect(parts);
  };

  /** The node's own type/enum/const and type-specific constraints, or null if it has none. */
  const convertLocal = (node: { [key: string]: Json }): TSchema | null => {
    const declared = node.type;
    const types: string[] | null =
      declared === undefined ? null : Array.isArray(declared) ? (declared as string[]) : [declared as string];

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
      for (const k of [...STRING_KEYS, ...NUMBER_KEYS, ...ARRAY_KEYS, ...OBJECT_KEYS]) {
        if (node[k] !== undefined) throw new Error(`"${k}" without "type" is not supported`);
      }
      return null;
    }

    const branches = types.map((t): TSchema => {
      switch (t) {
        case 'null':
          return Type.Null();
        case 'boolean':
          return Type.Boolean();
        case 'string':
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
          const opts: Record<string, unknown> = {};
          if (ap === false) opts.additionalProperties = false;
          else if (ap !== undefined && ap !== true) opts.additionalProperties = convert(ap as Node);
          return Type.Object(shape, opts);
        }
        default:
          throw new Error(`unsupported type "${t}"`);
      }
    });
    return branches.length === 1 ? branches[0]! : Type.Union(branches);
  };

  return convert(root);
}
