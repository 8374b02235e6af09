// Deterministic JSON values from the IR's schemas (JSON Schema 2020-12, normalised as ir.ts describes), for the
// conformance suite: a valid value per schema, and for a request body the values just inside and just outside
// each constraint of its top-level properties.
//
// How it works: the schemas a value must satisfy are flattened into one set of merged constraints (`$ref` and
// `allOf` followed, `anyOf`/`oneOf` kept as choices, `if` as conditions); a search picks a branch per choice,
// generates a candidate per allowed type, decides each condition on the candidate and generates again with the
// chosen `then`/`else` merged in. Every candidate is checked against the original schemas by a small
// interpreter (`conforms`), so a value is only ever returned when the interpreter accepts it; when nothing
// passes, the answer is `undefined`. The interpreter's formats are a subset of what common validators accept
// (stricter, never looser), so an accepted value is accepted elsewhere too.
//
// Determinism: no clock, no Math.random; choices use a seeded PRNG (mulberry32) created per call, and every
// loop runs in schema order.
import type { JsonValue, SchemaNode } from '../../model/ir.js';

export type Defs = Record<string, SchemaNode>;

export interface Variant {
  label: string;
  value: unknown;
  /** Readable path of the property the variant is about (`color`, `conditions[0].metric_id`); '' for the whole body. */
  path: string;
}

export interface ValueOptions {
  /** Seed of the PRNG used where a choice is needed (characters of pattern strings, branches of a regex). Default 1. */
  seed?: number;
  /** Also fill optional properties (and give arrays and maps one entry), except where that would recurse. */
  maximal?: boolean;
}

type Obj = { [key: string]: JsonValue };
type Seg = string | number;

const NONE: unique symbol = Symbol('none');
type Out = JsonValue | typeof NONE;

/** Steps (schema visits) one top-level call may take before it gives up. */
const BUDGET = 60_000;
/** How deep generation may nest (objects and arrays), and how often one `$ref` may be open on the stack. */
const MAX_DEPTH = 40;
const MAX_REF_REPEAT = 4;
/** Past this depth, or inside a recursion, optional properties are no longer filled in `maximal` mode. */
const FILL_DEPTH = 8;
const FILL_BUDGET = 400;
/** Steps one optional value may take: an optional property that is hard to satisfy is left out, not searched for. */
const OPTIONAL_BUDGET = 4_000;
/** Longest string generated (minLength beyond this is treated as unsatisfiable). */
const MAX_STRING = 1_000_000;
/** Largest bound boundaryVariants builds a value at (maxLength, maxItems). */
const MAX_PROBE_LENGTH = 100_000;
const MAX_PROBE_ITEMS = 1_000;

// ---------------------------------------------------------------------------------------------------------
// Public API

/**
 * A valid value for `schema`, or undefined when none could be built (an unsatisfiable schema, or one beyond
 * what the generator can solve). Deterministic: the same input gives the same output.
 */
export function validValue(schema: SchemaNode, defs: Defs, options: ValueOptions = {}): unknown {
  const maximal = options.maximal === true;
  try {
    let out = generate(makeContext(defs, options.seed ?? 1, maximal, false), [schema], rootState());
    // The other mode sometimes succeeds where this one does not (a oneOf whose branches only differ in optional
    // properties; a maximal value whose optional parts exhaust the budget).
    if (out === NONE) out = generate(makeContext(defs, options.seed ?? 1, !maximal, false), [schema], rootState());
    return out === NONE ? undefined : out;
  } catch {
    // A schema beyond the generator (a stack overflow on a pathological document): no value, never an exception.
    return undefined;
  }
}

/**
 * Probes for a request body (a top-level object schema). `valid`: the minimal and maximal bodies, then per
 * top-level property the values at each bound, each enum value and a pattern-valid string. `invalid`: per
 * property the values just outside each bound, an unknown enum value, a pattern-invalid string, a wrong JSON
 * type; per required property the body without it; and the body with an unknown property (when that is
 * refused). Every variant was checked: valid ones validate, and invalid ones fail only at `path` (errors
 * elsewhere come only from `anyOf`/`oneOf` branches the value was not meant for).
 */
export function boundaryVariants(schema: SchemaNode, defs: Defs, options: { seed?: number } = {}): { valid: Variant[]; invalid: Variant[] } {
  try {
    return new Prober(schema, defs, options.seed ?? 1).run();
  } catch {
    return { valid: [], invalid: [] };
  }
}

/** `['conditions', 0, 'metric_id']` -> `conditions[0].metric_id`; keys that are not identifiers are quoted: `["a b"]`. */
export function readablePath(segments: readonly Seg[]): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** Whether `value` satisfies `schema` according to this module's interpreter (the oracle the generator uses). */
export function conforms(schema: SchemaNode, defs: Defs, value: unknown): boolean {
  const ctx = makeContext(defs, 1, false, false);
  return check(ctx, schema, value as JsonValue, [], null, false, 0);
}

// ---------------------------------------------------------------------------------------------------------
// Context

