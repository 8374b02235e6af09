import type { JsonValue, SchemaNode } from '../../model/ir.js';
import { resolveRef } from './context.js';
import type { Context, State } from './context.js';
import { SHORT_FORMAT_VALUES, formatValue, numberFormatOk, stringFormatOk } from './formats.js';
import { check, conformsAll, isMultiple } from './interpret.js';
import { clone, deepEqual, has, isObj, own, setOwn } from './json.js';
import { FILL_DEPTH, MAX_DEPTH, MAX_STRING, OPTIONAL_BUDGET } from './limits.js';
import { copyMerged, emptyMerged, flatten, propertySchemas } from './merge.js';
import type { Group, Merged } from './merge.js';
import { patternString } from './regex-strings.js';
import { cpLength, matches, regex } from './text.js';
import { NONE } from './types.js';
import type { Obj, Out } from './types.js';

// Generation

/** A value satisfying every schema of `nodes`, or NONE. */
export function generate(ctx: Context, nodes: readonly SchemaNode[], st: State): Out {
  if (ctx.steps < 0 || st.depth > MAX_DEPTH) return NONE;
  const m = emptyMerged();
  for (const n of nodes) flatten(ctx, m, n, st);
  if (m.unsat) return NONE;
  // Examples and defaults first (the schema's own first), when they are valid.
  if (st.variant === 0) {
    let tried = 0;
    for (const ex of m.examples) {
      if (tried++ >= 4) break;
      if (ctx.maximal && ex !== null && typeof ex === 'object') continue;
      if (conformsAll(ctx, nodes, ex)) return clone(ex);
    }
  }
  return search(ctx, m, nodes, st, 0);
}

/** The state for the parts of a value (properties, items): one level deeper, with the `$ref`s of `m` open. */
export function innerState(st: State, m: Merged): State {
  let refs = st.refs;
  let recursing = false;
  if (m.refs.length > 0) {
    const map = new Map(st.refs);
    for (const r of m.refs) {
      const n = (map.get(r) ?? 0) + 1;
      map.set(r, n);
      if (n >= 2) recursing = true;
    }
    refs = map;
  }
  return { depth: st.depth + 1, refs, variant: st.variant, noFill: st.noFill || recursing || st.depth > FILL_DEPTH };
}

/** Resolve the next anyOf/oneOf choice, then the conditions, then generate and check. `st` is the state `m` was flattened in. */
export function search(ctx: Context, m: Merged, nodes: readonly SchemaNode[], st: State, rounds: number): Out {
  if (ctx.steps < 0) return NONE;
  if (m.groupsDone < m.groups.length) {
    const group = m.groups[m.groupsDone]!;
    for (const i of branchOrder(group)) {
      const branch = group.branches[i]!;
      const forced = discriminatorValue(ctx, group, branch);
      for (const force of forced === undefined ? [undefined] : [forced, undefined]) {
        const m2 = copyMerged(m);
        m2.groupsDone++;
        flatten(ctx, m2, branch, st);
        if (force !== undefined) {
          m2.properties.set(force[0], [...(m2.properties.get(force[0]) ?? []), { const: force[1] }]);
          if (!m2.required.includes(force[0])) m2.required.push(force[0]);
        }
        if (m2.unsat) continue;
        const out = search(ctx, m2, nodes, st, rounds);
        if (out !== NONE) return out;
        if (ctx.steps < 0) return NONE;
      }
    }
    return NONE;
  }
  for (const v of leafCandidates(ctx, m, innerState(st, m))) {
    if (v === NONE) continue;
    // Conditions (if/then/else, dependentSchemas) decided on the candidate, then generated again with the chosen side.
    if (rounds < 4 && (m.condsDone < m.conds.length || m.depsDone < m.dependentSchemas.length)) {
      const m2 = copyMerged(m);
      let added = false;
      for (const c of m.conds.slice(m.condsDone)) {
        const side = check(ctx, c.if, v, [], null, false, 0) ? c.then : c.else;
        if (side !== undefined) {
          flatten(ctx, m2, side, st);
          added = true;
        }
      }
      m2.condsDone = m.conds.length;
      for (const [k, s] of m.dependentSchemas.slice(m.depsDone))
        if (isObj(v) && has(v, k)) {
          flatten(ctx, m2, s, st);
          added = true;
        }
      m2.depsDone = m.dependentSchemas.length;
      if (added) {
        if (m2.unsat) continue;
        const out = search(ctx, m2, nodes, st, rounds + 1);
        if (out !== NONE) return out;
        if (ctx.steps < 0) return NONE;
        continue;
      }
    }
    if (conformsAll(ctx, nodes, v)) return v;
    if (ctx.steps < 0) return NONE;
  }
  return NONE;
}

