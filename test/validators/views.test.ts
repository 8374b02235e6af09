// Request and response views: a readOnly property is not required in a request body, a writeOnly one is not
// required in a response, wherever they sit (through refs, allOf, oneOf); elsewhere the schema is as written.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../src/pipeline.js';

const dir = mkdtempSync(join(tmpdir(), 'views-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Views', version: '1' },
  paths: {
    '/items': {
      post: {
        operationId: 'createItem',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Base: { type: 'object', required: ['id', 'secret', 'name'], properties: { id: { type: 'string', readOnly: true }, secret: { type: 'string', writeOnly: true }, name: { type: 'string' } } },
      Item: { oneOf: [{ allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }] }] },
    },
  },
};

describe('validator views', () => {
  it('does not require readOnly properties in requests nor writeOnly ones in responses', async () => {
    writeFileSync(join(dir, 'views.json'), JSON.stringify(SPEC));
    await generate({ spec: join(dir, 'views.json'), out: join(dir, 'out') });
    const v = (await import(join(dir, 'out', 'client', 'validators.js'))) as Record<string, { validate(x: unknown): { ok: boolean; errors?: { field: string | null }[] } }>;
    expect(v.createItemBodyValidator!.validate({ kind: 'a', name: 'n', secret: 's' }).ok).toBe(true);
    expect(v.createItemBodyValidator!.validate({ kind: 'a', secret: 's' }).ok).toBe(false);
    expect(v.createItemResponse200Validator!.validate({ kind: 'a', name: 'n', id: 'i' }).ok).toBe(true);
    expect(v.createItemResponse200Validator!.validate({ kind: 'a', name: 'n' }).ok).toBe(false);
    // The named schema itself is validated as written.
    expect(v.baseValidator!.validate({ name: 'n' }).ok).toBe(false);
  });
});
