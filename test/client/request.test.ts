// What goes over the wire: URL, path and query encoding, headers (key, workspace), bodies; and how answers are decoded.
import { beforeAll, describe, expect, test } from 'vitest';
import { model, op, tagsModel } from './fixtures.js';
import { buildClient, fakeFetch, jsonResponse, type Built } from './harness.js';

let built: Built;
beforeAll(async () => {
  built = await buildClient(tagsModel());
});

const KEY = 'sk_live_secret';
const client = (fetch: (r: Request) => Promise<Response>, extra: Record<string, unknown> = {}) =>
  built.mod.createClient({ baseUrl: 'https://api.example.com/v1/', apiKey: KEY, fetch, ...extra });

describe('URL', () => {
  test('path parameters are percent-encoded (slash, space, unicode) and joined to the base URL', async () => {
    const f = fakeFetch(jsonResponse(200, { tags: [] }));
    await client(f.fetch).tags.listFolderTags('a/b c?d#é');
    expect(f.calls[0]!.url).toBe('https://api.example.com/v1/folders/a%2Fb%20c%3Fd%23%C3%A9/tags');
  });

  test('a path parameter of "." or ".." is refused (URL parsers would resolve it)', async () => {
    const f = fakeFetch(jsonResponse(200, {}));
    await expect(client(f.fetch).tags.deleteTag('..')).rejects.toThrow(/must not be/);
    await expect(client(f.fetch).tags.deleteTag('.')).rejects.toThrow(/must not be/);
    expect(f.calls).toHaveLength(0);
  });

  test('query styles: form explode repeats, form non-explode comma-joins, pipeDelimited, deepObject; unset omitted', async () => {
    const f = fakeFetch(jsonResponse(200, { tags: [] }));
    await client(f.fetch).tags.listFolderTags('f', {
      query: { page_size: 10, page_token: undefined, ids: ['a', 'b,c'], colors: ['red', 'blue green'], piped: ['x', 'y'], filter: { name: 'n&m', skip: undefined } },
    });
    const url = new URL(f.calls[0]!.url);
    expect(url.search).toBe('?page_size=10&ids=a&ids=b%2Cc&colors=red,blue%20green&piped=x|y&filter[name]=n%26m');
    expect(url.searchParams.getAll('ids')).toEqual(['a', 'b,c']);
    expect(url.searchParams.get('colors')).toBe('red,blue green');
    expect(url.searchParams.get('filter[name]')).toBe('n&m');
  });

  test('no query string when nothing is set', async () => {
    const f = fakeFetch(jsonResponse(200, { tags: [] }));
    await client(f.fetch).tags.listFolderTags('f', { query: {} });
    expect(f.calls[0]!.url).toBe('https://api.example.com/v1/folders/f/tags');
  });

  test('an unusable base URL is a usage error, not a network error to retry', async () => {
    const f = fakeFetch(jsonResponse(200, {}));
    const c = built.mod.createClient({ baseUrl: 'not a url', apiKey: KEY, fetch: f.fetch });
    await expect(c.tags.deleteTag('x')).rejects.toBeInstanceOf(TypeError);
    expect(f.calls).toHaveLength(0);
  });
});

describe('headers', () => {
  test('X-API-Key on authenticated operations, none on security: []', async () => {
    const f = fakeFetch(jsonResponse(200, { specs: [] }));
    const c = client(f.fetch);
    await c.tags.listFolderTags('f');
    await c.catalog.listSpecs();
    expect(f.calls[0]!.headers['x-api-key']).toBe(KEY);
    expect(f.calls[1]!.headers['x-api-key']).toBeUndefined();
  });

  test('the key header name comes from the security scheme, and query/cookie placements work', async () => {
    const m = model([op('getThing', 'get', '/thing'), op('getOther', 'get', '/other', { security: [['QueryKey'], ['ApiKeyAuth']] })], {
      securitySchemes: { ApiKeyAuth: { type: 'apiKey', name: 'X-Custom-Key', in: 'header' }, QueryKey: { type: 'apiKey', name: 'key', in: 'query' } },
    });
    const b = await buildClient(m);
    const f = fakeFetch(jsonResponse(200, {}));
    const c = b.mod.createClient({ baseUrl: 'https://h', apiKey: 'k y', fetch: f.fetch });
    await c.tags.getThing();
    await c.tags.getOther();
    expect(f.calls[0]!.headers['x-custom-key']).toBe('k y');
    expect(f.calls[0]!.headers['x-api-key']).toBeUndefined();
    expect(f.calls[1]!.url).toBe('https://h/other?key=k%20y');
    expect(f.calls[1]!.headers['x-custom-key']).toBeUndefined();
  });

  test('workspace header from the client, overridden per call; not sent on public operations', async () => {
    const f = fakeFetch(jsonResponse(200, {}));
    const c = client(f.fetch, { workspaceId: 'ws_client' });
    await c.tags.updateTag('t1', { name: 'x' });
    await c.tags.updateTag('t1', { name: 'x' }, { workspaceId: 'ws_call' });
    await c.tags.deleteTag('t1');
    await c.catalog.listSpecs();
    await c.catalog.listSpecs({ workspaceId: 'ws_explicit' });
    const ws = f.calls.map((r) => r.headers['x-service-workspace-id']);
    expect(ws).toEqual(['ws_client', 'ws_call', 'ws_client', undefined, 'ws_explicit']);
  });

  test('workspace header given as a declared header parameter; per-call workspaceId wins over it', async () => {
    const f = fakeFetch(jsonResponse(200, {}));
    const c = client(f.fetch, { workspaceId: 'ws_client' });
    await c.tags.updateTag('t1', {}, { headers: { 'X-Service-Workspace-Id': 'ws_param' } });
    await c.tags.updateTag('t1', {}, { headers: { 'X-Service-Workspace-Id': 'ws_param' }, workspaceId: 'ws_option' });
    expect(f.calls.map((r) => r.headers['x-service-workspace-id'])).toEqual(['ws_param', 'ws_option']);
  });

  test('client headers, extra headers and Accept', async () => {
    const f = fakeFetch(jsonResponse(200, {}));
    const c = client(f.fetch, { headers: { 'X-Trace': 'client' } });
    await c.tags.createTag({ name: 'a' }, { extraHeaders: { 'Idempotency-Key': 'abc' } });
    expect(f.calls[0]!.headers).toMatchObject({ 'x-trace': 'client', 'idempotency-key': 'abc', accept: 'application/json' });
  });
});

