// Code names derived from spec names. Wire names (what goes over HTTP) are kept apart and always
// emitted with jsString; these functions only make *our* identifiers, deterministically.

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'import in instanceof new null return super switch this throw true try typeof var void while with yield let static ' +
    'implements interface package private protected public await async of any boolean number string symbol bigint never ' +
    'unknown object undefined type declare namespace module abstract as asserts infer is keyof readonly require global ' +
    'arguments eval constructor prototype __proto__ toString valueOf hasOwnProperty Object Array String Number Boolean ' +
    'Promise Record Partial Required Pick Omit Error Date JSON Map Set Symbol BigInt Function RegExp Math'
  ).split(' '),
);

/** Split any name (camelCase, snake_case, kebab-case, dotted, spaced, non-Latin) into alphanumeric words. */
export function words(name: string): string[] {
  // The common ASCII name takes the same rules written for ASCII (NFKC leaves ASCII as it is, and each Unicode class
  // below meets ASCII in exactly the ASCII class used here): several times faster, which counts on a spec with
  // tens of thousands of names.
  if (/^[\x20-\x7e]*$/.test(name)) {
    return name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
      .split(/[^A-Za-z0-9]+/)
      .filter((w) => w.length > 0);
  }
  return name
    .normalize('NFKC')
    .replace(/([\p{Ll}\p{Nd}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{Nd}]+/u)
    .filter((w) => w.length > 0);
}

function asciiSafe(word: string): string {
  // Identifiers may hold any Unicode letter, but some tools choke on them; encode non-ASCII
  // characters as their code point so two different names can never collapse into one.
  return word.replace(/[^A-Za-z0-9]/g, (c) => `U${c.codePointAt(0)!.toString(16).toUpperCase()}`);
}

function finish(candidate: string, fallback: string): string {
  let id = candidate === '' ? fallback : candidate;
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED.has(id)) id = `${id}_`;
  return id;
}

/** PascalCase type name: `review-projects` -> `ReviewProjects`, `AiItem--Base` -> `AiItemBase`. */
export function typeName(name: string): string {
  const id = words(name)
    .map((w) => asciiSafe(w))
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  return finish(id, 'Unnamed');
}

/** camelCase value name: `update_tag` -> `updateTag`. */
export function valueName(name: string): string {
  const parts = words(name).map((w) => asciiSafe(w));
  const id = parts.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  return finish(id, 'unnamed');
}

/**
 * Give every name in `names` a unique code name made by `make`, in the given order: collisions get
 * a numeric suffix (`Foo`, `Foo2`, ...). The caller passes names in a stable order, so the result is deterministic.
 */
export function uniqueNames(names: readonly string[], make: (name: string) => string, taken: Iterable<string> = []): Map<string, string> {
  const used = new Set(taken);
  const out = new Map<string, string>();
  for (const name of names) {
    if (out.has(name)) continue;
    const base = make(name);
    let candidate = base;
    for (let n = 2; used.has(candidate); n++) candidate = `${base}${n}`;
    used.add(candidate);
    out.set(name, candidate);
  }
  return out;
}
