// Spec-derived values become JavaScript/TypeScript source only through these functions.
// JSON.stringify already escapes quotes, backslashes and control characters; we additionally escape
// U+2028/U+2029 (line terminators in older engines and in some tools), `<` (so `</script>` can never
// close a tag if generated code is ever inlined into HTML) and lone surrogates stay escaped by JSON.stringify.

const EXTRA_ESCAPES: Record<string, string> = {
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
  '<': '\\u003c',
  '>': '\\u003e',
};

/** A double-quoted JS/TS string literal whose runtime value is exactly `value`. */
export function jsString(value: string): string {
  return JSON.stringify(value).replace(/[\u2028\u2029<>]/g, (c) => EXTRA_ESCAPES[c]!);
}

/**
 * A JS expression that evaluates to a deep copy of the JSON value `value`.
 * Object keys are always quoted; `__proto__` is written as a computed key, because a plain
 * `"__proto__": v` in an object literal sets the prototype instead of defining a property.
 */
export function jsValue(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return jsString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`jsValue: ${value} is not a JSON number`);
      return Object.is(value, -0) ? '-0' : String(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(jsValue).join(', ')}]`;
      const entries = Object.keys(value as object).map((key) => `${propertyKey(key)}: ${jsValue((value as Record<string, unknown>)[key])}`);
      return `{${entries.join(', ')}}`;
    }
    default:
      throw new TypeError(`jsValue: ${typeof value} is not a JSON value`);
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** An object-literal or interface key for `name`: bare when it is a plain identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  if (name === '__proto__') return `[${jsString(name)}]`;
  return IDENTIFIER.test(name) ? name : jsString(name);
}

/** Property access on `target` for `name`: `a.b` or `a["b-c"]`. */
export function propertyAccess(target: string, name: string): string {
  return IDENTIFIER.test(name) && name !== '__proto__' ? `${target}.${name}` : `${target}[${jsString(name)}]`;
}

/** A TypeScript string-literal type (same text as the value literal). */
export const tsStringType = jsString;
