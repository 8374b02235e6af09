// A list answered by an `allOf` of a paging part and an entries part (issue 27; box's metadata taxonomy nodes):
// the entries array is the list, whether or not the list's parameters page it. Before, the answer was `{}`.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';

const NODE = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } };
const NODES = { allOf: [{ type: 'object', properties: { limit: { type: 'integer' }, next_marker: { type: ['string', 'null'] } } }, { type: 'object', properties: { entries: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } }] };
const json = (schema: unknown) => ({ 'application/json': { schema } });

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Nodes', version: '1' },
  security: [{ Key: [] }],
  paths: {
    '/trees/{tree}/nodes': {
      parameters: [{ name: 'tree', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'listNodes', responses: { '200': { description: 'all', content: json({ $ref: '#/components/schemas/Nodes' }) } } },
      post: { operationId: 'createNode', requestBody: { required: true, content: json({ $ref: '#/components/schemas/Node' }) }, responses: { '201': { description: 'made', content: json({ $ref: '#/components/schemas/Node' }) } } },
    },
    '/trees/{tree}/nodes/{node_id}': {
      parameters: [{ name: 'tree', in: 'path', required: true, schema: { type: 'string' } }, { name: 'node_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getNode', responses: { '200': { description: 'one', content: json({ $ref: '#/components/schemas/Node' }) }, '404': { description: 'none' } } },
    },
  },
  components: { schemas: { Node: NODE, Nodes: NODES }, securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
};

describe('a list answered by an allOf of parts', () => {
  it('answers its records in the one array of the resource among the parts', async () => {
    const generated = await generateFor(writeSpec(SPEC));
    expect(generated.tables.routes.find((r) => r.id === 'listNodes')?.success.shape).toEqual({ kind: 'list', items: 'entries', total: null });
    const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
    try {
      const call = (method: string, body?: unknown) =>
        sandbox.fetch(new Request(`http://sandbox.test${generated.tables.basePath}/trees/t1/nodes`, { method, headers: { authorization: sandbox.apiKey, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
      const made = (await (await call('POST', { name: 'root' })).json()) as { id: string };
      const listed = (await (await call('GET')).json()) as { entries: { id: string; name: string }[] };
      expect(listed.entries.map((n) => [n.id, n.name])).toEqual([[made.id, 'root']]);
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  // redocly-cafe's OrderList: `object: const list` and a `page` object are required beside the items.
  it('answers the fields the list answer requires beside its items', async () => {
    const list = { type: 'object', required: ['object', 'page', 'items'], properties: { object: { type: 'string', const: 'list' }, page: { type: 'object', properties: { endCursor: { type: ['string', 'null'] } } }, items: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } };
    const spec = structuredClone(SPEC) as Omit<typeof SPEC, 'components'> & { components: { schemas: Record<string, unknown> } };
    spec.components.schemas.Nodes = list;
    const generated = await generateFor(writeSpec(spec));
    const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
    try {
      const res = await sandbox.fetch(new Request(`http://sandbox.test${generated.tables.basePath}/trees/t1/nodes`, { headers: { authorization: sandbox.apiKey } }));
      expect(await res.json()).toEqual({ object: 'list', page: expect.any(Object), items: [] });
    } finally {
      await sandbox.close();
    }
    expect(failures(await conformanceOf(generated))).toEqual([]);
  }, 120_000);
});
