// Rule 36 (docs/x-vocabulary.md): operations sharing one path, selected by a header (AWS's JSON protocols,
// `/#X-Amz-Target=Svc.Op`) or by fixed query values (its query protocols, `/?Action=X&Version=Y`). The generated
// client sends the real path with the selecting values, the sandbox dispatches on them (400 on the header for an
// unknown or missing target, never a 500), and the spec's own conformance suite runs its checks on them.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { renderSpec } from '../../src/pipeline.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { writeSpec } from '../support/any-spec.js';

const KEY = { components: { securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'x-api-key' } } }, security: [{ Key: [] }] };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const target = (value: string) => ({ name: 'X-Amz-Target', in: 'header', required: true, schema: { type: 'string', enum: [value] } });
const fixedQuery = (name: string, value: string) => ({ name, in: 'query', required: true, schema: { type: 'string', enum: [value] } });

// As AWS's JSON specs are written: every operation is POST /, its X-Amz-Target declared as a one-value header.
const TUNNELS = {
  openapi: '3.0.0',
  info: { title: 'Tunnels', version: '1' },
  ...KEY,
  paths: {
    '/#X-Amz-Target=Tunnels.OpenTunnel': {
      post: {
        operationId: 'OpenTunnel',
        parameters: [target('Tunnels.OpenTunnel')],
        requestBody: { required: true, ...json({ type: 'object', required: ['description'], properties: { description: { type: 'string', maxLength: 20 } } }) },
        responses: { '200': { description: 'opened', ...json({ type: 'object', required: ['tunnelId'], properties: { tunnelId: { type: 'string' } } }) } },
      },
    },
    '/#X-Amz-Target=Tunnels.CloseTunnel': {
      post: {
        operationId: 'CloseTunnel',
        parameters: [target('Tunnels.CloseTunnel')],
        requestBody: { required: true, ...json({ type: 'object', required: ['tunnelId'], properties: { tunnelId: { type: 'string' } } }) },
        responses: { '200': { description: 'closed', ...json({ type: 'object', properties: { closed: { type: 'boolean' } } }) } },
      },
    },
  },
};

// A query protocol as written with `?` (the header-less form); Action and Version are declared in the query.
const ROLES = {
  openapi: '3.0.0',
  info: { title: 'Roles', version: '1' },
  ...KEY,
  paths: {
    '/?Action=CreateRole&Version=2010-05-08': {
      get: {
        operationId: 'CreateRole',
        parameters: [fixedQuery('Action', 'CreateRole'), fixedQuery('Version', '2010-05-08'), { name: 'RoleName', in: 'query', required: true, schema: { type: 'string', minLength: 1 } }],
        responses: { '200': { description: 'made', ...json({ type: 'object', required: ['arn'], properties: { arn: { type: 'string' } } }) } },
      },
    },
    '/?Action=DeleteRole&Version=2010-05-08': {
      get: {
        operationId: 'DeleteRole',
        parameters: [fixedQuery('Action', 'DeleteRole'), fixedQuery('Version', '2010-05-08'), { name: 'RoleName', in: 'query', required: true, schema: { type: 'string', minLength: 1 } }],
        responses: { '200': { description: 'deleted', ...json({ type: 'object', properties: { ok: { type: 'boolean' } } }) } },
      },
    },
  },
};

