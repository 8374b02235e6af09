// OpenAPI `discriminator` on a oneOf: used only where it cannot change the result of plain oneOf.
// For each branch we look (through $ref chains and allOf) for `properties[propertyName]` pinned by
// const/enum to strings. A branch pinned to other values cannot match an object whose discriminator has
// value v, so the fast check skips it; unpinned branches are always checked. The mapping (plus the pinned
// values) tells the error collector which branch the payload meant, for a focused error message.
import { escapeToken, hasOwn, isObject, Scope, childPointer } from './scope.js';
import type { SchemaObject } from './schema-facts.js';

export interface DiscriminatorPlan {
  propertyName: string;
  /** Discriminator value -> indices of branches pinned to (among others) that value. */
  byValue: Map<string, number[]>;
  /** Branches with no provable restriction on the value. */
  open: number[];
  /** Value -> the one branch it designates (mapping first, then pinned values), for error reporting. */
  designates: Map<string, number>;
}

function pinnedValues(scope: Scope, ptr: string, pn: string, depth: number): string[] | undefined {
  const node = scope.get(ptr);
  if (!isObject(node) || depth > 8) return undefined;
  const props = node.properties;
  if (hasOwn(node, 'properties') && isObject(props) && hasOwn(props, pn)) {
    const p = props[pn];
    if (isObject(p)) {
      if (hasOwn(p, 'const') && typeof p.const === 'string') return [p.const];
      if (Array.isArray(p.enum) && p.enum.every((v) => typeof v === 'string')) return p.enum as string[];
    }
  }
  if (typeof node.$ref === 'string') {
    const t = scope.resolve(node.$ref, ptr);
    const r = t === undefined ? undefined : pinnedValues(scope, t, pn, depth + 1);
    if (r) return r;
  }
  if (Array.isArray(node.allOf)) {
    for (let i = 0; i < node.allOf.length; i++) {
      const r = pinnedValues(scope, childPointer(ptr, 'allOf', i), pn, depth + 1);
      if (r) return r;
    }
  }
  return undefined;
}

/** Location a branch stands for: its own `$ref` target when it is a plain reference, else itself. */
function branchTarget(scope: Scope, ptr: string): string {
  const node = scope.get(ptr);
  if (isObject(node) && typeof node.$ref === 'string') return scope.resolve(node.$ref, ptr) ?? ptr;
  return ptr;
}

function mappingTarget(scope: Scope, value: string, from: string): string | undefined {
  if (value.includes('#') || value.includes('/')) return scope.resolve(value, from);
  return scope.resolve(`#/components/schemas/${escapeToken(value)}`, from) ?? scope.resolve(`#/$defs/${escapeToken(value)}`, from);
}

export function planDiscriminator(scope: Scope, ptr: string, s: SchemaObject): DiscriminatorPlan | undefined {
  const d = s.discriminator;
  if (!isObject(d) || typeof d.propertyName !== 'string' || !Array.isArray(s.oneOf)) return undefined;
  const pn = d.propertyName;
  const byValue = new Map<string, number[]>();
  const open: number[] = [];
  const designates = new Map<string, number>();
  const targets = s.oneOf.map((_, i) => branchTarget(scope, childPointer(ptr, 'oneOf', i)));
  s.oneOf.forEach((_, i) => {
    const vals = pinnedValues(scope, childPointer(ptr, 'oneOf', i), pn, 0);
    if (!vals) {
      open.push(i);
      return;
    }
    for (const v of vals) {
      const list = byValue.get(v) ?? [];
      if (!list.includes(i)) list.push(i);
      byValue.set(v, list);
    }
  });
  if (isObject(d.mapping)) {
    for (const [value, ref] of Object.entries(d.mapping)) {
      if (typeof ref !== 'string') continue;
      const t = mappingTarget(scope, ref, ptr);
      const i = t === undefined ? -1 : targets.indexOf(t);
      if (i >= 0) designates.set(value, i);
    }
  }
  for (const [value, list] of byValue) if (!designates.has(value) && list.length === 1) designates.set(value, list[0]!);
  return { propertyName: pn, byValue, open, designates };
}
