import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/model/index.js';
import { doc, ok, openapi } from '../support/docs.js';

/** Named schemas of a one-document model built from `schemas` under that OpenAPI version. */
const normalised = (version: '3.0.3' | '3.1.0', schemas: Record<string, unknown>) => buildModel([doc('api', { ...openapi({}, schemas), openapi: version })], { policy: 'lenient' }).schemas;

// [name, { given: the document's version and component schemas, want: the normalised schemas of those names }]
const SCHEMAS: [string, { given: { version: '3.0.3' | '3.1.0'; schemas: Record<string, unknown> }; want: Record<string, unknown> }][] = [
  ['3.0 nullable becomes a type array, null joining the enum', { given: { version: '3.0.3', schemas: { A: { type: 'string', nullable: true, enum: ['x', 'y'] } } }, want: { A: { type: ['string', 'null'], enum: ['x', 'y', null] } } }],
  ['a 3.1 type array stays as the 3.0 form becomes', { given: { version: '3.1.0', schemas: { A: { type: ['string', 'null'], enum: ['x', 'y', null] } } }, want: { A: { type: ['string', 'null'], enum: ['x', 'y', null] } } }],
  ['3.0 boolean exclusive bounds take the numeric form', { given: { version: '3.0.3', schemas: { N: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 5 } } }, want: { N: { type: ['number'], exclusiveMinimum: 0, maximum: 5 } } }],
  [
    'a 3.0 nullable $ref becomes an anyOf with null',
    {
      given: { version: '3.0.3', schemas: { A: { type: 'string' }, B: { type: 'object', properties: { a: { $ref: '#/components/schemas/A', nullable: true } } } } },
      want: { B: { type: ['object'], properties: { a: { anyOf: [{ $ref: '#/$defs/A' }, { type: ['null'] }] } } } },
    },
  ],
  [
    'a 3.0 allOf member that only says nullable: true is "or null" for the whole composite',
    {
      given: {
        version: '3.0.3',
        schemas: {
          A: { type: 'object', properties: { x: { type: 'string' } } },
          B: { allOf: [{ $ref: '#/components/schemas/A' }, { nullable: true }] },
          C: { description: 'kept outside', readOnly: true, allOf: [{ $ref: '#/components/schemas/A' }, { description: 'about it' }, { nullable: true, description: 'or none' }] },
          D: { type: 'string', allOf: [{ nullable: true }] },
        },
      },
      want: {
        B: { anyOf: [{ allOf: [{ $ref: '#/$defs/A' }] }, { type: ['null'] }] },
        C: { description: 'kept outside', readOnly: true, anyOf: [{ allOf: [{ $ref: '#/$defs/A' }, { description: 'about it' }] }, { type: ['null'] }] },
        D: { type: ['string', 'null'] },
      },
    },
  ],
  // 3.1 has no `nullable`: the same member means nothing there.
  ['the same allOf member under 3.1 means nothing', { given: { version: '3.1.0', schemas: { A: { type: 'object' }, B: { allOf: [{ $ref: '#/components/schemas/A' }, { nullable: true }] } } }, want: { B: { allOf: [{ $ref: '#/$defs/A' }, {}] } } }],
  [
    'annotations stay outside when nullable wraps a composition',
    { given: { version: '3.0.3', schemas: { A: { type: 'object' }, B: { description: 'd', nullable: true, oneOf: [{ $ref: '#/components/schemas/A' }] } } }, want: { B: { description: 'd', anyOf: [{ oneOf: [{ $ref: '#/$defs/A' }] }, { type: ['null'] }] } } },
  ],
  [
    'component refs and discriminator mappings are rewritten to $defs',
    {
      given: { version: '3.1.0', schemas: { Cat: { type: 'object' }, Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }], discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', kitty: 'Cat' } } } } },
      want: { Pet: { oneOf: [{ $ref: '#/$defs/Cat' }], discriminator: { propertyName: 'kind', mapping: { cat: '#/$defs/Cat', kitty: '#/$defs/Cat' } } } },
    },
  ],
  ['example moves into examples and OpenAPI-only keywords are dropped', { given: { version: '3.1.0', schemas: { A: { type: 'string', example: 'hi', xml: { name: 'a' }, 'x-other': 1 } } }, want: { A: { type: ['string'], examples: ['hi'] } } }],
];

