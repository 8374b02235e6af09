// The values that select an operation among those sharing its method and path (issue 27, rule 36: AWS's
// `X-Amz-Target` header, `?Action=`): every request the suite sends for such an operation carries them, as the
// generated client does, so each generic check reaches the operation it means to test.
import type { Route } from './suite-data.js';

/**
 * Adds the route's fixed header values to `headers` (a check that sets one itself keeps its own: it tests that
 * value) and returns `path` with its fixed query values appended (the same way: a value the path has stays).
 */
export function withSelect(route: Route, path: string, headers: Record<string, string>): string {
  const fixed = (route.select ?? []).filter((s) => s.value !== undefined);
  if (fixed.length === 0) return path;
  const given = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
  const at = path.indexOf('?');
  const query = new URLSearchParams(at < 0 ? '' : path.slice(at + 1));
  const pairs: string[] = [];
  for (const s of fixed) {
    if (s.in === 'header' && !given.has(s.name.toLowerCase())) headers[s.name] = s.value!;
    if (s.in === 'query' && !query.has(s.name)) pairs.push(`${encodeURIComponent(s.name)}=${encodeURIComponent(s.value!)}`);
  }
  if (pairs.length === 0) return path;
  return `${path}${at < 0 ? '?' : path.endsWith('?') || path.endsWith('&') ? '' : '&'}${pairs.join('&')}`;
}
