import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/model/index.js';
import { doc, ok, openapi } from '../support/docs.js';

const model30 = (schemas: Record<string, unknown>) =>
  buildModel([doc('api', { ...openapi({}, schemas), openapi: '3.0.3' })], { policy: 'lenient' });

describe('schema normalisation', () => {
  it('unifies 3.0 nullable and 3.1 type arrays', () => {
    const m30 = model30({ A: { type: 'string', nullable: true, enum: ['x', 'y'] } });
    const m31 = buildModel([doc('api', openapi({}, { A: { type: ['string', 'null'], enum: ['x', 'y', null] } }))], { policy: 'lenient' });
    expect(m30.schemas.A!.schema).toEqual({ type: ['string', 'null'], enum: ['x', 'y', null] });
    expect(m31.schemas.A!.schema).toEqual(m30.schemas.A!.schema);
  });

  it('turns 3.0 boolean exclusive bounds into the numeric form', () => {
    const m = model30({ N: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 5 } });
    expect(m.schemas.N!.schema).toEqual({ type: ['number'], exclusiveMinimum: 0, maximum: 5 });
  });

  it('makes a 3.0 nullable $ref an anyOf with null', () => {
    const m = model30({ A: { type: 'string' }, B: { type: 'object', properties: { a: { $ref: '#/components/schemas/A', nullable: true } } } });
    expect((m.schemas.B!.schema as any).properties.a).toEqual({ anyOf: [{ $ref: '#/$defs/A' }, { type: ['null'] }] });
  });

  it('reads a 3.0 allOf member that only says nullable: true as "or null" for the whole composite', () => {
    const m = model30({
      A: { type: 'object', properties: { x: { type: 'string' } } },
      B: { allOf: [{ $ref: '#/components/schemas/A' }, { nullable: true }] },
      C: { description: 'kept outside', readOnly: true, allOf: [{ $ref: '#/components/schemas/A' }, { description: 'about it' }, { nullable: true, description: 'or none' }] },
      D: { type: 'string', allOf: [{ nullable: true }] },
    });
    expect(m.schemas.B!.schema).toEqual({ anyOf: [{ allOf: [{ $ref: '#/$defs/A' }] }, { type: ['null'] }] });
    expect(m.schemas.C!.schema).toEqual({ description: 'kept outside', readOnly: true, anyOf: [{ allOf: [{ $ref: '#/$defs/A' }, { description: 'about it' }] }, { type: ['null'] }] });
    expect(m.schemas.D!.schema).toEqual({ type: ['string', 'null'] });
    // 3.1 has no `nullable`: the same member means nothing there.
    const m31 = buildModel([doc('api', openapi({}, { A: { type: 'object' }, B: { allOf: [{ $ref: '#/components/schemas/A' }, { nullable: true }] } }))], { policy: 'lenient' });
    expect(m31.schemas.B!.schema).toEqual({ allOf: [{ $ref: '#/$defs/A' }, {}] });
  });

  it('keeps annotations outside when nullable wraps a composition', () => {
    const m = model30({ A: { type: 'object' }, B: { description: 'd', nullable: true, oneOf: [{ $ref: '#/components/schemas/A' }] } });
    expect(m.schemas.B!.schema).toEqual({ description: 'd', anyOf: [{ oneOf: [{ $ref: '#/$defs/A' }] }, { type: ['null'] }] });
  });

  it('gives a path template variable without a declaration a required string parameter, and refuses dot segments', () => {
    const get = (path: string) => buildModel([doc('api', openapi({ [path]: { get: { operationId: 'g', responses: ok({ type: 'string' }) } } }))], { policy: 'lenient' });
    expect(get('/a/{id}/b/{x}').operations[0]!.parameters.path.map((p) => [p.name, p.required, p.schema])).toEqual([
      ['id', true, { type: ['string'] }],
      ['x', true, { type: ['string'] }],
    ]);
    expect(() => get('/a/../b')).toThrow(/"\.\." segment, which URL parsers remove/);
  });

  it('rewrites component refs and discriminator mappings to $defs', () => {
    const m = buildModel(
      [doc('api', openapi({}, { Cat: { type: 'object' }, Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }], discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', kitty: 'Cat' } } } }))],
      { policy: 'lenient' },
    );
    expect(m.schemas.Pet!.schema).toEqual({ oneOf: [{ $ref: '#/$defs/Cat' }], discriminator: { propertyName: 'kind', mapping: { cat: '#/$defs/Cat', kitty: '#/$defs/Cat' } } });
  });

  it('moves example into examples and drops OpenAPI-only keywords', () => {
    const m = buildModel([doc('api', openapi({}, { A: { type: 'string', example: 'hi', xml: { name: 'a' }, 'x-other': 1 } }))], { policy: 'lenient' });
    expect(m.schemas.A!.schema).toEqual({ type: ['string'], examples: ['hi'] });
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
