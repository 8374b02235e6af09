// Which named schemas look different in requests and in responses: those with a readOnly or writeOnly
// property anywhere inside, directly or through the schemas they reference (a fixed point over refs).
import type { ApiModel, JsonValue, SchemaNode } from '../../model/ir.js';

export function schemasWithTwoViews(model: ApiModel): Set<string> {
  const direct = new Map<string, { marked: boolean; refs: Set<string> }>();
  for (const [name, named] of Object.entries(model.schemas)) {
    const info = { marked: false, refs: new Set<string>() };
    scan(named.schema, info);
    direct.set(name, info);
  }
  const result = new Set<string>([...direct].filter(([, i]) => i.marked).map(([n]) => n));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, info] of direct) {
      if (result.has(name)) continue;
      if ([...info.refs].some((r) => result.has(r))) {
        result.add(name);
        changed = true;
      }
    }
  }
  return result;
}

export function defName(ref: string): string | undefined {
  const m = /^#\/\$defs\/(.+)$/.exec(ref);
  return m ? decodeURIComponent(m[1]!).replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

function scan(node: SchemaNode | JsonValue, info: { marked: boolean; refs: Set<string> }): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) scan(item, info);
    return;
  }
  const props = node.properties;
  if (props && typeof props === 'object' && !Array.isArray(props)) {
    for (const p of Object.values(props)) if (p && typeof p === 'object' && !Array.isArray(p) && (p.readOnly === true || p.writeOnly === true)) info.marked = true;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const name = defName(value);
      if (name) info.refs.add(name);
    } else if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') scan(value, info);
  }
}
