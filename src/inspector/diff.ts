// The difference between two versions of a record, property path by property path: what a person reading a
// version history wants (which fields changed, from what to what), not a text diff of the JSON.

export interface DiffRow {
  /** `prompt`, `metadata.team`, `conditions[0].threshold_float`. */
  path: string;
  change: 'added' | 'removed' | 'changed';
  /** The values as JSON text; absent on the side that has none. */
  before?: string;
  after?: string;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function join(path: string, key: string): string {
  if (IDENT.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** Leaves (scalars, empty arrays and objects) by path, in document order. */
function flatten(value: unknown, path: string, out: Map<string, string>): void {
  if (Array.isArray(value) && value.length > 0) {
    value.forEach((v, i) => flatten(v, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, join(path, k), out);
  } else {
    out.set(path === '' ? '(whole value)' : path, JSON.stringify(value) ?? 'undefined');
  }
}

/**
 * Top-level properties that every version changes by itself (identity, numbering, timestamps, audit): shown after
 * the changes a person made. Named, not read from the spec's field roles, because the page gets records as JSON
 * only; a property ending in `_time`, `_at` or `_by` counts too.
 */
const BOOKKEEPING = new Set(['name', 'id', 'ulid', 'version_id', 'version_number', 'change_type', 'reverted_from', 'etag']);

function isBookkeeping(path: string): boolean {
  const top = /^[^.[]+/.exec(path)?.[0] ?? path;
  return BOOKKEEPING.has(top) || /(_time|_at|_by)$/.test(top);
}

/**
 * Rows for every leaf that differs between `before` and `after`: the changes that matter first (in `after`'s
 * order, removed ones after), then the bookkeeping a new version always brings (name, ulid, version_number, ...).
 */
export function diffJson(before: unknown, after: unknown): DiffRow[] {
  const rows = leafChanges(before, after);
  return [...rows.filter((r) => !isBookkeeping(r.path)), ...rows.filter((r) => isBookkeeping(r.path))];
}

function leafChanges(before: unknown, after: unknown): DiffRow[] {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  flatten(before, '', a);
  flatten(after, '', b);
  const rows: DiffRow[] = [];
  for (const [path, value] of b) {
    const old = a.get(path);
    if (old === undefined) rows.push({ path, change: 'added', after: value });
    else if (old !== value) rows.push({ path, change: 'changed', before: old, after: value });
  }
  for (const [path, value] of a) if (!b.has(path)) rows.push({ path, change: 'removed', before: value });
  return rows;
}
