// One schema of a document -> the IR's JSON Schema 2020-12 form (see ir.ts for the list of normalisations).
import type { JsonValue, SchemaNode } from './ir.js';
import { setOwn } from '../data/own-property.js';

/** The one data-safe key writer, re-exported for this layer's modules. */
export { setOwn };

export interface NormalizeContext {
  /** OpenAPI 3.0 documents get 3.0 semantics (nullable, boolean exclusive bounds, $ref siblings ignored). */
  openapi30: boolean;
  /** Map a `$ref` string of the source document to the IR ref, or undefined to keep it as it is. */
  rewriteRef(ref: string): string | undefined;
  /** Called for every `x-` key found on a schema node, so the caller can collect vocabulary (path is the node's path). */
  onExtension?(key: string, value: unknown, path: (string | number)[]): void;
}

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_SINGLE = ['not', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'contentSchema', 'additionalItems'];
/** OpenAPI-only keywords with no meaning for validation or types. */
const DROPPED = new Set(['xml', 'externalDocs', 'nullable']);

export function normalizeSchema(input: unknown, ctx: NormalizeContext, path: (string | number)[] = []): SchemaNode {
  if (typeof input === 'boolean') return input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return {};
  const src = input as Record<string, unknown>;

  if (typeof src.$ref === 'string') {
    const ref = ctx.rewriteRef(src.$ref) ?? src.$ref;
    if (ctx.openapi30) {
      // 3.0: siblings of $ref are ignored, except that a `nullable` sibling is a common (if informal) way to say "or null".
      const node: Record<string, JsonValue> = { $ref: ref };
      if (typeof src.description === 'string') node.description = src.description;
      collectExtensions(src, ctx, path);
      return src.nullable === true ? { anyOf: [node, { type: ['null'] }] } : node;
    }
  }

  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(src)) {
    const value = src[key];
    if (key.startsWith('x-')) {
      ctx.onExtension?.(key, value, path);
      continue;
    }
    if (DROPPED.has(key)) continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = ctx.rewriteRef(value) ?? value;
    else if (SCHEMA_MAPS.includes(key) && isObject(value)) {
      const map: Record<string, JsonValue> = {};
      for (const name of Object.keys(value)) setOwn(map, name, normalizeSchema(value[name], ctx, [...path, key, name]) as JsonValue);
      setOwn(out, key, map);
    } else if (SCHEMA_ARRAYS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((s, i) => normalizeSchema(s, ctx, [...path, key, i]) as JsonValue);
    } else if (key === 'items') {
      // 2019 tuple form `items: [..]` becomes prefixItems.
      if (Array.isArray(value)) out.prefixItems = value.map((s, i) => normalizeSchema(s, ctx, [...path, key, i]) as JsonValue);
      else out.items = normalizeSchema(value, ctx, [...path, key]) as JsonValue;
    } else if (SCHEMA_SINGLE.includes(key)) {
      out[key] = normalizeSchema(value, ctx, [...path, key]) as JsonValue;
    } else if (key === 'discriminator' && isObject(value)) {
      out.discriminator = normalizeDiscriminator(value, ctx);
    } else if (key === 'example') {
      if (!('examples' in src)) out.examples = [value as JsonValue];
    } else if (key === 'type') {
      out.type = (Array.isArray(value) ? value : [value]) as JsonValue;
    } else {
      setOwn(out, key, value as JsonValue);
    }
  }
  if (ctx.openapi30) apply30(src, out);
  return out;
}

/** Keywords that describe a schema without constraining values: they stay on the outside when a schema is wrapped. */
const ANNOTATIONS = new Set(['title', 'description', 'deprecated', 'readOnly', 'writeOnly', 'default', 'examples', '$comment']);

/**
 * A 3.0 `allOf` member that says only `nullable: true` (`allOf: [{ $ref: X }, { nullable: true }]`, the common way
 * to make a referenced schema nullable, since siblings of `$ref` are ignored). On its own it constrains nothing
 * (3.0.3: `nullable` only acts beside a `type`), so the one thing it can mean is "the composite may be null".
 */
function isNullableMarker(member: unknown): boolean {
  if (member === null || typeof member !== 'object' || Array.isArray(member)) return false;
  const m = member as Record<string, unknown>;
  return m.nullable === true && Object.keys(m).every((k) => k === 'nullable' || k.startsWith('x-') || ANNOTATIONS.has(k));
}

/** Make `out` (in place) accept null as well: `{ anyOf: [<out>, { type: ["null"] }] }`, annotations kept outside. */
function orNull(out: Record<string, JsonValue>): void {
  const composed: Record<string, JsonValue> = {};
  for (const k of Object.keys(out)) {
    if (ANNOTATIONS.has(k)) continue;
    setOwn(composed, k, out[k]!);
    delete out[k];
  }
  out.anyOf = [composed, { type: ['null'] }];
}

function apply30(src: Record<string, unknown>, out: Record<string, JsonValue>): void {
  // Bounds first: a nullable wrapper below moves them inside.
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (src[flag] === true && typeof src[bound] === 'number') {
      out[flag] = src[bound] as number;
      delete out[bound];
    } else if (src[flag] === false) delete out[flag];
  }
  const markers = Array.isArray(src.allOf) ? src.allOf.map(isNullableMarker) : [];
  const nullableAllOf = markers.includes(true);
  if (nullableAllOf && Array.isArray(out.allOf)) {
    const members = out.allOf.filter((_, i) => !markers[i]);
    if (members.length > 0) out.allOf = members;
    else delete out.allOf;
  }
  const composed = out.allOf !== undefined || out.anyOf !== undefined || out.oneOf !== undefined;
  if (nullableAllOf && composed) {
    // The other members constrain the value (an object, a referenced schema): null is the alternative to all of them.
    orNull(out);
  } else if (src.nullable === true || nullableAllOf) {
    if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    // `nullable` next to a composition: the value may also be null.
    if (out.type === undefined && composed) orNull(out);
  }
}

function normalizeDiscriminator(value: Record<string, unknown>, ctx: NormalizeContext): JsonValue {
  const out: Record<string, JsonValue> = {};
  if (typeof value.propertyName === 'string') out.propertyName = value.propertyName;
  if (isObject(value.mapping)) {
    const mapping: Record<string, JsonValue> = {};
    for (const key of Object.keys(value.mapping)) {
      const target = value.mapping[key];
      if (typeof target !== 'string') continue;
      // A mapping value is a $ref or a bare schema name.
      setOwn(mapping, key, ctx.rewriteRef(target.includes('#') || target.includes('/') ? target : `#/components/schemas/${target}`) ?? target);
    }
    out.mapping = mapping;
  }
  return out;
}

function collectExtensions(src: Record<string, unknown>, ctx: NormalizeContext, path: (string | number)[]): void {
  for (const key of Object.keys(src)) if (key.startsWith('x-')) ctx.onExtension?.(key, src[key], path);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

