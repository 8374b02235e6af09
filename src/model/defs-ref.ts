// References to the model's named schemas. Every reference to a named schema in the IR is
// `{ "$ref": "#/$defs/<name>" }`; a name is data from the spec (it may hold `/`, `~`, `%`, spaces, quotes), so it is
// JSON-pointer escaped and then URI-fragment encoded, as JSON Schema resolves `$ref` fragments. This module is the
// one place that writes and reads those references.

const PREFIX = '#/$defs/';

/** `#/$defs/<name>`, with `name` escaped. */
export function defsRef(name: string): string {
  return PREFIX + encodeURIComponent(name.replace(/~/g, '~0').replace(/\//g, '~1'));
}

/** The named schema a `$ref` points at (`#/$defs/<name>` exactly, one segment), or undefined for any other ref. */
export function defsName(ref: string): string | undefined {
  if (!ref.startsWith(PREFIX)) return undefined;
  const token = ref.slice(PREFIX.length);
  if (token.includes('/')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    return undefined;
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The named schema a schema node refers to, when it is exactly such a reference. */
export function refNameOf(node: unknown): string | undefined {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  const ref = (node as { $ref?: unknown }).$ref;
  return typeof ref === 'string' ? defsName(ref) : undefined;
}

/** Keywords that only annotate: an `allOf` part made of them (and `x-` extensions) constrains nothing. */
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'deprecated', 'externalDocs', '$comment']);

/**
 * The one part of an `allOf` that constrains, when the others only annotate: `allOf: [ { $ref } ]` (a ref with
 * sibling annotations, OpenAPI 3.0 style) and `allOf: [ { $ref }, { description } ]` (AWS's specs annotate every
 * property so) are the referenced schema. Any other node is itself.
 */
export function throughAnnotations(node: unknown): unknown {
  const all = node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as { allOf?: unknown }).allOf : undefined;
  if (!Array.isArray(all)) return node;
  const annotatesOnly = (part: unknown): boolean =>
    part !== null && typeof part === 'object' && !Array.isArray(part) && Object.keys(part).every((k) => ANNOTATIONS.has(k) || k.startsWith('x-'));
  const constraining = all.filter((part) => !annotatesOnly(part));
  return constraining.length === 1 ? constraining[0] : node;
}
