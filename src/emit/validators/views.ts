// Request and response views of the schemas for validation (OpenAPI: a readOnly property is not sent in a
// request, a writeOnly one is not answered, so neither is *required* there). A named schema gets a view copy
// only when it, or a schema it references, requires such a property; otherwise the original is used, so most
// documents (and all of ours) validate against the schemas as written.
import type { JsonValue, SchemaNode } from '../../model/ir.js';

const REF = '#/$defs/';

type Obj = { [key: string]: JsonValue };

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export interface ViewBuilder {
  /** The schema to validate with in this view (a copy with adjusted `required` and refs, or the node itself). */
  view(node: SchemaNode): SchemaNode;
}

/**
 * `flag` is `readOnly` for the request view and `writeOnly` for the response view. `define(name, schema)`
 * registers a view copy of a named schema and answers the `$ref` to it.
 */
export function viewBuilder(defs: Record<string, SchemaNode>, flag: 'readOnly' | 'writeOnly', define: (name: string, schema: SchemaNode) => string): ViewBuilder {
  const affected = new Map<string, boolean>();
  const copies = new Map<string, string>();

  const refName = (node: Obj): string | undefined => (typeof node.$ref === 'string' && node.$ref.startsWith(REF) ? decodeURIComponent(node.$ref.slice(REF.length)) : undefined);

  const flagged = (prop: JsonValue | undefined): boolean => {
    if (!isObj(prop)) return false;
    if (prop[flag] === true) return true;
    const all = prop.allOf;
    if (Array.isArray(all) && all.length === 1 && isObj(all[0]) && all[0][flag] === true) return true;
    const name = refName(prop);
    const target = name === undefined ? undefined : defs[name];
    return isObj(target) && target[flag] === true;
  };

  /** Whether a node (or a named schema it reaches) requires a flagged property. */
  const touches = (node: JsonValue | undefined, seen: Set<string>): boolean => {
    if (Array.isArray(node)) return node.some((n) => touches(n, seen));
    if (!isObj(node)) return false;
    const name = refName(node);
    if (name !== undefined) return named(name, seen);
    const props = isObj(node.properties) ? node.properties : {};
    if (Array.isArray(node.required) && node.required.some((r) => typeof r === 'string' && flagged(props[r]))) return true;
    return Object.entries(node).some(([k, v]) => k !== 'const' && k !== 'enum' && k !== 'default' && k !== 'examples' && touches(v, seen));
  };

  const named = (name: string, seen: Set<string>): boolean => {
    const known = affected.get(name);
    if (known !== undefined) return known;
    if (seen.has(name)) return false;
    seen.add(name);
    const result = touches(defs[name] as JsonValue, seen);
    seen.delete(name);
    if (seen.size === 0) affected.set(name, result);
    return result;
  };

  const rewrite = (node: JsonValue): JsonValue => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isObj(node)) return node;
    const name = refName(node);
    if (name !== undefined) return named(name, new Set()) ? { ...node, $ref: copyOf(name) } : node;
    const out: Obj = {};
    const props = isObj(node.properties) ? node.properties : {};
    for (const [k, v] of Object.entries(node)) {
      const value = k === 'required' && Array.isArray(v) ? v.filter((r) => !(typeof r === 'string' && flagged(props[r]))) : k === 'const' || k === 'enum' || k === 'default' || k === 'examples' ? v : rewrite(v);
      Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };

  const copyOf = (name: string): string => {
    const known = copies.get(name);
    if (known !== undefined) return known;
    // Registered before rewriting, so a recursive schema refers to its own copy.
    const holder: Obj = {};
    const pointer = define(name, holder);
    copies.set(name, pointer);
    Object.assign(holder, rewrite(defs[name] as JsonValue) as Obj);
    return pointer;
  };

  return {
    view(node) {
      return touches(node as JsonValue, new Set()) ? (rewrite(node as JsonValue) as SchemaNode) : node;
    },
  };
}
