// What a list's query parameters ask beyond equality filters, for the lists that declare them: `order_by` (facts
// section 3: a field, `-` for descending; the parameter's default when absent), `tag_filters` (records carrying
// every named tag), `include_builtin` (the platform's records only when asked) and `filter` (an AIP-160 subset,
// list-filter.ts).
import { invalid } from '../errors.js';
import { parseFilter } from './list-filter.js';
import type { StoredRecord } from '../storage/store.js';
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

/** `create_time`, `-create_time`, `name desc`, several separated by commas; each a field of the resource. */
function sortKeys(resource: ResourceRow, value: string): SortKey[] {
  return value.split(',').map((term) => {
    const m = /^\s*(-?)([A-Za-z_][A-Za-z0-9_.]*)(?:\s+(asc|desc))?\s*$/i.exec(term);
    if (!m || (m[1] === '-' && m[3] !== undefined)) throw invalid('order_by', `"${term.trim()}" is not a field name, optionally with a leading "-" or a trailing "asc" or "desc"`);
    if (!resource.properties.includes(m[2]!)) throw invalid('order_by', `the list cannot be ordered by "${m[2]}": it is not a field of the ${resource.name.replace(/_/g, ' ')}`);
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
  const keys = sortKeys(resource, orderBy);
  // Records equal on every key come in creation order, or newest first when the first key descends (records
  // made within one millisecond share a create_time, and `-create_time` means newest first).
  const created = new Map(out.map((r, index) => [r, index]));
  const tie = keys[0]!.descending ? -1 : 1;
  return [...out].sort((a, b) => {
    for (const key of keys) {
      const c = compareValues(a.data[key.field], b.data[key.field]);
      if (c !== 0) return key.descending ? -c : c;
    }
    return tie * (created.get(a)! - created.get(b)!);
  });
}
