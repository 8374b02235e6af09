// Helper functions emitted as source into each generated module (the module has no runtime dependencies).
// Only helpers that the generated code uses are emitted, always in this fixed order, so output is deterministic.
// Everything here is trusted code written by us; no schema value is ever spliced into these sources.

interface Helper {
  deps: string[];
  src: string;
}

const HELPERS: Record<string, Helper> = {
  $hasOwn: {
    deps: [],
    // Own-property test that never consults the prototype chain (`__proto__`, `toString` are plain data).
    src: `const $hasOwn = Object.prototype.hasOwnProperty;`,
  },
  $isObj: {
    deps: [],
    src: `function $isObj(x) {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}`,
  },
  $cpLen: {
    deps: [],
    // JSON Schema measures strings in Unicode code points; a surrogate pair counts once.
    src: `function $cpLen(s) {
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
}`,
  },
  $eq: {
    deps: ['$hasOwn'],
    // JSON equality: key order does not matter, 1 and 1.0 are the same number.
    src: `function $eq(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  const arr = Array.isArray(a);
  if (arr !== Array.isArray(b)) return false;
  if (arr) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!$eq(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!$hasOwn.call(b, k) || !$eq(a[k], b[k])) return false;
  return true;
}`,
  },
  $uniq: {
    deps: ['$eq'],
    // Small arrays: pairwise (no allocation). Large arrays of primitives: a Set. Otherwise pairwise deep equality.
    src: `function $uniq(a) {
  const n = a.length;
  if (n > 32) {
    let prim = true;
    for (let i = 0; i < n; i++) if (typeof a[i] === "object" && a[i] !== null) { prim = false; break; }
    if (prim) return new Set(a).size === n;
  }
  for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) if ($eq(a[i], a[j])) return false;
  return true;
}`,
  },
  $countKeys: {
    deps: ['$hasOwn'],
    src: `function $countKeys(o) {
  let n = 0;
  for (const k in o) if ($hasOwn.call(o, k)) n++;
  return n;
}`,
  },
  $multipleOf: {
    deps: [],
    // Exact decimal arithmetic on the shortest decimal form of both numbers, so 0.0075 is a multiple of 0.0001
    // (plain floating-point division says 74.99999999999999). Integers use the exact % operator.
    src: `function $decimal(n) {
  const s = String(n);
  const e = s.indexOf("e");
  let mant = e < 0 ? s : s.slice(0, e);
  let exp = e < 0 ? 0 : Number(s.slice(e + 1));
  const dot = mant.indexOf(".");
  if (dot >= 0) {
    exp -= mant.length - dot - 1;
    mant = mant.slice(0, dot) + mant.slice(dot + 1);
  }
  return [BigInt(mant), exp];
}
function $multipleOf(x, m) {
  if (Number.isInteger(m)) return Number.isInteger(x) && x % m === 0;
  if (!Number.isFinite(x)) return false;
  const [a, ea] = $decimal(x);
  const [b, eb] = $decimal(m);
  const e = Math.min(ea, eb);
  return (a * 10n ** BigInt(ea - e)) % (b * 10n ** BigInt(eb - e)) === 0n;
}`,
  },
  $re: {
    deps: [],
    // Patterns are compiled once at module load from JSON string literals; 'u' first (so \\p{..} and astral
    // characters work), plain syntax as a fallback for patterns that are only valid without it.
    src: `function $re(source) {
  try {
    return new RegExp(source, "u");
  } catch {
    return new RegExp(source);
  }
}`,
  },
  $nonBlank: {
    deps: [],
    // The pattern \S: true when the string has a character outside ECMAScript's \s (WhiteSpace and
    // LineTerminator: tab, LF, VT, FF, CR, space, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F,
    // U+205F, U+3000, U+FEFF). Any other UTF-16 unit (lone surrogates included) is a match, as with the u flag.
    src: `function $nonBlank(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && c < 127) return true;
    if (!(c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff)) return true;
  }
  return false;
}`,
  },
  $merge: {
    deps: [],
    src: `function $merge(into, from) {
  for (const k of from) into.add(k);
}`,
  },
  $addAll: {
    deps: ['$hasOwn'],
    // Mark every property / item of x as evaluated (after additionalProperties, items, unevaluated*).
    src: `function $addAll(ev, x) {
  if (Array.isArray(x)) for (let i = 0; i < x.length; i++) ev.add(i);
  else if (typeof x === "object" && x !== null) for (const k in x) if ($hasOwn.call(x, k)) ev.add(k);
}`,
  },
  $best: {
    deps: [],
    // For a failed anyOf/oneOf: re-run each branch's error collector and keep the errors of the closest
    // branch (fewest errors, a branch that rejects the value's type at this very path counts as farthest).
    src: `function $best(x, p, fns) {
  let best = null;
  let bestScore = Infinity;
  for (const f of fns) {
    const errs = [];
    f(x, p, errs);
    let score = errs.length;
    for (const e of errs) if (e.type && e.path.length === p.length) score += 1000;
    if (score < bestScore) { best = errs; bestScore = score; }
  }
  return bestScore >= 1000 ? [] : best || [];
}`,
  },
  $E: {
    deps: [],
    // Record an error: its path is the current path stack p plus the keys below it, copied into a fresh array
    // (errors keep their paths; p keeps changing) with a plain loop, much cheaper than spread or slice on
    // short arrays. `type` marks a wrong type at that path (for $best). Every record has the same shape.
    src: `function $at(p, extra) {
  const n = p.length;
  const r = new Array(n + extra);
  for (let i = 0; i < n; i++) r[i] = p[i];
  return r;
}
function $E(E, p, message, type) {
  E.push({ path: $at(p, 0), message, type: type === true });
}
function $E1(E, p, a, message, type) {
  let path;
  if (p.length === 0) path = [a];
  else {
    path = $at(p, 1);
    path[p.length] = a;
  }
  E.push({ path, message, type: type === true });
}
function $E2(E, p, a, b, message, type) {
  const path = $at(p, 2);
  path[p.length] = a;
  path[p.length + 1] = b;
  E.push({ path, message, type: type === true });
}
function $EN(E, p, keys, message, type) {
  const path = $at(p, keys.length);
  for (let i = 0; i < keys.length; i++) path[p.length + i] = keys[i];
  E.push({ path, message, type: type === true });
}`,
  },
  $field: {
    deps: [],
    // Readable field path: conditions[0].threshold_float, metadata["a.b"], null for the root. A key is written
    // bare when it is an identifier ([A-Za-z_$][A-Za-z0-9_$]*), tested by char codes (no RegExp call).
    src: `function $field(path) {
  if (path.length === 0) return null;
  let s = "";
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (typeof seg === "number") {
      s += "[" + seg + "]";
      continue;
    }
    let ident = seg.length > 0;
    for (let j = 0; ident && j < seg.length; j++) {
      const c = seg.charCodeAt(j);
      ident = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || (j > 0 && c >= 48 && c <= 57);
    }
    s += ident ? (s === "" ? seg : "." + seg) : "[" + JSON.stringify(seg) + "]";
  }
  return s;
}`,
  },
  $validator: {
    deps: ['$field'],
    // Wraps a fast boolean check and an error collector into the public validator object. `is` is the check
    // itself (no wrapper call). `validate` is one pass of the collector: valid when it records no error (the
    // collector reports a violation exactly where the check fails; the tests hold the two to that). `$vendor`
    // is a module constant.
    src: `function $validator(check, collect) {
  return Object.freeze({
    validate(value) {
      const E = [];
      collect(value, [], E);
      if (E.length === 0) return { ok: true, value };
      const errors = [];
      for (let i = 0; i < E.length; i++) errors.push({ field: $field(E[i].path), description: E[i].message });
      return { ok: false, errors };
    },
    is: check,
    "~standard": Object.freeze({
      version: 1,
      vendor: $vendor,
      validate(value) {
        const E = [];
        collect(value, [], E);
        if (E.length === 0) return { value };
        return { issues: E.map((e) => ({ message: e.message, path: e.path })) };
      },
    }),
  });
}`,
  },
};

const ORDER = Object.keys(HELPERS);

/** Source of the requested helpers and their dependencies, in a fixed order. */
export function runtimeSource(used: ReadonlySet<string>): string {
  const all = new Set<string>();
  const add = (name: string): void => {
    if (all.has(name)) return;
    const h = HELPERS[name];
    if (!h) throw new Error(`unknown runtime helper ${name}`);
    all.add(name);
    h.deps.forEach(add);
  };
  used.forEach(add);
  return ORDER.filter((n) => all.has(n)).map((n) => HELPERS[n]!.src).join('\n\n');
}

export function isRuntimeHelper(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(HELPERS, name);
}
