// An inferred operation with nothing stored behind it and no content in its answer (issue 27; discord's
// `PATCH /guilds/{guild_id}/channels`, a JSON array body answered 204) answers 204 with no body for any valid body,
// and 400 for an invalid one: it was a 500, because the answer's shaping looked up a resource the operation does
// not have.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Positions', version: '1' },
  security: [{ Key: [] }],
  paths: {
    '/guilds/{guild_id}/channels': {
      parameters: [{ name: 'guild_id', in: 'path', required: true, schema: { type: 'string' } }],
      patch: {
        operationId: 'moveChannels',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, position: { type: 'integer' } } } } } },
        },
        responses: { '204': { description: 'moved' } },
      },
    },
  },
  components: { securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
};

describe('an inferred operation answered with no content', () => {
  it('is 204 without a body for a valid body (an empty array too) and 400 for an invalid one, never a 500', async () => {
    const generated = await generateFor(writeSpec(SPEC));
    const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
    try {
      const patch = async (body: string) => {
        const res = await sandbox.fetch(
          new Request(`http://sandbox.test${generated.tables.basePath}/guilds/7/channels`, { method: 'PATCH', headers: { authorization: sandbox.apiKey, 'content-type': 'application/json' }, body }),
        );
        return { status: res.status, text: await res.text() };
      };
      expect(await patch('[]')).toEqual({ status: 204, text: '' });
      expect(await patch('[{"id":"1","position":2}]')).toEqual({ status: 204, text: '' });
      const invalid = await patch('[{"position":2}]');
      expect(invalid.status).toBe(400);
      expect(JSON.parse(invalid.text)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    } finally {
      await sandbox.close();
    }
  }, 120_000);
});
