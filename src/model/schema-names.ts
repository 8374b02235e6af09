// Names of named schemas across the documents of one catalog. Equal schemas of one name (compared
// after normalisation, with references written as names) are merged; different ones are each given a
// spec-qualified name (`<spec>.<Name>`), so no variant is privileged and adding a document never renames
// another document's types silently.

export interface SchemaVariant {
  spec: string;
  name: string;
  /** Canonical form of the schema given a resolver from local names to global names. */
  canonical(global: (spec: string, name: string) => string): string;
}

/** Returns spec -> (local name -> global name). */
export function assignSchemaNames(variants: SchemaVariant[]): Map<string, Map<string, string>> {
  const byName = new Map<string, SchemaVariant[]>();
  for (const v of variants) {
    const list = byName.get(v.name) ?? [];
    list.push(v);
    byName.set(v.name, list);
  }
  const qualified = new Set<string>(); // names whose variants are split
  const assignment = new Map<string, Map<string, string>>();
  const global = (spec: string, name: string): string => (qualified.has(name) ? `${spec}.${name}` : name);
  // Splitting one name can make schemas that reference it differ; repeat until stable (bounded by the name count).
  for (let round = 0; round <= byName.size; round++) {
    let changed = false;
    for (const [name, list] of byName) {
      if (qualified.has(name) || list.length < 2) continue;
      const first = list[0]!.canonical(global);
      if (list.some((v) => v.canonical(global) !== first)) {
        qualified.add(name);
        changed = true;
      }
    }
    if (!changed) break;
  }
  for (const v of variants) {
    const map = assignment.get(v.spec) ?? new Map<string, string>();
    map.set(v.name, global(v.spec, v.name));
    assignment.set(v.spec, map);
  }
  return assignment;
}
