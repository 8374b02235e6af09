// The state one generation or check runs with: the schema root, the seeded PRNG, budgets and caches.

import type { SchemaNode } from '../../model/ir.js';
import { has, isObj } from './json.js';
import { BUDGET, FILL_BUDGET } from './limits.js';
import type { Defs, Obj } from './types.js';
import { mulberry32 } from '../../data/prng.js';

export { mulberry32 };

// Context

export interface Context {
  root: Obj;
  rng: () => number;
  maximal: boolean;
  /** Request bodies: leave out optional readOnly properties. */
  request: boolean;
  steps: number;
  /** How many more optional values `maximal` may add (keeps maximal values of large schema graphs small). */
  fillLeft: number;
  /** Verdicts of `check` on object values, per schema node. */
  memo: WeakMap<object, WeakMap<object, boolean>>;
  refCache: Map<string, SchemaNode | undefined>;
}

export interface State {
  depth: number;
  /** `$ref`s open on the stack, with how often each is open. */
  refs: ReadonlyMap<string, number>;
  /** Asks for a value different from variant 0 (array items, uniqueness). */
  variant: number;
  /** Do not fill optional properties below this point. */
  noFill: boolean;
}

export function makeContext(defs: Defs, seed: number, maximal: boolean, request: boolean): Context {
  const root: Obj = {};
  Object.defineProperty(root, '$defs', { value: defs, enumerable: true, writable: true, configurable: true });
  let refCache = refCaches.get(defs);
  if (refCache === undefined) refCaches.set(defs, (refCache = new Map()));
  return { root, rng: mulberry32(seed), maximal, request, steps: BUDGET, fillLeft: FILL_BUDGET, memo: new WeakMap(), refCache };
}

/** Resolved refs per defs object (the schemas are not changed between calls). */
export const refCaches = new WeakMap<Defs, Map<string, SchemaNode | undefined>>();

export const rootState = (): State => ({ depth: 0, refs: new Map(), variant: 0, noFill: false });


export function resolveRef(ctx: Context, ref: string): SchemaNode | undefined {
  const cached = ctx.refCache.get(ref);
  if (cached !== undefined || ctx.refCache.has(ref)) return cached;
  let node: unknown;
  if (ref.startsWith('#')) {
    node = ctx.root;
    const pointer = ref.slice(1);
    if (pointer !== '') {
      if (!pointer.startsWith('/')) node = undefined;
      else
        for (const raw of pointer.slice(1).split('/')) {
          let seg = raw;
          try {
            seg = decodeURIComponent(raw);
          } catch {
            // keep raw
          }
          seg = seg.replace(/~1/g, '/').replace(/~0/g, '~');
          if (Array.isArray(node) && /^\d+$/.test(seg)) node = node[Number(seg)];
          else if (isObj(node) && has(node, seg)) node = node[seg];
          else {
            node = undefined;
            break;
          }
        }
    }
  }
  const out = typeof node === 'boolean' || isObj(node) ? (node as SchemaNode) : undefined;
  ctx.refCache.set(ref, out);
  return out;
}
