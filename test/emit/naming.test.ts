// Every derived name is settled once, across the whole model, before any emitter runs: whatever the schema
// names, operation ids and tags, no two declarations of one generated module share a name, and the client
// package compiles under `tsc --strict`. Each row builds a small document with one kind of collision.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { operationSignatures } from '../../src/emit/client/signature.js';
import { emitAll } from '../../src/emit/index.js';
import { buildNames, type Names, type OperationPart } from '../../src/emit/naming.js';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import type { ApiModel } from '../../src/model/ir.js';
import { typecheck } from '../support/typecheck.js';

interface Op {
  id: string;
  path: string;
  tag?: string;
  /** Schema name of a JSON request body. */
  body?: string;
  /** Paginated (x-pagination), so it gets an `...All` iterator. */
  paginated?: boolean;
  /** Schema name of the 200 JSON response. */
  response?: string;
}

interface Given {
  schemas?: Record<string, Record<string, unknown>>;
  operations?: Op[];
}

/** A name query (`schemaType Foo`, `operationValidator foo Body`, `group raw`, ...) and the name it must give. */
type Want = Record<string, string>;

const work = mkdtempSync(join(tmpdir(), 'naming-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
async function modelOf(given: Given): Promise<ApiModel> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of given.operations ?? []) {
    const operation: Record<string, unknown> = {
      operationId: op.id,
      ...(op.tag !== undefined ? { tags: [op.tag] } : {}),
      ...(op.body !== undefined ? { requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${op.body}` } } } } } : {}),
      ...(op.paginated
        ? {
            parameters: [{ name: 'page_token', in: 'query', schema: { type: 'string' } }, { name: 'page_size', in: 'query', schema: { type: 'integer' } }],
            'x-pagination': { items: 'items', page_size: 'page_size', page_token: 'page_token', next_page_token: 'next_page_token' },
          }
        : {}),
      responses: {
        '200': {
          description: 'ok',
          content: { 'application/json': { schema: op.response !== undefined ? { $ref: `#/components/schemas/${op.response}` } : op.paginated ? { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } }, next_page_token: { type: 'string' } } } : { type: 'object' } } },
        },
      },
    };
    paths[op.path] = { ...paths[op.path], [op.paginated ? 'get' : op.body ? 'post' : 'get']: operation };
  }
  const doc = { openapi: '3.1.0', info: { title: 'naming', version: '1' }, paths, components: { schemas: given.schemas ?? {} } };
  const file = join(work, `doc${n++}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return buildModel(await loadSpecs(file), { policy: 'lenient' });
}

function ask(names: Names, query: string): string | undefined {
  const [kind, a, b, c] = query.split(' ');
  switch (kind) {
    case 'schemaType':
      return names.schemaType(a!);
    case 'schemaInputType':
      return names.schemaInputType(a!);
    case 'schemaValidator':
      return names.schemaValidator(a!);
    case 'enumValues':
      return names.enumValues(a!, b);
    case 'operationFunction':
      return names.operationFunction(a!);
    case 'operationIterator':
      return names.operationIterator(a!);
    case 'operationType':
      return names.operationType(a!, b as OperationPart, c);
    case 'operationValidator':
      return names.operationValidator(a!, b as OperationPart, c);
    case 'group':
      return names.group(query.slice('group '.length));
    default:
      throw new Error(`unknown query ${query}`);
  }
}

/** Every declaration of each generated module's namespace, as the emitters will ask for them. */
function namespaces(model: ApiModel, names: Names): Record<string, string[]> {
  const schemas = Object.keys(model.schemas);
  const parts = model.operations.flatMap((op) => [
    ...(['PathParams', 'Query', 'Headers', 'Body', 'Response'] as const)
      // A 2xx union that is its schema (ListTagsResponse) declares nothing of its own.
      .filter((p) => p !== 'Response' || names.operationResponseSchema(op.id) === undefined)
      .map((p) => [op.id, p, undefined] as const),
    ...op.responses.map((r) => [op.id, 'Response' as const, r.status] as const),
  ]);
  return {
    types: [...schemas.map((s) => names.schemaType(s)), ...schemas.map((s) => names.schemaInputType(s)), ...parts.map(([id, p, s]) => names.operationType(id, p, s)), 'ValidationError', 'ValidationResult', 'Validator'],
    validators: [...schemas.map((s) => names.schemaValidator(s)), ...parts.map(([id, p, s]) => names.operationValidator(id, p, s))],
    operations: [...model.operations.map((op) => names.operationFunction(op.id)), ...model.operations.flatMap((op) => names.operationIterator(op.id) ?? []), 'createClient', 'ApiError'],
    groups: [...new Set(model.operations.map((op) => names.group(op.group))), 'raw'],
  };
}

const object = { type: 'object', properties: { id: { type: 'string' } } };

const CASES: [string, { given: Given; want: Want }][] = [
  [
    'schema names that differ only in case',
    { given: { schemas: { foo: object, Foo: object, FOO: object } }, want: { 'schemaType FOO': 'FOO', 'schemaType Foo': 'Foo', 'schemaType foo': 'Foo2', 'schemaValidator foo': 'foo2Validator' } },
  ],
  [
    'schema names that differ only in separators',
    { given: { schemas: { foo_bar: object, 'foo-bar': object, 'foo.bar': object, fooBar: object } }, want: { 'schemaType foo-bar': 'FooBar', 'schemaType foo.bar': 'FooBar2', 'schemaType fooBar': 'FooBar3', 'schemaType foo_bar': 'FooBar4' } },
  ],
  [
    'schema names that are reserved words or the validator module’s own types',
    { given: { schemas: { class: object, default: object, Validator: object, ValidationResult: object } }, want: { 'schemaType class': 'Class', 'schemaType Validator': 'Validator2', 'schemaType ValidationResult': 'ValidationResult2' } },
  ],
  [
    'operation part meeting a schema name (operation foo + Body vs schema FooBody)',
    {
      given: { schemas: { FooBody: object }, operations: [{ id: 'foo', path: '/foo', body: 'FooBody' }] },
      want: { 'schemaType FooBody': 'FooBody', 'operationType foo Body': 'Foo2Body', 'schemaValidator FooBody': 'fooBodyValidator', 'operationValidator foo Body': 'foo2BodyValidator' },
    },
  ],
  [
    'operation response meeting a schema name (FooResponse200)',
    { given: { schemas: { FooResponse200: object, FooResponse: object }, operations: [{ id: 'foo', path: '/foo' }] }, want: { 'operationType foo Response 200': 'Foo2Response200', 'operationValidator foo Response 200': 'foo2Response200Validator' } },
  ],
  [
    'an operation whose only answer is the schema named like its 2xx union (listLabels answers ListLabelsResponse): the schema is the union, no second name',
    {
      given: { schemas: { ListLabelsResponse: object, GetLabelResponse: object, Other: object }, operations: [{ id: 'listLabels', path: '/labels', response: 'ListLabelsResponse' }, { id: 'getLabel', path: '/label', response: 'Other' }] },
      want: { 'operationType listLabels Response': 'ListLabelsResponse', 'operationType listLabels Response 200': 'ListLabelsResponse200', 'operationType getLabel Response': 'GetLabel2Response' },
    },
  ],
  [
    'input view meeting a schema name (Tag with readOnly vs schema TagInput)',
    {
      given: { schemas: { Tag: { type: 'object', properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } }, TagInput: object } },
      want: { 'schemaType TagInput': 'TagInput', 'schemaInputType Tag': 'Tag2Input', 'schemaInputType TagInput': 'TagInputInput' },
    },
  ],
  [
    'operation ids that differ only in case and separators',
    {
      given: { operations: [{ id: 'get-tags', path: '/a' }, { id: 'getTags', path: '/b' }, { id: 'get_tags', path: '/c' }, { id: 'GetTags', path: '/d' }] },
      want: { 'operationFunction get-tags': 'getTags', 'operationFunction getTags': 'getTags2', 'operationFunction get_tags': 'getTags3', 'operationType GetTags Body': 'GetTags4Body', 'operationValidator GetTags Body': 'getTags4BodyValidator' },
    },
  ],
  [
    'operation ids that are reserved words or the package’s own exports',
    { given: { operations: [{ id: 'delete', path: '/a' }, { id: 'createClient', path: '/b' }, { id: 'validators', path: '/c' }] }, want: { 'operationFunction delete': 'delete_', 'operationFunction createClient': 'createClient2', 'operationFunction validators': 'validators2' } },
  ],
  [
    'an iterator meeting an operation (listTags + All vs operation listTagsAll)',
    { given: { operations: [{ id: 'listTags', path: '/tags', paginated: true }, { id: 'listTagsAll', path: '/all' }] }, want: { 'operationIterator listTags': 'listTags2All', 'operationFunction listTagsAll': 'listTagsAll' } },
  ],
  [
    'tags that meet each other and the client’s raw member',
    { given: { operations: [{ id: 'a', path: '/a', tag: 'raw' }, { id: 'b', path: '/b', tag: 'Foo Bar' }, { id: 'c', path: '/c', tag: 'foo-bar' }] }, want: { 'group raw': 'raw_', 'group Foo Bar': 'fooBar', 'group foo-bar': 'fooBar2' } },
  ],
  [
    'enum value lists that meet (schema FooStatus vs property status of Foo)',
    {
      given: { schemas: { FooStatus: { type: 'string', enum: ['a'] }, Foo: { type: 'object', properties: { status: { type: 'string', enum: ['b'] } } } } },
      want: { 'enumValues Foo status': 'fooStatusValues', 'enumValues FooStatus': 'fooStatusValues2' },
    },
  ],
];

describe('names settled once across the model', () => {
  it.each(CASES)('%s', async (_name, { given, want }) => {
    const model = await modelOf(given);
    const names = buildNames(model);
    for (const [query, expected] of Object.entries(want)) expect(ask(names, query), query).toBe(expected);
    for (const [namespace, list] of Object.entries(namespaces(model, names))) {
      const dupes = list.filter((x, i) => list.indexOf(x) !== i);
      expect(dupes, namespace).toEqual([]);
    }
    // Deterministic: a second pass gives the same names.
    for (const query of Object.keys(want)) expect(ask(buildNames(model), query)).toBe(ask(names, query));
    // Every emitter runs on it (the validator compiler refuses a duplicate export name).
    expect(() => emitAll(model, names)).not.toThrow();
  });

  it('a model with every collision at once compiles under tsc --strict', async () => {
    const given: Given = { schemas: {}, operations: [] };
    for (const [, c] of CASES) {
      Object.assign(given.schemas!, c.given.schemas);
      for (const op of c.given.operations ?? []) given.operations!.push({ ...op, path: `/${given.operations!.length}${op.path}` });
    }
    const model = await modelOf(given);
    const names = buildNames(model);
    expect(operationSignatures(model, names).some((s) => s.iterator === 'listTags2All')).toBe(true);
    const dir = join(work, 'all');
    const roots: string[] = [];
    for (const f of emitAll(model, names)) {
      if (!f.path.startsWith('client/')) continue;
      const target = join(dir, f.path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, f.contents);
      if (f.kind === 'module' || f.path.endsWith('.d.ts')) roots.push(target);
    }
    expect(typecheck(roots)).toEqual([]);
  }, 120_000);
});
