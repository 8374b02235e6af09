// What an inferred resource's records hold where a create leaves a field out (issue 27, docs/x-vocabulary.md rule 11):
// a spec without our vocabulary often answers a create with fields the request does not carry (discord's message
// `mentions`, box's `type: file`), set by its server. The sandbox fills them from the resource schema so its answers
// are valid against the response schemas: a minimal valid record generated from the schema (its required fields,
// deterministic), plus every property whose schema fixes one value (`const`, a single-value `enum`) even when
// optional. Only absent fields are filled, at any depth of a plain object: what was sent always wins.
import { FILL_ITEMS } from '../../data/fill-items.js';
import { validValue } from '../../conformance/values/index.js';
import { defsRef, refNameOf } from '../../model/defs-ref.js';
import type { ApiModel, JsonValue, NamedSchema } from '../../model/ir.js';
import { defsOf } from './example-answer.js';

const objectOf = (node: unknown): Record<string, JsonValue> | undefined => (node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, JsonValue>) : undefined);

/** The one value a schema allows by `const` or a single-value `enum`, else undefined. */
export function fixedValue(schema: unknown): JsonValue | undefined {
  const s = objectOf(schema);
  if (s === undefined) return undefined;
  if (Object.prototype.hasOwnProperty.call(s, 'const')) return s.const;
  return Array.isArray(s.enum) && s.enum.length === 1 ? s.enum[0] : undefined;
}

/** A schema's named target (`$ref` to a named schema), else itself. */
function resolved(model: ApiModel, node: unknown): Record<string, JsonValue> | undefined {
  const name = refNameOf(node);
  return objectOf(name === undefined ? node : model.schemas[name]?.schema);
}

/** The properties an object schema declares, its `allOf` parts' included (followed through named schemas). */
function propertiesOf(model: ApiModel, node: unknown, depth = 0): Record<string, JsonValue> {
  const schema = resolved(model, node);
  const out: Record<string, JsonValue> = {};
  if (schema === undefined || depth > 6) return out;
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) Object.assign(out, propertiesOf(model, part, depth + 1));
  for (const [k, v] of Object.entries(objectOf(schema.properties) ?? {})) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}


/** An array schema's `items` (through a named schema), else undefined. */
function itemsOf(model: ApiModel, node: unknown): JsonValue | undefined {
  const schema = resolved(model, node);
  const type = schema?.type;
  const isArray = type === 'array' || (Array.isArray(type) && type.includes('array'));
  return isArray && schema?.items !== undefined && schema.items !== true ? schema.items : undefined;
}

/**
 * The fixed values (`const`, single-value `enum`) inside a schema's object properties, as a tree: box's
 * `user: { type: 'user' }` of a group membership; an object property's minimal valid value (two levels) under them. Applied inside objects a create sent only (fillPresent), never
 * creating one, so an optional `user` left out stays out.
 */
export function fixedTree(model: ApiModel, node: unknown, depth = 0): Record<string, JsonValue> | undefined {
  if (depth > 3) return undefined;
  const tree: Record<string, JsonValue> = {};
  for (const [prop, sub] of Object.entries(propertiesOf(model, node))) {
    const fixed = fixedValue(resolved(model, sub));
    const items = fixed === undefined && depth <= 1 ? itemsOf(model, sub) : undefined;
    if (items !== undefined) {
      // An array of objects of the first two levels: each item a write sends is completed like an object property
      // (discord's message `attachments[]` sent with fewer fields than the answer's items require), under FILL_ITEMS.
      const minimalItem = objectOf(validValue(items as never, defsOf(model)));
      const nestedItem = fixedTree(model, items, depth + 1);
      const template = minimalItem !== undefined ? { ...minimalItem, ...nestedItem } : nestedItem;
      if (template !== undefined) Object.defineProperty(tree, prop, { value: { [FILL_ITEMS]: template }, enumerable: true, writable: true, configurable: true });
      continue;
    }
    const nested = fixed === undefined ? fixedTree(model, sub, depth + 1) : undefined;
    // An object property of the first two levels also takes a minimal valid value of its schema (its required
    // fields), so an object a create sends with fewer fields than the answer requires (box's task `item` without its
    // `id`, its `item.file_version` without an `id`) is completed; deeper, only fixed values (generation stays small).
    const minimal = fixed === undefined && depth <= 1 ? objectOf(validValue(sub as never, defsOf(model))) : undefined;
    const value = fixed ?? (minimal !== undefined ? { ...minimal, ...nested } : nested);
    if (value !== undefined) Object.defineProperty(tree, prop, { value, enumerable: true, writable: true, configurable: true });
  }
  return Object.keys(tree).length > 0 ? tree : undefined;
}

/** The fill of a resource's records (never its id: the sandbox mints it), or undefined when there is nothing to fill. */
export function recordFill(model: ApiModel, named: NamedSchema, id: string): Record<string, JsonValue> | undefined {
  const generated = objectOf(validValue({ $ref: defsRef(named.name) } as never, defsOf(model)));
  const fill: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(generated ?? {})) Object.defineProperty(fill, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const [prop, sub] of Object.entries(objectOf(objectOf(named.schema)?.properties) ?? {})) {
    const name = refNameOf(sub);
    const fixed = fixedValue(name === undefined ? sub : model.schemas[name]?.schema);
    if (fixed !== undefined) Object.defineProperty(fill, prop, { value: fixed, enumerable: true, writable: true, configurable: true });
  }
  delete fill[id];
  return Object.keys(fill).length > 0 ? fill : undefined;
}
