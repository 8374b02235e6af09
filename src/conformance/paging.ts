// Walking a paged list the way its pagination says (route row `pagination`; issue 27): the value the next request
// passes as its page parameter comes from the answer's next field (a token, or a link whose page parameter is read),
// else, for an offset or page-number list that only counts its total, from the page just read.
import type { Route } from './suite-data.js';

/** Where the page just read started: the page parameter sent (absent: the first page) and how many items it held. */
export interface PageRead {
  sent?: string;
  size: number;
  items: number;
}

/** The next request's page parameter of paged list `route`, from a page's answer body; undefined on the last page. */
export function nextPageParam(route: Route, body: unknown, read?: PageRead): string | undefined {
  const paging = route.pagination;
  if (paging === null) return undefined;
  const answer = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (paging.nextPageToken !== null) {
    const next = answer[paging.nextPageToken];
    // "null or absent on the last page" (x-pagination); an empty link or token says the same.
    if (next === null || next === undefined || next === '') return undefined;
    if (!paging.nextLink) return String(next);
    try {
      return new URL(String(next), 'http://relative.invalid/').searchParams.get(paging.pageToken) ?? undefined;
    } catch {
      return undefined;
    }
  }
  // No next field: an offset or page-number list with a total.
  const totalKey = route.success.shape.kind === 'list' ? route.success.shape.total : null;
  const total = paging.style === 'token' || totalKey === null ? undefined : answer[totalKey];
  if (typeof total !== 'number' || read === undefined || read.items === 0) return undefined;
  if (paging.style === 'offset') {
    const end = Number(read.sent ?? 0) + read.items;
    return end < total ? String(end) : undefined;
  }
  const number = Number(read.sent ?? 1);
  return number * read.size < total ? String(number + 1) : undefined;
}
