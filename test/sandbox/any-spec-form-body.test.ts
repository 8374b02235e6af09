// Form-encoded request bodies (issue 27; twilio declares `application/x-www-form-urlencoded` on every write, which
// the generated client sends): the inferred sandbox reads a form as the object its schema describes, each field
// typed like a query parameter, and the conformance suite sends forms where the spec says so. Before, every such
// request was 400 "request body is not valid JSON".
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';

const APPLICATION = {
  type: 'object',
  properties: {
    sid: { type: 'string', readOnly: true },
    friendly_name: { type: 'string' },
    voice_timeout: { type: 'integer', minimum: 1 },
    sms_enabled: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    settings: { type: 'object', properties: { region: { type: 'string' } } },
  },
};

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Forms', version: '1' },
  security: [{ Key: [] }],
  paths: {
    '/applications': {
      post: {
        operationId: 'createApplication',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', required: ['friendly_name'], properties: { friendly_name: { type: 'string' }, voice_timeout: { type: 'integer', minimum: 1 }, sms_enabled: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } }, settings: { type: 'object', properties: { region: { type: 'string' } } } } },
            },
          },
        },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Application' } } } } },
      },
    },
    '/applications/{sid}': {
      parameters: [{ name: 'sid', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getApplication', responses: { '200': { description: 'one', content: { 'application/json': { schema: { $ref: '#/components/schemas/Application' } } } }, '404': { description: 'none' } } },
    },
  },
  components: { schemas: { Application: APPLICATION }, securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
};

describe('a form-encoded body', () => {
  it('is read as the object its schema describes, typed field by field, and refused by that schema', async () => {
    const generated = await generateFor(writeSpec(SPEC));
    const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
    try {
      const post = async (body: string, type = 'application/x-www-form-urlencoded') => {
        const res = await sandbox.fetch(new Request(`http://sandbox.test${generated.tables.basePath}/applications`, { method: 'POST', headers: { authorization: sandbox.apiKey, 'content-type': type }, body }));
        return { status: res.status, body: (await res.json()) as Record<string, unknown> & { error?: { details?: { field: string }[] } } };
      };
      const made = await post('friendly_name=Front+desk&voice_timeout=30&sms_enabled=true&tags=a%2Cb&tags=c&settings=%7B%22region%22%3A%22eu%22%7D');
      expect(made.status).toBe(201);
      // Numbers and booleans typed, a list from repeated names (a comma stays inside its item), an object from its JSON.
      expect(made.body).toMatchObject({ friendly_name: 'Front desk', voice_timeout: 30, sms_enabled: true, tags: ['a,b', 'c'], settings: { region: 'eu' } });

      const wrong = await post('friendly_name=x&voice_timeout=soon');
      expect(wrong.status).toBe(400);
      expect(wrong.body.error?.details?.map((d) => d.field)).toContain('voice_timeout');

      const missing = await post('voice_timeout=3');
      expect(missing.status).toBe(400);
      expect(missing.body.error?.details?.map((d) => d.field)).toContain('friendly_name');

      // Another media type is named on Content-Type; JSON is still taken.
      const text = await post('friendly_name=x', 'text/plain');
      expect(text.status).toBe(400);
      expect(text.body.error?.details?.map((d) => d.field)).toEqual(['Content-Type']);
      expect((await post('{"friendly_name":"as JSON","voice_timeout":5}', 'application/json')).body).toMatchObject({ friendly_name: 'as JSON', voice_timeout: 5 });
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it("is what the conformance suite sends where the spec declares a form, and the spec's own suite passes", async () => {
    const results = await conformanceOf(await generateFor(writeSpec(SPEC)));
    expect(failures(results)).toEqual([]);
    expect(results.filter((r) => r.operation === 'createApplication' && r.outcome === 'pass').length).toBeGreaterThan(3);
  }, 180_000);
});
