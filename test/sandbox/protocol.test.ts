// The API's protocol, on every operation: authentication (401 on X-API-Key, header name case-insensitive),
// permissions (403 on permissions), malformed JSON and wrong content types (400), unknown paths (404), the
// error envelope everywhere, and /openapi served without a key (YAML by default, JSON on Accept).
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../generated/sandbox/routes.js';
import { BASE_URL, startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

interface Envelope {
  error: { code: string; message: string; details: { field: string | null; description: string }[] };
}

function concretePath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => (name.includes('version') || name === 'baseline_id' || name === 'project_id' ? '01ARZ3NDEKTSV4RRFFQ69G5FAV' : 'A'.repeat(22)));
}

async function call(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: Envelope }> {
  const res = await h.sandbox.fetch(new Request(`${BASE_URL}${path}`, { method, headers, ...(body === undefined ? {} : { body }) }));
  return { status: res.status, body: (await res.json()) as Envelope };
}

const authed = routes.filter((r) => r.auth.length > 0);

describe('authentication', () => {
  it.each(authed.map((r) => [r.id, r] as const))('%s: 401 UNAUTHENTICATED on X-API-Key without a key and with an unknown one', async (_id, route) => {
    for (const headers of [{}, { 'X-API-Key': 'sk_unknown' }] as Record<string, string>[]) {
      const res = await call(route.method, concretePath(route.path), { ...headers, 'content-type': 'application/json' }, route.body ? '{}' : undefined);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
      expect(res.body.error.details[0]!.field).toBe('X-API-Key');
    }
  });

  it('accepts the key header name in any case', async () => {
    for (const name of ['x-api-key', 'X-API-KEY', 'X-Api-Key']) {
      const res = await h.sandbox.fetch(new Request(`${BASE_URL}/tags`, { headers: { [name]: h.sandbox.apiKey } }));
      expect(res.status).toBe(200);
    }
  });

  it.each(authed.filter((r) => r.permissions.length > 0).map((r) => [r.id, r] as const))('%s: 403 PERMISSION_DENIED on permissions for a key without its permission', async (_id, route) => {
    const key = await h.control.createApiKey(h.sandbox.organizationId, []);
    const res = await call(route.method, concretePath(route.path), { 'X-API-Key': key.key, 'content-type': 'application/json' }, route.body ? '{}' : undefined);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('PERMISSION_DENIED');
    expect(res.body.error.details[0]!.field).toBe('permissions');
    expect(res.body.error.message).toContain(route.permissions[0]);
  });

  it('names alerts:read in the 403 of an alert update', async () => {
    const key = await h.control.createApiKey(h.sandbox.organizationId, ['alerts:write']);
    const res = await call('PATCH', `/alerts/${'A'.repeat(26)}`, { 'X-API-Key': key.key, 'content-type': 'application/json' }, '{}');
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('alerts:read');
  });
});

