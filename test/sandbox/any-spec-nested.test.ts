// Nested collections of a spec without our vocabulary (issue 27): `/owners/{ownerId}/pets` is scoped by its parent's
// id (an integer here). A pet is created, listed and found under its own owner only; a missing owner is 404; the
// parent id is kept on the record but never answered. The conformance suite passes against it, the nested-list
// check included.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';

const pet = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } };
const owner = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Owner' } } } };
const ownerId = { name: 'ownerId', in: 'path', required: true, schema: { type: 'integer' } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  security: [{ Token: [] }],
  paths: {
    '/owners': { post: { operationId: 'createOwner', requestBody: owner, responses: { '201': { description: 'ok', ...owner } } } },
    '/owners/{ownerId}': { parameters: [ownerId], get: { operationId: 'getOwner', responses: { '200': { description: 'ok', ...owner }, '404': { description: 'none' } } } },
    '/owners/{ownerId}/pets': {
      parameters: [ownerId],
      get: { operationId: 'listPets', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } }, '404': { description: 'none' } } },
      post: { operationId: 'createPet', requestBody: pet, responses: { '201': { description: 'ok', ...pet }, '404': { description: 'none' } } },
    },
    '/owners/{ownerId}/pets/{petId}': {
      parameters: [ownerId, { name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getPet', responses: { '200': { description: 'ok', ...pet }, '404': { description: 'none' } } },
      delete: { operationId: 'deletePet', responses: { '204': { description: 'gone' }, '404': { description: 'none' } } },
    },
  },
  components: {
    securitySchemes: { Token: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Owner: { type: 'object', required: ['name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', maxLength: 30 } } },
      Pet: { type: 'object', required: ['name'], properties: { petId: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string', maxLength: 30 } } },
    },
  },
};

describe('a nested collection scoped by its parent path parameter', () => {
  it('pets live under their own owner; the suite passes against the sandbox', async () => {
    const generated = await generateFor(writeSpec(SPEC));
    const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await sandbox.fetch(new Request(`http://sandbox.test${generated.tables.basePath}${path}`, { method, headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
        const text = await res.text();
        return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
      };
      const a = (await call('POST', '/owners', { name: 'Ann' })).body as { id: number };
      const b = (await call('POST', '/owners', { name: 'Bob' })).body as { id: number };
      expect(Number.isInteger(a.id) && Number.isInteger(b.id)).toBe(true);
      const rex = await call('POST', `/owners/${a.id}/pets`, { name: 'Rex' });
      expect(rex.status).toBe(201);
      // The parent id scopes the record but is no property of Pet: not answered.
      expect(rex.body).toEqual({ petId: expect.any(String), name: 'Rex' });
      const id = (rex.body as { petId: string }).petId;
      expect((await call('GET', `/owners/${a.id}/pets`)).body).toEqual([rex.body]);
      expect((await call('GET', `/owners/${b.id}/pets`)).body).toEqual([]);
      expect((await call('GET', `/owners/${a.id}/pets/${id}`)).status).toBe(200);
      expect((await call('GET', `/owners/${b.id}/pets/${id}`)).status).toBe(404);
      expect((await call('DELETE', `/owners/${b.id}/pets/${id}`)).status).toBe(404);
      const missing = await call('POST', '/owners/2147483646/pets', { name: 'Ghost' });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ error: { code: 'NOT_FOUND', details: [{ field: 'ownerId' }] } });
      expect((await call('GET', '/owners/2147483646/pets')).status).toBe(404);
    } finally {
      await sandbox.close();
    }
    const results = await conformanceOf(generated);
    expect(failures(results)).toEqual([]);
    const passed = new Set(results.filter((r) => r.outcome === 'pass').map((r) => `${r.operation} ${r.check.split(':')[0]}`));
    for (const expected of ['listPets lists', 'getPet not found', 'getPet isolation', 'createPet isolation', 'deletePet happy path']) expect(passed).toContain(expected);
  }, 300_000);
});
