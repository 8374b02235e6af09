import type { JsonValue, SchemaNode } from '../../model/ir.js';
import { resolveRef } from './context.js';
import type { Context } from './context.js';
import { numberFormatOk, stringFormatOk } from './formats.js';
import { deepEqual, has, isObj, num, own } from './json.js';
import { cpLength, matches } from './text.js';
import type { Obj, Seg } from './types.js';

// The interpreter (validity oracle). With `errs` it collects every violation (paths name the property for
// required / additionalProperties / propertyNames / dependentRequired); without, it stops at the first.

export interface Violation {
  path: Seg[];
  keyword: string;
  /** Inside a failing `anyOf`/`oneOf` branch (a branch the value was not meant for). */
  branch: boolean;
}

export function check(ctx: Context, node: SchemaNode, v: JsonValue, path: Seg[], errs: Violation[] | null, branch: boolean, depth: number): boolean {
  if (node === true) return true;
  if (node === false || !isObj(node)) {
    errs?.push({ path, keyword: 'false', branch });
    return false;
  }
  if (depth > 300) {
    errs?.push({ path, keyword: 'depth', branch });
    return false;
  }
  // Generated values are not changed once built, so a verdict on one (object) value holds.
  let memo: WeakMap<object, boolean> | undefined;
  if (errs === null && v !== null && typeof v === 'object') {
    memo = ctx.memo.get(v);
    const known = memo?.get(node);
    if (known !== undefined) return known;
  }
  ctx.steps--;
  const ok = checkNode(ctx, node, v, path, errs, branch, depth);
  if (errs === null && v !== null && typeof v === 'object') {
    if (memo === undefined) ctx.memo.set(v, (memo = new WeakMap()));
    memo.set(node, ok);
  }
  return ok;
}

