// Small helpers over JSON values: own-property reads, data-safe writes (`__proto__`), equality, cloning.

import type { JsonValue } from '../../model/ir.js';
import type { Obj } from './types.js';
import { setOwn } from '../../data/own-property.js';

/** The one data-safe key writer, re-exported for this layer's modules. */
export { setOwn };

// Small helpers

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function own(o: unknown, key: string): JsonValue | undefined {
  return isObj(o) && Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

export function has(o: unknown, key: string): boolean {
  return isObj(o) && Object.prototype.hasOwnProperty.call(o, key);
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => has(b, k) && deepEqual((a as Obj)[k], (b as Obj)[k]));
}

export function clone<T extends JsonValue>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => clone(x)) as T;
  const out: Obj = {};
  for (const k of Object.keys(v)) setOwn(out, k, clone((v as Obj)[k]!));
  return out as T;
}
