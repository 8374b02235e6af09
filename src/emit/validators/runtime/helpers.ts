// The run-time helpers of a generated validator module: a real module, type-checked and unit-tested with the
// rest of the code (test/validators/runtime-helpers.test.ts), whose exported declarations are copied into each
// generated module as JavaScript (`runtime.ts` strips the types; only the helpers the module uses, in this
// file's order). Rules for this file, checked when it is read: no imports (the generated module has no
// dependencies; `import type` is fine), and every top-level declaration is a function or a `const` whose
// name starts with `$` (generated export names never do). Nothing spec-derived is ever spliced into it.
// Non-exported declarations exist for the type checker and the tests only and are never emitted.
import type { StandardSchemaIssue, ValidationError, Validator } from './types.js';

/** A path below the validated value: property names and array indexes. */
export type PathSegment = string | number;

/** One violation as the collectors record it; `type` marks a wrong type at exactly that path (for `$best`). */
export interface ErrorRecord {
  path: PathSegment[];
  message: string;
  type: boolean;
}

/** The fast boolean check of a schema location (`is()`). */
export type Check = (value: unknown) => boolean;

/** The error collector of a schema location: records every violation below `path` into `errors`. */
export type Collector = (value: unknown, path: PathSegment[], errors: ErrorRecord[]) => void;

/** A set of evaluated property names or item indexes (unevaluatedProperties / unevaluatedItems). */
export type Evaluated = Set<PathSegment>;

// The Standard Schema vendor: the generated module declares its own `$vendor` (compile.ts, from the vendor
// option) before the validators are built; this stand-in, with the default value, is never emitted.
const $vendor = 'evalplatform';

/** Own-property test that never consults the prototype chain (`__proto__`, `toString` are plain data). */
export const $hasOwn: (this: unknown, key: PropertyKey) => boolean = Object.prototype.hasOwnProperty;

