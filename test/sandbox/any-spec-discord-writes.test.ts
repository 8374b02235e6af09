// discord-shaped writes (issue 27): a create takes `permissions` as an integer or a string and the answer holds a
// string, and an update sends `attachments[]` items with fewer fields than the answer's items require. The
// inferred sandbox stores such a number as its text and completes each item an update (not only a create) sends.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';

const ATTACHMENT = { type: 'object', required: ['id', 'filename', 'size'], properties: { id: { type: 'string' }, filename: { type: 'string' }, size: { type: 'integer' } } };
const ROLE = { type: 'object', required: ['id', 'permissions'], properties: { id: { type: 'string' }, name: { type: 'string' }, permissions: { type: 'string' }, attachments: { type: 'array', items: { $ref: '#/components/schemas/Attachment' } } } };
const WRITE = { type: 'object', properties: { name: { type: 'string' }, permissions: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, attachments: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } } } };
const json = (schema: unknown) => ({ 'application/json': { schema } });

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Roles', version: '1' },
  security: [{ Key: [] }],
  paths: {
    '/roles': {
      get: { operationId: 'listRoles', responses: { '200': { description: 'all', content: json({ type: 'array', items: { $ref: '#/components/schemas/Role' } }) } } },
      post: { operationId: 'createRole', requestBody: { required: true, content: json({ $ref: '#/components/schemas/RoleWrite' }) }, responses: { '200': { description: 'made', content: json({ $ref: '#/components/schemas/Role' }) } } },
    },
    '/roles/{role_id}': {
      parameters: [{ name: 'role_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getRole', responses: { '200': { description: 'one', content: json({ $ref: '#/components/schemas/Role' }) }, '404': { description: 'none' } } },
      patch: { operationId: 'updateRole', requestBody: { required: true, content: json({ $ref: '#/components/schemas/RoleWrite' }) }, responses: { '200': { description: 'changed', content: json({ $ref: '#/components/schemas/Role' }) }, '404': { description: 'none' } } },
    },
  },
  components: { schemas: { Attachment: ATTACHMENT, Role: ROLE, RoleWrite: WRITE }, securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
};

describe('writes whose answer types what they send otherwise', () => {
  it('stores a number sent for a text field as its text, and completes the items an update sends', async () => {
    const generated = await generateFor(writeSpec(SPEC));
    const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
    try {
      const call = async (method: string, path: string, body: unknown) => {
        const res = await sandbox.fetch(new Request(`http://sandbox.test${generated.tables.basePath}${path}`, { method, headers: { authorization: sandbox.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) }));
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const made = await call('POST', '/roles', { name: 'mods', permissions: 8 });
      expect(made.status).toBe(200);
      expect(made.body.permissions).toBe('8');
      const changed = await call('PATCH', `/roles/${made.body.id as string}`, { attachments: [{ id: 'a1' }] });
      expect(changed.status).toBe(200);
      const [item] = changed.body.attachments as Record<string, unknown>[];
      expect(item).toMatchObject({ id: 'a1', filename: expect.any(String), size: expect.any(Number) });
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it("passes the spec's own suite, whose echo check expects the number's text back", async () => {
    expect(failures(await conformanceOf(await generateFor(writeSpec(SPEC))))).toEqual([]);
  }, 180_000);
});