export function checkNode(ctx: Context, node: Obj, v: JsonValue, path: Seg[], errs: Violation[] | null, branch: boolean, depth: number): boolean {
  let ok = true;
  const ref = own(node, '$ref');
  if (typeof ref === 'string') {
    const target = resolveRef(ctx, ref);
    if (target === undefined) {
      if (!errs) return false;
      ok = false;
      errs.push({ path, keyword: '$ref', branch });
    } else if (!check(ctx, target, v, path, errs, branch, depth + 1)) {
      if (!errs) return false;
      ok = false;
    }
  }
  const type = own(node, 'type');
  if (type !== undefined) {
    let match = false;
    if (Array.isArray(type)) {
      for (const t of type) if (typeof t === 'string' && isType(v, t)) match = true;
    } else if (typeof type === 'string') match = isType(v, type);
    if (!match) {
      if (!errs) return false;
      ok = false;
      errs.push({ path, keyword: 'type', branch });
    }
  }
  const en = own(node, 'enum');
  if (Array.isArray(en) && !en.some((e) => deepEqual(e, v))) {
    if (!errs) return false;
    ok = false;
    errs.push({ path, keyword: 'enum', branch });
  }
  if (has(node, 'const') && !deepEqual(node.const, v)) {
    if (!errs) return false;
    ok = false;
    errs.push({ path, keyword: 'const', branch });
  }
  const format = own(node, 'format');
  if (typeof v === 'number') {
    const min = num(own(node, 'minimum'));
    const max = num(own(node, 'maximum'));
    const xmin = num(own(node, 'exclusiveMinimum'));
    const xmax = num(own(node, 'exclusiveMaximum'));
    const mult = num(own(node, 'multipleOf'));
    for (const kw of [
      min !== undefined && v < min ? 'minimum' : '',
      max !== undefined && v > max ? 'maximum' : '',
      xmin !== undefined && v <= xmin ? 'exclusiveMinimum' : '',
      xmax !== undefined && v >= xmax ? 'exclusiveMaximum' : '',
      mult !== undefined && mult > 0 && !isMultiple(v, mult) ? 'multipleOf' : '',
      typeof format === 'string' && !numberFormatOk(format, v) ? 'format' : '',
    ])
      if (kw !== '') {
        if (!errs) return false;
        ok = false;
        errs.push({ path, keyword: kw, branch });
      }
  } else if (typeof v === 'string') {
    const minL = num(own(node, 'minLength'));
    const maxL = num(own(node, 'maxLength'));
    const len = minL !== undefined || maxL !== undefined ? cpLength(v) : 0;
    const pattern = own(node, 'pattern');
    for (const kw of [
      minL !== undefined && len < minL ? 'minLength' : '',
      maxL !== undefined && len > maxL ? 'maxLength' : '',
      typeof pattern === 'string' && !matches(pattern, v) ? 'pattern' : '',
      typeof format === 'string' && !stringFormatOk(format, v) ? 'format' : '',
    ])
      if (kw !== '') {
        if (!errs) return false;
        ok = false;
        errs.push({ path, keyword: kw, branch });
      }
  } else if (Array.isArray(v)) {
    if (!checkArray(ctx, node, v, path, errs, branch, depth)) {
      if (!errs) return false;
      ok = false;
    }
  } else if (isObj(v)) {
    if (!checkObject(ctx, node, v, path, errs, branch, depth)) {
      if (!errs) return false;
      ok = false;
    }
  }

  const allOf = own(node, 'allOf');
  if (Array.isArray(allOf))
    for (const s of allOf)
      if (!check(ctx, s as SchemaNode, v, path, errs, branch, depth + 1)) {
        if (!errs) return false;
        ok = false;
      }
  for (const kw of ['anyOf', 'oneOf'] as const) {
    const list = own(node, kw);
    if (!Array.isArray(list)) continue;
    const branchErrs: Violation[] | null = errs ? [] : null;
    let passed = 0;
    for (const s of list) {
      if (check(ctx, s as SchemaNode, v, path, branchErrs, true, depth + 1)) {
        passed++;
        if (kw === 'anyOf' || passed > 1) break;
      }
    }
    if (kw === 'anyOf' ? passed === 0 : passed !== 1) {
      if (!errs) return false;
      ok = false;
      if (passed === 0 && branchErrs) errs.push(...branchErrs);
      errs.push({ path, keyword: kw, branch });
    }
  }
  if (has(node, 'not') && check(ctx, node.not as SchemaNode, v, path, null, branch, depth + 1)) {
    if (!errs) return false;
    ok = false;
    errs.push({ path, keyword: 'not', branch });
  }
  if (has(node, 'if')) {
    const cond = check(ctx, node.if as SchemaNode, v, path, null, branch, depth + 1);
    const next = cond ? own(node, 'then') : own(node, 'else');
    if (next !== undefined && !check(ctx, next as SchemaNode, v, path, errs, branch, depth + 1)) {
      if (!errs) return false;
      ok = false;
      errs.push({ path, keyword: 'if', branch });
    }
  }
  // unevaluatedProperties / unevaluatedItems: what no applicator of this node (or of the subschemas that
  // passed) evaluated must satisfy them. Checked only when everything else passed (the annotations of a failing
  // schema are dropped anyway).
  if (ok && (has(node, 'unevaluatedProperties') || has(node, 'unevaluatedItems'))) {
    if (isObj(v) && has(node, 'unevaluatedProperties')) {
      const seen = new Set<string>();
      evaluatedKeys(ctx, node, v, seen, depth, false);
      for (const k of Object.keys(v))
        if (!seen.has(k) && !check(ctx, node.unevaluatedProperties as SchemaNode, v[k]!, errs ? [...path, k] : path, node.unevaluatedProperties === false ? null : errs, branch, depth + 1)) {
          if (!errs) return false;
          ok = false;
          if (node.unevaluatedProperties === false) errs.push({ path: [...path, k], keyword: 'unevaluatedProperties', branch });
        }
    }
    if (Array.isArray(v) && has(node, 'unevaluatedItems')) {
      const seen = new Set<number>();
      evaluatedItems(ctx, node, v, seen, depth, false);
      for (let i = 0; i < v.length; i++)
        if (!seen.has(i) && !check(ctx, node.unevaluatedItems as SchemaNode, v[i]!, errs ? [...path, i] : path, errs, branch, depth + 1)) {
          if (!errs) return false;
          ok = false;
        }
    }
  }
  return ok;
}