async function sandboxOf(spec: unknown) {
  const generated = await generateFor(writeSpec(spec));
  const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
  const send = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await sandbox.fetch(
      new Request(`http://sandbox.test${generated.tables.basePath}${path}`, { method, headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
    );
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
  };
  return { generated, sandbox, send };
}

/** The generated client of `spec`, imported from a scratch folder, with a fetch that records each request. */
async function clientOf(spec: unknown) {
  const rendered = await renderSpec(writeSpec(spec));
  const dir = mkdtempSync(join(tmpdir(), 'amz-client-'));
  for (const [path, text] of rendered) {
    if (!path.startsWith('client/') || !path.endsWith('.js')) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  const client = await import(pathToFileURL(join(dir, 'client/index.js')).href);
  const sent: { method: string; url: string; headers: Headers }[] = [];
  const fetch = async (request: Request) => {
    sent.push({ method: request.method, url: request.url, headers: request.headers });
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { client: client.createClient({ baseUrl: 'https://api.test', apiKey: 'k', fetch }), sent };
}

describe('rule 36: operations selected by X-Amz-Target', () => {
  it('the model keeps the real path and the route table the header that selects each operation', async () => {
    const { generated } = await sandboxOf(TUNNELS);
    const rows = generated.tables.routes.map((r) => ({ id: r.id, path: r.path, select: r.select, headers: r.params.header.map((p) => p.name) }));
    expect(rows).toEqual([
      { id: 'OpenTunnel', path: '/', select: [{ in: 'header', name: 'X-Amz-Target', value: 'Tunnels.OpenTunnel' }], headers: [] },
      { id: 'CloseTunnel', path: '/', select: [{ in: 'header', name: 'X-Amz-Target', value: 'Tunnels.CloseTunnel' }], headers: [] },
    ]);
  });

  it('the sandbox dispatches POST / on the header; an unknown or missing target is 400 on it', async () => {
    const { send, sandbox } = await sandboxOf(TUNNELS);
    try {
      const opened = await send('POST', '/', { 'X-Amz-Target': 'Tunnels.OpenTunnel' }, { description: 'a' });
      expect(opened.status).toBe(200);
      expect(typeof opened.body?.tunnelId).toBe('string');
      // The operation's own body schema applies: CloseTunnel requires tunnelId.
      expect((await send('POST', '/', { 'x-amz-target': 'Tunnels.CloseTunnel' }, { description: 'a' })).status).toBe(400);
      const unknown = await send('POST', '/', { 'X-Amz-Target': 'Tunnels.Nope' }, {});
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ error: { code: 'INVALID_ARGUMENT', details: [{ field: 'X-Amz-Target', description: 'the header "Tunnels.Nope" selects no operation of POST /; it takes one of Tunnels.OpenTunnel, Tunnels.CloseTunnel' }] } });
      const missing = await send('POST', '/', {}, {});
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ error: { details: [{ field: 'X-Amz-Target' }] } });
    } finally {
      await sandbox.close();
    }
  });

  it('the client sends POST / with the header, never asking the caller for it', async () => {
    const { client, sent } = await clientOf(TUNNELS);
    const call = Object.values(client).flatMap((group) => Object.entries(group as object)).find(([name]) => /openTunnel/i.test(name))![1] as (body: unknown, options?: unknown) => Promise<unknown>;
    await call({ description: 'a' }, { extraHeaders: { 'X-Amz-Target': 'Tunnels.CloseTunnel' } });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe('POST');
    expect(sent[0]!.url).toBe('https://api.test/');
    // The selecting value wins over a caller's.
    expect(sent[0]!.headers.get('x-amz-target')).toBe('Tunnels.OpenTunnel');
  });

  it('its own conformance suite runs on every operation with no failure', async () => {
    const results = await conformanceOf(await generateFor(writeSpec(TUNNELS)));
    expect(failures(results)).toEqual([]);
    const passed = (id: string) => results.filter((r) => r.outcome === 'pass' && r.operation === id).length;
    expect(passed('OpenTunnel')).toBeGreaterThan(0);
    expect(passed('CloseTunnel')).toBeGreaterThan(0);
  });
});

describe('rule 36: operations selected by fixed query values (?Action=...&Version=...)', () => {
  it('the sandbox dispatches GET / on Action and Version', async () => {
    const { send, sandbox } = await sandboxOf(ROLES);
    try {
      expect((await send('GET', '/?Action=CreateRole&Version=2010-05-08&RoleName=r', {})).status).toBe(200);
      // The operation's own parameters are validated: RoleName is required.
      const noName = await send('GET', '/?Action=DeleteRole&Version=2010-05-08', {});
      expect(noName.status).toBe(400);
      expect(noName.body).toMatchObject({ error: { details: [{ field: 'RoleName' }] } });
      const unknown = await send('GET', '/?Action=Nope&Version=2010-05-08&RoleName=r', {});
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ error: { details: [{ field: 'Action' }] } });
    } finally {
      await sandbox.close();
    }
  });

  it('the client sends the fixed query values beside the caller\'s', async () => {
    const { client, sent } = await clientOf(ROLES);
    const call = Object.values(client).flatMap((group) => Object.entries(group as object)).find(([name]) => /deleteRole/i.test(name))![1] as (options?: unknown) => Promise<unknown>;
    await call({ query: { RoleName: 'r' } });
    const url = new URL(sent[0]!.url);
    expect(url.pathname).toBe('/');
    expect(Object.fromEntries(url.searchParams)).toEqual({ RoleName: 'r', Action: 'DeleteRole', Version: '2010-05-08' });
  });

  it('its own conformance suite runs on every operation with no failure', async () => {
    const results = await conformanceOf(await generateFor(writeSpec(ROLES)));
    expect(failures(results)).toEqual([]);
    expect(results.filter((r) => r.outcome === 'pass' && r.operation === 'CreateRole').length).toBeGreaterThan(0);
  });
});