describe('schema normalisation', () => {
  it.each(SCHEMAS)('%s', (_name, { given, want }) => {
    const schemas = normalised(given.version, given.schemas);
    expect(Object.fromEntries(Object.keys(want).map((name) => [name, schemas[name]?.schema]))).toEqual(want);
  });

  it('gives a path template variable without a declaration a required string parameter, and refuses dot segments', () => {
    const get = (path: string) => buildModel([doc('api', openapi({ [path]: { get: { operationId: 'g', responses: ok({ type: 'string' }) } } }))], { policy: 'lenient' });
    expect(get('/a/{id}/b/{x}').operations[0]!.parameters.path.map((p) => [p.name, p.required, p.schema])).toEqual([
      ['id', true, { type: ['string'] }],
      ['x', true, { type: ['string'] }],
    ]);
    expect(() => get('/a/../b')).toThrow(/"\.\." segment, which URL parsers remove/);
  });

  it('keeps __proto__ and constructor property names as data', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"integer"}}}');
    const m = buildModel([doc('api', openapi({}, { A: schema }))], { policy: 'lenient' });
    const props = (m.schemas.A!.schema as any).properties;
    expect(Object.keys(props)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(props)).toBe(Object.prototype);
    expect(props.constructor).toEqual({ type: ['integer'] });
  });
});

describe('catalog merge', () => {
  const shared = { ErrorDetail: { type: 'object', properties: { field: { type: 'string' } } } };
  it('deduplicates equal schemas of one name across documents', () => {
    const m = buildModel([doc('a', openapi({}, shared)), doc('b', openapi({}, shared))], { policy: 'lenient' });
    expect(Object.keys(m.schemas)).toEqual(['ErrorDetail']);
    expect(m.schemas.ErrorDetail!.specs).toEqual(['a', 'b']);
  });

  it('gives different schemas of one name spec-qualified names, and refs follow', () => {
    const a = openapi({}, { Thing: { type: 'string' }, Box: { type: 'object', properties: { t: { $ref: '#/components/schemas/Thing' } } } });
    const b = openapi({}, { Thing: { type: 'integer' }, Box: { type: 'object', properties: { t: { $ref: '#/components/schemas/Thing' } } } });
    const m = buildModel([doc('a', a), doc('b', b)], { policy: 'lenient' });
    // Box looks equal written with local names, but its Thing differs, so Box is split too.
    expect(Object.keys(m.schemas)).toEqual(['a.Box', 'a.Thing', 'b.Box', 'b.Thing']);
    expect((m.schemas['b.Box']!.schema as any).properties.t).toEqual({ $ref: '#/$defs/b.Thing' });
  });

  it('qualifies an operationId used by two documents in lenient mode and refuses it in strict mode', () => {
    const get = { get: { operationId: 'getThing', 'x-provenance': 'seed', responses: ok({ type: 'string' }) } };
    const docs = [doc('a', openapi({ '/a': get })), doc('b', openapi({ '/b': get }))];
    expect(buildModel(docs, { policy: 'lenient' }).operations.map((o) => o.id)).toEqual(['getThing', 'b.getThing']);
    expect(() => buildModel(docs, { policy: 'strict' })).toThrow(/operationId "getThing" is also used by spec a/);
  });
});

describe('operations', () => {
  it('merges path-level and operation-level parameters and fills in serialisation defaults', () => {
    const m = buildModel(
      [
        doc(
          'api',
          openapi({
            '/things/{id}': {
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, { name: 'q', in: 'query', schema: { type: 'string' } }],
              get: { operationId: 'getThing', tags: ['things'], parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'integer' } }], responses: ok({ type: 'string' }) },
            },
          }),
        ),
      ],
      { policy: 'lenient' },
    );
    const op = m.operations[0]!;
    expect(op.group).toBe('things');
    expect(op.parameters.path.map((p) => [p.name, p.required, p.style, p.explode])).toEqual([['id', true, 'simple', false]]);
    expect(op.parameters.query.map((p) => [p.name, p.required, p.schema, p.style, p.explode])).toEqual([['q', true, { type: ['integer'] }, 'form', true]]);
  });

  it('derives an id and a group when the spec gives none', () => {
    const m = buildModel([doc('api', openapi({ '/pets/{petId}/toys': { get: { responses: ok({}) } } }))], { policy: 'lenient' });
    expect(m.operations[0]!.id).toBe('getPetsPetIdToys');
    expect(m.operations[0]!.group).toBe('pets');
  });

  it('uses the document security unless the operation overrides it', () => {
    const m = buildModel(
      [
        doc(
          'api',
          openapi(
            { '/a': { get: { operationId: 'a', responses: ok({}) } }, '/b': { get: { operationId: 'b', security: [], responses: ok({}) } } },
            {},
            { security: [{ Key: [] }], components: { schemas: {}, securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'X-Key' } } } },
          ),
        ),
      ],
      { policy: 'lenient' },
    );
    expect(m.operations.map((o) => o.security)).toEqual([[['Key']], []]);
    expect(m.securitySchemes.Key).toEqual({ type: 'apiKey', in: 'header', name: 'X-Key' });
  });
});