interface Context {
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

interface State {
  depth: number;
  /** `$ref`s open on the stack, with how often each is open. */
  refs: ReadonlyMap<string, number>;
  /** Asks for a value different from variant 0 (array items, uniqueness). */
  variant: number;
  /** Do not fill optional properties below this point. */
  noFill: boolean;
}

function makeContext(defs: Defs, seed: number, maximal: boolean, request: boolean): Context {
  const root: Obj = {};
  Object.defineProperty(root, '$defs', { value: defs, enumerable: true, writable: true, configurable: true });
  let refCache = refCaches.get(defs);
  if (refCache === undefined) refCaches.set(defs, (refCache = new Map()));
  return { root, rng: mulberry32(seed), maximal, request, steps: BUDGET, fillLeft: FILL_BUDGET, memo: new WeakMap(), refCache };
}

/** Resolved refs per defs object (the schemas are not changed between calls). */
const refCaches = new WeakMap<Defs, Map<string, SchemaNode | undefined>>();

const rootState = (): State => ({ depth: 0, refs: new Map(), variant: 0, noFill: false });

/** mulberry32: a small, fast, seeded 32-bit PRNG (also used by the drills). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------------------
// Small helpers

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function own(o: unknown, key: string): JsonValue | undefined {
  return isObj(o) && Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

function has(o: unknown, key: string): boolean {
  return isObj(o) && Object.prototype.hasOwnProperty.call(o, key);
}

/** Set a data key; `__proto__` is defined as an own property rather than assigned (which would set the prototype). */
function setOwn(target: Obj, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function deepEqual(a: unknown, b: unknown): boolean {
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

function clone<T extends JsonValue>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => clone(x)) as T;
  const out: Obj = {};
  for (const k of Object.keys(v)) setOwn(out, k, clone((v as Obj)[k]!));
  return out as T;
}

function cpLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

const regexCache = new Map<string, RegExp | null>();
/** The pattern as validators compile it (`u` flag); null when it does not compile. */
function regex(pattern: string): RegExp | null {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      try {
        re = new RegExp(pattern);
      } catch {
        re = null;
      }
    }
    if (regexCache.size > 5000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

function matches(pattern: string, s: string): boolean {
  const re = regex(pattern);
  return re === null ? true : re.test(s);
}

function resolveRef(ctx: Context, ref: string): SchemaNode | undefined {
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

// ---------------------------------------------------------------------------------------------------------
// Formats: checks (a subset of what ajv-formats accepts) and canonical values.

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const y = +m[1]!;
  const mo = +m[2]!;
  const d = +m[3]!;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return mo >= 1 && mo <= 12 && d >= 1 && d <= (mo === 2 && leap ? 29 : DAYS[mo]!);
}
function isTime(s: string, zoneRequired: boolean): boolean {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|z|[+-](\d{2}):(\d{2}))?$/.exec(s);
  if (!m) return false;
  if (zoneRequired && m[4] === undefined) return false;
  if (m[5] !== undefined && (+m[5] > 23 || +m[6]! > 59)) return false;
  return +m[1]! <= 23 && +m[2]! <= 59 && +m[3]! <= 59;
}
function isDateTime(s: string, zoneRequired: boolean): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](.*)$/.exec(s);
  return m !== null && isDate(m[1]!) && isTime(m[2]!, zoneRequired);
}
const PCHAR = "(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})";
const QCHAR = "(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})";
const REGNAME = "(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*";
const URI_TAIL = `(?:\\?${QCHAR}*)?(?:#${QCHAR}*)?$`;
const URI_RE = new RegExp(`^[a-z][a-z0-9+\\-.]*:(?://${REGNAME}(?::\\d*)?(?:/${PCHAR}*)*|${PCHAR}+(?:/${PCHAR}*)*)${URI_TAIL}`, 'i');
const PCHAR_NO_COLON = "(?:[a-z0-9\\-._~!$&'()*+,;=@]|%[0-9a-f]{2})";
const RELATIVE_REF_RE = new RegExp(`^(?:/(?:${PCHAR}+(?:/${PCHAR}*)*)?|${PCHAR_NO_COLON}+(?:/${PCHAR}*)*)?${URI_TAIL}`, 'i');
const EMAIL_RE = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const HOSTNAME_RE = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i;
const IPV4_RE = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const UUID_RE = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const URL_RE = /^https?:\/\/[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*\.[a-z]{2,}(?::\d{2,5})?(?:\/[^\s]*)?$/i;
const URI_TEMPLATE_RE =
  /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;
const DURATION_RE = /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/;

function isIpv6(s: string): boolean {
  const halves = s.split('::');
  if (halves.length > 2) return false;
  const groups = (h: string): string[] | null => (h === '' ? [] : h.split(':'));
  const a = groups(halves[0]!);
  const b = halves.length === 2 ? groups(halves[1]!) : [];
  if (a === null || b === null) return false;
  const all = [...a, ...b];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return false;
  return halves.length === 2 ? all.length <= 7 : all.length === 8;
}

/** Whether `s` passes string format `format`; formats this module does not know pass (validators ignore them too). */
function stringFormatOk(format: string, s: string): boolean {
  switch (format) {
    case 'date':
      return isDate(s);
    case 'time':
      return isTime(s, true);
    case 'iso-time':
      return isTime(s, false);
    case 'date-time':
      return isDateTime(s, true);
    case 'iso-date-time':
      return isDateTime(s, false);
    case 'duration':
      return DURATION_RE.test(s);
    case 'uri':
    case 'iri':
      return URI_RE.test(s);
    case 'uri-reference':
    case 'iri-reference':
      return URI_RE.test(s) || RELATIVE_REF_RE.test(s);
    case 'uri-template':
      return URI_TEMPLATE_RE.test(s);
    case 'url':
      return URL_RE.test(s);
    case 'email':
    case 'idn-email':
      return EMAIL_RE.test(s);
    case 'hostname':
    case 'idn-hostname':
      return HOSTNAME_RE.test(s);
    case 'ipv4':
      return IPV4_RE.test(s);
    case 'ipv6':
      return isIpv6(s);
    case 'uuid':
      return UUID_RE.test(s);
    case 'json-pointer':
      return /^(?:\/(?:[^~/]|~0|~1)*)*$/.test(s);
    case 'relative-json-pointer':
      return /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/.test(s);
    case 'byte':
      return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s);
    case 'regex':
      if (/[^\\]\\Z/.test(s)) return false;
      try {
        new RegExp(s, 'u');
        return true;
      } catch {
        return false;
      }
    default:
      return true;
  }
}

function numberFormatOk(format: string, n: number): boolean {
  if (format === 'int32') return Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1;
  if (format === 'int64') return Number.isInteger(n);
  return true;
}

