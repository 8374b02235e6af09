// twilio-shaped specs (issue 27): every item path ends with `{Sid}`, ids are `^AD[0-9a-fA-F]{32}$` or
// `^(SM|MM)[0-9a-fA-F]{32}$`, the id property is `sid`, an item is updated by POST, and some collections have no
// create (the service makes their records). The inference names each resource from its own pair, the sandbox mints
// ids its patterns accept, and the suite addresses each record and its parents by their place in the path, not by
// a shared parameter name. Before: no resource was inferred at all (`{Sid}` against `sid`), and with that fixed,
// 311 of twilio's checks failed on ids of the wrong resource.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';

const sid = (prefix: string) => ({ type: 'string', minLength: 34, maxLength: 34, pattern: `^${prefix}[0-9a-fA-F]{32}$` });
const param = (name: string, prefix: string) => ({ name, in: 'path', required: true, schema: sid(prefix) });
const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
const form = (props: Record<string, unknown>) => ({ content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: props } } } });

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Sids', version: '1' },
  security: [{ Key: [] }],
  paths: {
    '/Accounts.json': {
      post: { operationId: 'CreateAccount', requestBody: form({ FriendlyName: { type: 'string' } }), responses: { '201': { description: 'made', content: json('Account') } } },
    },
    '/Accounts/{Sid}.json': {
      parameters: [param('Sid', 'AC')],
      get: { operationId: 'FetchAccount', responses: { '200': { description: 'one', content: json('Account') }, '404': { description: 'none' } } },
      post: { operationId: 'UpdateAccount', requestBody: form({ FriendlyName: { type: 'string' } }), responses: { '200': { description: 'changed', content: json('Account') }, '404': { description: 'none' } } },
    },
    '/Accounts/{AccountSid}/Messages.json': {
      parameters: [param('AccountSid', 'AC')],
      post: { operationId: 'CreateMessage', requestBody: form({ Body: { type: 'string' } }), responses: { '201': { description: 'sent', content: json('Message') } } },
    },
    '/Accounts/{AccountSid}/Messages/{Sid}.json': {
      parameters: [param('AccountSid', 'AC'), { name: 'Sid', in: 'path', required: true, schema: { type: 'string', pattern: '^(SM|MM)[0-9a-fA-F]{32}$' } }],
      get: { operationId: 'FetchMessage', responses: { '200': { description: 'one', content: json('Message') }, '404': { description: 'none' } } },
      delete: { operationId: 'DeleteMessage', responses: { '204': { description: 'gone' }, '404': { description: 'none' } } },
    },
    '/Accounts/{AccountSid}/Recordings.json': {
      parameters: [param('AccountSid', 'AC')],
      get: { operationId: 'ListRecording', responses: { '200': { description: 'all', content: { 'application/json': { schema: { type: 'object', properties: { recordings: { type: 'array', items: { $ref: '#/components/schemas/Recording' } } } } } } } } },
    },
    '/Accounts/{AccountSid}/Recordings/{Sid}.json': {
      parameters: [param('AccountSid', 'AC'), param('Sid', 'RE')],
      get: { operationId: 'FetchRecording', responses: { '200': { description: 'one', content: json('Recording') }, '404': { description: 'none' } } },
    },
  },
  components: {
    schemas: {
      Account: { type: 'object', properties: { sid: sid('AC'), friendly_name: { type: 'string' } } },
      Message: { type: 'object', properties: { sid: { type: 'string', pattern: '^(SM|MM)[0-9a-fA-F]{32}$' }, account_sid: sid('AC'), body: { type: 'string' } } },
      Recording: { type: 'object', properties: { sid: sid('RE'), account_sid: sid('AC') } },
    },
    securitySchemes: { Key: { type: 'http', scheme: 'basic' } },
  },
};

describe('a spec whose every item parameter is {Sid}', () => {
  it('infers a resource per collection that makes records, each minting ids of its own pattern; one the service makes answers its example', async () => {
    const generated = await generateFor(writeSpec(SPEC));
    const byName = Object.fromEntries(generated.tables.resources.map((r) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual(['Accounts', 'Messages']);
    expect(byName.Accounts!.id).toBe('sid');
    expect(byName.Messages!.idFormat).toEqual({ kind: 'prefixed', prefix: 'SM', alphabet: expect.any(String), length: 32 });
    const ops = Object.fromEntries(generated.tables.routes.map((r) => [r.id, `${r.resource}/${r.action}`]));
    expect(ops).toMatchObject({ CreateAccount: 'Accounts/create', UpdateAccount: 'Accounts/update', FetchMessage: 'Messages/get', FetchRecording: 'null/null' });

    const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
    try {
      const auth = `Basic ${Buffer.from(`me:${sandbox.apiKey}`).toString('base64')}`;
      const res = await sandbox.fetch(new Request(`http://sandbox.test${generated.tables.basePath}/Accounts.json`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' }, body: 'FriendlyName=a' }));
      expect(res.status).toBe(201);
      const made = (await res.json()) as { sid: string; friendly_name: string };
      expect(made.sid).toMatch(/^AC[0-9a-fA-F]{32}$/);
      // The form's `FriendlyName` is the record's `friendly_name` (one spelling, another case).
      expect(made.friendly_name).toBe('a');
      const update = await sandbox.fetch(new Request(`http://sandbox.test${generated.tables.basePath}/Accounts/${made.sid}.json`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' }, body: 'FriendlyName=b' }));
      expect(await update.json()).toEqual({ sid: made.sid, friendly_name: 'b' });
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it("passes the spec's own suite: each record and its parent addressed by their places in the path", async () => {
    const results = await conformanceOf(await generateFor(writeSpec(SPEC)));
    expect(failures(results)).toEqual([]);
    const passed = (op: string) => results.filter((r) => r.operation === op && r.outcome === 'pass').length;
    expect(passed('FetchMessage')).toBeGreaterThan(2);
    expect(passed('DeleteMessage')).toBeGreaterThan(2);
  }, 180_000);
});
