// Where a name of `x-alias-renames` occurs in an operation: as a path or query parameter, or as a property of
// the JSON request body or of the success answer at some depth (through `$ref`, `allOf` parts and array items).
// The model checks renames with it and the route table turns the places into the paths the sandbox rewrites.
import type { ApiModel, JsonValue, Operation, SchemaNode } from './ir.js';
import { preferredMedia } from './media.js';

const REF = '#/$defs/';
const MAX_DEPTH = 6;

/** The parent path of a property (`[]` = the items of an array) and the property's schema. */
export interface NamePlace {
  at: string[];
  schema: SchemaNode | undefined;
}

export interface NamePlaces {
  path: SchemaNode | undefined;
  query: SchemaNode | undefined;
  body: NamePlace[];
  response: NamePlace[];
}

type Obj = Record<string, JsonValue>;

function objectOf(node: unknown): Obj | undefined {
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Obj) : undefined;
}

function resolve(model: ApiModel, node: SchemaNode | undefined): Obj | undefined {
  let current: unknown = node;
  for (let i = 0; i < 16; i++) {
    const o = objectOf(current);
    const ref = o?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith(REF)) return o;
    current = model.schemas[ref.slice(REF.length)]?.schema;
  }
  return undefined;
}

/** Every place a property `name` is declared inside a schema, parents first. */
export function propertyPlaces(model: ApiModel, root: SchemaNode | undefined, name: string): NamePlace[] {
  const out: NamePlace[] = [];
  const walk = (node: SchemaNode | undefined, at: string[], depth: number): void => {
    const schema = resolve(model, node);
    if (!schema || depth > MAX_DEPTH) return;
    const props = objectOf(schema.properties);
    if (props) {
      if (Object.prototype.hasOwnProperty.call(props, name)) out.push({ at, schema: props[name] as SchemaNode });
      for (const [key, sub] of Object.entries(props)) walk(sub as SchemaNode, [...at, key], depth + 1);
    }
    if (schema.items !== undefined) walk(schema.items as SchemaNode, [...at, '[]'], depth + 1);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const parts = schema[key];
      if (Array.isArray(parts)) for (const part of parts) walk(part as SchemaNode, at, depth + 1);
    }
  };
  walk(root, [], 0);
  return [...new Map(out.map((p) => [[...p.at, name].join('\u0000'), p])).values()];
}

export function successResponse(op: Operation): SchemaNode | undefined {
  const response = op.responses.find((r) => /^2\d\d$/.test(r.status));
  return response ? preferredMedia(response.content)?.schema : undefined;
}

export function namePlaces(model: ApiModel, op: Operation, name: string): NamePlaces {
  return {
    path: op.parameters.path.find((p) => p.name === name)?.schema,
    query: op.parameters.query.find((p) => p.name === name)?.schema,
    body: op.requestBody ? propertyPlaces(model, preferredMedia(op.requestBody.content)?.schema, name) : [],
    response: propertyPlaces(model, successResponse(op), name),
  };
}

export function occurs(places: NamePlaces): boolean {
  return places.path !== undefined || places.query !== undefined || places.body.length > 0 || places.response.length > 0;
}

/** The enum values a place allows (through `$ref` / single `allOf`), or undefined when it is not an enum. */
export function enumOf(model: ApiModel, node: SchemaNode | undefined): JsonValue[] | undefined {
  let schema = resolve(model, node);
  for (let i = 0; i < 8 && schema; i++) {
    if (Array.isArray(schema.enum)) return schema.enum;
    if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) schema = resolve(model, schema.items as SchemaNode);
    else if (Array.isArray(schema.allOf) && schema.allOf.length === 1) schema = resolve(model, schema.allOf[0] as SchemaNode);
    else return undefined;
  }
  return undefined;
}

export function allPlaces(places: NamePlaces): SchemaNode[] {
  return [places.path, places.query, ...places.body.map((p) => p.schema), ...places.response.map((p) => p.schema)].filter((s): s is SchemaNode => s !== undefined);
}
