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
