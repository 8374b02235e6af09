// Paging of list operations. x-pagination's token is an opaque, validated offset; a list inferred from a spec
// without our vocabulary (issue 27) may instead take a record offset or a 1-based page number, and name its next
// page by a token or by a link (the URL of the next page's request).
import type { RouteRow } from '../../contracts/route-table.js';
import { invalid } from '../errors.js';

export const DEFAULT_PAGE_SIZE = 50;

type Paging = NonNullable<RouteRow['pagination']>;

export function encodeToken(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

/** The offset a page token stands for; no token is the first page. The validators let only non-empty strings through. */
export function decodeToken(token: unknown, field: string): number {
  if (token === undefined) return 0;
  const m = /^o:(\d{1,9})$/.exec(Buffer.from(String(token), 'base64url').toString('utf8'));
  if (!m) throw invalid(field, 'is not a page token returned by this list');
  return Number(m[1]);
}

export function page<T>(items: T[], size: number, offset: number): { items: T[]; next?: string } {
  const slice = items.slice(offset, offset + size);
  const end = offset + slice.length;
  return end < items.length ? { items: slice, next: encodeToken(end) } : { items: slice };
}

/**
 * The page of `all` a validated query asks for, and the value of the page parameter that asks for the next one (absent
 * on the last page): a token, the next offset or the next page number, by the list's style. `defaultSize`: the page
 * size parameter's schema default, else DEFAULT_PAGE_SIZE.
 */
export function pageFor<T>(all: T[], paging: Paging, query: Record<string, unknown>, defaultSize: number): { items: T[]; next?: string } {
  const asked = query[paging.pageSize];
  const size = typeof asked === 'number' ? Math.max(0, Math.floor(asked)) : defaultSize;
  const given = query[paging.pageToken];
  if (paging.style === 'token') return size === 0 ? { items: [] } : page(all, size, decodeToken(given, paging.pageToken));
  const number = typeof given === 'number' ? Math.floor(given) : undefined;
  const offset = paging.style === 'offset' ? Math.max(0, number ?? 0) : (Math.max(1, number ?? 1) - 1) * size;
  const items = all.slice(offset, offset + size);
  if (size === 0 || offset + items.length >= all.length) return { items };
  return { items, next: String(paging.style === 'offset' ? offset + items.length : Math.max(1, number ?? 1) + 1) };
}

/** The URL of the next page (a list whose answer names it by link): this request's, with the page parameter set to `next`. */
export function nextLink(origin: string, path: string, query: Record<string, unknown>, pageParam: string, next: string): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (k === pageParam || v === undefined || v === null) continue;
    search.set(k, Array.isArray(v) ? v.map(String).join(',') : String(v));
  }
  search.set(pageParam, next);
  return `${origin}${path}?${search.toString()}`;
}