/** Shortest canonical values, for tight maxLength limits. */
const SHORT_FORMAT_VALUES: Record<string, string> = { byte: '', uri: 'a:b', iri: 'a:b', 'uri-reference': 'a', 'iri-reference': 'a', email: 'a@b.co', 'idn-email': 'a@b.co', hostname: 'a', 'idn-hostname': 'a', url: 'http://a.co', 'uri-template': 'a', ipv6: '::1' };

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** A canonical valid value of a string format (varied by `variant`), stretched toward `minLen` where the format allows. */
function formatValue(format: string, variant: number, minLen: number): string | undefined {
  const v = variant;
  const day = pad2((v % 28) + 1);
  const month = pad2((Math.floor(v / 28) % 12) + 1);
  const fill = (base: string, sep: string): string => (cpLength(base) >= minLen ? base : base + sep + 'a'.repeat(Math.max(0, minLen - cpLength(base) - sep.length)));
  switch (format) {
    case 'date-time':
    case 'iso-date-time':
      return `2024-${month}-${day}T00:00:00Z`;
    case 'date':
      return `2024-${month}-${day}`;
    case 'time':
    case 'iso-time':
      return `12:00:${pad2(v % 60)}Z`;
    case 'duration':
      return `P${v + 1}D`;
    case 'email':
    case 'idn-email':
      return `user${v === 0 ? '' : v}${'a'.repeat(Math.max(0, minLen - 16 - (v === 0 ? 0 : String(v).length)))}@example.com`;
    case 'uri':
    case 'iri':
    case 'uri-reference':
    case 'iri-reference':
    case 'url':
      return fill(v === 0 ? 'https://example.com' : `https://example.com/${v}`, v === 0 ? '/' : '');
    case 'uri-template':
      return v === 0 ? 'https://example.com/{id}' : `https://example.com/${v}/{id}`;
    case 'hostname':
    case 'idn-hostname':
      return v === 0 ? 'example.com' : `host${v}.example.com`;
    case 'ipv4':
      return `192.0.2.${(v % 254) + 1}`;
    case 'ipv6':
      return `2001:db8::${(v + 1).toString(16)}`;
    case 'uuid':
      return `00000000-0000-4000-8000-${(v + 1).toString(16).padStart(12, '0')}`;
    case 'json-pointer':
      return v === 0 ? '/a' : `/a/${v}`;
    case 'relative-json-pointer':
      return String(v);
    case 'regex':
      return v === 0 ? '^[a-z]+$' : `^[a-z]{${v}}$`;
    case 'byte':
      return btoa(v === 0 ? 'string' : `string${v}`);
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The interpreter (validity oracle). With `errs` it collects every violation (paths name the property for
// required / additionalProperties / propertyNames / dependentRequired); without, it stops at the first.

interface Violation {
  path: Seg[];
  keyword: string;
  /** Inside a failing `anyOf`/`oneOf` branch (a branch the value was not meant for). */
  branch: boolean;
}

function check(ctx: Context, node: SchemaNode, v: JsonValue, path: Seg[], errs: Violation[] | null, branch: boolean, depth: number): boolean {
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

function checkNode(ctx: Context, node: Obj, v: JsonValue, path: Seg[], errs: Violation[] | null, branch: boolean, depth: number): boolean {
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
function* appliedSubschemas(ctx: Context, node: Obj, v: JsonValue, depth: number): Generator<Obj> {
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

function evaluatedKeys(ctx: Context, node: Obj, v: Obj, seen: Set<string>, depth: number, nested: boolean): void {
  if (depth > 300) return;
  const props = own(node, 'properties');
  const pats = own(node, 'patternProperties');
  const everything = has(node, 'additionalProperties') || (nested && has(node, 'unevaluatedProperties'));
  for (const k of Object.keys(v)) if (everything || (isObj(props) && has(props, k)) || (isObj(pats) && Object.keys(pats).some((p) => matches(p, k)))) seen.add(k);
  for (const sub of appliedSubschemas(ctx, node, v, depth)) evaluatedKeys(ctx, sub, v, seen, depth + 1, true);
}

function evaluatedItems(ctx: Context, node: Obj, v: JsonValue[], seen: Set<number>, depth: number, nested: boolean): void {
  if (depth > 300) return;
  const prefix = own(node, 'prefixItems');
  const n = Array.isArray(prefix) ? prefix.length : 0;
  const everything = has(node, 'items') || (nested && has(node, 'unevaluatedItems'));
  for (let i = 0; i < v.length; i++) if (everything || i < n) seen.add(i);
  if (has(node, 'contains')) for (let i = 0; i < v.length; i++) if (check(ctx, node.contains as SchemaNode, v[i]!, [], null, false, depth + 1)) seen.add(i);
  for (const sub of appliedSubschemas(ctx, node, v, depth)) evaluatedItems(ctx, sub, v, seen, depth + 1, true);
}

function checkArray(ctx: Context, node: Obj, v: JsonValue[], path: Seg[], errs: Violation[] | null, branch: boolean, depth: number): boolean {
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

function checkObject(ctx: Context, node: Obj, v: Obj, path: Seg[], errs: Violation[] | null, branch: boolean, depth: number): boolean {
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

function isType(v: JsonValue, t: string): boolean {
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
function isMultiple(x: number, m: number): boolean {
  const q = x / m;
  return q === parseInt(String(q), 10);
}

const conformsAll = (ctx: Context, nodes: readonly SchemaNode[], v: JsonValue): boolean => nodes.every((n) => check(ctx, n, v, [], null, false, 0));

// ---------------------------------------------------------------------------------------------------------
// Merged constraints

interface Group {
  kind: 'anyOf' | 'oneOf';
  branches: SchemaNode[];
  discriminator?: { propertyName: string; mapping: Record<string, string> };
}

interface Cond {
  if: SchemaNode;
  then?: SchemaNode;
  else?: SchemaNode;
}

interface Additional {
  schema: SchemaNode;
  props: Set<string>;
  patterns: string[];
}

interface Merged {
  unsat: boolean;
  /** Allowed types in preference order; undefined = not constrained. */
  types?: string[];
  consts: JsonValue[];
  enums: JsonValue[][];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf: number[];
  minLength?: number;
  maxLength?: number;
  patterns: string[];
  formats: string[];
  items: SchemaNode[];
  prefixItems: SchemaNode[][];
  contains: SchemaNode[];
  minContains?: number;
  maxContains?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems: boolean;
  properties: Map<string, SchemaNode[]>;
  patternProperties: [string, SchemaNode][];
  additional: Additional[];
  propertyNames: SchemaNode[];
  required: string[];
  minProperties?: number;
  maxProperties?: number;
  dependentRequired: [string, string[]][];
  dependentSchemas: [string, SchemaNode][];
  groups: Group[];
  /** Groups before this index have been resolved (a branch merged in). */
  groupsDone: number;
  conds: Cond[];
  condsDone: number;
  /** `dependentSchemas` entries before this index have been decided. */
  depsDone: number;
  nots: SchemaNode[];
  examples: JsonValue[];
  readOnly: boolean;
  /** `$ref`s followed while flattening. */
  refs: string[];
  /** Whether any keyword constrains each kind of value (for type inference when `type` is absent). */
  hints: Set<string>;
}

function emptyMerged(): Merged {
  return {
    unsat: false,
    consts: [],
    enums: [],
    multipleOf: [],
    patterns: [],
    formats: [],
    items: [],
    prefixItems: [],
    contains: [],
    uniqueItems: false,
    properties: new Map(),
    patternProperties: [],
    additional: [],
    propertyNames: [],
    required: [],
    dependentRequired: [],
    dependentSchemas: [],
    groups: [],
    groupsDone: 0,
    conds: [],
    condsDone: 0,
    depsDone: 0,
    nots: [],
    examples: [],
    readOnly: false,
    refs: [],
    hints: new Set(),
  };
}

function copyMerged(m: Merged): Merged {
  const properties = new Map<string, SchemaNode[]>();
  for (const [k, v] of m.properties) properties.set(k, [...v]);
  return {
    ...m,
    types: m.types ? [...m.types] : undefined,
    consts: [...m.consts],
    enums: [...m.enums],
    multipleOf: [...m.multipleOf],
    patterns: [...m.patterns],
    formats: [...m.formats],
    items: [...m.items],
    prefixItems: m.prefixItems.map((p) => [...p]),
    contains: [...m.contains],
    properties,
    patternProperties: [...m.patternProperties],
    additional: [...m.additional],
    propertyNames: [...m.propertyNames],
    required: [...m.required],
    dependentRequired: [...m.dependentRequired],
    dependentSchemas: [...m.dependentSchemas],
    groups: [...m.groups],
    conds: [...m.conds],
    nots: [...m.nots],
    examples: [...m.examples],
    refs: [...m.refs],
    hints: new Set(m.hints),
  };
}

const maxOf = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.max(a, b));
const minOf = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

function intersectTypes(a: string[] | undefined, b: string[]): string[] {
  if (a === undefined) return [...b];
  const out: string[] = [];
  for (const t of a) {
    if (b.includes(t)) out.push(t);
    else if (t === 'number' && b.includes('integer')) out.push('integer');
    else if (t === 'integer' && b.includes('number')) out.push('integer');
  }
  return [...new Set(out)];
}

/** Fold `node` (following `$ref`s and `allOf`) into `m`. */
function flatten(ctx: Context, m: Merged, node: SchemaNode, st: State): void {
  if (node === true) return;
  if (node === false || !isObj(node)) {
    m.unsat = true;
    return;
  }
  ctx.steps--;
  if (ctx.steps < 0) {
    m.unsat = true;
    return;
  }
  const ref = own(node, '$ref');
  if (typeof ref === 'string') {
    const open = (st.refs.get(ref) ?? 0) + m.refs.filter((r) => r === ref).length;
    const target = resolveRef(ctx, ref);
    if (target === undefined || open >= MAX_REF_REPEAT) {
      m.unsat = true;
      return;
    }
    m.refs.push(ref);
    flatten(ctx, m, target, st);
  }
  for (const key of Object.keys(node)) {
    const val = node[key]!;
    switch (key) {
      case 'type': {
        const list = (Array.isArray(val) ? val : [val]).filter((t): t is string => typeof t === 'string');
        m.types = intersectTypes(m.types, list);
        if (m.types.length === 0) m.unsat = true;
        break;
      }
      case 'const':
        m.consts.push(val);
        break;
      case 'enum':
        if (Array.isArray(val)) m.enums.push(val);
        break;
      case 'minimum':
        m.minimum = maxOf(m.minimum, num(val));
        m.hints.add('number');
        break;
      case 'maximum':
        m.maximum = minOf(m.maximum, num(val));
        m.hints.add('number');
        break;
      case 'exclusiveMinimum':
        m.exclusiveMinimum = maxOf(m.exclusiveMinimum, num(val));
        m.hints.add('number');
        break;
      case 'exclusiveMaximum':
        m.exclusiveMaximum = minOf(m.exclusiveMaximum, num(val));
        m.hints.add('number');
        break;
      case 'multipleOf':
        if (num(val) !== undefined && (val as number) > 0) m.multipleOf.push(val as number);
        m.hints.add('number');
        break;
      case 'minLength':
        m.minLength = maxOf(m.minLength, num(val));
        m.hints.add('string');
        break;
      case 'maxLength':
        m.maxLength = minOf(m.maxLength, num(val));
        m.hints.add('string');
        break;
      case 'pattern':
        if (typeof val === 'string') m.patterns.push(val);
        m.hints.add('string');
        break;
      case 'format':
        if (typeof val === 'string') m.formats.push(val);
        break;
      case 'items':
        m.items.push(val as SchemaNode);
        m.hints.add('array');
        break;
      case 'prefixItems':
        if (Array.isArray(val)) val.forEach((s, i) => (m.prefixItems[i] ??= []).push(s as SchemaNode));
        m.hints.add('array');
        break;
      case 'contains':
        m.contains.push(val as SchemaNode);
        m.hints.add('array');
        break;
      case 'minContains':
        m.minContains = maxOf(m.minContains, num(val));
        break;
      case 'maxContains':
        m.maxContains = minOf(m.maxContains, num(val));
        break;
      case 'minItems':
        m.minItems = maxOf(m.minItems, num(val));
        m.hints.add('array');
        break;
      case 'maxItems':
        m.maxItems = minOf(m.maxItems, num(val));
        m.hints.add('array');
        break;
      case 'uniqueItems':
        if (val === true) m.uniqueItems = true;
        break;
      case 'properties':
        if (isObj(val))
          for (const k of Object.keys(val)) {
            const list = m.properties.get(k);
            if (list) list.push(val[k] as SchemaNode);
            else m.properties.set(k, [val[k] as SchemaNode]);
          }
        m.hints.add('object');
        break;
      case 'patternProperties':
        if (isObj(val)) for (const k of Object.keys(val)) m.patternProperties.push([k, val[k] as SchemaNode]);
        m.hints.add('object');
        break;
      case 'additionalProperties':
        m.additional.push({
          schema: val as SchemaNode,
          props: new Set(isObj(node.properties) ? Object.keys(node.properties) : []),
          patterns: isObj(node.patternProperties) ? Object.keys(node.patternProperties) : [],
        });
        m.hints.add('object');
        break;
      case 'propertyNames':
        m.propertyNames.push(val as SchemaNode);
        m.hints.add('object');
        break;
      case 'required':
        if (Array.isArray(val)) for (const k of val) if (typeof k === 'string' && !m.required.includes(k)) m.required.push(k);
        m.hints.add('object');
        break;
      case 'minProperties':
        m.minProperties = maxOf(m.minProperties, num(val));
        m.hints.add('object');
        break;
      case 'maxProperties':
        m.maxProperties = minOf(m.maxProperties, num(val));
        m.hints.add('object');
        break;
      case 'dependentRequired':
        if (isObj(val)) for (const k of Object.keys(val)) if (Array.isArray(val[k])) m.dependentRequired.push([k, (val[k] as JsonValue[]).filter((x): x is string => typeof x === 'string')]);
        break;
      case 'dependentSchemas':
        if (isObj(val)) for (const k of Object.keys(val)) m.dependentSchemas.push([k, val[k] as SchemaNode]);
        break;
      case 'allOf':
        if (Array.isArray(val)) for (const s of val) flatten(ctx, m, s as SchemaNode, st);
        break;
      case 'anyOf':
      case 'oneOf':
        if (Array.isArray(val)) m.groups.push({ kind: key, branches: val as SchemaNode[], discriminator: discriminatorOf(node) });
        break;
      case 'if':
        m.conds.push({ if: val as SchemaNode, then: has(node, 'then') ? (node.then as SchemaNode) : undefined, else: has(node, 'else') ? (node.else as SchemaNode) : undefined });
        break;
      case 'not':
        m.nots.push(val as SchemaNode);
        break;
      case 'examples':
        if (Array.isArray(val)) m.examples.push(...val);
        break;
      case 'default':
        m.examples.push(val);
        break;
      case 'readOnly':
        if (val === true) m.readOnly = true;
        break;
      default:
        break;
    }
  }
  if (m.types !== undefined && m.types.length === 0) m.unsat = true;
}

function discriminatorOf(node: Obj): Group['discriminator'] {
  const d = own(node, 'discriminator');
  const name = own(d, 'propertyName');
  if (typeof name !== 'string') return undefined;
  const mapping: Record<string, string> = {};
  const raw = own(d, 'mapping');
  if (isObj(raw)) for (const k of Object.keys(raw)) if (typeof raw[k] === 'string') setOwn(mapping, k, raw[k]);
  return { propertyName: name, mapping };
}

/** The schemas a property `key` of an object must satisfy (properties, matching patternProperties, additionalProperties). */
function propertySchemas(m: Merged, key: string): SchemaNode[] {
  const out: SchemaNode[] = [...(m.properties.get(key) ?? [])];
  for (const [p, s] of m.patternProperties) if (matches(p, key)) out.push(s);
  for (const a of m.additional) if (!a.props.has(key) && !a.patterns.some((p) => matches(p, key))) out.push(a.schema);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Generation

/** A value satisfying every schema of `nodes`, or NONE. */
function generate(ctx: Context, nodes: readonly SchemaNode[], st: State): Out {
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
function innerState(st: State, m: Merged): State {
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
function search(ctx: Context, m: Merged, nodes: readonly SchemaNode[], st: State, rounds: number): Out {
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
function branchOrder(group: Group): number[] {
  const idx = group.branches.map((_, i) => i);
  const nullOnly = (b: SchemaNode): boolean => {
    const t = own(b, 'type');
    return Array.isArray(t) && t.length === 1 && t[0] === 'null';
  };
  return [...idx.filter((i) => !nullOnly(group.branches[i]!)), ...idx.filter((i) => nullOnly(group.branches[i]!))];
}

function discriminatorValue(ctx: Context, group: Group, branch: SchemaNode): [string, string] | undefined {
  const d = group.discriminator;
  const ref = own(branch, '$ref');
  if (d === undefined || typeof ref !== 'string' || resolveRef(ctx, ref) === undefined) return undefined;
  const name = ref.slice(ref.lastIndexOf('/') + 1);
  // A mapping value names the target as the IR ref, a component ref or a file (`./Beverage.yaml`).
  const base = (target: string): string => target.slice(target.lastIndexOf('/') + 1).replace(/\.(ya?ml|json)$/, '');
  for (const k of Object.keys(d.mapping)) if (d.mapping[k] === ref || base(d.mapping[k]!) === name) return [d.propertyName, k];
  return [d.propertyName, name];
}

function* leafCandidates(ctx: Context, m: Merged, st: State): Generator<Out> {
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

function typeOrder(m: Merged): string[] {
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

function numberOk(m: Merged, integer: boolean, v: number): boolean {
  if (!Number.isFinite(v) || (integer && !Number.isInteger(v))) return false;
  if (m.minimum !== undefined && v < m.minimum) return false;
  if (m.maximum !== undefined && v > m.maximum) return false;
  if (m.exclusiveMinimum !== undefined && v <= m.exclusiveMinimum) return false;
  if (m.exclusiveMaximum !== undefined && v >= m.exclusiveMaximum) return false;
  if (!m.multipleOf.every((d) => isMultiple(v, d))) return false;
  return m.formats.every((f) => numberFormatOk(f, v));
}

function numberCandidates(m: Merged, integer: boolean, variant: number): number[] {
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

function stringOk(m: Merged, s: string): boolean {
  const len = cpLength(s);
  if (m.minLength !== undefined && len < m.minLength) return false;
  if (m.maxLength !== undefined && len > m.maxLength) return false;
  return m.patterns.every((p) => matches(p, s)) && m.formats.every((f) => stringFormatOk(f, s));
}

function genString(ctx: Context, m: Merged, variant: number): Out {
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

const NICE_STRINGS = ['string', 'example', 'https://example.com', 'user@example.com', '2024-01-01T00:00:00Z', '2024-01-01', 'value-1', 'a'];

function plainStrings(variant: number, minL: number, maxL: number): string[] {
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

// Pattern strings: a generator for the regex subset OpenAPI documents use -----------------------------------

type RNode =
  | { k: 'set'; ranges: [number, number][] }
  | { k: 'seq'; items: RNode[] }
  | { k: 'alt'; alts: RNode[] }
  | { k: 'group'; body: RNode; index: number }
  | { k: 'rep'; body: RNode; min: number; max: number }
  | { k: 'assert'; kind: string }
  | { k: 'backref'; index: number | string };

const MAXCP = 0x10ffff;
const DIGIT: [number, number][] = [[48, 57]];
const WORD: [number, number][] = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
const SPACE: [number, number][] = [
  [9, 13],
  [32, 32],
  [160, 160],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: [number, number][] = [
  [10, 10],
  [13, 13],
  [0x2028, 0x2029],
];

function normalizeRanges(r: [number, number][]): [number, number][] {
  const sorted = [...r].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

function complement(r: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [a, b] of normalizeRanges(r)) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAXCP) out.push([next, MAXCP]);
  return out;
}

class RegexParser {
  private i = 0;
  private groups = 0;
  private readonly names = new Map<string, number>();
  private readonly cps: string[];
  constructor(source: string) {
    this.cps = [...source];
  }
  parse(): RNode {
    const node = this.alt();
    if (this.i < this.cps.length) throw new Error('unbalanced )');
    return node;
  }
  private peek(off = 0): string | undefined {
    return this.cps[this.i + off];
  }
  private alt(): RNode {
    const alts: RNode[] = [this.seq()];
    while (this.peek() === '|') {
      this.i++;
      alts.push(this.seq());
    }
    return alts.length === 1 ? alts[0]! : { k: 'alt', alts };
  }
  private seq(): RNode {
    const items: RNode[] = [];
    while (this.i < this.cps.length && this.peek() !== '|' && this.peek() !== ')') {
      let atom = this.atom();
      atom = this.quantifier(atom);
      items.push(atom);
    }
    return { k: 'seq', items };
  }
  private atom(): RNode {
    const c = this.cps[this.i++]!;
    switch (c) {
      case '^':
        return { k: 'assert', kind: '^' };
      case '$':
        return { k: 'assert', kind: '$' };
      case '.':
        return { k: 'set', ranges: complement(LINE_TERMINATORS) };
      case '[':
        return this.cls();
      case '(': {
        let capture = true;
        let look = false;
        if (this.peek() === '?') {
          const n1 = this.peek(1);
          if (n1 === ':') {
            this.i += 2;
            capture = false;
          } else if (n1 === '=' || n1 === '!') {
            this.i += 2;
            look = true;
          } else if (n1 === '<' && (this.peek(2) === '=' || this.peek(2) === '!')) {
            this.i += 3;
            look = true;
          } else if (n1 === '<') {
            this.i += 2;
            let name = '';
            while (this.i < this.cps.length && this.peek() !== '>') name += this.cps[this.i++];
            this.i++;
            this.names.set(name, this.groups + 1);
          } else throw new Error('unsupported group');
        }
        const index = capture ? ++this.groups : 0;
        const body = this.alt();
        if (this.peek() !== ')') throw new Error('missing )');
        this.i++;
        if (look) return { k: 'assert', kind: 'look' };
        return { k: 'group', body, index };
      }
      case '\\':
        return this.escape(false) as RNode;
      default:
        return { k: 'set', ranges: [[c.codePointAt(0)!, c.codePointAt(0)!]] };
    }
  }
  private quantifier(atom: RNode): RNode {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const rest = this.cps.slice(this.i).join('');
      const m = /^\{(\d+)(,(\d*))?\}/.exec(rest);
      if (!m) return atom;
      min = +m[1]!;
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : +m[3]!;
      this.i += [...m[0]].length - 1;
    } else return atom;
    this.i++;
    if (this.peek() === '?') this.i++;
    if (atom.k === 'assert') return atom;
    return { k: 'rep', body: atom, min, max };
  }
  /** An escape after `\`; in a class, returns ranges only. */
  private escape(inClass: boolean): RNode | [number, number][] {
    const c = this.cps[this.i++];
    const set = (ranges: [number, number][]): RNode | [number, number][] => (inClass ? ranges : { k: 'set', ranges });
    const ch = (cp: number): RNode | [number, number][] => {
      if (!(cp >= 0 && cp <= MAXCP)) throw new Error('bad code point');
      return set([[cp, cp]]);
    };
    switch (c) {
      case undefined:
        throw new Error('trailing backslash');
      case 'd':
        return set(DIGIT);
      case 'D':
        return set(complement(DIGIT));
      case 'w':
        return set(WORD);
      case 'W':
        return set(complement(WORD));
      case 's':
        return set(SPACE);
      case 'S':
        return set(complement(SPACE));
      case 'b':
        return inClass ? [[8, 8]] : { k: 'assert', kind: 'b' };
      case 'B':
        return inClass ? [] : { k: 'assert', kind: 'B' };
      case 't':
        return ch(9);
      case 'n':
        return ch(10);
      case 'r':
        return ch(13);
      case 'f':
        return ch(12);
      case 'v':
        return ch(11);
      case '0':
        return ch(0);
      case 'c': {
        const l = this.cps[this.i++] ?? 'A';
        return ch(l.toUpperCase().charCodeAt(0) % 32);
      }
      case 'x': {
        const h = this.cps.slice(this.i, this.i + 2).join('');
        this.i += 2;
        return ch(parseInt(h, 16));
      }
      case 'u': {
        if (this.peek() === '{') {
          const end = this.cps.indexOf('}', this.i);
          const h = this.cps.slice(this.i + 1, end).join('');
          this.i = end + 1;
          return ch(parseInt(h, 16));
        }
        const h = this.cps.slice(this.i, this.i + 4).join('');
        this.i += 4;
        return ch(parseInt(h, 16));
      }
      case 'p':
      case 'P': {
        // Unicode property: the sample code points the property matches (the result is checked anyway).
        let name = '';
        if (this.peek() === '{') {
          const end = this.cps.indexOf('}', this.i);
          name = this.cps.slice(this.i + 1, end).join('');
          this.i = end + 1;
        }
        const ranges = propertyRanges(name);
        return set(c === 'p' ? ranges : complement(ranges));
      }
      case 'k': {
        if (this.peek() === '<' && !inClass) {
          const end = this.cps.indexOf('>', this.i);
          const name = this.cps.slice(this.i + 1, end).join('');
          this.i = end + 1;
          return { k: 'backref', index: this.names.get(name) ?? name };
        }
        return ch(107);
      }
      default:
        if (!inClass && /[1-9]/.test(c)) {
          let digits = c;
          while (/[0-9]/.test(this.peek() ?? '')) digits += this.cps[this.i++];
          return { k: 'backref', index: +digits };
        }
        return ch(c.codePointAt(0)!);
    }
  }
  private cls(): RNode {
    let negate = false;
    if (this.peek() === '^') {
      negate = true;
      this.i++;
    }
    const ranges: [number, number][] = [];
    while (this.i < this.cps.length && this.peek() !== ']') {
      let lo: [number, number][];
      if (this.peek() === '\\') {
        this.i++;
        lo = this.escape(true) as [number, number][];
      } else {
        const c = this.cps[this.i++]!;
        lo = [[c.codePointAt(0)!, c.codePointAt(0)!]];
      }
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined && lo.length === 1 && lo[0]![0] === lo[0]![1]) {
        this.i++;
        let hi: [number, number][];
        if (this.peek() === '\\') {
          this.i++;
          hi = this.escape(true) as [number, number][];
        } else {
          const c = this.cps[this.i++]!;
          hi = [[c.codePointAt(0)!, c.codePointAt(0)!]];
        }
        if (hi.length === 1 && hi[0]![0] === hi[0]![1]) {
          ranges.push([lo[0]![0], hi[0]![0]]);
          continue;
        }
        ranges.push(...lo, [45, 45], ...hi);
        continue;
      }
      ranges.push(...lo);
    }
    if (this.peek() !== ']') throw new Error('missing ]');
    this.i++;
    const norm = normalizeRanges(ranges);
    return { k: 'set', ranges: negate ? complement(norm) : norm };
  }
}

/** Code points sampled from common scripts, to find members of a Unicode property class (`\\p{Script=Greek}`). */
const PROPERTY_SAMPLES: [number, number][] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x61, 0x7a],
  [0x20, 0x2f],
  [0xc0, 0xff],
  [0x391, 0x3c9],
  [0x410, 0x44f],
  [0x5d0, 0x5ea],
  [0x627, 0x64a],
  [0x905, 0x939],
  [0x3041, 0x3096],
  [0x4e00, 0x4e20],
  [0xac00, 0xac20],
  [0x1f600, 0x1f64f],
];

function propertyRanges(name: string): [number, number][] {
  let re: RegExp;
  try {
    re = new RegExp(`^\\p{${name}}$`, 'u');
  } catch {
    return [];
  }
  const out: [number, number][] = [];
  for (const [a, b] of PROPERTY_SAMPLES) for (let cp = a; cp <= b && out.length < 256; cp++) if (re.test(String.fromCodePoint(cp))) out.push([cp, cp]);
  return normalizeRanges(out);
}

const astCache = new Map<string, RNode | null>();
function patternAst(pattern: string): RNode | null {
  let ast = astCache.get(pattern);
  if (ast === undefined) {
    try {
      ast = new RegexParser(pattern).parse();
    } catch {
      ast = null;
    }
    if (astCache.size > 5000) astCache.clear();
    astCache.set(pattern, ast);
  }
  return ast;
}

const lenCache = new WeakMap<RNode, [number, number]>();
function lengths(n: RNode): [number, number] {
  const cached = lenCache.get(n);
  if (cached) return cached;
  let out: [number, number];
  switch (n.k) {
    case 'set':
      out = n.ranges.length === 0 ? [Infinity, -Infinity] : [1, 1];
      break;
    case 'seq': {
      let a = 0;
      let b = 0;
      for (const it of n.items) {
        const [x, y] = lengths(it);
        a += x;
        b += y;
      }
      out = [a, b];
      break;
    }
    case 'alt': {
      let a = Infinity;
      let b = -Infinity;
      for (const it of n.alts) {
        const [x, y] = lengths(it);
        a = Math.min(a, x);
        b = Math.max(b, y);
      }
      out = [a, b];
      break;
    }
    case 'group':
      out = lengths(n.body);
      break;
    case 'rep': {
      const [x, y] = lengths(n.body);
      out = [n.min * x, n.max === 0 ? 0 : y === 0 ? 0 : n.max * y];
      break;
    }
    case 'assert':
      out = [0, 0];
      break;
    case 'backref':
      out = [0, Infinity];
      break;
  }
  lenCache.set(n, out);
  return out;
}

/** Characters preferred when a set allows them (readable output). */
const PREFERRED = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. ~!*+=:@,;/#$%&?()[]{}<>|^\'"`\\'].map((c) => c.codePointAt(0)!);

const ALNUM = PREFERRED.slice(0, 62);

function inRanges(ranges: [number, number][], cp: number): boolean {
  for (const [a, b] of ranges) if (cp >= a && cp <= b) return true;
  return false;
}

class PatternWriter {
  private captures = new Map<number | string, string>();
  constructor(private readonly rng: () => number) {}
  write(n: RNode, target: number): string | undefined {
    switch (n.k) {
      case 'set': {
        if (n.ranges.length === 0) return undefined;
        let pool = ALNUM.filter((cp) => inRanges(n.ranges, cp));
        if (pool.length === 0) pool = PREFERRED.filter((cp) => inRanges(n.ranges, cp));
        if (pool.length > 0) return String.fromCodePoint(pool[Math.floor(this.rng() * pool.length)]!);
        const [a] = n.ranges.find(([x]) => x >= 0x20) ?? n.ranges[0]!;
        return String.fromCodePoint(a);
      }
      case 'seq': {
        const ls = n.items.map(lengths);
        const alloc = ls.map(([a]) => a);
        let extra = target - alloc.reduce((s, x) => s + x, 0);
        for (let i = 0; i < alloc.length && extra > 0; i++) {
          const give = Math.min(extra, ls[i]![1] - alloc[i]!);
          if (give > 0) {
            alloc[i]! += give;
            extra -= give;
          }
        }
        let out = '';
        for (let i = 0; i < n.items.length; i++) {
          const s = this.write(n.items[i]!, alloc[i]!);
          if (s === undefined) return undefined;
          out += s;
        }
        return out;
      }
      case 'alt': {
        const fits = n.alts.filter((a) => {
          const [x, y] = lengths(a);
          return x <= target && target <= y;
        });
        const pool = fits.length > 0 ? fits : [...n.alts].sort((a, b) => Math.abs(lengths(a)[0] - target) - Math.abs(lengths(b)[0] - target)).slice(0, 1);
        return this.write(pool[Math.floor(this.rng() * pool.length)]!, target);
      }
      case 'group': {
        const s = this.write(n.body, target);
        if (s !== undefined && n.index > 0) this.captures.set(n.index, s);
        return s;
      }
      case 'rep': {
        const [bm, bM] = lengths(n.body);
        let k: number;
        if (bM <= 0 || target <= n.min * bm) k = n.min;
        else {
          const need = bM === Infinity ? 1 : Math.ceil(target / bM);
          k = Math.min(n.max, Math.max(n.min, need));
          if (bm > 0) k = Math.max(n.min, Math.min(k, Math.floor(target / bm)));
        }
        if (k === Infinity) k = n.min;
        let out = '';
        let left = target;
        for (let i = 0; i < k; i++) {
          const share = Math.max(bm, Math.min(bM, Math.ceil(left / (k - i))));
          const s = this.write(n.body, share);
          if (s === undefined) return undefined;
          out += s;
          left -= cpLength(s);
        }
        return out;
      }
      case 'assert':
        return '';
      case 'backref':
        return this.captures.get(n.index) ?? '';
    }
  }
}

/** A string matching `pattern` with a length in [minL, maxL], or undefined. `attempt` varies the target length. */
function patternString(ctx: Context, pattern: string, minL: number, maxL: number, attempt: number): string | undefined {
  const re = regex(pattern);
  if (re === null) return undefined;
  const ast = patternAst(pattern);
  if (ast === null) return undefined;
  const [pmin, pmax] = lengths(ast);
  const lo = Math.max(minL, pmin);
  const hi = Math.min(maxL, pmax);
  const targets = [lo, lo + 1, lo + 2, Math.floor((lo + Math.min(hi, lo + 64)) / 2), lo + 4, lo + 8, hi, lo];
  const target = Math.max(0, Math.min(Number.isFinite(hi) ? hi : lo + 64, targets[attempt % targets.length]!));
  const s = new PatternWriter(ctx.rng).write(ast, target);
  if (s === undefined) return undefined;
  const len = cpLength(s);
  if (len >= minL && len <= maxL && re.test(s)) return s;
  if (len >= minL) return undefined;
  // Unanchored patterns match inside a longer string: pad to the minimum length (after, else before).
  for (const pad of ['a', ' ', '0', '-']) {
    const fill = pad.repeat(minL - len);
    for (const t of [s + fill, fill + s]) if (cpLength(t) <= maxL && re.test(t)) return t;
  }
  return undefined;
}

/** Run `fn` with at most `limit` of the remaining steps; a value that runs out counts as NONE and the rest of the budget stays. */
function bounded(ctx: Context, limit: number, fn: () => Out): Out {
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

function genArray(ctx: Context, m: Merged, st: State, fillHere = false): Out {
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

function isReadOnly(ctx: Context, schemas: SchemaNode[]): boolean {
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
function reentersOpenRef(schemas: readonly JsonValue[], open: ReadonlyMap<string, number>, depth: number): boolean {
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

function genObject(ctx: Context, m: Merged, st: State, fillHere = false): Out {
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

// ---------------------------------------------------------------------------------------------------------
// Boundary variants of a request body

class Prober {
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
      if (errs.some((e) => e.keyword === 'type' && path.every((s, i) => e.path[i] === s))) {
        this.addInvalid(`${path.length ? `${readablePath(path)}: ` : ''}wrong type (${name})`, target, path);
        return;
      }
    }
  }
}

/** A value of the same JSON type as `values` that is none of them. */
function otherValue(values: JsonValue[]): JsonValue {
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
function patternViolation(pattern: string, valid: string, minL: number, maxL: number): string | undefined {
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
