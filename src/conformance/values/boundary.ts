import type { JsonValue, SchemaNode } from '../../model/ir.js';
import { makeContext, rootState } from './context.js';
import type { Context } from './context.js';
import { generate, isReadOnly } from './generate.js';
import { readablePath } from './paths.js';
import { check, conformsAll } from './interpret.js';
import type { Violation } from './interpret.js';
import { clone, deepEqual, has, isObj, setOwn } from './json.js';
import { MAX_PROBE_ITEMS, MAX_PROBE_LENGTH } from './limits.js';
import { emptyMerged, flatten, propertySchemas } from './merge.js';
import type { Merged } from './merge.js';
import { cpLength, regex } from './text.js';
import { NONE } from './types.js';
import type { Defs, Obj, Out, Seg, Variant } from './types.js';

// Boundary variants of a request body

export class Prober {
  private readonly valid: Variant[] = [];
  private readonly invalid: Variant[] = [];
  private readonly seen = new Set<string>();
  constructor(
    private readonly schema: SchemaNode,
    private readonly defs: Defs,
    private readonly seed: number,
  ) {}

  private ctx(maximal = false): Context {
    return makeContext(this.defs, this.seed, maximal, true);
  }

  private gen(extra: SchemaNode[] = [], maximal = false): Out {
    return generate(this.ctx(maximal), [this.schema, ...extra], rootState());
  }

  private errors(value: JsonValue): Violation[] {
    const errs: Violation[] = [];
    check(this.ctx(), this.schema, value, [], errs, false, 0);
    return errs;
  }