/** Branch order: those that allow a non-null value first (a null-only branch is the last resort). */
export function branchOrder(group: Group): number[] {
  const idx = group.branches.map((_, i) => i);
  const nullOnly = (b: SchemaNode): boolean => {
    const t = own(b, 'type');
    return Array.isArray(t) && t.length === 1 && t[0] === 'null';
  };
  return [...idx.filter((i) => !nullOnly(group.branches[i]!)), ...idx.filter((i) => nullOnly(group.branches[i]!))];
}

export function discriminatorValue(ctx: Context, group: Group, branch: SchemaNode): [string, string] | undefined {
  const d = group.discriminator;
  const ref = own(branch, '$ref');
  if (d === undefined || typeof ref !== 'string' || resolveRef(ctx, ref) === undefined) return undefined;
  const name = ref.slice(ref.lastIndexOf('/') + 1);
  // A mapping value names the target as the IR ref, a component ref or a file (`./Beverage.yaml`).
  const base = (target: string): string => target.slice(target.lastIndexOf('/') + 1).replace(/\.(ya?ml|json)$/, '');
  for (const k of Object.keys(d.mapping)) if (d.mapping[k] === ref || base(d.mapping[k]!) === name) return [d.propertyName, k];
  return [d.propertyName, name];
}

export function* leafCandidates(ctx: Context, m: Merged, st: State): Generator<Out> {
  if (m.consts.length > 0) {
    yield clone(m.consts[0]!);
    return;
  }
  if (m.enums.length > 0) {
    const values = m.enums[0]!.filter((v) => m.enums.every((e) => e.some((x) => deepEqual(x, v))));
    const ordered = [...values.filter((v) => v !== null), ...values.filter((v) => v === null)];
    const start = ordered.length > 0 ? st.variant % ordered.length : 0;
    for (let i = 0; i < ordered.length; i++) yield clone(ordered[(start + i) % ordered.length]!);
    return;
  }
  for (const t of typeOrder(m)) {
    switch (t) {
      case 'null':
        yield null;
        break;
      case 'boolean':
        yield st.variant % 2 === 0;
        break;
      case 'integer':
      case 'number':
        yield* numberCandidates(m, t === 'integer', st.variant);
        break;
      case 'string':
        yield genString(ctx, m, st.variant);
        break;
      case 'array':
        yield genArray(ctx, m, st);
        if (!st.noFill && ctx.maximal) yield genArray(ctx, m, { ...st, noFill: true });
        else if (m.groups.length > 0 || m.nots.length > 0) yield genArray(ctx, m, st, true);
        break;
      case 'object':
        yield genObject(ctx, m, st);
        // Fallbacks: without optional properties (maximal), or with this level's optional properties filled
        // (a oneOf branch whose minimal value matches other branches too).
        if (!st.noFill && ctx.maximal) yield genObject(ctx, m, { ...st, noFill: true });
        else if (m.groups.length > 0 || m.nots.length > 0) yield genObject(ctx, m, st, true);
        break;
    }
  }
}

export function typeOrder(m: Merged): string[] {
  let types = m.types;
  if (types === undefined) {
    const inferred: string[] = [];
    if (m.hints.has('object')) inferred.push('object');
    if (m.hints.has('array')) inferred.push('array');
    if (m.hints.has('string') || m.formats.length > 0) inferred.push('string');
    if (m.hints.has('number')) inferred.push('number');
    types = [...new Set([...inferred, 'string', 'number', 'boolean', 'object', 'array', 'null'])];
  }
  if (types.includes('integer')) types = types.filter((t) => t !== 'number');
  return [...types.filter((t) => t !== 'null'), ...types.filter((t) => t === 'null')];
}

// Numbers ------------------------------------------------------------------------------------------------