describe('request bodies', () => {
  const withBody = routes.filter((r) => r.body && r.auth.length > 0);

  it.each(withBody.map((r) => [r.id, r] as const))('%s: malformed JSON is 400 INVALID_ARGUMENT', async (_id, route) => {
    const res = await call(route.method, concretePath(route.path), { 'X-API-Key': h.sandbox.apiKey, 'content-type': 'application/json' }, '{"a": ');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_ARGUMENT');
  });

  it.each(withBody.map((r) => [r.id, r] as const))('%s: a body that is not JSON is 400 on Content-Type', async (_id, route) => {
    const res = await call(route.method, concretePath(route.path), { 'X-API-Key': h.sandbox.apiKey, 'content-type': 'text/plain' }, 'hello');
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]!.field).toBe('Content-Type');
  });

  it.each(withBody.map((r) => [r.id, r] as const))('%s: wrong JSON types are 400, never 5xx', async (_id, route) => {
    for (const body of ['[]', '"text"', '42', 'null', '{"__proto__": {"polluted": true}}', `{"x": ${'['.repeat(500)}${']'.repeat(500)}}`]) {
      const res = await call(route.method, concretePath(route.path), { 'X-API-Key': h.sandbox.apiKey, 'content-type': 'application/json' }, body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(typeof res.body.error.code).toBe('string');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('routing', () => {
  it('answers an unknown path or method with the 404 envelope', async () => {
    for (const [method, path] of [['GET', '/nope'], ['PUT', '/tags'], ['GET', '/tags/a/b/c']]) {
      const res = await call(method!, path!, { 'X-API-Key': h.sandbox.apiKey });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('answers a path id that is not percent-decodable with 400 on that parameter', async () => {
    const res = await call('GET', '/tags/%E0%A4%A', { 'X-API-Key': h.sandbox.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]!.field).toBe('tag_id');
  });

  it('rejects an invalid page token with 400 on page_token, and pages with next_page_token', async () => {
    for (let i = 0; i < 5; i++) await h.client.tags.createTag({ tag_name: `paged-${i}` });
    const bad = await call('GET', '/tags?page_token=garbage', { 'X-API-Key': h.sandbox.apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]!.field).toBe('page_token');
    const tooBig = await call('GET', '/tags?page_size=101', { 'X-API-Key': h.sandbox.apiKey });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.details[0]!.field).toBe('page_size');
    const seen: string[] = [];
    for await (const tag of h.client.tags.listTagsAll({ query: { page_size: 2 } })) seen.push(tag.tag_name);
    expect(seen.filter((n) => n.startsWith('paged-'))).toEqual(['paged-0', 'paged-1', 'paged-2', 'paged-3', 'paged-4']);
  });
});

describe('/openapi', () => {
  it('lists every spec without a key, with URLs that serve each document as YAML, or JSON on request', async () => {
    const list = await h.sandbox.fetch(new Request(`${BASE_URL}/openapi`));
    expect(list.status).toBe(200);
    const { specs } = (await list.json()) as { specs: { name: string; url: string }[] };
    expect(specs.map((s) => s.name)).toContain('tags');
    for (const spec of specs) {
      const yamlRes = await h.sandbox.fetch(new Request(spec.url));
      expect(yamlRes.headers.get('content-type')).toContain('application/yaml');
      const fromYaml = parse(await yamlRes.text()) as { openapi: string; info: { title: string } };
      const jsonRes = await h.sandbox.fetch(new Request(spec.url, { headers: { accept: 'application/json' } }));
      expect(jsonRes.headers.get('content-type')).toContain('application/json');
      expect(await jsonRes.json()).toEqual(fromYaml);
      expect(fromYaml.openapi).toMatch(/^3\./);
    }
  });

  it('answers an unknown spec name with 404', async () => {
    const res = await h.sandbox.fetch(new Request(`${BASE_URL}/openapi/nothing-here`));
    expect(res.status).toBe(404);
    expect(((await res.json()) as Envelope).error.code).toBe('NOT_FOUND');
  });
});

describe('control plane', () => {
  it('refuses requests without the admin token, and the API key is not an admin token', async () => {
    expect((await h.control.request('POST', '/organizations', {}, '')).status).toBe(401);
    expect((await h.control.request('POST', '/organizations', {}, h.sandbox.apiKey)).status).toBe(401);
  });

  it('creates organizations with a DEFAULT workspace and an all-permission key', async () => {
    const created = await h.control.createOrganization('Acme');
    const client = h.clientFor(created.api_key.key);
    const { workspaces } = await client.workspaces.listWorkspaces();
    expect(workspaces).toHaveLength(1);
    expect(workspaces[0]!.workspace_type).toBe('DEFAULT');
    expect(created.api_key.permissions).toEqual(expect.arrayContaining(['reviews', 'tags:write', 'webhooks:write', 'alerts:read']));
  });

  it('resets state but keeps the development key working', async () => {
    const { tag } = await h.client.tags.createTag({ tag_name: 'before-reset' });
    await h.control.reset();
    expect((await h.raw(`/tags/${tag.id}`)).status).toBe(404);
    expect((await h.client.tags.listTags()).tags).toEqual([]);
  });
});

describe('undeclared body fields', () => {
  it('never reach storage: an id or a read-only field in a PATCH body changes nothing', async () => {
    const { tag } = await h.client.tags.createTag({ tag_name: 'immutable-id' });
    const res = await h.raw(`/tags/${tag.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'hacked', name: 'tags/hacked', create_time: '2000-01-01T00:00:00Z', color: '#123456' }),
    });
    expect(res.status).toBe(200);
    const { tag: after } = (await res.json()) as { tag: { id: string; name: string; create_time: string; color: string } };
    expect(after).toMatchObject({ id: tag.id, name: tag.name, create_time: tag.create_time, color: '#123456' });
    expect((await h.client.tags.getTag(tag.id)).tag.id).toBe(tag.id);
  });
});

describe('writeOnly fields', () => {
  it("never answers a channel's auth_token, even for an alert loaded as a fixture", async () => {
    const [loaded] = await h.control.loadFixtures(h.sandbox.organizationId, [
      {
        kind: 'alert',
        data: {
          name: 'Fixture alert',
          evaluation_type: 'ON_RUN_COMPLETE',
          conversation_source: 'ALL',
          match_mode: 'ALL',
          cooldown_seconds: 0,
          trigger_count: 0,
          description: '',
          agent_ids: [],
          required_tags: [],
          scheduled_run_ids: [],
          conditions: [{ ulid: '01HZY00000000000000000000D', metric_id: 'M'.repeat(22), aggregation: 'SINGLE', operator: 'GT', threshold_float: 1 }],
          channels: [{ ulid: '01HZY00000000000000000000E', channel_type: 'WEBHOOK', config: { url: 'https://hooks.example/x', auth_token: 'secret-fixture-token' } }],
        },
      },
    ]);
    const one = await h.raw(`/alerts/${loaded!.id}`);
    const all = await h.raw('/alerts');
    for (const res of [one, all]) {
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain('hooks.example');
      expect(text).not.toContain('secret-fixture-token');
    }
  });
});

describe('on a real socket', () => {
  it('serves an absolute-form request target by its path', async () => {
    const server = await h.sandbox.listen({ port: 0 });
    try {
      const { request } = await import('node:http');
      const port = Number(new URL(server.url).port);
      const status = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: `http://127.0.0.1:${port}/v1/tags`, headers: { 'x-api-key': h.sandbox.apiKey } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('answers requests that are not valid HTTP with the error envelope', async () => {
    const { connect } = await import('node:net');
    const server = await h.sandbox.listen({ port: 0 });
    try {
      const port = Number(new URL(server.url).port);
      for (const raw of ['GARBAGE\r\n\r\n', 'GET /v1/tags HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', `GET /v1/tags HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`]) {
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => socket.end(raw));
          let data = '';
          socket.on('data', (d) => (data += d.toString()));
          socket.on('end', () => resolve(data));
          socket.on('error', reject);
        });
        expect(answer).toMatch(/^HTTP\/1\.1 4(00|31) /);
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string } };
        expect(body.error.code).toBe('INVALID_ARGUMENT');
      }
    } finally {
      await server.close();
    }
  });
});
