// Request and response views of the schemas for validation (OpenAPI: a readOnly property is not sent in a
// request, a writeOnly one is not answered, so neither is *required* there). A named schema gets a view copy
// only when it, or a schema it references, requires such a property; otherwise the original is used, so most
// documents (and all of ours) validate against the schemas as written.
import type { JsonValue, SchemaNode } from '../../model/ir.js';
import { setOwn } from '../../data/own-property.js';
import { refNameOf } from '../../model/defs-ref.js';


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
  const copies = new Map<string, string>();

  const refName = (node: Obj): string | undefined => refNameOf(node);

  const flagged = (prop: JsonValue | undefined): boolean => {
    if (!isObj(prop)) return false;
    if (prop[flag] === true) return true;
    const all = prop.allOf;
    if (Array.isArray(all) && all.length === 1 && isObj(all[0]) && all[0][flag] === true) return true;
    const name = refName(prop);
    const target = name === undefined ? undefined : defs[name];
    return isObj(target) && target[flag] === true;
  };

  /**
   * Whether the node itself requires a flagged property, without following refs; the names it refers to are
   * added to `refs`.
   */
  const requiresFlagged = (node: JsonValue | undefined, refs: Set<string>): boolean => {
    if (Array.isArray(node)) {
      let hit = false;
      for (const n of node) hit = requiresFlagged(n, refs) || hit;
      return hit;
    }
    if (!isObj(node)) return false;
    const name = refName(node);
    if (name !== undefined) refs.add(name);
    const props = isObj(node.properties) ? node.properties : {};
    let hit = Array.isArray(node.required) && node.required.some((r) => typeof r === 'string' && flagged(props[r]));
    for (const [k, v] of Object.entries(node)) if (k !== 'const' && k !== 'enum' && k !== 'default' && k !== 'examples' && k !== '$ref') hit = requiresFlagged(v, refs) || hit;
    return hit;
  };

  // The named schemas that require a flagged property themselves or through any schema they reach: the direct
  // hits, then everything that refers to an affected schema (reverse reachability, linear in the schemas' size;
  // following refs depth-first from every schema is exponential on large, densely linked documents).
  let affected: Set<string> | undefined;
  const affectedNames = (): Set<string> => {
    if (affected) return affected;
    affected = new Set();
    const referrers = new Map<string, string[]>();
    const queue: string[] = [];
    for (const [name, schema] of Object.entries(defs)) {
      const refs = new Set<string>();
      if (requiresFlagged(schema as JsonValue, refs)) {
        affected.add(name);
        queue.push(name);
      }
      for (const target of refs) {
        const list = referrers.get(target);
        if (list) list.push(name);
        else referrers.set(target, [name]);
      }
    }
    while (queue.length > 0) {
      for (const referrer of referrers.get(queue.pop()!) ?? []) {
        if (affected.has(referrer)) continue;
        affected.add(referrer);
        queue.push(referrer);
      }
    }
    return affected;
  };

  const named = (name: string): boolean => affectedNames().has(name);

  /** Whether a node (or a named schema it reaches) requires a flagged property. */
  const touches = (node: JsonValue | undefined): boolean => {
    const refs = new Set<string>();
    if (requiresFlagged(node, refs)) return true;
    for (const name of refs) if (named(name)) return true;
    return false;
  };

  const rewrite = (node: JsonValue): JsonValue => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isObj(node)) return node;
    const name = refName(node);
    if (name !== undefined) return named(name) ? { ...node, $ref: copyOf(name) } : node;
    const out: Obj = {};
    const props = isObj(node.properties) ? node.properties : {};
    for (const [k, v] of Object.entries(node)) {
      const value = k === 'required' && Array.isArray(v) ? v.filter((r) => !(typeof r === 'string' && flagged(props[r]))) : k === 'const' || k === 'enum' || k === 'default' || k === 'examples' ? v : rewrite(v);
      setOwn(out, k, value);
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
      return touches(node as JsonValue) ? (rewrite(node as JsonValue) as SchemaNode) : node;
    },
  };
}
