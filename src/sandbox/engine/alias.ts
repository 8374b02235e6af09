// Legacy aliases (x-deprecated-alias-of with x-alias-renames): a legacy operation runs its canonical one on the
// same records. Its request, validated against the legacy schemas, is rewritten to the canonical names (path
// and query parameters, body properties, enum values) before the rules and the action run, and the answer is
// rewritten back to the legacy names at the places the alias's answer schema declares them.
import { ApiFailure } from '../errors.js';
import type { Json } from '../storage/store.js';
import { setOwn } from './records.js';
import type { Route } from './tables.js';

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function mapValue(value: unknown, mapping: Record<string, string> | null, reverse: boolean): unknown {
  if (mapping === null) return value;
  const one = (v: unknown): unknown => {
    if (typeof v !== 'string') return v;
    if (!reverse) return Object.prototype.hasOwnProperty.call(mapping, v) ? mapping[v] : v;
    const back = Object.entries(mapping).find(([, to]) => to === v);
    return back ? back[0] : v;
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}

/** Renames one own key of an object, keeping the key order and mapping the value. */
function renameKey(target: Json, from: string, to: string, mapping: Record<string, string> | null, reverse: boolean): void {
  if (!Object.prototype.hasOwnProperty.call(target, from)) return;
  const entries = Object.entries(target);
  for (const key of Object.keys(target)) delete target[key];
  for (const [k, v] of entries) {
    if (k === from) setOwn(target, to, mapValue(v, mapping, reverse));
    else if (k !== to) setOwn(target, k, v);
  }
}

/** Every object at a parent path (`[]` steps into each array item). */
function objectsAt(root: unknown, at: string[]): Json[] {
  let current: unknown[] = [root];
  for (const step of at) {
    const next: unknown[] = [];
    for (const value of current) {
      if (step === '[]') {
        if (Array.isArray(value)) next.push(...value);
      } else if (isObject(value) && Object.prototype.hasOwnProperty.call(value, step)) next.push(value[step]);
    }
    current = next;
  }
  return current.filter(isObject);
}

/** The request's parts in canonical names; the objects given are rewritten in place. */
export function toCanonical(route: Route, parts: { path: Record<string, unknown>; query: Record<string, unknown>; body: Json }): void {
  // Body places are named by the legacy schema: the deepest first, so their parents still have legacy names.
  for (const row of [...route.aliasRenames].reverse()) {
    if (row.in === 'path') renameKey(parts.path as Json, row.legacy, row.canonical, null, false);
    else if (row.in === 'query') renameKey(parts.query as Json, row.legacy, row.canonical, row.values, false);
    else if (row.in === 'body') for (const o of objectsAt(parts.body, row.at)) renameKey(o, row.legacy, row.canonical, row.values, false);
  }
}

/** The answer in legacy names: parents first, so the deeper places are found under their legacy names. */
export function toLegacy(route: Route, payload: unknown): unknown {
  for (const row of route.aliasRenames) {
    if (row.in !== 'response') continue;
    for (const o of objectsAt(payload, row.at)) renameKey(o, row.canonical, row.legacy, row.values, true);
  }
  return payload;
}

/** An error raised by the canonical operation names the alias's own parameters and body fields. */
export function legacyFailure(route: Route, failure: ApiFailure): ApiFailure {
  const top = new Map<string, string>();
  for (const row of route.aliasRenames) if (row.in !== 'response' && row.at.length === 0) top.set(row.canonical, row.legacy);
  if (top.size === 0) return failure;
  const details = failure.details.map((d) => (d.field !== null && top.has(d.field) ? { ...d, field: top.get(d.field)! } : d));
  return new ApiFailure(failure.status, failure.code, failure.message, details);
}
