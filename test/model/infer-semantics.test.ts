// The sandbox vocabulary inferred for a spec without it (issue 27), rule by rule (docs/x-vocabulary.md,
// "Inferred vocabulary (issue 27)"), and left alone when the spec declares any of it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';

const json = (ref: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });

function spec(paths: Record<string, unknown>, schemas: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'infer-'));
  const file = join(dir, 'api.json');
  writeFileSync(file, JSON.stringify({ openapi: '3.1.0', info: { title: 'T', version: '1' }, paths, components: { schemas } }));
  return file;
}

const PET = { type: 'object', properties: { petId: { type: 'string', readOnly: true }, name: { type: 'string' }, createdAt: { type: 'string', format: 'date-time', readOnly: true } } };
const PETS = {
  '/pets': {
    get: { operationId: 'listPets', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } } } },
    post: { operationId: 'createPet', requestBody: json('Pet'), responses: { '201': { description: 'ok', ...json('Pet') } } },
  },
  '/pets/{petId}': {
    parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
    get: { operationId: 'getPet', responses: { '200': { description: 'ok', ...json('Pet') } } },
    patch: { operationId: 'updatePet', requestBody: json('Pet'), responses: { '200': { description: 'ok', ...json('Pet') } } },
    delete: { operationId: 'deletePet', responses: { '204': { description: 'gone' } } },
  },
  '/health': { get: { operationId: 'health', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } } }, example: { ok: true } } } } } } },
};

async function model(paths: Record<string, unknown>, schemas: Record<string, unknown>) {
  return buildModel(await loadSpecs(spec(paths, schemas), { policy: 'lenient' }), { policy: 'lenient' });
}

describe('inferred sandbox vocabulary', () => {
  it.each([
    ['a scalar property named after the parameter without its suffix', { type: 'string' }, 'pet'],
    ['an object property: never an id (discord member `user` for `{user_id}`)', { type: 'object', properties: { id: { type: 'string' } } }, undefined],
    ['an array property: never an id', { type: 'array', items: { type: 'string' } }, undefined],
    ['a named object schema: never an id', { $ref: '#/components/schemas/Owner' }, undefined],
  ])('the id from the stripped parameter name: %s', async (_, pet, id) => {
    const paths = {
      '/pets': { post: { operationId: 'createPet', requestBody: json('Pet'), responses: { '201': { description: 'ok', ...json('Pet') } } } },
      '/pets/{pet_id}': { parameters: [{ name: 'pet_id', in: 'path', required: true, schema: { type: 'string' } }], get: { operationId: 'getPet', responses: { '200': { description: 'ok', ...json('Pet') } } } },
    };
    const m = await model(paths, { Pet: { type: 'object', properties: { pet, name: { type: 'string' } } }, Owner: { type: 'object', properties: { id: { type: 'string' } } } });
    expect(m.schemas.Pet!.semantics.resource?.id).toBe(id);
  });

  it('makes a collection/item path pair a resource, its id the property named like the path parameter', async () => {
    const m = await model(PETS, { Pet: PET });
    expect(m.schemas.Pet!.semantics.resource).toEqual({ name: 'pets', id: 'petId', scope: 'organization', inferred: true });
    const actions = Object.fromEntries(m.operations.map((o) => [o.id, o.semantics.action ?? null]));
    expect(actions).toEqual({ listPets: 'list', createPet: 'create', getPet: 'get', updatePet: 'update', deletePet: 'delete', health: null });
  });

  it('falls back to `id` when no property is named like the path parameter', async () => {
    const m = await model(PETS, { Pet: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } });
    expect(m.schemas.Pet!.semantics.resource?.id).toBe('id');
  });

  it('stamps readOnly created/updated date-time properties as server times', async () => {
    const m = await model(PETS, { Pet: PET });
    expect(m.schemas.Pet!.fields.createdAt?.role).toBe('created-at');
    expect(m.schemas.Pet!.fields.name?.role).toBeUndefined();
  });

  it('leaves an operation without a pair to its example, with one warning naming it', async () => {
    const m = await model(PETS, { Pet: PET });
    expect(m.inferenceNotes).toEqual([{ spec: 'api', pointer: '#/paths/~1health/get', reason: expect.stringContaining('GET /health') }]);
  });

  it('infers nothing from a pair whose schema has no id property (a warning per operation instead)', async () => {
    const m = await model(PETS, { Pet: { type: 'object', properties: { name: { type: 'string' } } } });
    expect(m.schemas.Pet!.semantics.resource).toBeUndefined();
    expect(m.inferenceNotes).toHaveLength(6);
  });

  it('infers nothing when the spec declares our vocabulary (the explicit vocabulary wins)', async () => {
    const m = await model(PETS, { Pet: { ...PET, 'x-resource': { name: 'pet', id: 'petId', scope: 'organization' } } });
    expect(m.inferenceNotes).toBeUndefined();
    expect(m.operations.every((o) => o.semantics.action === undefined)).toBe(true);
  });

  it('pairs an item path with a suffix after its template with the collection of the same suffix (/calls/{sid}.json, /calls.json)', async () => {
    const suffixed = { '/calls.json': PETS['/pets'], '/calls/{petId}.json': PETS['/pets/{petId}'] };
    const m = await model(suffixed, { Pet: PET });
    expect(m.schemas.Pet!.semantics.resource).toEqual({ name: 'calls', id: 'petId', scope: 'organization', inferred: true });
    expect(m.operations.find((o) => o.id === 'getPet')!.semantics.action).toBe('get');
    expect(m.operations.find((o) => o.id === 'listPets')!.semantics.action).toBe('list');
  });
});
