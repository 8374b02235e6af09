// Which paged lists a client can walk by itself: an opaque token the answer gives and the next request passes back
// (x-pagination, and inferred lists of that form). Lists paged by offset, page number or next link are paged by the
// caller (their parameters are ordinary options); the generated client makes no iterator for them.
import type { Operation, Pagination } from './ir.js';

export type TokenPagination = Pagination & { nextPageToken: string };

/** The operation's pagination when it is the token form the client's iterators follow; else undefined. */
export function tokenPagination(op: Operation): TokenPagination | undefined {
  const p = op.semantics.pagination;
  return p !== undefined && p.style === undefined && p.nextLink !== true && p.nextPageToken !== null ? (p as TokenPagination) : undefined;
}
