// The hand-written tables of test/spec/facts-shapes/*.ts (from ../shared/reference/api-facts-shapes.md) against
// spec/, loaded through the project's loader and model: every operation, status, wrapper, query parameter, body
// and answer field with its type, nullability, requiredness and enumeration values. Row format: ./facts-shapes/row.ts.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import type { Operation, SchemaNode } from '../../src/model/index.js';
import { preferredMedia } from '../../src/model/media.js';
import type { FactRow, Field } from './facts-shapes/row.js';

const model = buildModel(await loadSpecs('spec'), { policy: 'strict' });
const folder = join(dirname(fileURLToPath(import.meta.url)), 'facts-shapes');
const tables: { file: string; rows: FactRow[] }[] = [];
// The tables in this row format (the other families' tables have their own runners: facts-shapes-b/-c.test.ts).
for (const file of ['alerts.ts', 'simulations.ts', 'uploaded-conversations.ts']) {
  const mod = (await import(pathToFileURL(join(folder, file)).href)) as { rows: FactRow[] };
  tables.push({ file, rows: mod.rows });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type S = Record<string, any>;

function resolve(node: SchemaNode | undefined): S | undefined {
  let current = node;
  for (let i = 0; i < 16 && current && typeof current === 'object'; i++) {
    const ref = (current as S).$ref;
    if (typeof ref !== 'string') return current as S;
    current = model.schemas[ref.replace(/^#\/\$defs\//, '')]?.schema;
  }
  return undefined;
}

/** The schema and every part reachable through $ref, allOf, anyOf and oneOf. */
function parts(node: SchemaNode | undefined, seen = new Set<unknown>()): S[] {
  const s = resolve(node);
  if (!s || seen.has(s)) return [];
  seen.add(s);
  return [s, ...(['allOf', 'anyOf', 'oneOf'] as const).flatMap((k) => (Array.isArray(s[k]) ? (s[k] as SchemaNode[]).flatMap((p) => parts(p, seen)) : []))];
}

function property(node: SchemaNode | undefined, name: string): { schema: SchemaNode; required: boolean } | undefined {
  const all = parts(node);
  const holder = all.find((p) => p.properties && Object.prototype.hasOwnProperty.call(p.properties, name));
  if (!holder) return undefined;
  return { schema: holder.properties[name] as SchemaNode, required: all.some((p) => Array.isArray(p.required) && p.required.includes(name)) };
}

function typesOf(node: SchemaNode): Set<string> {
  const out = new Set<string>();
  for (const p of parts(node)) {
    const t = p.type;
    for (const x of Array.isArray(t) ? t : t === undefined ? [] : [t]) out.add(x as string);
    if (p.const === null || (Array.isArray(p.enum) && p.enum.includes(null))) out.add('null');
  }
  return out;
}

function enumOf(node: SchemaNode): unknown[] {
  const own = parts(node).flatMap((p) => (Array.isArray(p.enum) ? p.enum : []));
  if (own.length > 0) return own;
  return parts(node).flatMap((p) => (p.items ? enumOf(p.items as SchemaNode) : []));
}

const TYPES: Record<string, string[]> = { str: ['string'], num: ['number', 'integer'], int: ['integer'], bool: ['boolean'], arr: ['array'], map: ['object'], any: [] };

/** A nested field (`conditions[].metric_id`, `a.b`): the holder of its last segment, and that segment. */
function descend(holder: SchemaNode | undefined, name: string): { holder: SchemaNode | undefined; last: string } {
  const segments = name.split('.');
  let current = holder;
  for (const seg of segments.slice(0, -1)) {
    const items = seg.endsWith('[]');
    const node = property(current, items ? seg.slice(0, -2) : seg)?.schema;
    current = items ? (parts(node).find((p) => p.items)?.items as SchemaNode | undefined) : node;
  }
  return { holder: current, last: segments[segments.length - 1]! };
}

/** Problems of one field against its place; [] when it holds. */
function checkField(where: string, top: SchemaNode | undefined, name: string, field: Field): string[] {
  const m = /^(str|num|int|bool|arr|map|any)(\|null)?(\*)?$/.exec(field);
  if (!m) return [`${where}.${name}: bad field spec ${field} in the table`];
  const { holder, last } = descend(top, name);
  const found = property(holder, last);
  if (!found) return [`${where}.${name}: missing`];
  const problems: string[] = [];
  const types = typesOf(found.schema);
  const wanted = TYPES[m[1]!]!;
  if (wanted.length > 0 && types.size > 0 && !wanted.some((t) => types.has(t))) problems.push(`${where}.${name}: type ${[...types].join('|')}, expected ${m[1]}`);
  if (m[2] && types.size > 0 && !types.has('null')) problems.push(`${where}.${name}: not nullable`);
  if (m[3] && !found.required) problems.push(`${where}.${name}: not required`);
  return problems;
}

const shape = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

function operationOf(row: FactRow): Operation | undefined {
  return model.operations.find((o) => o.method.toUpperCase() === row.method && shape(o.path) === shape(row.path));
}

function rowProblems(row: FactRow): string[] {
  const op = operationOf(row);
  if (!op) return [`${row.method} ${row.path}: no such operation in spec/`];
  const problems: string[] = [];
  const success = op.responses.find((r) => /^2\d\d$/.test(r.status));
  if (row.status !== undefined && !op.responses.some((r) => r.status === String(row.status))) problems.push(`status ${row.status} not documented (spec: ${op.responses.map((r) => r.status).join(', ')})`);
  const answer = success ? preferredMedia(success.content)?.schema : undefined;
  let resource = answer;
  if (row.list !== undefined) {
    const list = property(answer, row.list);
    if (!list) problems.push(`answer: no list key ${row.list}`);
    resource = list ? (resolve(list.schema)?.items as SchemaNode | undefined) : undefined;
  } else if (row.wrapper) {
    const wrapped = property(answer, row.wrapper);
    if (!wrapped) problems.push(`answer: no wrapper ${row.wrapper}`);
    resource = wrapped?.schema;
  } else if (row.wrapper === null && answer && property(answer, 'ulid') === undefined && Object.keys(row.response ?? {}).length === 0) {
    problems.push('answer: expected the unwrapped resource');
  }
  for (const [name, field] of Object.entries(row.top ?? {})) problems.push(...checkField('answer', answer, name, field));
  for (const [name, field] of Object.entries(row.response ?? {})) problems.push(...checkField('resource', resource, name, field));
  const body = op.requestBody ? preferredMedia(op.requestBody.content)?.schema : undefined;
  for (const [name, field] of Object.entries(row.body ?? {})) problems.push(...checkField('body', body, name, field));
  for (const q of row.query ?? []) if (!op.parameters.query.some((p) => p.name === q)) problems.push(`query ${q}: not declared`);
  for (const [key, values] of Object.entries(row.enums ?? {})) {
    const [place, name] = key.split('.') as [string, string];
    const rest = key.slice(place.length + 1);
    const inside = descend(place === 'body' ? body : resource, rest);
    const node = place === 'query' ? op.parameters.query.find((p) => p.name === name)?.schema : property(inside.holder, inside.last)?.schema;
    if (node === undefined) {
      problems.push(`${key}: missing`);
      continue;
    }
    const allowed = enumOf(node);
    const missing = values.filter((v) => !allowed.includes(v));
    if (missing.length > 0) problems.push(`${key}: does not allow ${missing.join(', ')}`);
  }
  return problems;
}

describe('spec/ against the hand-written tables of api-facts-shapes.md', () => {
  it('has tables', () => {
    expect(tables.length).toBeGreaterThan(0);
  });
  for (const { file, rows } of tables) {
    describe(file, () => {
      it.each(rows.map((r) => [`${r.fact} ${r.method} ${r.path}`, r] as const))('%s', (_name, row) => {
        expect(rowProblems(row)).toEqual([]);
      });
    });
  }
});