/** String length as JSON Schema counts it: in Unicode code points (a surrogate pair counts once). */
export function $cpLen(s: string): number {
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

/** JSON equality: key order does not matter, 1 and 1.0 are the same number. */
export function $eq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const arr = Array.isArray(a);
  if (arr !== Array.isArray(b)) return false;
  if (arr) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!$eq(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const ka = Object.keys(x);
  if (ka.length !== Object.keys(y).length) return false;
  for (const k of ka) if (!$hasOwn.call(y, k) || !$eq(x[k], y[k])) return false;
  return true;
}

/**
 * uniqueItems. Small arrays: pairwise (no allocation). Large arrays of primitives: a Set. Large arrays with
 * objects: a Set of canonical texts (keys sorted), equal exactly when $eq says so; pairwise deep equality was
 * quadratic (10,000 objects took seconds, found by the fuzz drill, issue 29).
 */
export function $uniq(a: unknown[]): boolean {
  const n = a.length;
  if (n > 32) {
    let prim = true;
    for (let i = 0; i < n; i++)
      if (typeof a[i] === 'object' && a[i] !== null) {
        prim = false;
        break;
      }
    if (prim) return new Set(a).size === n;
    // Numbers print as String does (1 and 1.0 are one number; -0 prints as 0, and -0 === 0); strings and keys
    // as JSON strings, so no text of one kind can equal another kind's.
    const canon = (v: unknown): string => {
      if (typeof v === 'string') return JSON.stringify(v);
      if (v === null || typeof v !== 'object') return String(v);
      if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
      const o = v as Record<string, unknown>;
      return `{${Object.keys(o)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canon(o[k])}`)
        .join(',')}}`;
    };
    const seen = new Set<string>();
    for (let i = 0; i < n; i++) {
      const text = canon(a[i]);
      if (seen.has(text)) return false;
      seen.add(text);
    }
    return true;
  }
  for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) if ($eq(a[i], a[j])) return false;
  return true;
}

/** Number of own enumerable properties (minProperties / maxProperties), without building a key array. */
export function $countKeys(o: object): number {
  let n = 0;
  for (const k in o) if ($hasOwn.call(o, k)) n++;
  return n;
}

/** A finite number as an exact decimal: digits and a power of ten, from its shortest decimal form. */
export function $decimal(n: number): [bigint, number] {
  const s = String(n);
  const e = s.indexOf('e');
  let mant = e < 0 ? s : s.slice(0, e);
  let exp = e < 0 ? 0 : Number(s.slice(e + 1));
  const dot = mant.indexOf('.');
  if (dot >= 0) {
    exp -= mant.length - dot - 1;
    mant = mant.slice(0, dot) + mant.slice(dot + 1);
  }
  return [BigInt(mant), exp];
}

/**
 * multipleOf in exact decimal arithmetic on the shortest decimal form of both numbers, so 0.0075 is a multiple
 * of 0.0001 (plain floating-point division says 74.99999999999999). Integers use the exact % operator.
 */
export function $multipleOf(x: number, m: number): boolean {
  if (Number.isInteger(m)) return Number.isInteger(x) && x % m === 0;
  if (!Number.isFinite(x)) return false;
  const [a, ea] = $decimal(x);
  const [b, eb] = $decimal(m);
  const e = Math.min(ea, eb);
  return (a * 10n ** BigInt(ea - e)) % (b * 10n ** BigInt(eb - e)) === 0n;
}

/**
 * A pattern as validators compile it (once, at module load): the `u` flag first (so \p{..} and astral
 * characters work), plain syntax as a fallback for patterns that are only valid without it. Throws when
 * neither compiles.
 */
export function $re(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch {
    return new RegExp(source);
  }
}

/**
 * The pattern \S: true when the string has a character outside ECMAScript's \s (WhiteSpace and LineTerminator:
 * tab, LF, VT, FF, CR, space, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF).
 * Any other UTF-16 unit (lone surrogates included) is a match, as with the u flag.
 */
export function $nonBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && c < 127) return true;
    if (
      !(
        c === 32 ||
        (c >= 9 && c <= 13) ||
        c === 0xa0 ||
        c === 0x1680 ||
        (c >= 0x2000 && c <= 0x200a) ||
        c === 0x2028 ||
        c === 0x2029 ||
        c === 0x202f ||
        c === 0x205f ||
        c === 0x3000 ||
        c === 0xfeff
      )
    )
      return true;
  }
  return false;
}

/** Adds the evaluated names of a subschema that passed to those of its parent. */
export function $merge(into: Evaluated, from: Evaluated): void {
  for (const k of from) into.add(k);
}

/** Marks every property / item of x as evaluated (after additionalProperties, items, unevaluated*). */
export function $addAll(ev: Evaluated, x: unknown): void {
  if (Array.isArray(x)) for (let i = 0; i < x.length; i++) ev.add(i);
  else if (typeof x === 'object' && x !== null) for (const k in x) if ($hasOwn.call(x, k)) ev.add(k);
}

/**
 * For a failed anyOf/oneOf: re-runs each branch's error collector and keeps the errors of the closest branch
 * (fewest errors; a branch that rejects the value's type at this very path counts as farthest). No errors when
 * every branch rejects the type here: the caller then reports the composition itself.
 */
export function $best(x: unknown, p: PathSegment[], fns: Collector[]): ErrorRecord[] {
  let best: ErrorRecord[] | null = null;
  let bestScore = Infinity;
  for (const f of fns) {
    const errs: ErrorRecord[] = [];
    f(x, p, errs);
    let score = errs.length;
    for (const e of errs) if (e.type && e.path.length === p.length) score += 1000;
    if (score < bestScore) {
      best = errs;
      bestScore = score;
    }
  }
  return bestScore >= 1000 ? [] : best || [];
}

/**
 * A copy of the path stack p with room for `extra` more keys. Errors keep their paths while p keeps changing;
 * a plain loop is much cheaper than spread or slice on short arrays.
 */
export function $at(p: PathSegment[], extra: number): PathSegment[] {
  const n = p.length;
  const r = new Array<PathSegment>(n + extra);
  for (let i = 0; i < n; i++) r[i] = p[i]!;
  return r;
}

/** Records an error at the current path. Every record has the same shape (one hidden class). */
export function $E(E: ErrorRecord[], p: PathSegment[], message: string, type?: boolean): void {
  E.push({ path: $at(p, 0), message, type: type === true });
}

/** Records an error one key below the current path. */
export function $E1(E: ErrorRecord[], p: PathSegment[], a: PathSegment, message: string, type?: boolean): void {
  let path: PathSegment[];
  if (p.length === 0) path = [a];
  else {
    path = $at(p, 1);
    path[p.length] = a;
  }
  E.push({ path, message, type: type === true });
}

/** Records an error two keys below the current path. */
export function $E2(E: ErrorRecord[], p: PathSegment[], a: PathSegment, b: PathSegment, message: string, type?: boolean): void {
  const path = $at(p, 2);
  path[p.length] = a;
  path[p.length + 1] = b;
  E.push({ path, message, type: type === true });
}

/** Records an error any number of keys below the current path. */
export function $EN(E: ErrorRecord[], p: PathSegment[], keys: PathSegment[], message: string, type?: boolean): void {
  const path = $at(p, keys.length);
  for (let i = 0; i < keys.length; i++) path[p.length + i] = keys[i]!;
  E.push({ path, message, type: type === true });
}

/**
 * Readable field path: conditions[0].threshold_float, metadata["a.b"], null for the root. A key is written
 * bare when it is an identifier ([A-Za-z_$][A-Za-z0-9_$]*), tested by char codes (no RegExp call).
 */
export function $field(path: PathSegment[]): string | null {
  if (path.length === 0) return null;
  let s = '';
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    if (typeof seg === 'number') {
      s += '[' + seg + ']';
      continue;
    }
    let ident = seg.length > 0;
    for (let j = 0; ident && j < seg.length; j++) {
      const c = seg.charCodeAt(j);
      ident = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || (j > 0 && c >= 48 && c <= 57);
    }
    s += ident ? (s === '' ? seg : '.' + seg) : '[' + JSON.stringify(seg) + ']';
  }
  return s;
}

/**
 * The public validator object of a check and a collector. `is` is the check itself (no wrapper call).
 * `validate` is one pass of the collector: valid when it records no error (the collector reports a violation
 * exactly where the check fails; the tests hold the two to that).
 */
export function $validator(check: Check, collect: Collector): Validator<unknown> {
  return Object.freeze({
    validate(value: unknown) {
      const E: ErrorRecord[] = [];
      collect(value, [], E);
      if (E.length === 0) return { ok: true as const, value };
      const errors: ValidationError[] = [];
      for (let i = 0; i < E.length; i++) errors.push({ field: $field(E[i]!.path), description: E[i]!.message });
      return { ok: false as const, errors };
    },
    is: check as (value: unknown) => value is unknown,
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: $vendor,
      validate(value: unknown) {
        const E: ErrorRecord[] = [];
        collect(value, [], E);
        if (E.length === 0) return { value };
        return { issues: E.map((e): StandardSchemaIssue => ({ message: e.message, path: e.path })) };
      },
    }),
  });
}
