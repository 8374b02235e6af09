// Facts coverage, part C (runs, review projects, workspaces, agents, dashboards, webhooks, tags): every operation,
// wrapper and field of ../shared/reference/api-facts-shapes.md for these families, transcribed by hand into the
// tables of test/spec/facts-shapes/, is in spec/ under the given name, status, type, requiredness, nullability and
// enumeration. spec/ is read through the project's own loader and model; the tables are never computed from it.
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import type { Operation, SchemaNode } from '../../src/model/index.js';
import { agents } from './facts-shapes/agents.js';
import { dashboards } from './facts-shapes/dashboards.js';
import { reviewProjects } from './facts-shapes/review-projects.js';
import type { FactRow, FieldSpec } from './facts-shapes/row-c.js';
import { runs } from './facts-shapes/runs.js';
import { tags } from './facts-shapes/tags.js';
import { webhooks } from './facts-shapes/webhooks.js';
import { workspaces } from './facts-shapes/workspaces.js';

const model = buildModel(await loadSpecs('spec'), { policy: 'strict' });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type S = Record<string, any>;

/** Every schema object reachable through $ref, allOf, oneOf and anyOf (the schema itself included). */
function reach(s: SchemaNode | undefined, seen = new Set<unknown>()): S[] {
  if (s === undefined || typeof s === 'boolean' || seen.has(s)) return [];
  seen.add(s);
  const n = s as S;
  const out: S[] = [n];
  if (typeof n.$ref === 'string') {
    const name = decodeURIComponent(/^#\/\$defs\/(.+)$/.exec(n.$ref)![1]!);
    out.push(...reach(model.schemas[name]!.schema, seen));
  }
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) if (Array.isArray(n[k])) for (const b of n[k] as SchemaNode[]) out.push(...reach(b, seen));
  return out;
}

function property(s: SchemaNode | undefined, name: string): SchemaNode | undefined {
  for (const b of reach(s)) if (b.properties && Object.prototype.hasOwnProperty.call(b.properties, name)) return b.properties[name] as SchemaNode;
  return undefined;
}

function required(s: SchemaNode | undefined): Set<string> {
  return new Set(reach(s).flatMap((b) => (Array.isArray(b.required) ? (b.required as string[]) : [])));
}

function types(s: SchemaNode): Set<string> {
  const out = new Set<string>();
  for (const b of reach(s)) {
    if (typeof b.type === 'string') out.add(b.type);
    if (Array.isArray(b.type)) for (const t of b.type as string[]) out.add(t);
    if (Array.isArray(b.enum)) for (const v of b.enum as unknown[]) out.add(v === null ? 'null' : typeof v);
  }
  return out;
}

function enumValues(s: SchemaNode): Set<unknown> {
  return new Set(reach(s).flatMap((b) => (Array.isArray(b.enum) ? (b.enum as unknown[]) : [])));
}

/** What is wrong with one field, or nothing. */
function fieldProblems(where: string, container: SchemaNode | undefined, name: string, spec: FieldSpec): string[] {
  const schema = property(container, name);
  if (schema === undefined) return [`${where}.${name}: missing`];
  const problems: string[] = [];
  const have = types(schema);
  const typeOk = spec.type === 'number' ? have.has('number') || have.has('integer') : have.has(spec.type);
  if (!typeOk) problems.push(`${where}.${name}: expected type ${spec.type}, spec has ${[...have].join('|')}`);
  if (spec.required === true && !required(container).has(name)) problems.push(`${where}.${name}: expected required`);
  if (spec.nullable === true && !have.has('null')) problems.push(`${where}.${name}: expected nullable`);
  const values = enumValues(schema);
  for (const v of spec.enum ?? []) if (!values.has(v)) problems.push(`${where}.${name}: enum lacks ${JSON.stringify(v)}`);
  return problems;
}

/** `/runs/{run_id}` and `/runs/{id}` are one path: parameter names are not compared. */
const shape = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

function operationOf(row: FactRow): Operation | undefined {
  return model.operations.find((o) => o.method.toUpperCase() === row.method && shape(o.path) === shape(row.path) && !o.deprecated);
}

function jsonSchema(content: { mediaType: string; schema: SchemaNode }[]): SchemaNode | undefined {
  return content.find((c) => /json/.test(c.mediaType))?.schema;
}

function rowProblems(row: FactRow): string[] {
  const op = operationOf(row);
  if (!op) return ['no such operation in spec/'];
  const problems: string[] = [];
  const success = op.responses.filter((r) => /^2\d\d$/.test(r.status));
  if (row.status !== undefined && !success.some((r) => Number(r.status) === row.status)) problems.push(`expected status ${row.status}, spec has ${success.map((r) => r.status).join(', ')}`);
  for (const name of row.query ?? []) if (!op.parameters.query.some((p) => p.name === name)) problems.push(`query parameter ${name}: missing`);
  const body = op.requestBody ? jsonSchema(op.requestBody.content) : undefined;
  for (const [name, spec] of Object.entries(row.body ?? {})) problems.push(...fieldProblems('body', body, name, spec));
  const answer = success.find((r) => row.status === undefined || Number(r.status) === row.status) ?? success[0];
  let resource = answer ? jsonSchema(answer.content) : undefined;
  if (row.wrapper !== undefined) {
    if (!required(resource).has(row.wrapper) || property(resource, row.wrapper) === undefined) problems.push(`wrapper ${row.wrapper}: missing or not required`);
    const wrapped = property(resource, row.wrapper);
    const items = wrapped === undefined ? undefined : reach(wrapped).find((b) => b.items !== undefined)?.items;
    resource = (items as SchemaNode | undefined) ?? wrapped;
  }
  for (const [name, spec] of Object.entries(row.response ?? {})) problems.push(...fieldProblems('response', resource, name, spec));
  return problems;
}

const families: Record<string, FactRow[]> = { runs, 'review projects': reviewProjects, workspaces, agents, dashboards, webhooks, tags };

describe('api-facts-shapes.md, part C: every operation, wrapper and field is in spec/', () => {
  for (const [family, rows] of Object.entries(families)) {
    describe(family, () => {
      it.each(rows.map((r) => [`${r.method} ${r.path}${r.seed ? ` (seed: ${r.seed})` : ''}`, r] as const))('%s', (_label, row) => {
        expect(rowProblems(row)).toEqual([]);
      });
    });
  }

  it('the runner finds what is missing (a row naming an absent field, status and operation fails)', () => {
    expect(rowProblems({ method: 'GET', path: '/runs/{x}', status: 201, wrapper: 'run', response: { no_such_field: { type: 'string' } } })).toEqual([
      'expected status 201, spec has 200',
      'response.no_such_field: missing',
    ]);
    expect(rowProblems({ method: 'PUT', path: '/runs', response: {} })).toEqual(['no such operation in spec/']);
    expect(rowProblems({ method: 'GET', path: '/runs/{x}', wrapper: 'run', response: { status: { type: 'string', enum: ['IN_PROGRESS'] }, run_id: { type: 'boolean' } } })).toEqual([
      'response.status: enum lacks "IN_PROGRESS"',
      'response.run_id: expected type boolean, spec has string',
    ]);
  });
});
