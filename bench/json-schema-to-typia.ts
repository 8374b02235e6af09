// Writes the JSON Schema 2020-12 the model produces as TypeScript types carrying typia's constraint tags
// (`string & tags.MaxLength<200>`), so that typia's ahead-of-time validators check the same constraints as ours,
// Ajv and TypeBox. typia validates TypeScript types, not JSON Schemas; plain types (the generated client's) would
// leave every length, range and pattern unchecked and make it a different, easier job.
// Anything typia's types cannot say exactly throws: the conversion must never silently drop a constraint.
//
// Exact translations:
// - `type` lists, `enum`/`const`, string/number/array bounds, `pattern`, `format`, `uniqueItems`, `properties`,
//   `required`, `additionalProperties` (a schema: an index signature; `false` is not supported: typia's `is`
//   accepts extra keys and its `equals` refuses them everywhere, not per object);
// - `$ref` to a named type alias; `allOf` an intersection; `anyOf` a union;
// - `oneOf` a union only when its branches admit disjoint sets of JSON types or enum values (then "exactly one"
//   and "at least one" agree);
// - `if`/`then` of the form `if: { required: [p], properties: { p: { enum: E } } }` on an object whose own `p` is
//   an enum D: the object becomes a union of `p in E` with `then` merged in, and `p in D \ E` (or absent, when `p`
//   is optional) with `else` merged in.
// JSON Schema's `integer` becomes typia's `number & tags.Type<"int64">` (an integer within +-2^63: larger
// integers, valid JSON Schema integers, are refused by typia; no benchmarked input has one).
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Node = boolean | { [keyword: string]: Json };
type Obj = { [keyword: string]: Json };