export function numberOk(m: Merged, integer: boolean, v: number): boolean {
  if (!Number.isFinite(v) || (integer && !Number.isInteger(v))) return false;
  if (m.minimum !== undefined && v < m.minimum) return false;
  if (m.maximum !== undefined && v > m.maximum) return false;
  if (m.exclusiveMinimum !== undefined && v <= m.exclusiveMinimum) return false;
  if (m.exclusiveMaximum !== undefined && v >= m.exclusiveMaximum) return false;
  if (!m.multipleOf.every((d) => isMultiple(v, d))) return false;
  return m.formats.every((f) => numberFormatOk(f, v));
}

export function numberCandidates(m: Merged, integer: boolean, variant: number): number[] {
  let lo = m.minimum ?? -Infinity;
  let hi = m.maximum ?? Infinity;
  let loEx = false;
  let hiEx = false;
  if (m.exclusiveMinimum !== undefined && m.exclusiveMinimum >= lo) {
    lo = m.exclusiveMinimum;
    loEx = true;
  }
  if (m.exclusiveMaximum !== undefined && m.exclusiveMaximum <= hi) {
    hi = m.exclusiveMaximum;
    hiEx = true;
  }
  if (m.formats.includes('int32')) {
    lo = Math.max(lo, -(2 ** 31));
    hi = Math.min(hi, 2 ** 31 - 1);
  }
  if (lo > hi) return [];
  // Preferred start: the lower bound (just inside), else 1 clamped below the upper bound.
  let start: number;
  if (lo > -Infinity) start = loEx ? (integer ? Math.floor(lo) + 1 : hi < Infinity ? Math.min(lo + 1, (lo + hi) / 2) : lo + 1) : lo;
  else if (hi < Infinity) start = Math.min(1, hiEx ? (integer ? Math.ceil(hi) - 1 : hi - 1) : hi);
  else start = 1;
  if (integer) start = Math.ceil(start);
  const step = m.multipleOf.length > 0 ? m.multipleOf.reduce((a, b) => Math.max(a, b)) : 1;
  const candidates: number[] = [];
  const base = start + variant * step;
  const push = (x: number): void => {
    if (!Number.isFinite(x)) return;
    candidates.push(x);
    if (m.multipleOf.length > 0) {
      for (const d of m.multipleOf) {
        const decimals = (String(d).split('.')[1] ?? '').length;
        for (let k = Math.ceil(x / d); k < Math.ceil(x / d) + 3; k++) candidates.push(Number((k * d).toFixed(Math.min(20, decimals))));
      }
    }
  };
  push(base);
  if (hi < Infinity) push(start - variant * step);
  push(start);
  if (lo > -Infinity && hi < Infinity) {
    push(integer ? Math.ceil((lo + hi) / 2) : (lo + hi) / 2);
    push(integer ? Math.floor(hi) - (hiEx && Number.isInteger(hi) ? 1 : 0) : hiEx ? hi - (hi - lo) / 4 : hi);
  }
  push(0);
  // A number that is not an integer (a oneOf of integer and number).
  if (!integer) push(start + 0.5);
  const out: number[] = [];
  for (const c of candidates) if (numberOk(m, integer, c) && !out.includes(c)) out.push(c);
  const fraction = out.find((c) => !Number.isInteger(c));
  return [...out.slice(0, 2), ...(fraction !== undefined && !out.slice(0, 2).includes(fraction) ? [fraction] : [])];
}

// Strings ------------------------------------------------------------------------------------------------

export function stringOk(m: Merged, s: string): boolean {
  const len = cpLength(s);
  if (m.minLength !== undefined && len < m.minLength) return false;
  if (m.maxLength !== undefined && len > m.maxLength) return false;
  return m.patterns.every((p) => matches(p, s)) && m.formats.every((f) => stringFormatOk(f, s));
}

