// Cursor paging for list operations (x-pagination): the token is an opaque, validated offset.
import { invalid } from '../errors.js';

export const DEFAULT_PAGE_SIZE = 50;

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
