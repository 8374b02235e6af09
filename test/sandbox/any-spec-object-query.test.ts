// Object-valued query parameters (issue 27): a filter sent as `deepObject` (`filter[status]=open`, Stripe's way),
// or as a `form` object, exploded (`size=10&number=2`) or not (`sort=field,name,desc,true`). The generated client
// writes each of the three; the sandbox reads each back into the object its schema describes, top-level
// properties typed, so the spec's own validators judge it: a valid filter answers, a missing required one or a
// mistyped property is 400 naming the parameter. Before, such a parameter never arrived: a required one was refused
// on every call, whatever was sent.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Object query', version: '1' },
  security: [{ Key: [] }],
  paths: {
    '/orders': {
      get: {
        operationId: 'searchOrders',
        parameters: [
          {
            name: 'filter',
            in: 'query',
            required: true,
            style: 'deepObject',
            explode: true,
            schema: {
              type: 'object',
              required: ['status'],
              properties: {
                status: { type: 'string', enum: ['open', 'closed'] },
                min_total: { type: 'integer', minimum: 0 },
                paid: { type: 'boolean' },
                tags: { type: 'array', items: { type: 'string' } },
                created: { type: 'object', properties: { gte: { type: 'string' } } },
              },
            },
          },
          { name: 'page', in: 'query', style: 'form', explode: true, schema: { type: 'object', properties: { size: { type: 'integer', maximum: 50 }, number: { type: 'integer' } } } },
          { name: 'sort', in: 'query', style: 'form', explode: false, schema: { type: 'object', properties: { field: { type: 'string' }, desc: { type: 'boolean' } } } },
        ],
        responses: { '200': { description: 'found', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Order' } } } } } },
      },
      post: {
        operationId: 'createOrder',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['open', 'closed'] }, total: { type: 'integer' } } } } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } } },
      },
    },
    '/orders/{order_id}': {
      parameters: [{ name: 'order_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getOrder', responses: { '200': { description: 'one', content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } }, '404': { description: 'none' } } },
    },
  },
  components: {
    schemas: { Order: { type: 'object', properties: { id: { type: 'string', readOnly: true }, status: { type: 'string', enum: ['open', 'closed'] }, total: { type: 'integer' } } } },
    securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'Authorization' } },
  },
};

describe('an object-valued query parameter', () => {
  it('is read back as the object the client sent, in each style, and judged by its schema', async () => {
    const generated = await generateFor(writeSpec(SPEC));
    const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
    try {
      const get = async (query: string) => {
        const res = await sandbox.fetch(new Request(`http://sandbox.test${generated.tables.basePath}/orders?${query}`, { headers: { authorization: sandbox.apiKey } }));
        return { status: res.status, body: (await res.json()) as { error?: { details?: { field: string; description?: string }[] } } };
      };
      // Every style at once, as the generated client writes them.
      expect((await get('filter[status]=open&filter[min_total]=10&filter[paid]=true&filter[tags]=a&filter[tags]=b&filter[created][gte]=2026-01-01&size=10&number=2&sort=field,total,desc,true')).status).toBe(200);
      expect((await get('filter[status]=closed')).status).toBe(200);

      // The filter's properties are typed and checked: a mistyped or out-of-range one is refused by the parameter's name.
      for (const query of ['filter[status]=open&filter[min_total]=ten', 'filter[status]=open&filter[min_total]=-1', 'filter[status]=pending', 'filter[min_total]=3', 'filter[status]=open&filter[paid]=maybe']) {
        const res = await get(query);
        expect(res.status, query).toBe(400);
        expect(res.body.error?.details?.map((d) => d.field.split(/[.[]/)[0]), query).toContain('filter');
      }
      // Missing altogether: refused as a missing required parameter.
      const missing = await get('status=open');
      expect(missing.status).toBe(400);
      expect(missing.body.error?.details?.map((d) => d.field)).toContain('filter');
      // The exploded form object and the unexploded one are judged too.
      expect((await get('filter[status]=open&size=500')).status).toBe(400);
      expect((await get('filter[status]=open&sort=field,total,desc,sometimes')).status).toBe(400);
      // Malformed shapes are a 400 on the parameter, never a 500.
      for (const query of ['filter[status]=open&sort=field', 'filter[status]=open&filter[created]=x&filter[created][gte]=y', `filter${'[a]'.repeat(200)}=1&filter[status]=open`]) {
        const res = await get(query);
        expect(res.status, query).toBe(400);
        expect(res.body.error?.details?.map((d) => d.field), query).toEqual(expect.arrayContaining([expect.stringMatching(/^(filter|sort)/)]));
      }
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it("is what the conformance suite sends, and the spec's own suite passes", async () => {
    const results = await conformanceOf(await generateFor(writeSpec(SPEC)));
    expect(failures(results)).toEqual([]);
    // The list with its required filter, built from the parameter's schema and sent as a deepObject, answers.
    expect(results.filter((r) => r.operation === 'searchOrders' && r.check.startsWith('happy path') && r.outcome === 'pass')).toHaveLength(1);
  }, 180_000);
});
