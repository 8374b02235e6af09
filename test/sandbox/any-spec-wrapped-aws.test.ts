// Two shapes of real specs the directory sample of seed 8 met for the first time (issue 27):
// - AWS answers a resource wrapped in one property whose schema is an `allOf` of the resource's `$ref` and a
//   description (`{ "studio": { "allOf": [ { "$ref": "#/.../Studio" }, { "description": "..." } ] } }`, nimble).
//   Rule 2b takes the wrapped schema as the resource's; before, the wrapper was taken for the resource and its
//   one property (`studio`, an object behind the `allOf`) for the id, so every create answered `{"studio":"<id>"}`
//   and 213 checks failed.
// - Two parameters in one path segment (`/records/{record_id}.{format}`, digitalnz): the router matched no request.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';

const annotated = (name: string, description: string) => ({ allOf: [{ $ref: `#/components/schemas/${name}` }, { description }] });
const json = (schema: unknown) => ({ 'application/json': { schema } });

const SPEC = {
  openapi: '3.0.0',
  info: { title: 'Studios', version: '2020-08-01' },
  security: [{ hmac: [] }],
  paths: {
    '/2020-08-01/studios': {
      post: {
        operationId: 'CreateStudio',
        requestBody: { required: true, content: json({ type: 'object', required: ['studioName'], properties: { studioName: annotated('StudioName', 'The name.'), displayName: annotated('String', 'A friendly name.') } }) },
        responses: { '200': { description: 'Success', content: json({ $ref: '#/components/schemas/CreateStudioResponse' }) } },
      },
      get: { operationId: 'ListStudios', responses: { '200': { description: 'Success', content: json({ $ref: '#/components/schemas/ListStudiosResponse' }) } } },
    },
    '/2020-08-01/studios/{studioId}': {
      parameters: [{ name: 'studioId', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'GetStudio', responses: { '200': { description: 'Success', content: json({ $ref: '#/components/schemas/GetStudioResponse' }) }, '404': { description: 'none' } } },
      delete: { operationId: 'DeleteStudio', responses: { '200': { description: 'Success', content: json({ $ref: '#/components/schemas/GetStudioResponse' }) }, '404': { description: 'none' } } },
    },
    '/records/{record_id}.{format}': {
      get: {
        operationId: 'getRecordFormat',
        parameters: [
          { name: 'record_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9]+$' } },
          { name: 'format', in: 'path', required: true, schema: { type: 'string', enum: ['json', 'xml'] } },
        ],
        responses: { '200': { description: 'a record', content: json({ type: 'object', required: ['title'], properties: { title: { type: 'string' } } }) } },
      },
    },
  },
  components: {
    securitySchemes: { hmac: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    schemas: {
      String: { type: 'string' },
      StudioName: { type: 'string', pattern: '^[a-z0-9]{3,20}$' },
      Studio: { type: 'object', properties: { studioId: annotated('String', 'The id.'), studioName: annotated('StudioName', 'The name.'), displayName: annotated('String', 'A friendly name.') } },
      CreateStudioResponse: { type: 'object', properties: { studio: annotated('Studio', 'Information about a studio.') } },
      GetStudioResponse: { type: 'object', properties: { studio: annotated('Studio', 'Information about a studio.') } },
      ListStudiosResponse: { type: 'object', properties: { studios: { type: 'array', items: { $ref: '#/components/schemas/Studio' } } } },
    },
  },
};

describe('AWS-style wrapped resources and two parameters in one segment', () => {
  it('answers the resource wrapped under its property, with its own id, and serves the two-parameter segment', async () => {
    const generated = await generateFor(writeSpec(SPEC));
    expect(generated.tables.resources.map((r: { name: string; id: string; schema: string }) => [r.name, r.id, r.schema])).toEqual([['studios', 'studioId', 'Studio']]);
    const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await sandbox.fetch(new Request(`http://sandbox.test${generated.tables.basePath}${path}`, { method, headers: { authorization: sandbox.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) }));
        return { status: res.status, body: (await res.json()) as Record<string, Record<string, unknown>> };
      };
      const made = await call('POST', '/2020-08-01/studios', { studioName: 'lab1', displayName: 'Lab' });
      expect(made.status).toBe(200);
      expect(made.body.studio).toMatchObject({ studioName: 'lab1', displayName: 'Lab', studioId: expect.any(String) });
      const id = String(made.body.studio!.studioId);
      expect((await call('GET', `/2020-08-01/studios/${id}`)).body).toEqual(made.body);
      expect((await call('GET', '/2020-08-01/studios/nothing-here')).status).toBe(404);

      const record = await call('GET', '/records/abc123.json');
      expect(record.status).toBe(200);
      expect(typeof record.body.title).toBe('string');
      // Each parameter is still validated: an unknown format is 400 on it.
      const wrong = await call('GET', '/records/abc123.pdf');
      expect(wrong.status).toBe(400);
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it("passes the spec's own conformance suite", async () => {
    const results = await conformanceOf(await generateFor(writeSpec(SPEC)));
    expect(failures(results)).toEqual([]);
    expect(results.filter((r) => r.operation === 'CreateStudio' && r.outcome === 'pass').length).toBeGreaterThan(3);
    expect(results.filter((r) => r.operation === 'getRecordFormat' && r.outcome === 'pass').length).toBeGreaterThan(0);
  }, 180_000);
});
