// Whether the branches of a oneOf provably admit disjoint sets of values (by their JSON types or value lists), so
// that "exactly one matches" and "at least one matches" agree and the fast check can stop at the first branch that
// matches instead of trying every branch. `oneOf: [{ $ref: Enum }, { type: null }]`, the usual nullable
// reference, is the common case. Each branch is over-approximated (its own type/enum/const, else its $ref target's,
// else an allOf member's): an over-approximation can only make branches look overlapping, never disjoint.
import { childPointer, hasOwn, isObject, type Scope } from './scope.js';
import { isPrimitive, typesOf } from './schema-facts.js';

interface Admits {
  /** The JSON types a value may have, or null when the branch says nothing about them. */
  types: string[] | null;
  /** The only values allowed (const/enum), or null. */
  values: unknown[] | null;
}

const ANY: Admits = { types: null, values: null };
const NOTHING: Admits = { types: [], values: null };

function admits(scope: Scope, ptr: string, depth: number): Admits {
  const node = scope.get(ptr);
  if (node === false) return NOTHING;
  if (!isObject(node) || depth > 8 || hasOwn(node, '$dynamicRef')) return ANY;
  if (hasOwn(node, 'const')) return { types: null, values: [node.const] };
  if (Array.isArray(node.enum)) return { types: null, values: node.enum };
  const types = typesOf(node);
  if (types !== undefined) return { types, values: null };
  if (typeof node.$ref === 'string') {
    const target = scope.resolve(node.$ref, ptr);
    if (target !== undefined) return admits(scope, target, depth + 1);
  }
  if (Array.isArray(node.allOf)) {
    for (let i = 0; i < node.allOf.length; i++) {
      const a = admits(scope, childPointer(ptr, 'allOf', i), depth + 1);
      if (a.types !== null || a.values !== null) return a;
    }
  }
  return ANY;
}

/** The JSON type names a value satisfies (`integer` values also satisfy `number`). */
function valueTypes(v: unknown): string[] {
  if (v === null) return ['null'];
  if (Array.isArray(v)) return ['array'];
  if (typeof v === 'number') return Number.isInteger(v) ? ['integer', 'number'] : ['number'];
  return [typeof v];
}

function typesOverlap(a: string[], b: string[]): boolean {
  return a.some((t) => b.includes(t) || (t === 'integer' && b.includes('number')) || (t === 'number' && b.includes('integer')));
}

function disjoint(a: Admits, b: Admits): boolean {
  if (a.values !== null && b.values !== null) {
    // Primitives only: equal objects written in another key order would not compare equal here.
    if (![...a.values, ...b.values].every(isPrimitive)) return false;
    return !a.values.some((v) => b.values!.includes(v));
  }
  if (a.values !== null && b.types !== null) return !a.values.some((v) => typesOverlap(valueTypes(v), b.types!));
  if (b.values !== null && a.types !== null) return disjoint(b, a);
  if (a.types !== null && b.types !== null) return !typesOverlap(a.types, b.types);
  return false;
}

/** True when no value can match two of the schemas at `branches`. */
export function provablyDisjoint(scope: Scope, branches: string[]): boolean {
  const sets = branches.map((p) => admits(scope, p, 0));
  for (let i = 0; i < sets.length; i++) for (let j = i + 1; j < sets.length; j++) if (!disjoint(sets[i]!, sets[j]!)) return false;
  return true;
}