export function genString(ctx: Context, m: Merged, variant: number): Out {
  const minL = m.minLength ?? 0;
  const maxL = m.maxLength ?? Infinity;
  if (minL > maxL || minL > MAX_STRING) return NONE;
  for (const f of m.formats) {
    for (const s of [formatValue(f, variant, minL), variant === 0 ? SHORT_FORMAT_VALUES[f] : undefined])
      if (s !== undefined && stringOk(m, s)) return s;
  }
  // A pattern that does not compile constrains nothing (the interpreter ignores it too).
  const patterns = m.patterns.filter((p) => regex(p) !== null);
  if (patterns.length > 0) {
    // Familiar strings first, when the pattern accepts one (`\\S`, `^https?://`).
    if (variant === 0) for (const s of NICE_STRINGS) if (stringOk(m, s)) return s;
    for (const p of patterns) {
      for (let attempt = 0; attempt < 8; attempt++) {
        const s = patternString(ctx, p, minL, maxL, attempt + variant);
        if (s !== undefined && stringOk(m, s)) return s;
      }
    }
    return NONE;
  }
  for (const s of plainStrings(variant, minL, maxL)) if (stringOk(m, s)) return s;
  return NONE;
}

export const NICE_STRINGS = ['string', 'example', 'https://example.com', 'user@example.com', '2024-01-01T00:00:00Z', '2024-01-01', 'value-1', 'a'];

export function plainStrings(variant: number, minL: number, maxL: number): string[] {
  const out: string[] = [];
  const fit = (s: string): string => {
    let t = s;
    if (cpLength(t) < minL) t = t + 'x'.repeat(minL - cpLength(t));
    if (cpLength(t) > maxL) t = [...t].slice(0, maxL).join('');
    return t;
  };
  const word = variant === 0 ? 'string' : `string${variant}`;
  out.push(fit(word));
  // Short distinct strings when the limit is tight: base-26 letters of the variant.
  let n = variant;
  let letters = '';
  do {
    letters = String.fromCharCode(97 + (n % 26)) + letters;
    n = Math.floor(n / 26);
  } while (n > 0);
  out.push(fit(letters));
  return out;
}

/** Run `fn` with at most `limit` of the remaining steps; a value that runs out counts as NONE and the rest of the budget stays. */
export function bounded(ctx: Context, limit: number, fn: () => Out): Out {
  const saved = ctx.steps;
  if (saved <= 0) return NONE;
  ctx.steps = Math.min(saved, limit);
  const start = ctx.steps;
  let out = fn();
  const used = start - ctx.steps;
  if (ctx.steps < 0) out = NONE;
  ctx.steps = saved - Math.max(0, used);
  return out;
}

// Arrays -------------------------------------------------------------------------------------------------

export function genArray(ctx: Context, m: Merged, st: State, fillHere = false): Out {
  const minI = m.minItems ?? 0;
  const maxI = m.maxItems ?? Infinity;
  if (minI > maxI) return NONE;
  const itemsFalse = m.items.includes(false);
  const needContains = m.contains.length > 0 ? (m.minContains ?? 1) : 0;
  let n = Math.max(minI, needContains);
  if (fillHere || (ctx.maximal && !st.noFill)) n = Math.max(n, Math.min(maxI, Math.max(1, m.prefixItems.length)));
  if (itemsFalse) n = Math.min(n, m.prefixItems.length);
  if (n > maxI || n < minI) return NONE;
  const out: JsonValue[] = [];
  for (let i = 0; i < n; i++) {
    let schemas: SchemaNode[] = i < m.prefixItems.length ? m.prefixItems[i]! : m.items;
    if (i < needContains) schemas = [...schemas, ...m.contains];
    let value: Out = NONE;
    for (let t = 0; t < (m.uniqueItems ? 6 : 1); t++) {
      const itemState = { ...st, variant: st.variant + i + t * (n + 1) };
      const v = i < minI || i < needContains ? generate(ctx, schemas, itemState) : bounded(ctx, OPTIONAL_BUDGET, () => generate(ctx, schemas, itemState));
      if (v === NONE) break;
      if (m.uniqueItems && out.some((x) => deepEqual(x, v))) continue;
      value = v;
      break;
    }
    if (value === NONE) {
      if (i >= minI && i >= needContains) break;
      return NONE;
    }
    out.push(value);
  }
  return out;
}

// Objects ------------------------------------------------------------------------------------------------

export function isReadOnly(ctx: Context, schemas: SchemaNode[]): boolean {
  for (const s of schemas) {
    if (own(s, 'readOnly') === true) return true;
    const ref = own(s, '$ref');
    if (typeof ref === 'string' && own(resolveRef(ctx, ref), 'readOnly') === true) return true;
  }
  return false;
}

