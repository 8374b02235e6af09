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

/** Rows for every leaf that differs between `before` and `after`: in `after`'s order, removed ones after. */
export function diffJson(before: unknown, after: unknown): DiffRow[] {
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
