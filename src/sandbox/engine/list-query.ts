// What a list's query parameters ask beyond equality filters, for the parameters that declare a role
// (x-list-query): `order-by` (facts section 3: a field, `-` for descending; the parameter's default when absent),
// `tag-filter` (records whose x-field-role tags list carries every named tag), `include-builtin` (built-in records,
// records.ts isBuiltin, only when asked) and `filter` (an AIP-160 subset, list-filter.ts). Parameters are found by
// role, never by name.
import { invalid } from '../errors.js';
import { parseFilter } from './list-filter.js';
import type { Json, StoredRecord } from '../storage/store.js';
import type { RequestContext } from './context.js';
import { isBuiltin } from './records.js';
import type { ParamRow, ResourceRow } from './tables.js';

interface SortKey {
  field: string;
  descending: boolean;
}

type ListQueryRole = NonNullable<ParamRow['listQuery']>;

/** The route's query parameter playing `role`, with its query value, else its default; undefined when the route has none. */
function given(ctx: RequestContext, role: ListQueryRole): { name: string; value: unknown } | undefined {
  const param = ctx.route.params.query.find((p) => p.listQuery === role);
  return param && { name: param.name, value: ctx.query[param.name] ?? param.default };
}

/** `create_time`, `-create_time`, `name desc`, several separated by commas; each one of `fields` (those of `what`). */
function sortKeys(fields: readonly string[], what: string, value: string, param: string | null): SortKey[] {
  return value.split(',').map((term) => {
    const m = /^\s*(-?)([A-Za-z_][A-Za-z0-9_.]*)(?:\s+(asc|desc))?\s*$/i.exec(term);
    if (!m || (m[1] === '-' && m[3] !== undefined)) throw invalid(param, `"${term.trim()}" is not a field name, optionally with a leading "-" or a trailing "asc" or "desc"`);
    if (!fields.includes(m[2]!)) throw invalid(param, `the list cannot be ordered by "${m[2]}": it is not a field of the ${what}`);
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
 * Applies the list parameters to the records of a list, in insertion order: keeps those the tag-filter,
 * include-builtin and filter parameters let through and sorts by the order-by one.
 * `order` names the field a list without an order-by value is kept in (the test-case grid's position).
 */
export function applyListQuery(ctx: RequestContext, resource: ResourceRow, records: StoredRecord[], order?: string): StoredRecord[] {
  let out = records;
  if (given(ctx, 'include-builtin')?.value === false) out = out.filter((r) => !isBuiltin(resource, r));
  const tags = given(ctx, 'tag-filter')?.value;
  const tagField = resource.roles.tags;
  if (Array.isArray(tags) && tags.length > 0) {
    const wanted = tags.map((t) => String(t).toLowerCase());
    out = out.filter((r) => {
      const held = tagField === null ? undefined : r.data[tagField];
      const carried = new Set((Array.isArray(held) ? held : []).map((t) => String(t).toLowerCase()));
      return wanted.every((t) => carried.has(t));
    });
  }
  const filter = given(ctx, 'filter');
  if (typeof filter?.value === 'string') {
    const test = parseFilter(filter.value, resource.properties, `the ${resource.name.replace(/_/g, ' ')} list`, filter.name);
    out = out.filter((r) => test(r.data));
  }
  const orderParam = given(ctx, 'order-by');
  const orderBy = orderParam?.value ?? order;
  if (typeof orderBy !== 'string' || orderBy === '') return out;
  return orderedBy(out, orderBy, orderParam?.name ?? null, resource.properties, resource.name.replace(/_/g, ' '), (r) => r.data);
}

/**
 * `items` sorted by an ordering value over their `data` (400 on `param`, the parameter that gave it, for a field
 * not among `fields`, the fields of `what`). Items equal on every key keep their order, reversed when the first key
 * descends (records made within one millisecond share a creation time, and a descending time means newest first).
 */
export function orderedBy<T>(items: T[], orderBy: string, param: string | null, fields: readonly string[], what: string, data: (item: T) => Json): T[] {
  const keys = sortKeys(fields, what, orderBy, param);
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
