// Pagination inferred for lists of a spec without our vocabulary (issue 27; docs/any-spec.md "Pagination"): the
// recognised parameter and answer names, each style, and what is left unpaged.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import { tokenPagination } from '../../src/model/paging.js';

const PET = { type: 'object', properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } };
const pets = { type: 'array', items: { $ref: '#/components/schemas/Pet' } };
const q = (name: string, type: string) => ({ name, in: 'query', schema: { type } });

async function listPaging(parameters: unknown[], page: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'infer-paging-'));
  const file = join(dir, 'api.json');
  const one = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } };
  const paths = {
    '/pets': {
      get: { operationId: 'listPets', parameters, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: page } } } } } },
      post: { operationId: 'createPet', requestBody: one, responses: { '201': { description: 'ok', ...one } } },
    },
    '/pets/{petId}': { parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }], get: { operationId: 'getPet', responses: { '200': { description: 'ok', ...one } } } },
  };
  writeFileSync(file, JSON.stringify({ openapi: '3.1.0', info: { title: 'T', version: '1' }, paths, components: { schemas: { Pet: PET } } }));
  const model = buildModel(await loadSpecs(file, { policy: 'lenient' }), { policy: 'lenient' });
  const list = model.operations.find((o) => o.id === 'listPets')!;
  return { pagination: list.semantics.pagination, iterable: tokenPagination(list) !== undefined };
}

describe('inferred pagination', () => {
  it('a cursor and a next token: opaque tokens, walked by the client iterator', async () => {
    const r = await listPaging([q('pageSize', 'integer'), q('pageToken', 'string')], { pets, nextPageToken: { type: 'string' } });
    expect(r.pagination).toEqual({ items: 'pets', pageSize: 'pageSize', pageToken: 'pageToken', nextPageToken: 'nextPageToken' });
    expect(r.iterable).toBe(true);
  });

  it('limit and after with a next link (format uri): the link names the next page; no client iterator', async () => {
    const r = await listPaging([q('limit', 'integer'), q('after', 'string')], { data: pets, next: { type: 'string', format: 'uri' } });
    expect(r.pagination).toEqual({ items: 'data', pageSize: 'limit', pageToken: 'after', nextPageToken: 'next', nextLink: true });
    expect(r.iterable).toBe(false);
  });

  it('limit and offset with a total: offsets, no next field', async () => {
    const r = await listPaging([q('limit', 'integer'), q('offset', 'integer')], { items: pets, total: { type: 'integer' } });
    expect(r.pagination).toEqual({ items: 'items', pageSize: 'limit', pageToken: 'offset', nextPageToken: null, total: 'total', style: 'offset' });
  });

  it('per_page and page with a total_count: page numbers', async () => {
    const r = await listPaging([q('per_page', 'integer'), q('page', 'integer')], { results: pets, total_count: { type: 'integer' } });
    expect(r.pagination).toEqual({ items: 'results', pageSize: 'per_page', pageToken: 'page', nextPageToken: null, total: 'total_count', style: 'page' });
  });

  it('maxResults and nextToken answered with a next link named so (nextLink, a string)', async () => {
    const r = await listPaging([q('maxResults', 'integer'), q('nextToken', 'string')], { value: pets, nextLink: { type: 'string' } });
    expect(r.pagination).toMatchObject({ pageSize: 'maxResults', pageToken: 'nextToken', nextPageToken: 'nextLink', nextLink: true });
  });

  it('is not inferred without a size parameter, without a page parameter, for a cursor without a next field, or without one items array', async () => {
    expect((await listPaging([q('pageToken', 'string')], { pets, nextPageToken: { type: 'string' } })).pagination).toBeUndefined();
    expect((await listPaging([q('limit', 'integer')], { pets, total: { type: 'integer' } })).pagination).toBeUndefined();
    expect((await listPaging([q('limit', 'integer'), q('cursor', 'string')], { pets, total: { type: 'integer' } })).pagination).toBeUndefined();
    expect((await listPaging([q('limit', 'integer'), q('offset', 'integer')], { pets, others: pets, total: { type: 'integer' } })).pagination).toBeUndefined();
    // A size parameter of the wrong type is not one.
    expect((await listPaging([q('limit', 'string'), q('offset', 'integer')], { pets, total: { type: 'integer' } })).pagination).toBeUndefined();
  });
});
