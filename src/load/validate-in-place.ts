// Proving, without dereferencing, that a document passes the loader's check (validate.ts): swagger-parser's
// dereference of a copy (refs that lead nowhere, what its parser refuses), then the OpenAPI schema over the
// dereferenced copy. On a 20 MB spec that copy and its dereference were most of the load stage's time and a second
// copy of the document in memory; the document is instead checked where it is, in three passes over it:
//
// 1. every ref json-schema-ref-parser would follow (a `$ref` string starting `#/` or equal to `#`) names
//    `#/components/<section>/<name>` where an object that is not a ref itself exists; and in a list whose items must
//    be unique (a `parameters` list), no two items would be equal once dereferenced;
// 2. the OpenAPI schema with its Reference branches narrowed (narrowed-references.ts) passes: a ref in an
//    "X or Reference" place has nothing beside its `$ref` and points into the components section of kind X, where
//    its target is validated as X, so the target at the ref's place would pass too;
// 3. with each `$ref` briefly set to a number (one per target; restored at once), the same schema, whose Reference
//    branches accept such a number and nothing else looks for one, passes: so a ref that is not in an "X or Reference" place sits where the OpenAPI
//    schema looks at nothing of it (an extension, an example, a 3.1 Schema Object, which the loader's schema takes as
//    any object or boolean), and its target (with the ref's siblings merged in, as dereferencing does) would pass
//    there too. This rests on a property of the pinned OpenAPI schemas: apart from the Reference branches, every
//    object they describe either refuses a `$ref` member or is not looked into at all (no open object with
//    constrained properties); the test that holds both paths equal (test/load/validate-in-place.test.ts) checks it.
//
// Anything else (a violation, an unusual ref, a `$ref` member that is not a string, a version swagger-parser's
// parser treats apart) answers `false`, and
// the caller takes the dereferencing path, which reports exactly what it always did.
import { openApiSchemaViolations, uniqueListsOfReferences, type CompiledCache } from './openapi-schema.js';

type Json = Record<string, unknown>;

/** The versions @apidevtools/swagger-parser 12.1 parses (others: its own error, through the dereferencing path). */
const PARSED_VERSIONS = new Set(['3.0.0', '3.0.1', '3.0.2', '3.0.3', '3.0.4', '3.1.0', '3.1.1', '3.1.2']);

const PLAIN_REF = /^#\/components\/([^/]+)\/([A-Za-z0-9._-]+)$/;

/** Nodes one unique list's items may expand to when compared dereferenced; a larger list is left to the slow path. */
const EXPANSION_BUDGET = 100_000;

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
/** A ref json-schema-ref-parser follows with external refs off (its `$Ref.isAllowed$Ref`). */
const isFollowedRef = (value: unknown): value is Json => isObject(value) && typeof value.$ref === 'string' && (value.$ref === '#' || value.$ref.startsWith('#/'));

class NotPlain extends Error {}

/** Pass 1: every followed ref object (its `$ref` is swapped for a moment in pass 3); `undefined` when one is not plain. */
function plainRefs(document: Json): Json[] | undefined {
  const components = isObject(document.components) ? document.components : undefined;
  const uniqueLists = uniqueListsOfReferences(document);
  const sites: Json[] = [];
  const targetOf = (ref: Json): Json => {
    const match = PLAIN_REF.exec(ref.$ref as string);
    const section = match && components && hasOwn(components, match[1]!) ? components[match[1]!] : undefined;
    const target = match && isObject(section) && hasOwn(section, match[2]!) ? section[match[2]!] : undefined;
    if (!isObject(target) || hasOwn(target, '$ref')) throw new NotPlain();
    return target;
  };
  // Canonical JSON (keys sorted) of a value with its refs replaced by their targets, as dereferencing would make it.
  const dereferencedText = (value: unknown, onPath: Set<Json>, budget: { left: number }): string => {
    if (--budget.left < 0) throw new NotPlain();
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map((v) => dereferencedText(v, onPath, budget)).join(',')}]`;
    if (isFollowedRef(value)) {
      // Dereferencing merges a ref's siblings into a copy of its target: such an item is not compared here.
      if (Object.keys(value).length !== 1) throw new NotPlain();
      const target = targetOf(value);
      // A ref back into itself stays a ref when dereferenced (circular refs are left in place): not compared here.
      if (onPath.has(target)) throw new NotPlain();
      onPath.add(target);
      const text = dereferencedText(target, onPath, budget);
      onPath.delete(target);
      return text;
    }
    const object = value as Json;
    return `{${Object.keys(object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${dereferencedText(object[k], onPath, budget)}`)
      .join(',')}}`;
  };
  // Recursion is bounded: the parser refuses documents nested deeper than the limit (limits.js).
  const visit = (node: unknown, key: string): void => {
    if (node === null || typeof node !== 'object') return;
    if (isFollowedRef(node)) {
      targetOf(node);
      sites.push(node);
      return;
    }
    // Pass 3's stand-in is a number: a document with a number there already is left to the dereferencing check.
    if (!Array.isArray(node) && hasOwn(node, '$ref') && typeof (node as Json).$ref !== 'string') throw new NotPlain();
    if (Array.isArray(node) && uniqueLists.has(key) && node.some(isFollowedRef)) {
      const budget = { left: EXPANSION_BUDGET };
      const texts = new Set(node.map((item) => dereferencedText(item, new Set(), budget)));
      if (texts.size !== node.length) throw new NotPlain();
    }
    for (const k of Object.keys(node)) visit((node as Json)[k], k);
  };
  try {
    visit(document, '');
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
  return sites;
}

/** True when the document is proven to pass the dereferencing check with no violation (see the head of the file). */
export function passesInPlace(document: Json, cache?: CompiledCache): boolean {
  // What swagger-parser's parse refuses or treats apart is left to it.
  if (document.swagger !== undefined || typeof document.openapi !== 'string' || !PARSED_VERSIONS.has(document.openapi)) return false;
  if (document.paths === undefined && !(document.openapi.startsWith('3.1') && document.webhooks !== undefined)) return false;
  if (isObject(document.info) && typeof document.info.version === 'number') return false;
  if (isFollowedRef(document)) return false;

  const sites = plainRefs(document);
  if (sites === undefined) return false;
  if (openApiSchemaViolations(document, cache, 'narrowed').length > 0) return false;
  if (sites.length === 0) return true;

  // Pass 3: one number per target, so that refs equal before stay equal (and unequal ones unequal) for uniqueItems.
  // The swap is undone before anything else can see the document (the check is synchronous).
  const refs = sites.map((site) => site.$ref as string);
  const numbers = new Map<string, number>();
  try {
    for (const site of sites) {
      const ref = site.$ref as string;
      if (!numbers.has(ref)) numbers.set(ref, numbers.size);
      site.$ref = numbers.get(ref);
    }
    return openApiSchemaViolations(document, cache, 'narrowed').length === 0;
  } finally {
    sites.forEach((site, i) => {
      site.$ref = refs[i];
    });
  }
}