const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'contentMediaType', 'contentSchema', 'contentEncoding']);
const STRING_TAGS: Record<string, string> = { minLength: 'MinLength', maxLength: 'MaxLength', pattern: 'Pattern', format: 'Format' };
const NUMBER_TAGS: Record<string, string> = { minimum: 'Minimum', maximum: 'Maximum', exclusiveMinimum: 'ExclusiveMinimum', exclusiveMaximum: 'ExclusiveMaximum', multipleOf: 'MultipleOf' };
const ARRAY_KEYS = ['items', 'minItems', 'maxItems', 'uniqueItems'];
const OBJECT_KEYS = ['properties', 'required', 'additionalProperties'];
const HANDLED = new Set(['type', 'enum', 'const', '$ref', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', ...Object.keys(STRING_TAGS), ...Object.keys(NUMBER_TAGS), ...ARRAY_KEYS, ...OBJECT_KEYS]);

function fail(message: string): never {
  throw new Error(`json-schema-to-typia: ${message}`);
}

const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const lit = (v: Json): string => (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? JSON.stringify(v) : fail(`unsupported enum value ${JSON.stringify(v)}`));
const jsonType = (v: Json): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);
const union = (xs: string[]): string => (xs.length === 0 ? 'never' : xs.length === 1 ? xs[0]! : xs.map((x) => `(${x})`).join(' | '));
const intersection = (xs: string[]): string => (xs.length === 0 ? 'unknown' : xs.length === 1 ? xs[0]! : xs.map((x) => `(${x})`).join(' & '));
const tag = (name: string, value: Json): string => `tags.${name}<${JSON.stringify(value)}>`;

/** A TypeScript identifier for a schema name (`spec.Name` and the like included), distinct per name. */
export function typiaTypeName(name: string): string {
  return `T_${name.replace(/[^A-Za-z0-9_]/g, (c) => `$${c.charCodeAt(0).toString(16)}`)}`;
}

export interface TypiaSource {
  /** The module text: the type aliases, then `is_<key>` and `validate_<key>` for each root. */
  text: string;
}

/**
 * A TypeScript module for `typia generate`: a type alias per named schema the roots reach, and for each root
 * `export const is_<key> = typia.createIs<...>()` and `validate_<key> = typia.createValidate<...>()`.
 */
export function toTypiaModule(roots: Record<string, Node>, defs: Record<string, Node>): TypiaSource {
  const reached = new Set<string>();
  const queue: string[] = [];
  const refName = (ref: Json): string => {
    if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) fail(`unsupported $ref ${JSON.stringify(ref)}`);
    const name = ref.slice('#/$defs/'.length);
    if (defs[name] === undefined) fail(`unresolved $ref ${ref}`);
    if (!reached.has(name)) {
      reached.add(name);
      queue.push(name);
    }
    return name;
  };
  const deref = (node: Node): Node => {
    let n = node;
    for (let i = 0; isObj(n as Json) && (n as Obj).$ref !== undefined && i < 100; i++) n = defs[refName((n as Obj).$ref!)]!;
    return n;
  };

  /** The JSON types (and, for enums, the values) a schema can admit, or null when unknown: for the oneOf rule. */
  const admits = (node: Node): Set<string> | null => {
    const n = deref(node);
    if (typeof n === 'boolean') return null;
    if (n.const !== undefined) return new Set([`=${JSON.stringify(n.const)}`]);
    if (Array.isArray(n.enum)) return new Set(n.enum.map((v) => `=${JSON.stringify(v)}`));
    if (n.type !== undefined) return new Set((Array.isArray(n.type) ? n.type : [n.type]).map(String));
    return null;
  };
  const disjoint = (sets: (Set<string> | null)[]): boolean => {
    // A type admits every value of that type (and `number` every integer); a value is in the set of its type.
    const covers = (a: string, b: string): boolean => {
      if (a === b) return true;
      if (a === 'number' && b === 'integer') return true;
      if (a.startsWith('=') && !b.startsWith('=')) return covers(b, a);
      if (!a.startsWith('=') && b.startsWith('=')) {
        const t = jsonType(JSON.parse(b.slice(1)) as Json);
        return a === t || (a === 'number' && t === 'integer');
      }
      return false;
    };
    for (let i = 0; i < sets.length; i++) {
      for (let j = i + 1; j < sets.length; j++) {
        const a = sets[i] ?? null;
        const b = sets[j] ?? null;
        if (a === null || b === null) return false;
        for (const x of a) for (const y of b) if (covers(x, y) || covers(y, x)) return false;
      }
    }
    return true;
  };

  const convert = (node: Node): string => {
    if (node === true) return 'unknown';
    if (node === false) return 'never';
    for (const k of Object.keys(node)) if (!HANDLED.has(k) && !ANNOTATIONS.has(k) && !k.startsWith('x-')) fail(`unsupported keyword "${k}"`);
    const parts: string[] = [];
    if (node.$ref !== undefined) parts.push(typiaTypeName(refName(node.$ref)));
    if (node.allOf !== undefined) parts.push(...(node.allOf as Node[]).map(convert));
    if (node.anyOf !== undefined) parts.push(union((node.anyOf as Node[]).map(convert)));
    if (node.oneOf !== undefined) {
      const branches = node.oneOf as Node[];
      if (!disjoint(branches.map(admits))) fail(`oneOf whose branches may overlap: ${JSON.stringify(node.oneOf).slice(0, 200)}`);
      parts.push(union(branches.map(convert)));
    }
    const local = convertLocal(node);
    if (local !== null) parts.push(local);
    return intersection(parts);
  };

  const convertLocal = (node: Obj): string | null => {
    const types: string[] | null = node.type === undefined ? null : Array.isArray(node.type) ? node.type.map(String) : [String(node.type)];
    const values: Json[] | null = node.const !== undefined ? [node.const] : Array.isArray(node.enum) ? node.enum : null;
    const specific = [...Object.keys(STRING_TAGS), ...Object.keys(NUMBER_TAGS), ...ARRAY_KEYS, ...OBJECT_KEYS, 'if'].filter((k) => node[k] !== undefined);
    if (values !== null) {
      if (specific.length > 0) fail(`"${specific[0]}" next to enum/const is not supported`);
      const admitted = values.filter((v) => types === null || types.includes(jsonType(v)) || (jsonType(v) === 'integer' && types.includes('number')));
      return union(admitted.map(lit));
    }
    if (types === null) {
      if (specific.length > 0) fail(`"${specific[0]}" without "type" is not supported outside the if/then form`);
      return null;
    }
    return union(types.map((t) => typed(t, node)));
  };

  const typed = (t: string, node: Obj): string => {
    const tags = (table: Record<string, string>): string[] => Object.entries(table).filter(([k]) => node[k] !== undefined).map(([k, name]) => tag(name, node[k]!));
    switch (t) {
      case 'null':
        return 'null';
      case 'boolean':
        return 'boolean';
      case 'string':
        return ['string', ...tags(STRING_TAGS)].join(' & ');
      case 'number':
        return ['number', ...tags(NUMBER_TAGS)].join(' & ');
      case 'integer':
        return ['number', 'tags.Type<"int64">', ...tags(NUMBER_TAGS)].join(' & ');
      case 'array': {
        const items = node.items === undefined ? 'unknown' : convert(node.items as Node);
        const bounds = [node.minItems !== undefined ? tag('MinItems', node.minItems) : '', node.maxItems !== undefined ? tag('MaxItems', node.maxItems) : '', node.uniqueItems === true ? 'tags.UniqueItems' : ''].filter(Boolean);
        return [`Array<${items}>`, ...bounds].join(' & ');
      }
      case 'object':
        return object(node);
      default:
        return fail(`unsupported type "${t}"`);
    }
  };

  interface Prop {
    schemas: Node[];
    required: boolean;
  }

  const objectLiteral = (props: Map<string, Prop>, additional: Json | undefined): string => {
    if (additional === false) fail('additionalProperties: false is not supported (typia `is` accepts extra keys)');
    const lines = [...props].map(([k, p]) => `${JSON.stringify(k)}${p.required ? '' : '?'}: ${intersection(p.schemas.map(convert))};`);
    if (additional !== undefined && additional !== true) {
      if (props.size > 0) fail('properties beside an additionalProperties schema are not supported');
      lines.push(`[key: string]: ${convert(additional as Node)};`);
    }
    return lines.length === 0 ? 'Record<string, unknown>' : `{ ${lines.join(' ')} }`;
  };

  const propsOf = (node: Obj): Map<string, Prop> => {
    const props = new Map<string, Prop>();
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    for (const [k, s] of Object.entries(isObj(node.properties) ? node.properties : {})) props.set(k, { schemas: [s as Node], required: required.has(k) });
    for (const k of required) if (!props.has(k)) props.set(k, { schemas: [true], required: true });
    return props;
  };

  /** Adds a subschema's properties and required names to a property map (an allOf of object constraints). */
  const merge = (into: Map<string, Prop>, node: Node): void => {
    if (node === true) return;
    if (node === false || Object.keys(node).some((k) => k !== 'properties' && k !== 'required' && !ANNOTATIONS.has(k))) fail(`if/then branch other than { properties, required }: ${JSON.stringify(node)}`);
    for (const [k, p] of propsOf(node)) {
      const had = into.get(k);
      if (had) {
        had.schemas.push(...p.schemas.filter((s) => s !== true));
        had.required ||= p.required;
      } else into.set(k, { schemas: [...p.schemas], required: p.required });
    }
  };

  const object = (node: Obj): string => {
    if (node.if === undefined) return objectLiteral(propsOf(node), node.additionalProperties);
    // The supported conditional: if a required enum property p is in E then `then`, else `else`.
    const cond = node.if;
    const condProps = isObj(cond) && isObj(cond.properties) ? cond.properties : undefined;
    const p = isObj(cond) && Array.isArray(cond.required) && cond.required.length === 1 ? String(cond.required[0]) : undefined;
    const pSchema = p !== undefined && condProps ? condProps[p] : undefined;
    const inE = isObj(pSchema) && Object.keys(pSchema).every((k) => k === 'enum') ? pSchema.enum : undefined;
    if (p === undefined || !Array.isArray(inE) || !isObj(cond) || Object.keys(cond).some((k) => k !== 'required' && k !== 'properties') || Object.keys(condProps!).length !== 1) {
      fail(`if other than { required: [p], properties: { p: { enum } } }: ${JSON.stringify(cond)}`);
    }
    const base = propsOf(node);
    const own = base.get(p!);
    const domain = own && own.schemas.length === 1 ? (deref(own.schemas[0]!) as Obj).enum : undefined;
    if (!own || !Array.isArray(domain)) fail(`if on "${p}": the object's own "${p}" must be one enum`);
    const inSet = new Set(inE.map((v) => JSON.stringify(v)));
    const thenProps = new Map([...base].map(([k, v]) => [k, { schemas: [...v.schemas], required: v.required }]));
    thenProps.set(p, { schemas: [{ enum: (domain as Json[]).filter((v) => inSet.has(JSON.stringify(v))) }], required: true });
    merge(thenProps, (node.then as Node | undefined) ?? true);
    const elseProps = new Map([...base].map(([k, v]) => [k, { schemas: [...v.schemas], required: v.required }]));
    elseProps.set(p, { schemas: [{ enum: (domain as Json[]).filter((v) => !inSet.has(JSON.stringify(v))) }], required: own!.required });
    merge(elseProps, (node.else as Node | undefined) ?? true);
    return union([objectLiteral(thenProps, node.additionalProperties), objectLiteral(elseProps, node.additionalProperties)]);
  };

  const exports: string[] = [];
  for (const [key, root] of Object.entries(roots)) {
    const type = convert(root);
    exports.push(`export const is_${key} = typia.createIs<${type}>();`, `export const validate_${key} = typia.createValidate<${type}>();`);
  }
  const aliases: string[] = [];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) aliases.push(`export type ${typiaTypeName(name)} = ${convert(defs[name]!)};`);
  const text = ["// Written by bench/json-schema-to-typia.ts from the model's schemas; transformed by `typia generate`.", "import typia, { tags } from 'typia';", '', ...aliases, '', ...exports, ''].join('\n');
  return { text };
}
