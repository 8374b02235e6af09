// The OpenAPI 3.0 / 3.1 schema with every "X or Reference" alternative narrowed: the Reference branch accepts only
// `{ "$ref": "#/components/<section of X>/<name>" }` and nothing beside the `$ref` (3.0: the `oneOf [X, Reference]`
// pairs; 3.1: the `*-or-reference` definitions' `then`). The section of each X is read from the schema's own
// Components definition, so nothing here restates the OpenAPI structure.
//
// Why: the loader used to judge a document dereferenced (a ref is judged by what it points to), which needs a
// dereferenced copy of the document (swagger-parser's dereference of a clone: most of the load time and a second
// copy in memory on a 20 MB spec). A ref that passes the narrowed branch points into the components section of the
// kind its place expects, where the target is itself validated as that kind: judging the target at the ref's place
// would give the same answer, so validate-in-place.ts can prove the document passes without dereferencing it.
const NARROWED_REFERENCE_PREFIX = '__reference_into_';

type Json = Record<string, unknown>;

/** The characters a component name may have (the 3.0 schema's key pattern for every components map). */
const COMPONENT_NAME = '[A-Za-z0-9._-]+';

/**
 * The narrowed Reference for a section (`undefined`: a kind no components section holds, where no ref is accepted).
 * It also accepts `{ "$ref": <a natural number> }`: the stand-in validate-in-place.ts puts in every ref for a moment
 * (its pass 3), so that one compiled schema serves both of its passes; a document with a `$ref` member that is not
 * a string never reaches this schema.
 */
function narrowedReference(section: string | undefined): Json {
  const standIn = { type: 'integer', minimum: 0 };
  const ref = section === undefined ? standIn : { anyOf: [{ type: 'string', pattern: `^#/components/${section}/${COMPONENT_NAME}$` }, standIn] };
  return { type: 'object', required: ['$ref'], properties: { $ref: ref }, additionalProperties: false };
}

const refTo = (node: unknown): string | undefined => (node !== null && typeof node === 'object' && typeof (node as Json).$ref === 'string' ? ((node as Json).$ref as string) : undefined);

/** The schema (already without `$dynamicRef`s for 3.1) with its Reference branches narrowed; the input is not changed. */
export function narrowReferences(schema: object, line: '3.0' | '3.1'): object {
  const copy = structuredClone(schema) as Json;
  const defsKey = line === '3.0' ? 'definitions' : '$defs';
  const defs = copy[defsKey] as Json;
  const prefix = `#/${defsKey}/`;
  const referenceRef = `${prefix}${line === '3.0' ? 'Reference' : 'reference'}`;
  const components = ((defs[line === '3.0' ? 'Components' : 'components'] as Json).properties ?? {}) as Json;

  // The kind each components section holds: 3.0 `oneOf [X, Reference]` under patternProperties; 3.1 a
  // `$ref` to an `x-or-reference` definition under additionalProperties (the kind is that definition's name).
  const sectionOf = new Map<string, string>();
  for (const [section, property] of Object.entries(components)) {
    const maps = property as Json;
    const valueSchema = (line === '3.0' ? Object.values((maps.patternProperties ?? {}) as Json)[0] : maps.additionalProperties) as Json | undefined;
    if (valueSchema === undefined) continue;
    const kind = line === '3.0' ? (valueSchema.oneOf as unknown[] | undefined)?.map(refTo).find((r) => r !== undefined && r !== referenceRef) : refTo(valueSchema);
    if (kind !== undefined) sectionOf.set(kind.slice(prefix.length), section);
  }

  const used = new Set<string | undefined>();
  const narrowedRef = (kind: string): Json => {
    const section = sectionOf.get(kind);
    used.add(section);
    return { $ref: `${prefix}${NARROWED_REFERENCE_PREFIX}${section ?? 'nothing'}` };
  };
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    const object = node as Json;
    if (line === '3.0' && Array.isArray(object.oneOf) && object.oneOf.some((m) => refTo(m) === referenceRef)) {
      const kind = object.oneOf.map(refTo).find((r) => r !== undefined && r !== referenceRef);
      if (kind !== undefined) object.oneOf = object.oneOf.map((m) => (refTo(m) === referenceRef ? narrowedRef(kind.slice(prefix.length)) : m));
    }
    for (const value of Object.values(object)) walk(value);
  };
  if (line === '3.0') walk(copy);
  else {
    // 3.1: `{ if: { required: [$ref] }, then: { $ref: reference }, else: { $ref: X } }`, one definition per kind.
    for (const [name, def] of Object.entries(defs)) {
      const d = def as Json;
      if (refTo(d.then) === referenceRef) d.then = narrowedRef(name);
    }
  }
  for (const section of used) defs[`${NARROWED_REFERENCE_PREFIX}${section ?? 'nothing'}`] = narrowedReference(section);
  return copy;
}

/**
 * The names of the lists the schema declares `uniqueItems` over items that may be references (3.0: the
 * `parameters` of a path item and of an operation). Dereferenced, two different refs there can be equal items.
 */
export function uniqueReferenceLists(schema: object, line: '3.0' | '3.1'): Set<string> {
  const referenceRef = line === '3.0' ? '#/definitions/Reference' : '#/$defs/reference';
  const names = new Set<string>();
  const mayBeReference = (items: unknown): boolean => JSON.stringify(items ?? null).includes(JSON.stringify(referenceRef));
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const object = node as Json;
    const properties = Array.isArray(node) ? undefined : (object.properties as Json | undefined);
    if (properties !== null && typeof properties === 'object') {
      for (const [name, property] of Object.entries(properties)) {
        const p = property as Json;
        if (p !== null && typeof p === 'object' && p.uniqueItems === true && mayBeReference(p.items)) names.add(name);
      }
    }
    for (const value of Object.values(object)) walk(value);
  };
  walk(schema);
  return names;
}
