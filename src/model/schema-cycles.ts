// Named schemas that refer to themselves without consuming any part of the value: `A: { $ref: B }` with
// `B: { allOf: [A] }`, or `A: { anyOf: [{ $ref: A }, ...] }`. Recursion through a property or an item is how
// trees are described and is fine; recursion through `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`
// or `dependentSchemas` alone never reaches a smaller value, so a validator following it never stops (JSON Schema
// leaves such schemas undefined) and TypeScript refuses the type alias as circular. They are refused here, with
// the cycle named, instead of overflowing a stack later.
import { SpecError } from '../load/errors.js';
import type { ApiModel, JsonValue, SchemaNode } from './ir.js';

/** Keywords whose subschemas apply to the value itself (not to a property or an item of it). */
const SAME_VALUE_ARRAYS = ['allOf', 'anyOf', 'oneOf'];
const SAME_VALUE_SINGLE = ['not', 'if', 'then', 'else'];
const SAME_VALUE_MAPS = ['dependentSchemas'];

function defName(ref: string): string | undefined {
  const m = /^#\/\$defs\/([^/]+)$/.exec(ref);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return undefined;
  }
}

/** Named schemas reached from `schema` without passing through a property or item keyword. */
function sameValueRefs(schema: SchemaNode | JsonValue, out: Set<string>): void {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    const s = node as Record<string, unknown>;
    for (const key of ['$ref', '$dynamicRef']) {
      const name = typeof s[key] === 'string' ? defName(s[key] as string) : undefined;
      if (name !== undefined) out.add(name);
    }
    for (const key of SAME_VALUE_ARRAYS) if (Array.isArray(s[key])) stack.push(...(s[key] as unknown[]));
    for (const key of SAME_VALUE_SINGLE) if (key in s) stack.push(s[key]);
    for (const key of SAME_VALUE_MAPS) {
      const map = s[key];
      if (map !== null && typeof map === 'object' && !Array.isArray(map)) stack.push(...Object.values(map));
    }
  }
}

export function checkSchemaCycles(model: ApiModel): void {
  const names = Object.keys(model.schemas);
  const edges = new Map<string, string[]>();
  for (const name of names) {
    const refs = new Set<string>();
    sameValueRefs(model.schemas[name]!.schema, refs);
    edges.set(name, [...refs].filter((r) => Object.prototype.hasOwnProperty.call(model.schemas, r)).sort());
  }
  // Iterative depth-first search (a catalog can have thousands of schemas): 0 unvisited, 1 on the path, 2 done.
  const state = new Map<string, number>();
  for (const start of names) {
    if (state.get(start) === 2) continue;
    const path: string[] = [start];
    const next: number[] = [0];
    state.set(start, 1);
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const targets = edges.get(top)!;
      const i = next[next.length - 1]!;
      if (i >= targets.length) {
        state.set(top, 2);
        path.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = i + 1;
      const target = targets[i]!;
      const seen = state.get(target) ?? 0;
      if (seen === 1) {
        const cycle = [...path.slice(path.indexOf(target)), target];
        const first = model.schemas[target]!;
        throw new SpecError(
          first.specs[0]!,
          first.pointer,
          `schema ${cycle.join(' -> ')} refers to itself through $ref/allOf/anyOf/oneOf/not alone, never through a property or an item, so no value can be checked against it; put the recursion under properties, items or additionalProperties`,
        );
      }
      if (seen === 0) {
        state.set(target, 1);
        path.push(target);
        next.push(0);
      }
    }
  }
}