/** Subschemas of `node` whose annotations count for `v` (in-place applicators; branches only when they pass). */
export function* appliedSubschemas(ctx: Context, node: Obj, v: JsonValue, depth: number): Generator<Obj> {
  const ref = own(node, '$ref');
  if (typeof ref === 'string') {
    const t = resolveRef(ctx, ref);
    if (isObj(t)) yield t;
  }
  for (const kw of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = own(node, kw);
    if (Array.isArray(list)) for (const s of list) if (isObj(s) && (kw === 'allOf' || check(ctx, s, v, [], null, false, depth + 1))) yield s;
  }
  if (isObj(node.if)) {
    const cond = check(ctx, node.if, v, [], null, false, depth + 1);
    if (cond) yield node.if;
    const next = cond ? own(node, 'then') : own(node, 'else');
    if (isObj(next)) yield next;
  }
  const ds = own(node, 'dependentSchemas');
  if (isObj(ds) && isObj(v)) for (const k of Object.keys(ds)) if (has(v, k) && isObj(ds[k])) yield ds[k] as Obj;
}

export function evaluatedKeys(ctx: Context, node: Obj, v: Obj, seen: Set<string>, depth: number, nested: boolean): void {
  if (depth > 300) return;
  const props = own(node, 'properties');
  const pats = own(node, 'patternProperties');
  const everything = has(node, 'additionalProperties') || (nested && has(node, 'unevaluatedProperties'));
  for (const k of Object.keys(v)) if (everything || (isObj(props) && has(props, k)) || (isObj(pats) && Object.keys(pats).some((p) => matches(p, k)))) seen.add(k);
  for (const sub of appliedSubschemas(ctx, node, v, depth)) evaluatedKeys(ctx, sub, v, seen, depth + 1, true);
}

export function evaluatedItems(ctx: Context, node: Obj, v: JsonValue[], seen: Set<number>, depth: number, nested: boolean): void {
  if (depth > 300) return;
  const prefix = own(node, 'prefixItems');
  const n = Array.isArray(prefix) ? prefix.length : 0;
  const everything = has(node, 'items') || (nested && has(node, 'unevaluatedItems'));
  for (let i = 0; i < v.length; i++) if (everything || i < n) seen.add(i);
  if (has(node, 'contains')) for (let i = 0; i < v.length; i++) if (check(ctx, node.contains as SchemaNode, v[i]!, [], null, false, depth + 1)) seen.add(i);
  for (const sub of appliedSubschemas(ctx, node, v, depth)) evaluatedItems(ctx, sub, v, seen, depth + 1, true);
}

export function checkArray(ctx: Context, node: Obj, v: JsonValue[], path: Seg[], errs: Violation[] | null, branch: boolean, depth: number): boolean {
  let ok = true;
  const minI = num(own(node, 'minItems'));
  const maxI = num(own(node, 'maxItems'));
  for (const kw of [minI !== undefined && v.length < minI ? 'minItems' : '', maxI !== undefined && v.length > maxI ? 'maxItems' : ''])
    if (kw !== '') {
      if (!errs) return false;
      ok = false;
      errs.push({ path, keyword: kw, branch });
    }
  const prefix = own(node, 'prefixItems');
  const nPrefix = Array.isArray(prefix) ? prefix.length : 0;
  const items = has(node, 'items') ? (node.items as SchemaNode) : undefined;
  for (let i = 0; i < v.length; i++) {
    const s = i < nPrefix ? ((prefix as JsonValue[])[i] as SchemaNode) : items;
    if (s !== undefined && !check(ctx, s, v[i]!, errs ? [...path, i] : path, errs, branch, depth + 1)) {
      if (!errs) return false;
      ok = false;
    }
  }
  if (has(node, 'contains')) {
    let count = 0;
    for (const x of v) if (check(ctx, node.contains as SchemaNode, x, path, null, branch, depth + 1)) count++;
    const minC = num(own(node, 'minContains')) ?? 1;
    const maxC = num(own(node, 'maxContains'));
    for (const kw of [count < minC ? 'contains' : '', maxC !== undefined && count > maxC ? 'maxContains' : ''])
      if (kw !== '') {
        if (!errs) return false;
        ok = false;
        errs.push({ path, keyword: kw, branch });
      }
  }
  if (own(node, 'uniqueItems') === true) {
    let dup = false;
    for (let i = 1; i < v.length && !dup; i++) for (let j = 0; j < i && !dup; j++) if (deepEqual(v[i], v[j])) dup = true;
    if (dup) {
      if (!errs) return false;
      ok = false;
      errs.push({ path, keyword: 'uniqueItems', branch });
    }
  }
  return ok;
}

