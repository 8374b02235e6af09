// Inferred sandboxes of specs shaped like discord's (issue 27): a resource named by its plural collection is the
// parent its `<singular>_id` parameter names (`/guilds/{guild_id}/roles`), a parent no resource can be made for
// (`/channels/{channel_id}/messages`, no `/channels` collection) still scopes the records made under it, an answer
// schema's required fields the create request does not carry are filled from the schema (`const` and single-value
// `enum` ones as the schema fixes them), and ids of a decimal-only pattern (snowflakes) match it. The conformance
// suite passes against the sandbox.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';

const json = (ref: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });
const list = (ref: string) => ({ content: { 'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${ref}` } } } } });
const snowflake = { type: 'string', pattern: '^(0|[1-9][0-9]*)$' };
const param = (name: string) => ({ name, in: 'path', required: true, schema: snowflake });
const notFound = { '404': { description: 'none' } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Chat', version: '1' },
  security: [{ Bot: [] }],
  paths: {
    '/guilds': { post: { operationId: 'createGuild', requestBody: json('GuildCreate'), responses: { '201': { description: 'ok', ...json('Guild') } } } },
    '/guilds/{guild_id}': { parameters: [param('guild_id')], get: { operationId: 'getGuild', responses: { '200': { description: 'ok', ...json('Guild') }, ...notFound } } },
    '/guilds/{guild_id}/roles': {
      parameters: [param('guild_id')],
      get: { operationId: 'listRoles', responses: { '200': { description: 'ok', ...list('Role') }, ...notFound } },
      post: { operationId: 'createRole', requestBody: json('RoleCreate'), responses: { '201': { description: 'ok', ...json('Role') }, ...notFound } },
    },
    '/guilds/{guild_id}/roles/{role_id}': {
      parameters: [param('guild_id'), param('role_id')],
      get: { operationId: 'getRole', responses: { '200': { description: 'ok', ...json('Role') }, ...notFound } },
      delete: { operationId: 'deleteRole', responses: { '204': { description: 'gone' }, ...notFound } },
    },
    '/channels/{channel_id}/messages': {
      parameters: [param('channel_id')],
      get: { operationId: 'listMessages', responses: { '200': { description: 'ok', ...list('Message') } } },
      post: { operationId: 'createMessage', requestBody: json('MessageCreate'), responses: { '200': { description: 'ok', ...json('Message') } } },
    },
    '/channels/{channel_id}/messages/{message_id}': {
      parameters: [param('channel_id'), param('message_id')],
      get: { operationId: 'getMessage', responses: { '200': { description: 'ok', ...json('Message') }, ...notFound } },
    },
  },
  components: {
    securitySchemes: { Bot: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    schemas: {
      GuildCreate: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 2, maxLength: 100 } } },
      Guild: { type: 'object', required: ['id', 'name'], properties: { id: snowflake, name: { type: 'string' } } },
      RoleCreate: { type: 'object', properties: { name: { type: 'string', maxLength: 100 } } },
      Role: {
        type: 'object',
        required: ['id', 'name', 'position', 'kind'],
        properties: { id: snowflake, name: { type: 'string' }, position: { type: 'integer', minimum: 0 }, kind: { type: 'string', enum: ['role'] }, object: { const: 'guild.role' } },
      },
      MessageCreate: { type: 'object', properties: { content: { type: 'string', maxLength: 2000 } } },
      Message: { type: 'object', required: ['id', 'content', 'mentions'], properties: { id: snowflake, content: { type: 'string' }, mentions: { type: 'array', items: { type: 'string' } } } },
    },
  },
};

describe('inferred sandbox: plural resources, parents without a resource, server fields from the schema', () => {
  it('answers what the response schemas require and scopes records by their parents; the suite passes', async () => {
    const generated = await generateFor(writeSpec(SPEC));
    const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await sandbox.fetch(new Request(`http://sandbox.test${generated.tables.basePath}${path}`, { method, headers: { authorization: sandbox.apiKey, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
        const text = await res.text();
        return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
      };
      const guild = await call('POST', '/guilds', { name: 'Club' });
      expect(guild.status).toBe(201);
      // A decimal-only id pattern: the id is a decimal string it accepts.
      const guildId = (guild.body as { id: string }).id;
      expect(guildId).toMatch(/^[1-9][0-9]*$/);
      const other = ((await call('POST', '/guilds', { name: 'Other' })).body as { id: string }).id;

      const role = await call('POST', `/guilds/${guildId}/roles`, { name: 'mods' });
      expect(role.status).toBe(201);
      // What was sent wins; the required fields it lacks are filled (a valid position), and the fixed ones
      // (single-value enum, const: optional, still filled) hold the schema's value.
      expect(role.body).toEqual({ id: expect.stringMatching(/^[1-9][0-9]*$/), name: 'mods', position: expect.any(Number), kind: 'role', object: 'guild.role' });
      expect(Number.isInteger((role.body as { position: number }).position)).toBe(true);
      const roleId = (role.body as { id: string }).id;
      // `{guild_id}` names the resource `guilds`: an unknown guild is 404 on the parameter, and the roles are its own.
      const ghost = await call('POST', '/guilds/123456789/roles', { name: 'x' });
      expect(ghost.status).toBe(404);
      expect(ghost.body).toMatchObject({ error: { code: 'NOT_FOUND', details: [{ field: 'guild_id' }] } });
      expect((await call('GET', `/guilds/${guildId}/roles`)).body).toEqual([role.body]);
      expect((await call('GET', `/guilds/${other}/roles`)).body).toEqual([]);
      expect((await call('GET', `/guilds/${other}/roles/${roleId}`)).status).toBe(404);

      // No `/channels` collection: any channel id is taken, and it scopes the messages made under it.
      const message = await call('POST', '/channels/42/messages', {});
      expect(message.status).toBe(200);
      expect(message.body).toEqual({ id: expect.stringMatching(/^[1-9][0-9]*$/), content: expect.any(String), mentions: expect.any(Array) });
      const messageId = (message.body as { id: string }).id;
      expect((await call('GET', `/channels/42/messages/${messageId}`)).status).toBe(200);
      expect((await call('GET', `/channels/43/messages/${messageId}`)).status).toBe(404);
      expect((await call('GET', '/channels/43/messages')).body).toEqual([]);
    } finally {
      await sandbox.close();
    }
    const results = await conformanceOf(generated);
    expect(failures(results)).toEqual([]);
    const passed = new Set(results.filter((r) => r.outcome === 'pass').map((r) => `${r.operation} ${r.check.split(':')[0]}`));
    for (const expected of ['createRole happy path', 'getRole not found', 'getRole isolation', 'createMessage happy path', 'getMessage happy path', 'listRoles lists']) expect(passed).toContain(expected);
  }, 300_000);
});
