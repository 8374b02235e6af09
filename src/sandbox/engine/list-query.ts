// What a list's query parameters ask beyond equality filters, for the lists that declare them: `order_by` (facts
// section 3: a field, `-` for descending; the parameter's default when absent), `tag_filters` (records carrying
// every named tag), `include_builtin` (the platform's records only when asked) and `filter` (an AIP-160 subset,
// list-filter.ts).
import { invalid } from '../errors.js';
import { parseFilter } from './list-filter.js';
import type { Json, StoredRecord } from '../storage/store.js';
import { PLATFORM_ORG } from '../storage/store.js';
import type { RequestContext } from './context.js';
import type { ResourceRow } from './tables.js';

interface SortKey {
  field: string;
  descending: boolean;
}

/** The query value of a parameter the route declares, else its default; undefined when the route lacks it. */
function given(ctx: RequestContext, name: string): unknown {
  const param = ctx.route.params.query.find((p) => p.name === name);
  if (!param) return undefined;
  return ctx.query[name] ?? param.default;
}

/** `create_time`, `-create_time`, `name desc`, several separated by commas; each one of `fields` (those of `what`). */
function sortKeys(fields: readonly string[], what: string, value: string): SortKey[] {
  return value.split(',').map((term) => {
    const m = /^\s*(-?)([A-Za-z_][A-Za-z0-9_.]*)(?:\s+(asc|desc))?\s*$/i.exec(term);
    if (!m || (m[1] === '-' && m[3] !== undefined)) throw invalid('order_by', `"${term.trim()}" is not a field name, optionally with a leading "-" or a trailing "asc" or "desc"`);
    if (!fields.includes(m[2]!)) throw invalid('order_by', `the list cannot be ordered by "${m[2]}": it is not a field of the ${what}`);
    return { field: m[2]!, descending: m[1] === '-' || m[3]?.toLowerCase() === 'desc' };
  });
}

/** Orders two field values: absent and null after any value, numbers by value, the rest as strings. */
function compareValues(a: unknown, b: unknown): number {
  const aMissing = a === undefined || a === null;
  const bMissing = b === undefined || b === null;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = typeof a === 'string' ? a : JSON.stringify(a);
  const y = typeof b === 'string' ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Applies the list parameters to the records of a list, in insertion order: keeps those `tag_filters`,
 * `include_builtin` and `filter` let through and sorts by `order_by`.
 * `order` names the field a list without `order_by` is kept in (the test-case grid's position).
 */
export function applyListQuery(ctx: RequestContext, resource: ResourceRow, records: StoredRecord[], order?: string): StoredRecord[] {
  let out = records;
  if (given(ctx, 'include_builtin') === false) out = out.filter((r) => r.org !== PLATFORM_ORG && r.data.is_builtin !== true);
  const tags = given(ctx, 'tag_filters');
  if (Array.isArray(tags) && tags.length > 0) {
    const wanted = tags.map((t) => String(t).toLowerCase());
    out = out.filter((r) => {
      const carried = new Set((Array.isArray(r.data.tags) ? r.data.tags : []).map((t) => String(t).toLowerCase()));
      return wanted.every((t) => carried.has(t));
    });
  }
  const filter = given(ctx, 'filter');
  if (typeof filter === 'string') {
    const test = parseFilter(filter, resource.properties, `the ${resource.name.replace(/_/g, ' ')} list`);
    out = out.filter((r) => test(r.data));
  }
  const orderBy = given(ctx, 'order_by') ?? order;
  if (typeof orderBy !== 'string' || orderBy === '') return out;
  return orderedBy(out, orderBy, resource.properties, resource.name.replace(/_/g, ' '), (r) => r.data);
}

/**
 * `items` sorted by an `order_by` value over their `data` (400 on order_by for a field not among `fields`, the
 * fields of `what`). Items equal on every key keep their order, reversed when the first key descends (records
 * made within one millisecond share a create_time, and `-create_time` means newest first).
 */
export function orderedBy<T>(items: T[], orderBy: string, fields: readonly string[], what: string, data: (item: T) => Json): T[] {
  const keys = sortKeys(fields, what, orderBy);
  const position = new Map(items.map((item, index) => [item, index]));
  const tie = keys[0]!.descending ? -1 : 1;
  return [...items].sort((a, b) => {
    for (const key of keys) {
      const c = compareValues(data(a)[key.field], data(b)[key.field]);
      if (c !== 0) return key.descending ? -c : c;
    }
    return tie * (position.get(a)! - position.get(b)!);
  });
}
