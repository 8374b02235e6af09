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
  $field: {
    deps: [],
    // Readable field path: conditions[0].threshold_float, metadata["a.b"], null for the root.
    src: `function $field(path) {
  if (path.length === 0) return null;
  let s = "";
  for (const seg of path) {
    if (typeof seg === "number") s += "[" + seg + "]";
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(seg)) s += (s === "" ? "" : ".") + seg;
    else s += "[" + JSON.stringify(seg) + "]";
  }
  return s;
}`,
  },
  $validator: {
    deps: ['$field'],
    // Wraps a fast boolean check and an error collector into the public validator object. The collector only
    // runs after the check failed; if it disagrees (a generator bug) a generic error keeps ok === is().
    src: `function $validator(check, collect, vendor) {
  const errors = (value) => {
    const errs = [];
    collect(value, [], errs);
    if (errs.length === 0) errs.push({ path: [], message: "does not match the schema" });
    return errs;
  };
  return Object.freeze({
    validate(value) {
      if (check(value)) return { ok: true, value };
      return { ok: false, errors: errors(value).map((e) => ({ field: $field(e.path), description: e.message })) };
    },
    is(value) {
      return check(value);
    },
    "~standard": Object.freeze({
      version: 1,
      vendor,
      validate(value) {
        if (check(value)) return { value };
        return { issues: errors(value).map((e) => ({ message: e.message, path: e.path.slice() })) };
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
