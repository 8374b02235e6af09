// Strings as JSON Schema counts and matches them: code points, and patterns compiled as validators compile them.

export function cpLength(s: string): number {
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

export const regexCache = new Map<string, RegExp | null>();
/** The pattern as validators compile it (`u` flag); null when it does not compile. */
export function regex(pattern: string): RegExp | null {
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

export function matches(pattern: string, s: string): boolean {
  const re = regex(pattern);
  return re === null ? true : re.test(s);
}
