// The nesting bound of a JSON body, checked once, right after parsing and before anything else sees the value.
// JSON.parse itself is iterative in V8, but JSON.stringify, structuredClone, the generated validators, the
// record copies and the presenters all recurse: a body 10,000 levels deep overflowed their stack (a 500).
// This walk keeps its own stack, so no depth can overflow it.
import { invalid } from '../errors.js';
import { MAX_BODY_DEPTH } from './limits.js';

interface Pending {
  value: object;
  depth: number;
  /** The body's own property the value sits under (null for the body itself and items of an array body). */
  field: string | null;
}

/**
 * The first top-level field (in document order) under which `value` nests deeper than `max` levels, or
 * `undefined` when it does not. The body is level 1, an object or array inside it level 2, and so on; scalars
 * add no level. Returns `{ field: null }` when the excess is not under one property (an array body).
 */
export function tooDeep(value: unknown, max = MAX_BODY_DEPTH): { field: string | null } | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: Pending[] = [{ value, depth: 1, field: null }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.depth > max) return { field: next.field };
    const children: unknown[] = Array.isArray(next.value) ? next.value : Object.values(next.value);
    const keys = Array.isArray(next.value) ? undefined : Object.keys(next.value);
    // Pushed in reverse, so the walk meets them in document order and reports the first field.
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child === null || typeof child !== 'object') continue;
      const field = next.depth === 1 && keys !== undefined ? keys[i]! : next.field;
      stack.push({ value: child, depth: next.depth + 1, field });
    }
  }
  return undefined;
}

/** Throws 400 INVALID_ARGUMENT naming the top-level field under which the body is nested too deep. */
export function checkJsonDepth(value: unknown, max = MAX_BODY_DEPTH): void {
  const found = tooDeep(value, max);
  if (found) throw invalid(found.field, `nested deeper than ${max} levels (objects and arrays)`);
}