/**
 * Whether `schemas` lead straight back to a `$ref` in `open`: directly, or through items, map values and
 * composition (not through nested `properties`, whose optional members are decided where they are built).
 */
export function reentersOpenRef(schemas: readonly JsonValue[], open: ReadonlyMap<string, number>, depth: number): boolean {
  if (depth > 6) return false;
  for (const s of schemas) {
    if (!isObj(s)) continue;
    const ref = own(s, '$ref');
    if (typeof ref === 'string' && open.has(ref)) return true;
    for (const kw of ['items', 'additionalProperties', 'contains', 'not', 'if', 'then', 'else']) if (has(s, kw) && reentersOpenRef([s[kw]!], open, depth + 1)) return true;
    for (const kw of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
      const list = own(s, kw);
      if (Array.isArray(list) && reentersOpenRef(list, open, depth + 1)) return true;
    }
  }
  return false;
}

export function genObject(ctx: Context, m: Merged, st: State, fillHere = false): Out {
  const out: Obj = {};
  const fill = fillHere || (ctx.maximal && !st.noFill);
  const required = new Set(m.required);
  const order = [...m.properties.keys(), ...m.required.filter((k) => !m.properties.has(k))];
  const optionalAdded: string[] = [];
  const keyOk = (k: string): boolean => m.propertyNames.every((s) => check(ctx, s, k, [], null, false, 0));
  const add = (key: string, isRequired: boolean): boolean => {
    const schemas = propertySchemas(m, key);
    if (schemas.includes(false)) return false;
    const v = isRequired ? generate(ctx, schemas, st) : bounded(ctx, OPTIONAL_BUDGET, () => generate(ctx, schemas, st));
    if (v === NONE) return false;
    setOwn(out, key, v);
    if (!isRequired) {
      optionalAdded.push(key);
      ctx.fillLeft--;
    }
    return true;
  };
  for (const key of order) {
    const isRequired = required.has(key);
    if (!isRequired && (!fill || (!fillHere && ctx.fillLeft <= 0))) continue;
    if (!isRequired && (ctx.request && isReadOnly(ctx, m.properties.get(key) ?? []))) continue;
    if (!isRequired && !keyOk(key)) continue;
    // An optional property that leads back into a schema already being built is left out (no recursion by choice).
    if (!isRequired && !fillHere && reentersOpenRef(m.properties.get(key) ?? [], st.refs, 0)) continue;
    if (!add(key, isRequired) && isRequired) return NONE;
  }
  // dependentRequired: a present key brings its dependencies.
  for (let round = 0; round < 4; round++) {
    let changed = false;
    for (const [k, deps] of m.dependentRequired)
      if (has(out, k))
        for (const d of deps)
          if (!has(out, d)) {
            if (!add(d, true)) return NONE;
            changed = true;
          }
    if (!changed) break;
  }
  const count = (): number => Object.keys(out).length;
  const minP = m.minProperties ?? 0;
  const maxP = m.maxProperties ?? Infinity;
  // More properties: optional declared ones, then pattern properties, then additional ones.
  const extraWanted = (): boolean => count() < minP || (fill && count() === 0 && m.properties.size === 0 && maxP > 0 && m.additional.some((a) => a.schema !== false && a.schema !== true));
  if (extraWanted())
    for (const key of order) {
      if (!extraWanted()) break;
      if (!has(out, key) && keyOk(key) && !(ctx.request && isReadOnly(ctx, m.properties.get(key) ?? []))) add(key, false);
    }
  for (let i = 0; extraWanted() && i < 8; i++) {
    const candidates: string[] = [];
    for (const [p] of m.patternProperties) {
      const s = patternString(ctx, p, 1, 64, i);
      if (s !== undefined) candidates.push(s);
    }
    if (m.propertyNames.length > 0) {
      const k = generate(ctx, [...m.propertyNames, { type: ['string'] }], { ...st, variant: st.variant + i + 1 });
      if (typeof k === 'string') candidates.push(k);
    }
    candidates.push(i === 0 ? 'key' : `key${i + 1}`, `property_${i + 1}`);
    for (const k of candidates) if (!has(out, k) && keyOk(k) && add(k, false)) break;
  }
  // Too many: drop optional ones, last first.
  while (count() > maxP && optionalAdded.length > 0) delete out[optionalAdded.pop()!];
  return out;
}
