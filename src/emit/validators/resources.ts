// Schema documents a schema refers to by URI (`$ref: "http://host/other.json#/$defs/x"`), given by the caller:
// the compiler never fetches anything. Each given document is embedded into the root as a schema resource
// (JSON Schema 2020-12, section 9.3: a compound document whose embedded resources keep their own `$id`), so every
// reference stays a location of one document, which is what the code generator specialises functions for. A
// document is known by the URI it was retrieved from even when its own `$id` says otherwise (the suite's
// "retrieved nested refs resolve relative to their URI not $id"): that URI is an alias of its location.
//
// Vocabularies: when the root's `$schema` is one of the given documents and its `$vocabulary` leaves out the
// validation vocabulary, the root resource's validation keywords are annotations only (section 8.1.2), so they
// are dropped before compiling.
import { ARRAY_SCHEMA, childPointer, hasOwn, isObject, MAP_SCHEMA, SINGLE_SCHEMA, type SchemaNode } from './scope.js';

/** Where embedded documents live in the compound root: a `$defs` name no schema of a spec can carry by accident. */
const EMBED_PREFIX = '\u0000resource:';

const VALIDATION_VOCABULARY = 'https://json-schema.org/draft/2020-12/vocab/validation';
const VALIDATION_KEYWORDS = [
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties', 'required',
  'dependentRequired',
];

export interface Embedded {
  root: SchemaNode;
  /** Retrieval URI (no fragment) -> location of the embedded document, for documents whose `$id` differs. */
  aliases: Map<string, string>;
}

const stripFragment = (uri: string): string => (uri.includes('#') ? uri.slice(0, uri.indexOf('#')) : uri);

/** The root with `resources` (retrieval URI -> document) embedded; the root itself when there are none. */
export function embedResources(root: SchemaNode, resources: ReadonlyMap<string, SchemaNode> | undefined): Embedded {
  const aliases = new Map<string, string>();
  if (resources === undefined || resources.size === 0 || typeof root === 'boolean') return { root, aliases };
  const compound: Record<string, unknown> = { ...applyVocabulary(root, resources) };
  const defs: Record<string, unknown> = { ...(isObject(compound.$defs) ? compound.$defs : {}) };
  for (const [rawUri, document] of resources) {
    const uri = stripFragment(rawUri);
    const name = `${EMBED_PREFIX}${uri}`;
    const own = isObject(document) && typeof document.$id === 'string' ? document.$id : undefined;
    // A document without an `$id` takes its retrieval URI as its base; one with another `$id` keeps it.
    defs[name] = isObject(document) && own === undefined ? { ...document, $id: uri } : document;
    if (own !== undefined && stripFragment(own) !== uri) aliases.set(uri, childPointer('', '$defs', name));
  }
  compound.$defs = defs;
  return { root: compound, aliases };
}

/** The root without its validation keywords when its meta-schema (a given document) leaves that vocabulary out. */
function applyVocabulary(root: Record<string, unknown>, resources: ReadonlyMap<string, SchemaNode>): Record<string, unknown> {
  if (typeof root.$schema !== 'string') return root;
  const meta = resources.get(stripFragment(root.$schema));
  if (!isObject(meta) || !isObject(meta.$vocabulary) || hasOwn(meta.$vocabulary, VALIDATION_VOCABULARY)) return root;
  return withoutValidation(root, true) as Record<string, unknown>;
}

/** A copy of a schema resource without validation keywords; embedded resources (their own `$id`) are kept. */
function withoutValidation(node: unknown, isRoot: boolean): unknown {
  if (!isObject(node)) return node;
  if (!isRoot && typeof node.$id === 'string') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (VALIDATION_KEYWORDS.includes(key)) continue;
    if ((SINGLE_SCHEMA as readonly string[]).includes(key)) out[key] = withoutValidation(value, false);
    else if ((ARRAY_SCHEMA as readonly string[]).includes(key) && Array.isArray(value)) out[key] = value.map((v) => withoutValidation(v, false));
    else if ((MAP_SCHEMA as readonly string[]).includes(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutValidation(v, false)]));
    else out[key] = value;
  }
  return out;
}
