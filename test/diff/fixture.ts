// A small API to edit: the diff tests change one thing in it at a time and build both models.
import { hashJson, type LoadedDocument } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import type { ApiModel } from '../../src/model/ir.js';

export type Doc = Record<string, any>;

export function baseSpec(): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Pets', version: '1' },
    servers: [{ url: 'https://pets.example/v1' }],
    security: [{ ApiKey: [] }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          summary: 'List pets.',
          parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } }],
          responses: { '200': { description: 'The pets.', content: { 'application/json': { schema: { type: 'object', required: ['pets'], properties: { pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } } } } },
        },
        post: {
          operationId: 'createPet',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/PetInput' } } } },
          responses: { '201': { description: 'Created.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
        },
      },
      '/pets/{pet_id}': {
        get: {
          operationId: 'getPet',
          description: 'One pet.',
          parameters: [{ name: 'pet_id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'The pet.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
            '404': { description: 'No such pet.' },
          },
        },
      },
      '/health': { get: { operationId: 'getHealth', security: [], responses: { '204': { description: 'Up.' } } } },
    },
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: {
        Pet: {
          type: 'object',
          required: ['id', 'name', 'kind'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string', description: 'What the pet is called.' },
            kind: { type: 'string', enum: ['cat', 'dog'] },
            age: { type: 'integer' },
          },
        },
        PetInput: {
          type: 'object',
          required: ['name', 'kind'],
          properties: { name: { type: 'string', maxLength: 50 }, kind: { type: 'string', enum: ['cat', 'dog'] }, tag: { type: 'string' } },
        },
        Legacy: { type: 'object', properties: { note: { type: 'string' } } },
      },
    },
  };
}

export function modelOf(document: Doc): ApiModel {
  const doc: LoadedDocument = { name: 'pets', uri: 'memory:pets.json', document, hash: hashJson(document), lineOf: () => undefined, warnings: [] };
  return buildModel([doc], { policy: 'lenient' });
}

/** The base spec with `edit` applied to a copy. */
export function edited(edit: (doc: Doc) => void): Doc {
  const doc = structuredClone(baseSpec());
  edit(doc);
  return doc;
}
