// The facts test for personas, metrics and test sets: every operation, wrapper and field that
// ../shared/reference/api-facts-shapes.md lists for these families (tables written by hand in
// facts-shapes/personas.ts, metrics.ts, test-sets.ts) is in spec/ under that name, with that type,
// requiredness, nullability and enumeration, and the success status the facts give.
// The spec is read through the project's own loader and model; nothing in the tables is computed from it.
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import type { Operation, SchemaNode } from '../../src/model/index.js';
import { METRIC_ROWS } from './facts-shapes/metrics.js';
import { PERSONA_ROWS } from './facts-shapes/personas.js';
import type { FactRow, FieldSpec } from './facts-shapes/row-b.js';
import { TEST_SET_ROWS } from './facts-shapes/test-sets.js';

const model = buildModel(await loadSpecs('spec'), { policy: 'strict' });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type S = Record<string, any>;

/** The schema objects `s` stands for: itself and what its $ref, allOf, oneOf and anyOf reach. */
function reach(s: SchemaNode | undefined, seen = new Set<unknown>()): S[] {
  if (s === undefined || typeof s === 'boolean' || seen.has(s)) return [];
  seen.add(s);
  const n = s as S;
  const out: S[] = [n];
  if (typeof n.$ref === 'string') {
    const name = decodeURIComponent(n.$ref.replace(/^#\/\$defs\//, ''));
    out.push(...reach(model.schemas[name]?.schema, seen));
  }
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) if (Array.isArray(n[k])) for (const b of n[k] as SchemaNode[]) out.push(...reach(b, seen));
  return out;
}

function property(s: SchemaNode | undefined, name: string): SchemaNode | undefined {
  for (const b of reach(s)) if (b.properties && Object.prototype.hasOwnProperty.call(b.properties, name)) return b.properties[name] as SchemaNode;
  return undefined;
}

function isRequired(s: SchemaNode | undefined, name: string): boolean {
  return reach(s).some((b) => Array.isArray(b.required) && b.required.includes(name));
}

function types(s: SchemaNode | undefined): Set<string> {
  const out = new Set<string>();
  for (const b of reach(s)) {
    if (typeof b.type === 'string') out.add(b.type);
    if (Array.isArray(b.type)) for (const t of b.type) out.add(t);
    if (b.const === null || (Array.isArray(b.enum) && b.enum.includes(null))) out.add('null');
  }
  return out;
}

function enumValues(s: SchemaNode | undefined): unknown[] {
  return reach(s).flatMap((b) => (Array.isArray(b.enum) ? b.enum : []));
}

/** `/a/{x}/b` and `/a/{y}/b` are one path: the facts compare operations by method and path, not parameter names. */
function shapeOf(path: string): string {
  return path.replace(/\{[^}]+\}/g, '{}');
}

function operation(row: FactRow): Operation | undefined {
  return model.operations.find((o) => o.method.toUpperCase() === row.method && shapeOf(o.path) === shapeOf(row.path) && !o.deprecated);
}

function jsonSchema(content: { mediaType: string; schema: SchemaNode }[] | undefined): SchemaNode | undefined {
  return content?.find((c) => /json/.test(c.mediaType))?.schema;
}

/** A field by name; a dotted name (`target_condition.target_float`) walks into nested objects. */
function checkField(where: string, root: SchemaNode | undefined, dotted: string, spec: FieldSpec): void {
  const parts = dotted.split('.');
  const name = parts.pop()!;
  let schema = root;
  for (const part of parts) {
    schema = property(schema, part);
    expect(schema, `${where}: no property ${part}`).toBeDefined();
  }
  const field = property(schema, name);
  expect(field, `${where}: no property ${name}`).toBeDefined();
  const t = types(field);
  if (spec.type !== undefined) {
    const accepted = spec.type === 'number' ? ['number', 'integer'] : [spec.type];
    expect(accepted.some((a) => t.has(a)), `${where}.${name}: type ${[...t].join('|')}, the facts say ${spec.type}`).toBe(true);
  }
  if (spec.required !== undefined) expect(isRequired(schema, name), `${where}.${name}: required should be ${spec.required}`).toBe(spec.required);
  if (spec.nullable !== undefined) expect(t.has('null'), `${where}.${name}: nullable should be ${spec.nullable}`).toBe(spec.nullable);
  if (spec.enum !== undefined) {
    const values = enumValues(field);
    for (const v of spec.enum) expect(values, `${where}.${name}: enum lacks ${v}`).toContain(v);
  }
}

function checkRow(row: FactRow): void {
  const op = operation(row);
  expect(op, `${row.id}: no operation ${row.method} ${row.path} in spec/`).toBeDefined();
  const success = op!.responses.find((r) => /^2\d\d$/.test(r.status));
  if (row.status !== undefined) expect(Number(success?.status), `${row.id}: success status`).toBe(row.status);
  for (const q of row.query ?? []) expect(op!.parameters.query.map((p) => p.name), `${row.id}: query parameter ${q}`).toContain(q);
  const body = jsonSchema(op!.requestBody?.content);
  for (const [name, spec] of Object.entries(row.body ?? {})) checkField(`${row.id} body`, body, name, spec);
  if (!row.response && !row.wrapper) return;
  let target = jsonSchema(success?.content);
  expect(target, `${row.id}: the success answer has no JSON body`).toBeDefined();
  if (row.wrapper !== undefined) {
    const wrapped = property(target, row.wrapper);
    expect(wrapped, `${row.id}: the answer has no ${row.wrapper}`).toBeDefined();
    expect(isRequired(target, row.wrapper), `${row.id}: ${row.wrapper} is not required in the answer`).toBe(true);
    const items = reach(wrapped).find((b) => b.items !== undefined)?.items as SchemaNode | undefined;
    target = types(wrapped).has('array') ? items : wrapped;
  }
  for (const [name, spec] of Object.entries(row.response ?? {})) checkField(`${row.id} ${row.wrapper ?? 'answer'}`, target, name, spec);
}

describe.each([
  ['personas', PERSONA_ROWS],
  ['metrics', METRIC_ROWS],
  ['test sets', TEST_SET_ROWS],
] as const)('facts-shapes: %s', (_family, rows) => {
  it.each(rows.map((r) => [`${r.id} ${r.method} ${r.path}`, r] as const))('%s', (_name, row) => checkRow(row));
});
