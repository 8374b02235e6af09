// Named schemas of every document -> the IR's `schemas`, deduplicated across the catalog.
import { pointerOf } from '../load/errors.js';
import { canonicalJson } from '../load/index.js';
import type { FieldInfo, NamedSchema, Provenance } from './ir.js';
import type { DocumentView } from './document-view.js';
import { assignSchemaNames, type SchemaVariant } from './schema-names.js';
import { setOwn } from '../data/own-property.js';

export const UNSPECIFIED: Provenance = { source: 'unspecified' };

export function componentSchemas(view: DocumentView): Record<string, unknown> {
  const components = view.root.components as Record<string, unknown> | undefined;
  const schemas = components?.schemas;
  return schemas !== null && typeof schemas === 'object' ? (schemas as Record<string, unknown>) : {};
}

/** Decide every document's local -> global schema names (sets `view.naming`). */
export function planSchemaNames(views: DocumentView[]): void {
  const variants: SchemaVariant[] = [];
  for (const view of views) {
    const schemas = componentSchemas(view);
    const locals = Object.keys(schemas);
    const memo = new Map<string, string>();
    for (const name of locals) {
      variants.push({
        spec: view.spec,
        name,
        canonical(global) {
          // Compare with refs written as the names they would get under the current naming state.
          const naming = locals.map((n) => global(view.spec, n));
          const key = `${name}\u0000${naming.join('\u0000')}`;
          const cached = memo.get(key);
          if (cached !== undefined) return cached;
          view.naming = new Map(locals.map((n, i) => [n, naming[i]!]));
          const text = canonicalJson(view.schema(schemas[name], pointerOf(['components', 'schemas', name])));
          memo.set(key, text);
          return text;
        },
      });
    }
  }
  const assignment = assignSchemaNames(variants);
  for (const view of views) view.naming = assignment.get(view.spec) ?? new Map();
}

/** Build the NamedSchema entries of one document into `out` (merging with an equal one already there). */
export function collectSchemas(view: DocumentView, out: Record<string, NamedSchema>): void {
  const globalName = (local: string): string => view.globalName(local);
  const schemas = componentSchemas(view);
  const pending: [string, unknown, string][] = Object.keys(schemas).map((name) => [name, schemas[name], pointerOf(['components', 'schemas', name])]);
  // Refs the operations made into non-component positions too, even when the document has no component schemas.
  for (const [ref, syntheticName] of view.synthetic) pending.push([syntheticName, view.lookup(ref, '#'), ref]);
  const done = new Set<string>();
  while (pending.length > 0) {
    const [local, raw, pointer] = pending.shift()!;
    const name = globalName(local);
    if (done.has(name)) continue;
    done.add(name);
    const schema = view.schema(raw, pointer);
    // An own lookup: a schema called `constructor` or `toString` must not find Object.prototype's.
    const existing = Object.prototype.hasOwnProperty.call(out, name) ? out[name] : undefined;
    if (existing) {
      if (!existing.specs.includes(view.spec)) existing.specs.push(view.spec);
    } else {
      const node = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
      const provenance = view.reader.provenance(node, pointer, undefined);
      if (view.policy === 'strict' && provenance === undefined) view.reader.fail(pointer, 'every named schema needs x-provenance (seed, inferred or assumed)');
      const resolved = provenance ?? UNSPECIFIED;
      setOwn(out, name, { name, specs: [view.spec], pointer, schema, provenance: resolved, semantics: view.reader.schemaSemantics(node, pointer), fields: fieldInfos(view, node, pointer, resolved) });
    }
    // Refs discovered into non-component positions become synthetic named schemas of this document.
    for (const [ref, syntheticName] of view.synthetic) {
      if (!done.has(globalName(syntheticName))) pending.push([syntheticName, view.lookup(ref, pointer), ref]);
    }
  }
}

export function fieldInfos(view: DocumentView, node: Record<string, unknown>, pointer: string, inherited: Provenance): Record<string, FieldInfo> {
  const fields: Record<string, FieldInfo> = {};
  const props = node.properties;
  if (props === null || typeof props !== 'object' || Array.isArray(props)) return fields;
  for (const key of Object.keys(props)) {
    const p = `${pointer}/properties/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const prop = (props as Record<string, unknown>)[key];
    if (prop === null || typeof prop !== 'object') continue;
    const obj = prop as Record<string, unknown>;
    const provenance = view.reader.provenance(obj, p, inherited) ?? inherited;
    setOwn(fields, key, view.reader.fieldInfo(obj, p, provenance));
  }
  return fields;
}

export function sortRecord<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) setOwn(out, key, record[key]!);
  return out;
}