export function checkObject(ctx: Context, node: Obj, v: Obj, path: Seg[], errs: Violation[] | null, branch: boolean, depth: number): boolean {
  let ok = true;
  const keys = Object.keys(v);
  const req = own(node, 'required');
  if (Array.isArray(req))
    for (const k of req)
      if (typeof k === 'string' && !has(v, k)) {
        if (!errs) return false;
        ok = false;
        errs.push({ path: [...path, k], keyword: 'required', branch });
      }
  const minP = num(own(node, 'minProperties'));
  const maxP = num(own(node, 'maxProperties'));
  for (const kw of [minP !== undefined && keys.length < minP ? 'minProperties' : '', maxP !== undefined && keys.length > maxP ? 'maxProperties' : ''])
    if (kw !== '') {
      if (!errs) return false;
      ok = false;
      errs.push({ path, keyword: kw, branch });
    }
  const dr = own(node, 'dependentRequired');
  if (isObj(dr))
    for (const k of Object.keys(dr)) {
      const deps = dr[k];
      if (has(v, k) && Array.isArray(deps))
        for (const d of deps)
          if (typeof d === 'string' && !has(v, d)) {
            if (!errs) return false;
            ok = false;
            errs.push({ path: [...path, d], keyword: 'dependentRequired', branch });
          }
    }
  const props = own(node, 'properties');
  const pats = own(node, 'patternProperties');
  const patKeys = isObj(pats) ? Object.keys(pats) : [];
  const addl = has(node, 'additionalProperties') ? (node.additionalProperties as SchemaNode) : undefined;
  const names = has(node, 'propertyNames') ? (node.propertyNames as SchemaNode) : undefined;
  if (props !== undefined || patKeys.length > 0 || addl !== undefined || names !== undefined)
    for (const k of keys) {
      const kpath = errs ? [...path, k] : path;
      if (names !== undefined && !check(ctx, names, k, kpath, null, branch, depth + 1)) {
        if (!errs) return false;
        ok = false;
        errs.push({ path: kpath, keyword: 'propertyNames', branch });
      }
      let known = false;
      if (isObj(props) && has(props, k)) {
        known = true;
        if (!check(ctx, props[k] as SchemaNode, v[k]!, kpath, errs, branch, depth + 1)) {
          if (!errs) return false;
          ok = false;
        }
      }
      for (const p of patKeys)
        if (matches(p, k)) {
          known = true;
          if (!check(ctx, (pats as Obj)[p] as SchemaNode, v[k]!, kpath, errs, branch, depth + 1)) {
            if (!errs) return false;
            ok = false;
          }
        }
      if (!known && addl !== undefined && !check(ctx, addl, v[k]!, kpath, errs === null ? null : addl === false ? null : errs, branch, depth + 1)) {
        if (!errs) return false;
        ok = false;
        if (addl === false) errs.push({ path: kpath, keyword: 'additionalProperties', branch });
      }
    }
  const ds = own(node, 'dependentSchemas');
  if (isObj(ds))
    for (const k of Object.keys(ds))
      if (has(v, k) && !check(ctx, ds[k] as SchemaNode, v, path, errs, branch, depth + 1)) {
        if (!errs) return false;
        ok = false;
      }
  return ok;
}

export function isType(v: JsonValue, t: string): boolean {
  switch (t) {
    case 'null':
      return v === null;
    case 'boolean':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObj(v);
    default:
      return false;
  }
}

/** multipleOf as validators compute it (`x / m` must be integral, compared the way Ajv does). */
export function isMultiple(x: number, m: number): boolean {
  const q = x / m;
  return q === parseInt(String(q), 10);
}

export const conformsAll = (ctx: Context, nodes: readonly SchemaNode[], v: JsonValue): boolean => nodes.every((n) => check(ctx, n, v, [], null, false, 0));
