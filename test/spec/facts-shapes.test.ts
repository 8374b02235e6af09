// spec/ against the hand-written tables of test/spec/facts-shapes/ (one per family, transcribed from
// ../shared/reference/api-facts-shapes.md; row format: ./facts-shapes/row.ts): every operation, success status,
// wrapper, query parameter, body and answer field with its type, nullability, requiredness and enumeration
// values. spec/ is read through the project's own loader and model; nothing in the tables is computed from it.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import type { Operation, SchemaNode } from '../../src/model/index.js';
import { preferredMedia } from '../../src/model/media.js';
import type { FactRow, FieldSpec } from './facts-shapes/row.js';

const model = buildModel(await loadSpecs('spec'), { policy: 'strict' });
const folder = join(dirname(fileURLToPath(import.meta.url)), 'facts-shapes');
const tables: { file: string; rows: FactRow[] }[] = [];
for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts') && f !== 'row.ts').sort()) {
  const mod = (await import(pathToFileURL(join(folder, file)).href)) as { rows: FactRow[] };
  tables.push({ file, rows: mod.rows });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type S = Record<string, any>;

/** The schema objects `node` stands for: itself and what its $ref, allOf, anyOf and oneOf reach. */
function parts(node: SchemaNode | undefined, seen = new Set<unknown>()): S[] {
  if (node === undefined || typeof node !== 'object' || seen.has(node)) return [];
  seen.add(node);
  const s = node as S;
  const out: S[] = [s];
  if (typeof s.$ref === 'string') out.push(...parts(model.schemas[decodeURIComponent(s.$ref.replace(/^#\/\$defs\//, ''))]?.schema, seen));
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(s[k])) for (const b of s[k] as SchemaNode[]) out.push(...parts(b, seen));
  return out;
}

function property(node: SchemaNode | undefined, name: string): { schema: SchemaNode; required: boolean } | undefined {
  const all = parts(node);
  const holder = all.find((p) => p.properties && Object.prototype.hasOwnProperty.call(p.properties, name));
  if (!holder) return undefined;
  return { schema: holder.properties[name] as SchemaNode, required: all.some((p) => Array.isArray(p.required) && p.required.includes(name)) };
}

/** Declared types, plus `null` for a null const or enum member and the JSON type of every enum value. */
function typesOf(node: SchemaNode): Set<string> {
  const out = new Set<string>();
  for (const p of parts(node)) {
    for (const t of Array.isArray(p.type) ? p.type : p.type === undefined ? [] : [p.type]) out.add(t as string);
    if (p.const === null) out.add('null');
    if (Array.isArray(p.enum)) for (const v of p.enum as unknown[]) out.add(v === null ? 'null' : typeof v);
  }
  return out;
}

/** The field's enum values; for an array without its own, those of its items. */
function enumOf(node: SchemaNode): unknown[] {
  const own = parts(node).flatMap((p) => (Array.isArray(p.enum) ? p.enum : []));
  if (own.length > 0) return own;
  return parts(node).flatMap((p) => (p.items ? enumOf(p.items as SchemaNode) : []));
}

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
function fieldProblems(where: string, top: SchemaNode | undefined, name: string, spec: FieldSpec): string[] {
  const { holder, last } = descend(top, name);
  const found = property(holder, last);
  if (!found) return [`${where}.${name}: missing`];
  const problems: string[] = [];
  const types = typesOf(found.schema);
  if (spec.type !== undefined) {
    const accepted = spec.type === 'number' ? ['number', 'integer'] : [spec.type];
    if (!accepted.some((t) => types.has(t))) problems.push(`${where}.${name}: type ${[...types].join('|') || 'none'}, expected ${spec.type}`);
  }
  if (spec.nullable !== undefined && types.has('null') !== spec.nullable) problems.push(`${where}.${name}: ${spec.nullable ? 'not nullable' : 'nullable'}`);
  if (spec.required !== undefined && found.required !== spec.required) problems.push(`${where}.${name}: ${spec.required ? 'not required' : 'required'}`);
  if (spec.enum !== undefined) {
    const allowed = enumOf(found.schema);
    const missing = spec.enum.filter((v) => !allowed.includes(v));
    if (missing.length > 0) problems.push(`${where}.${name}: enum lacks ${missing.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  if (spec.anyString === true && enumOf(found.schema).length > 0) problems.push(`${where}.${name}: an enumeration, expected any string`);
  return problems;
}

const shape = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

/** The operation of that method and path: the current one, else a deprecated one (legacy snapshots). */
function operationOf(row: FactRow): Operation | undefined {
  const matching = model.operations.filter((o) => o.method.toUpperCase() === row.method && shape(o.path) === shape(row.path));
  return matching.find((o) => !o.deprecated) ?? matching[0];
}

function rowProblems(row: FactRow): string[] {
  const op = operationOf(row);
  if (!op) return ['no such operation in spec/'];
  const problems: string[] = [];
  const success = op.responses.filter((r) => /^2\d\d$/.test(r.status));
  if (row.status !== undefined && Number(success[0]?.status) !== row.status) problems.push(`expected status ${row.status}, spec has ${success.map((r) => r.status).join(', ')}`);
  for (const status of row.alsoStatus ?? []) if (!op.responses.some((r) => Number(r.status) === status)) problems.push(`status ${status} not documented`);
  for (const q of row.query ?? []) if (!op.parameters.query.some((p) => p.name === q)) problems.push(`query ${q}: not declared`);
  for (const q of row.queryRequired ?? []) if (op.parameters.query.find((p) => p.name === q)?.required !== true) problems.push(`query ${q}: not required`);
  for (const h of row.headers ?? []) if (!op.parameters.header.some((p) => p.name.toLowerCase() === h.toLowerCase())) problems.push(`header ${h}: not declared`);
  for (const [name, values] of Object.entries(row.queryEnums ?? {})) {
    const schema = op.parameters.query.find((p) => p.name === name)?.schema;
    const missing = schema === undefined ? ['(no such parameter)'] : values.filter((v) => !enumOf(schema).includes(v));
    if (missing.length > 0) problems.push(`query ${name}: enum lacks ${missing.join(', ')}`);
  }
  const body = op.requestBody ? preferredMedia(op.requestBody.content)?.schema : undefined;
  for (const [name, spec] of Object.entries(row.body ?? {})) problems.push(...fieldProblems('body', body, name, spec));
  const answer = success[0] ? preferredMedia(success[0].content)?.schema : undefined;
  if (answer === undefined && (row.wrapper !== undefined || row.top || row.response)) return [...problems, 'the success answer has no body'];
  let resource = answer;
  if (row.wrapper !== undefined) {
    const wrapped = property(answer, row.wrapper);
    if (!wrapped?.required) problems.push(`answer.${row.wrapper}: ${wrapped ? 'not required' : 'missing'}`);
    const items = wrapped && parts(wrapped.schema).find((p) => p.items !== undefined)?.items;
    resource = (items as SchemaNode | undefined) ?? wrapped?.schema;
  }
  for (const [name, spec] of Object.entries(row.top ?? {})) problems.push(...fieldProblems('answer', answer, name, spec));
  for (const [name, spec] of Object.entries(row.response ?? {})) problems.push(...fieldProblems(row.wrapper ?? 'answer', resource, name, spec));
  return problems;
}

const label = (r: FactRow): string => `${r.fact ? `${r.fact} ` : ''}${r.method} ${r.path}${r.seed ? ` (seed: ${r.seed})` : ''}`;

describe('spec/ against the hand-written tables of api-facts-shapes.md', () => {
  it('has a table per family', () => {
    expect(tables.map((t) => t.file)).toContain('alerts.ts');
    expect(tables.every((t) => t.rows.length > 0)).toBe(true);
  });

  for (const { file, rows } of tables) {
    describe(file, () => {
      it.each(rows.map((r) => [label(r), r] as const))('%s', (_name, row) => {
        expect(rowProblems(row)).toEqual([]);
      });
    });
  }

  it.each([
    ['an absent operation', { given: { method: 'PUT', path: '/runs' }, want: ['no such operation in spec/'] }],
    ['an optional query parameter the facts require', { given: { method: 'GET', path: '/runs', queryRequired: ['page_size'] }, want: ['query page_size: not required'] }],
    ['an undeclared header', { given: { method: 'GET', path: '/runs', headers: ['X-No-Such-Header'] }, want: ['header X-No-Such-Header: not declared'] }],
    [
      'a body field required where the facts make it optional, not nullable where they allow null, an enumeration where they have a string',
      {
        given: { method: 'POST', path: '/tags', body: { tag_name: { type: 'string', required: false }, color: { type: 'string', nullable: false, anyString: true } } },
        want: ['body.tag_name: required', 'body.color: nullable'],
      },
    ],
    ['an enumeration where the facts have any string', { given: { method: 'GET', path: '/runs/{x}', wrapper: 'run', response: { status: { anyString: true } } }, want: ['run.status: an enumeration, expected any string'] }],
    [
      'a wrong status and an absent field',
      { given: { method: 'GET', path: '/runs/{x}', status: 201, wrapper: 'run', response: { no_such_field: { type: 'string' } } }, want: ['expected status 201, spec has 200', 'run.no_such_field: missing'] },
    ],
    [
      'a missing enum value and a wrong type',
      {
        given: { method: 'GET', path: '/runs/{x}', wrapper: 'run', response: { status: { type: 'string', enum: ['IN_PROGRESS'] }, run_id: { type: 'boolean' } } },
        want: ['run.status: enum lacks "IN_PROGRESS"', 'run.run_id: type string, expected boolean'],
      },
    ],
    [
      'requiredness and nullability both ways, a nested field, a query enum',
      {
        given: {
          method: 'GET',
          path: '/alerts',
          wrapper: 'alerts',
          queryEnums: { conversation_source: ['NOWHERE'] },
          response: { ulid: { required: false }, description: { nullable: true }, 'conditions[].no_such_field': {} },
        },
        want: ['query conversation_source: enum lacks NOWHERE', 'alerts.ulid: required', 'alerts.description: not nullable', 'alerts.conditions[].no_such_field: missing'],
      },
    ],
  ] satisfies [string, { given: FactRow; want: string[] }][])('the runner finds %s', (_name, { given, want }) => {
    expect(rowProblems(given)).toEqual(want);
  });
});
