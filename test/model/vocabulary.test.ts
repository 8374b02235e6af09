import { describe, expect, it } from 'vitest';
import { SpecError } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import { doc, ok, openapi } from '../support/docs.js';

const resource = {
  'x-provenance': 'seed',
  'x-resource': { name: 'thing', id: 'id', scope: 'organization' },
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string', 'x-normalize': 'lowercase', 'x-unique': { among: 'active', scope: 'organization' } } },
};
const operation = (extra: Record<string, unknown> = {}) => ({
  '/things/{id}': { get: { operationId: 'getThing', 'x-provenance': 'seed', 'x-operation': { resource: 'thing', action: 'get' }, responses: ok({ $ref: '#/components/schemas/Thing' }), ...extra } },
});

// The names a spec may use are handed to the model (the pipeline gives the sandbox's list); these are a test's.
const known = { rules: new Set(['version-revert']), events: new Set(['thing.changed']) };

function strictError(paths: Record<string, unknown>, schemas: Record<string, unknown>): SpecError {
  try {
    buildModel([doc('things', openapi(paths, schemas))], { policy: 'strict', known });
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return error as SpecError;
  }
  throw new Error('expected the model to refuse the document');
}

describe('the x- vocabulary', () => {
  it('parses resources, field semantics and operation semantics into the model', () => {
    const m = buildModel([doc('things', openapi(operation({ 'x-permission': ['things:read', 'things:write'], 'x-rules': ['version-revert'] }), { Thing: resource }))], { policy: 'strict' });
    expect(m.schemas.Thing!.semantics.resource).toEqual({ name: 'thing', id: 'id', scope: 'organization' });
    expect(m.schemas.Thing!.fields.name).toEqual({ provenance: { source: 'seed' }, normalize: 'lowercase', unique: { among: 'active', scope: 'organization' } });
    expect(m.operations[0]!.semantics).toMatchObject({ resource: 'thing', action: 'get', permissions: ['things:read', 'things:write'], rules: ['version-revert'] });
    // Vocabulary is kept out of the JSON Schema the emitters read.
    expect(JSON.stringify(m.schemas.Thing!.schema)).not.toContain('x-');
  });

  it('reads x-references on a body field and refuses a resource no schema declares or a value that is not a name', () => {
    const create = (references: unknown) => ({
      '/things': {
        post: {
          operationId: 'createThing',
          'x-provenance': 'seed',
          'x-operation': { resource: 'thing', action: 'create' },
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { linked: { type: 'array', items: { type: 'string' }, 'x-references': references } } } } } },
          responses: ok({ $ref: '#/components/schemas/Thing' }),
        },
      },
    });
    const m = buildModel([doc('things', openapi(create('thing'), { Thing: resource }))], { policy: 'strict' });
    expect(m.operations[0]!.requestBody!.fields.linked).toEqual({ provenance: { source: 'seed' }, references: 'thing' });
    expect(strictError(create('nothing'), { Thing: resource }).message).toContain('x-references "nothing"');
    expect(strictError(create(7), { Thing: resource }).message).toContain('x-references');
  });

  it('inherits provenance from the schema and lets a property override it', () => {
    const schema = { ...resource, properties: { ...resource.properties, extra: { type: 'string', 'x-provenance': 'assumed', 'x-provenance-note': 'we needed it' } } };
    const m = buildModel([doc('things', openapi(operation(), { Thing: schema }))], { policy: 'strict' });
    expect(m.schemas.Thing!.fields.id!.provenance).toEqual({ source: 'seed' });
    expect(m.schemas.Thing!.fields.extra!.provenance).toEqual({ source: 'assumed', note: 'we needed it' });
  });

  it.each([
    ['an operation without provenance', operation({ 'x-provenance': undefined }), { Thing: resource }, /every operation needs x-provenance/, '#/paths/~1things~1{id}/get'],
    ['a schema without provenance', operation(), { Thing: { ...resource, 'x-provenance': undefined } }, /every named schema needs x-provenance/, '#/components/schemas/Thing'],
    ['an assumed statement without a note', operation({ 'x-provenance': 'assumed' }), { Thing: resource }, /needs an x-provenance-note/, '#/paths/~1things~1{id}/get/x-provenance'],
    ['an unknown extension on an operation', operation({ 'x-frobnicate': true }), { Thing: resource }, /unknown extension x-frobnicate/, '#/paths/~1things~1{id}/get/x-frobnicate'],
    ['an unknown rule', operation({ 'x-rules': ['no-such-rule'] }), { Thing: resource }, /unknown rule "no-such-rule"/, '#/paths/~1things~1{id}/get/x-rules/0'],
    ['an unknown action', operation({ 'x-operation': { resource: 'thing', action: 'explode' } }), { Thing: resource }, /must be one of list, create/, '#/paths/~1things~1{id}/get/x-operation/action'],
    ['an undeclared resource', operation({ 'x-operation': { resource: 'gadget', action: 'get' } }), { Thing: resource }, /no schema declares it/, '#/paths/~1things~1{id}/get/x-operation/resource'],
    ['a tracked field that does not exist', operation(), { Thing: { ...resource, 'x-versioned': { tracked: ['nope'] } } }, /not a property of this schema/, '#/components/schemas/Thing/x-versioned/tracked/0'],
    ['a bad null rule', operation(), { Thing: { ...resource, properties: { ...resource.properties, id: { type: 'string', 'x-null': 'sometimes' } } } }, /must be one of clear, ignore, rule/, '#/components/schemas/Thing/properties/id/x-null'],
    ['an initial state that is not a value of the state field', operation(), { Thing: { ...resource, 'x-lifecycle': { field: 'state', initial: 'LIVE' }, properties: { ...resource.properties, state: { type: 'string', enum: ['ACTIVE', 'GONE'] } } } }, /"LIVE" is not a value of state/, '#/components/schemas/Thing/x-lifecycle/initial'],
    ['an initial state without a state field', operation(), { Thing: { ...resource, 'x-lifecycle': { initial: 'ACTIVE' } } }, /needs the field that holds the state/, '#/components/schemas/Thing/x-lifecycle/initial'],
    ['a workspace that is no resource', operation(), { Thing: resource, Other: { 'x-provenance': 'seed', type: 'object', 'x-workspace': {} } }, /only a resource \(x-resource\) can be the workspace/, '#/components/schemas/Other/x-workspace'],
    ['an unknown key of x-workspace', operation(), { Thing: { ...resource, 'x-workspace': { home: true } } }, /unknown key; allowed: live, default/, '#/components/schemas/Thing/x-workspace/home'],
    ['a default workspace value of no property', operation(), { Thing: { ...resource, 'x-workspace': { default: { kind: 'DEFAULT' } } } }, /"kind", which is not a property/, '#/components/schemas/Thing/x-workspace/default/kind'],
    ['a live state without a state field', operation(), { Thing: { ...resource, 'x-workspace': { live: 'ACTIVE' } } }, /needs the x-lifecycle field/, '#/components/schemas/Thing/x-workspace/live'],
    ['a live state that is not a value of the state field', operation(), { Thing: { ...resource, 'x-lifecycle': { field: 'state' }, 'x-workspace': { live: 'LIVE' }, properties: { ...resource.properties, state: { type: 'string', enum: ['ACTIVE', 'GONE'] } } } }, /"LIVE" is not a value of state/, '#/components/schemas/Thing/x-workspace/live'],
    ['two workspace resources', operation(), { Thing: { ...resource, 'x-workspace': {} }, Place: { ...resource, 'x-resource': { name: 'place', id: 'id', scope: 'organization' }, 'x-workspace': {} } }, /schema "Place" is the workspace already/, '#/components/schemas/Thing/x-workspace'],
    ['a pagination naming a missing parameter', operation({ 'x-pagination': { items: 'things', page_size: 'page_size', page_token: 'page_token', next_page_token: 'next' } }), { Thing: resource }, /does not have/, '#/paths/~1things~1{id}/get/x-pagination'],
  ])('refuses %s with the spec name and JSON pointer', (_what, paths, schemas, reason, pointer) => {
    const error = strictError(paths, schemas);
    expect(error.spec).toBe('things');
    expect(error.message).toMatch(reason);
    expect(error.pointer).toBe(pointer);
  });

  it('reads x-pagination total and refuses one that is no top-level property of the answer', () => {
    const paged = (total: string) => ({
      '/things': {
        get: {
          operationId: 'listThings',
          'x-provenance': 'seed',
          'x-operation': { resource: 'thing', action: 'list' },
          'x-pagination': { items: 'things', page_size: 'size', page_token: 'token', next_page_token: 'next', total },
          parameters: ['size', 'token'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
          responses: ok({ type: 'object', properties: { things: { type: 'array', items: { $ref: '#/components/schemas/Thing' } }, next: { type: 'string' }, counted: { type: 'integer' } } }),
        },
      },
    });
    const m = buildModel([doc('things', openapi(paged('counted'), { Thing: resource }))], { policy: 'strict' });
    expect(m.operations[0]!.semantics.pagination).toEqual({ items: 'things', pageSize: 'size', pageToken: 'token', nextPageToken: 'next', total: 'counted' });
    const error = strictError(paged('id'), { Thing: resource });
    expect(error.message).toMatch(/"id", which is no top-level property of the operation's answer/);
    expect(error.pointer).toBe('#/paths/~1things/get/x-pagination/total');
  });

  it('accepts unknown extensions and missing provenance in lenient mode', () => {
    const m = buildModel([doc('things', openapi(operation({ 'x-provenance': undefined, 'x-frobnicate': true }), { Thing: { ...resource, 'x-provenance': undefined } }))], { policy: 'lenient' });
    expect(m.operations[0]!.provenance).toEqual({ source: 'unspecified' });
  });
});
