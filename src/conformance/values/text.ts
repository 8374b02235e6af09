// Strings as JSON Schema counts and matches them: code points, and patterns compiled as validators compile them
// (both are the generated validators' run-time helpers themselves).
import { $re } from '../../emit/validators/runtime/helpers.js';

/** Length in code points: the validators' own helper, so the generator counts exactly as they do. */
export { $cpLen as cpLength } from '../../emit/validators/runtime/helpers.js';

export const regexCache = new Map<string, RegExp | null>();
/** The pattern as validators compile it (`u` flag); null when it does not compile. */
export function regex(pattern: string): RegExp | null {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = $re(pattern);
    } catch {
      re = null;
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