  private push(list: Variant[], label: string, value: JsonValue, path: Seg[]): void {
    const key = `${list === this.valid ? 'v' : 'i'}:${readablePath(path)}:${JSON.stringify(value)}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    list.push({ label, value, path: readablePath(path) });
  }

  private addValid(label: string, value: Out, path: Seg[]): void {
    if (value === NONE) return;
    if (conformsAll(this.ctx(), [this.schema], value)) this.push(this.valid, label, value, path);
  }

  /** Keep an invalid body only when every violation is at `path` (or inside a branch not meant for the value). */
  private addInvalid(label: string, value: JsonValue, path: Seg[]): void {
    const errs = this.errors(value);
    if (errs.length === 0) return;
    const under = (e: Violation): boolean => path.every((s, i) => e.path[i] === s);
    const combinator = (e: Violation): boolean => e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if';
    if (!errs.some((e) => !combinator(e) && under(e))) return;
    if (!errs.every((e) => combinator(e) || e.branch || under(e))) return;
    this.push(this.invalid, label, value, path);
  }

  run(): { valid: Variant[]; invalid: Variant[] } {
    const base = this.gen();
    if (base === NONE) return { valid: [], invalid: [] };
    this.addValid('minimal body', base, []);
    this.addValid('maximal body', this.gen([], true), []);
    if (!isObj(base)) {
      this.wrongType(base, []);
      return { valid: this.valid, invalid: this.invalid };
    }
    const top = this.mergedOf([this.schema]);
    // A union body: probe the properties of the branches the minimal body is an instance of.
    const ctx = this.ctx();
    for (let guard = 0; top.groupsDone < top.groups.length && guard < 20; guard++) {
      const group = top.groups[top.groupsDone++]!;
      const branch = group.branches.find((b) => check(ctx, b, base, [], null, false, 0));
      if (branch !== undefined) flatten(ctx, top, branch, rootState());
    }
    const keys = [...top.properties.keys()];
    for (const k of top.required) if (!keys.includes(k)) keys.push(k);
    for (const key of keys) this.probeProperty(top, key, base);
    // An unknown property (refused when additionalProperties is false).
    let unknown = 'unexpected_property';
    while (top.properties.has(unknown)) unknown = `_${unknown}`;
    const withUnknown = clone(base);
    setOwn(withUnknown, unknown, 'unexpected');
    this.addInvalid('unknown property', withUnknown, [unknown]);
    return { valid: this.valid, invalid: this.invalid };
  }

  private mergedOf(nodes: SchemaNode[]): Merged {
    const ctx = this.ctx();
    const m = emptyMerged();
    for (const n of nodes) flatten(ctx, m, n, rootState());
    return m;
  }

  private probeProperty(top: Merged, key: string, base: Obj): void {
    const schemas = propertySchemas(top, key);
    const ctx = this.ctx();
    if (isReadOnly(ctx, schemas)) return;
    const path = [key];
    const withKey = (extra: SchemaNode): Out => {
      const props: Obj = {};
      setOwn(props, key, extra as JsonValue);
      return this.gen([{ required: [key], properties: props }]);
    };
    const body = withKey(true);
    if (!isObj(body)) return;
    const current = body[key]!;
    const replaced = (v: JsonValue): Obj => {
      const b = clone(body);
      setOwn(b, key, v);
      return b;
    };
    const pm = this.mergedOf(schemas);
    const show = (v: JsonValue): string => (typeof v === 'string' && v.length > 40 ? `${JSON.stringify(v.slice(0, 37))}...` : JSON.stringify(v));

    if (top.required.includes(key) && has(base, key)) {
      const b = clone(base);
      delete b[key];
      this.addInvalid(`${key}: missing (required)`, b, path);
    }

    if (pm.types?.includes('null') && pm.consts.length === 0) this.addValid(`${key}: null`, withKey({ const: null }), path);
    if (pm.consts.length > 0) {
      this.addValid(`${key}: const ${show(pm.consts[0]!)}`, body, path);
      this.addInvalid(`${key}: not the const`, replaced(otherValue([pm.consts[0]!])), path);
    } else if (pm.enums.length > 0) {
      const values = pm.enums[0]!.filter((v) => pm.enums.every((e) => e.some((x) => deepEqual(x, v))));
      for (const v of values) this.addValid(`${key}: enum ${show(v)}`, withKey({ const: v }), path);
      this.addInvalid(`${key}: not in enum`, replaced(otherValue(values)), path);
    } else if (typeof current === 'string') {
      this.probeString(pm, key, path, current, withKey, replaced, show);
    } else if (typeof current === 'number') {
      this.probeNumber(pm, key, path, current, withKey, replaced);
    } else if (Array.isArray(current)) {
      this.probeArray(pm, key, path, withKey, replaced);
    }
    this.wrongType(body, path);
  }

  private probeString(pm: Merged, key: string, path: Seg[], current: string, withKey: (s: SchemaNode) => Out, replaced: (v: JsonValue) => Obj, show: (v: JsonValue) => string): void {
    const minL = pm.minLength;
    const maxL = pm.maxLength;
    const at = (len: number): string | undefined => {
      const b = withKey({ minLength: len, maxLength: len });
      return isObj(b) && typeof b[key] === 'string' ? (b[key] as string) : undefined;
    };
    if (minL !== undefined && minL <= MAX_PROBE_LENGTH) {
      const b = withKey({ minLength: minL, maxLength: minL });
      this.addValid(`${key}: length ${minL} (minLength)`, b, path);
      if (minL > 0) {
        const s = (isObj(b) && typeof b[key] === 'string' ? (b[key] as string) : undefined) ?? 'a'.repeat(minL);
        this.addInvalid(`${key}: length ${minL - 1} (below minLength ${minL})`, replaced([...s].slice(0, minL - 1).join('')), path);
      }
    }
    if (maxL !== undefined && maxL <= MAX_PROBE_LENGTH) {
      const b = withKey({ minLength: maxL, maxLength: maxL });
      this.addValid(`${key}: length ${maxL} (maxLength)`, b, path);
      const s = at(maxL) ?? 'a'.repeat(maxL);
      const cps = [...s];
      this.addInvalid(`${key}: length ${maxL + 1} (above maxLength ${maxL})`, replaced(s + (cps[cps.length - 1] ?? 'a')), path);
    }
    for (const p of pm.patterns) {
      this.addValid(`${key}: matches pattern ${show(p)}`, withKey(true), path);
      const bad = patternViolation(p, current, minL ?? 0, maxL ?? Infinity);
      if (bad !== undefined) this.addInvalid(`${key}: violates pattern ${show(p)}`, replaced(bad), path);
    }
  }

  private probeNumber(pm: Merged, key: string, path: Seg[], current: number, withKey: (s: SchemaNode) => Out, replaced: (v: JsonValue) => Obj): void {
    const integer = pm.types !== undefined && pm.types.includes('integer') && !pm.types.includes('number');
    const lo = pm.minimum ?? pm.exclusiveMinimum;
    const hi = pm.maximum ?? pm.exclusiveMaximum;
    const span = lo !== undefined && hi !== undefined ? hi - lo : Infinity;
    const delta = integer ? 1 : pm.multipleOf.length > 0 ? pm.multipleOf[0]! : span < 10 ? span / 10 : 1;
    const round = (x: number): number => Number(x.toPrecision(12));
    if (pm.minimum !== undefined) {
      this.addValid(`${key}: ${pm.minimum} (minimum)`, withKey({ const: pm.minimum }), path);
      this.addInvalid(`${key}: ${round(pm.minimum - delta)} (below minimum ${pm.minimum})`, replaced(round(pm.minimum - delta)), path);
    }
    if (pm.exclusiveMinimum !== undefined) {
      const inside = integer ? Math.floor(pm.exclusiveMinimum) + 1 : round(pm.exclusiveMinimum + delta);
      this.addValid(`${key}: ${inside} (above exclusiveMinimum ${pm.exclusiveMinimum})`, withKey({ const: inside }), path);
      this.addInvalid(`${key}: ${pm.exclusiveMinimum} (at exclusiveMinimum)`, replaced(pm.exclusiveMinimum), path);
    }
    if (pm.maximum !== undefined) {
      this.addValid(`${key}: ${pm.maximum} (maximum)`, withKey({ const: pm.maximum }), path);
      this.addInvalid(`${key}: ${round(pm.maximum + delta)} (above maximum ${pm.maximum})`, replaced(round(pm.maximum + delta)), path);
    }
    if (pm.exclusiveMaximum !== undefined) {
      const inside = integer ? Math.ceil(pm.exclusiveMaximum) - 1 : round(pm.exclusiveMaximum - delta);
      this.addValid(`${key}: ${inside} (below exclusiveMaximum ${pm.exclusiveMaximum})`, withKey({ const: inside }), path);
      this.addInvalid(`${key}: ${pm.exclusiveMaximum} (at exclusiveMaximum)`, replaced(pm.exclusiveMaximum), path);
    }
    for (const d of pm.multipleOf) {
      if (integer && d === 1) continue;
      const off = round(current + d / 2);
      this.addInvalid(`${key}: ${off} (not a multiple of ${d})`, replaced(off), path);
    }
    if (integer) this.addInvalid(`${key}: ${current + 0.5} (not an integer)`, replaced(current + 0.5), path);
  }

  private probeArray(pm: Merged, key: string, path: Seg[], withKey: (s: SchemaNode) => Out, replaced: (v: JsonValue) => Obj): void {
    const arrayAt = (n: number): JsonValue[] | undefined => {
      const b = withKey({ minItems: n, maxItems: n });
      return isObj(b) && Array.isArray(b[key]) ? (b[key] as JsonValue[]) : undefined;
    };
    if (pm.minItems !== undefined && pm.minItems <= MAX_PROBE_ITEMS) {
      const a = arrayAt(pm.minItems);
      if (a) this.addValid(`${key}: ${pm.minItems} items (minItems)`, withKey({ minItems: pm.minItems, maxItems: pm.minItems }), path);
      if (pm.minItems > 0 && a) this.addInvalid(`${key}: ${pm.minItems - 1} items (below minItems ${pm.minItems})`, replaced(a.slice(0, -1)), path);
    }
    if (pm.maxItems !== undefined && pm.maxItems <= MAX_PROBE_ITEMS) {
      const a = arrayAt(pm.maxItems);
      if (a) {
        this.addValid(`${key}: ${pm.maxItems} items (maxItems)`, withKey({ minItems: pm.maxItems, maxItems: pm.maxItems }), path);
        // One more item: a fresh one when the items allow it, else a copy of the last.
        const ctx = this.ctx();
        const itemSchemas = pm.prefixItems.length > a.length ? pm.prefixItems[a.length]! : pm.items;
        const extra = generate(ctx, itemSchemas, { ...rootState(), variant: a.length + 7 });
        const more = extra !== NONE ? [...a, extra] : a.length > 0 ? [...a, clone(a[a.length - 1]!)] : undefined;
        if (more) this.addInvalid(`${key}: ${more.length} items (above maxItems ${pm.maxItems})`, replaced(more), path);
      }
    }
  }

  private wrongType(body: JsonValue, path: Seg[]): void {
    const samples: [string, JsonValue][] = [
      ['string', 'wrong-type'],
      ['number', 12345.5],
      ['integer', 12345],
      ['boolean', true],
      ['object', {}],
      ['array', []],
      ['null', null],
    ];
    for (const [name, v] of samples) {
      const target = path.length === 0 ? v : (() => {
        const b = clone(body as Obj);
        setOwn(b, path[0] as string, v);
        return b;
      })();
      const errs = this.errors(target);
      // Wrong by its type: a type error on the field itself, or, under `anyOf`/`oneOf`, every branch refusing it
      // by type. A branch refusing it otherwise (box's `retention_length`: a string, or a number of format int32,
      // where 12345.5 fails the format) means the type is right and the probe would test something else.
      const at = (e: { path: Seg[] }): boolean => path.every((s, i) => e.path[i] === s);
      const inBranches = errs.filter((e) => e.branch && at(e));
      const combined = errs.some((e) => !e.branch && (e.keyword === 'anyOf' || e.keyword === 'oneOf') && at(e));
      if (errs.some((e) => e.keyword === 'type' && !e.branch && at(e)) || (combined && inBranches.length > 0 && inBranches.every((e) => e.keyword === 'type'))) {
        this.addInvalid(`${path.length ? `${readablePath(path)}: ` : ''}wrong type (${name})`, target, path);
        return;
      }
    }
  }
}

/** A value of the same JSON type as `values` that is none of them. */
export function otherValue(values: JsonValue[]): JsonValue {
  const first = values.find((v) => v !== null) ?? null;
  const taken = (x: JsonValue): boolean => values.some((v) => deepEqual(v, x));
  if (typeof first === 'number') {
    let x = Math.max(...values.filter((v): v is number => typeof v === 'number')) + 1;
    while (taken(x)) x++;
    return x;
  }
  if (typeof first === 'boolean') return !first;
  if (first === null) return 'unexpected';
  if (typeof first === 'string') {
    for (const c of ['NOT_A_VALID_VALUE', 'not_a_valid_value', `${first}_unknown`, `${first}x`]) if (!taken(c)) return c;
  }
  return 'unexpected';
}

/** A string near `valid` (same length where possible) that does not match `pattern`. */
export function patternViolation(pattern: string, valid: string, minL: number, maxL: number): string | undefined {
  const re = regex(pattern);
  if (re === null) return undefined;
  const cps = [...valid];
  const candidates: string[] = [];
  for (const c of ['!', ' ', '~', '#', 'a', 'Z', '0', '-', '_', '.', '/', 'é']) {
    candidates.push([c, ...cps.slice(1)].join(''));
    if (cps.length > 1) candidates.push([...cps.slice(0, -1), c].join(''));
  }
  for (let i = 1; i < Math.min(cps.length - 1, 8); i++) candidates.push([...cps.slice(0, i), '!', ...cps.slice(i + 1)].join(''));
  const len = Math.max(minL, Math.min(maxL, cps.length, 8));
  candidates.push('!'.repeat(Math.max(1, len)), ' '.repeat(Math.max(1, len)), '', 'a'.repeat(Math.max(1, len)));
  let fallback: string | undefined;
  for (const s of candidates) {
    if (re.test(s)) continue;
    const l = cpLength(s);
    if (l >= minL && l <= maxL) return s;
    fallback ??= s;
  }
  return fallback;
}