describe('bodies', () => {
  test('JSON body with Content-Type application/json', async () => {
    const f = fakeFetch(jsonResponse(200, { id: 't1' }));
    const result = await client(f.fetch).tags.updateTag('t1', { name: 'Ünïcode', color: null });
    expect(f.calls[0]).toMatchObject({ method: 'PATCH', url: 'https://api.example.com/v1/tags/t1', contentType: 'application/json' });
    expect(JSON.parse(f.calls[0]!.body)).toEqual({ name: 'Ünïcode', color: null });
    expect(result).toEqual({ id: 't1' });
  });

  test('form-urlencoded, multipart and text bodies', async () => {
    const f = fakeFetch(jsonResponse(200, {}));
    const c = client(f.fetch);
    await c.forms.submitForm({ a: 'x y', list: ['1', '2'], skip: undefined });
    await c.forms.uploadFile({ file: new Blob(['hello'], { type: 'text/plain' }), note: 'n' });
    await c.forms.putNote('plain text');
    await c.forms.submitForm();
    expect(f.calls[0]).toMatchObject({ contentType: 'application/x-www-form-urlencoded', body: 'a=x+y&list=1&list=2' });
    expect(f.calls[1]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(f.calls[1]!.body).toContain('hello');
    expect(f.calls[1]!.body).toContain('name="note"');
    expect(f.calls[2]).toMatchObject({ contentType: 'text/plain', body: 'plain text', method: 'PUT' });
    expect(f.calls[3]).toMatchObject({ contentType: null, body: '' });
  });
});

describe('responses', () => {
  test('text responses come back as text (YAML spec), JSON on request with accept', async () => {
    const yaml = 'openapi: 3.1.0\ninfo: {}\n';
    const f = fakeFetch(new Response(yaml, { headers: { 'content-type': 'application/yaml' } }), jsonResponse(200, { openapi: '3.1.0' }));
    const c = client(f.fetch);
    expect(await c.catalog.getSpec('tags')).toBe(yaml);
    expect(f.calls[0]!.headers['accept']).toBeUndefined();
    expect(await c.catalog.getSpec('tags', { accept: 'application/json' })).toEqual({ openapi: '3.1.0' });
    expect(f.calls[1]!.headers['accept']).toBe('application/json');
  });

  test('204 gives undefined', async () => {
    const f = fakeFetch(new Response(null, { status: 204 }));
    expect(await client(f.fetch).tags.deleteTag('t1')).toBeUndefined();
    expect(f.calls[0]!.method).toBe('DELETE');
  });

  test('operation functions work without the client object (tree-shakable), with createConfig', async () => {
    const f = fakeFetch(jsonResponse(200, { ok: true }));
    const config = built.mod.createConfig({ baseUrl: 'https://h', apiKey: KEY, fetch: f.fetch });
    expect(await built.mod.updateTag(config, 'x', {})).toEqual({ ok: true });
    expect(f.calls[0]!.headers['x-api-key']).toBe(KEY);
  });

  test('the in-process handler receives a real Request', async () => {
    let seen: unknown;
    const handler = async (req: Request) => {
      seen = req;
      return jsonResponse(200, {});
    };
    await client(handler).tags.createTag({});
    expect(seen).toBeInstanceOf(Request);
  });
});

