// What a request body may be at its top level, read from its schema, so the checks that send a body of the wrong
// kind (an array, an object, null) send one the schema really refuses (issue 27: box and discord take JSON arrays
// and nullable bodies, and a check that sent `[]` to a JSON Patch body expected a 400 the spec does not give).
import { isJsonMediaType } from './http.js';
import type { Route } from './suite-data.js';
import { deref } from './world.js';

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'object' ? 'object' : t === 'string' ? 'string' : t === 'boolean' ? 'boolean' : 'number';
}

/**
 * The JSON types a schema admits at its top level, or undefined when that cannot be told (a schema that admits
 * anything, `not`, conditionals, a reference that does not resolve): a check then leaves that probe out rather
 * than guess. `allOf` intersects, `anyOf`/`oneOf` unite (an over-estimate for `oneOf`, which only ever skips a probe).
 */
export function topLevelTypes(node: unknown, defs: Record<string, unknown>, depth = 0): Set<JsonType> | undefined {
  if (depth > 10 || node === undefined) return undefined;
  if (node === true) return undefined;
  if (node === false) return new Set();
  const schema = deref(node, defs);
  if (typeof schema.$ref === 'string' || 'not' in schema || 'if' in schema) return undefined;
  let types: Set<JsonType> | undefined;
  const narrow = (next: Set<JsonType> | undefined): void => {
    if (next === undefined) return;
    types = types === undefined ? new Set(next) : new Set([...types].filter((t) => next.has(t)));
  };
  const declared = schema.type;
  if (typeof declared === 'string' || Array.isArray(declared)) {
    const list = (Array.isArray(declared) ? declared : [declared]).map((t) => (t === 'integer' ? 'number' : t)) as JsonType[];
    // OpenAPI 3.0's `nullable: true` adds null to the declared type.
    narrow(new Set(schema.nullable === true ? [...list, 'null'] : list));
  }
  if ('const' in schema) narrow(new Set([typeOf(schema.const)]));
  if (Array.isArray(schema.enum)) narrow(new Set(schema.enum.map(typeOf)));
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) narrow(topLevelTypes(part, defs, depth + 1));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const union = new Set<JsonType>();
    for (const branch of branches) {
      const t = topLevelTypes(branch, defs, depth + 1);
      if (t === undefined) return types; // one branch admits anything: the union says nothing more
      for (const x of t) union.add(x);
    }
    narrow(union);
  }
  return types;
}

/** Whether a check may send the route a body as JSON at all: its body is declared with a JSON media type. */
export function takesJsonBody(route: Route): route is Route & { body: NonNullable<Route['body']> } {
  return route.body !== null && (route.body.media.length === 0 || route.body.media.some(isJsonMediaType));
}

/**
 * Whether a check may send the route an object body as the operation takes it: JSON, or a form (`send` encodes it
 * as the generated client does). For checks whose values survive a form's text; a wrong-type probe does not (a
 * number sent in a form is also a valid string), so those stay on takesJsonBody.
 */
export function takesObjectBody(route: Route): route is Route & { body: NonNullable<Route['body']> } {
  return takesJsonBody(route) || route.body?.form !== undefined;
}

/** A JSON value of a type the route's body schema refuses, with its description; undefined when none is known. */
export function wrongKindOfBody(route: Route, schemas: Record<string, { body: unknown }>, defs: Record<string, unknown>): { body: unknown; what: string } | undefined {
  const types = topLevelTypes(schemas[route.id]?.body, defs);
  if (types === undefined || types.size === 0) return undefined;
  const wanted = [...types].join(' or ');
  if (!types.has('array')) return { body: [], what: `a JSON array where the body is ${wanted}` };
  if (!types.has('object')) return { body: {}, what: `a JSON object where the body is ${wanted}` };
  return undefined;
}

/** Whether the route's body schema refuses JSON null (so a null body must be 400). */
export function refusesNullBody(route: Route, schemas: Record<string, { body: unknown }>, defs: Record<string, unknown>): boolean {
  const types = topLevelTypes(schemas[route.id]?.body, defs);
  return types !== undefined && !types.has('null');
}
