// Authentication through the documented client options: every kind of security scheme a spec can declare (API
// keys in header, query or cookie; HTTP bearer and basic; OAuth2 and OpenID Connect as a bearer token), chosen per
// operation as the spec's security alternatives say, and a credential no scheme uses refused, never dropped.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ApiModel, SecurityScheme } from '../../src/model/ir.js';
import { model, op } from './fixtures.js';
import { buildClient, fakeFetch, jsonResponse, typeCheck } from './harness.js';

const schemes: Record<string, SecurityScheme> = {
  HeaderKey: { type: 'apiKey', name: 'X-Key', in: 'header' },
  QueryKey: { type: 'apiKey', name: 'api_key', in: 'query' },
  CookieKey: { type: 'apiKey', name: 'session', in: 'cookie' },
  Bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  Basic: { type: 'http', scheme: 'Basic' },
  OAuth: { type: 'oauth2' },
  Oidc: { type: 'openIdConnect' },
  Mtls: { type: 'mutualTLS' },
};

function everySchemeModel(): ApiModel {
  return model(
    [
      op('headerKey', 'get', '/header-key', { security: [['HeaderKey']] }),
      op('queryKey', 'get', '/query-key', { security: [['QueryKey']] }),
      op('cookieKey', 'get', '/cookie-key', { security: [['CookieKey']] }),
      op('bearer', 'get', '/bearer', { security: [['Bearer']] }),
      op('basic', 'get', '/basic', { security: [['Basic']] }),
      op('oauth', 'get', '/oauth', { security: [['OAuth']] }),
      op('oidc', 'get', '/oidc', { security: [['Oidc']] }),
      // Alternatives: the first the client has every credential of wins.
      op('bearerOrKey', 'get', '/bearer-or-key', { security: [['Bearer'], ['HeaderKey']] }),
      op('keyAndBearer', 'get', '/key-and-bearer', { security: [['HeaderKey', 'Bearer']] }),
      op('optional', 'get', '/optional', { security: [[], ['HeaderKey']] }),
      op('mtlsOrKey', 'get', '/mtls-or-key', { security: [['Mtls'], ['QueryKey']] }),
      op('open', 'get', '/open', { security: [] }),
    ],
    { securitySchemes: schemes },
  );
}

const built = await buildClient(everySchemeModel());
const create = (fetch: (r: Request) => Promise<Response>, extra: Record<string, unknown>) => built.mod.createClient({ baseUrl: 'https://h/v1', fetch, ...extra });

async function sent(extra: Record<string, unknown>, call: (c: any) => Promise<unknown>) {
  const f = fakeFetch(jsonResponse(200, {}));
  await call(create(f.fetch, extra));
  return f.calls[0]!;
}

describe('each scheme through its option', () => {
  test('API key in a header, the query or a cookie, where the scheme says', async () => {
    const header = await sent({ apiKey: 'k 1' }, (c) => c.tags.headerKey());
    expect(header.headers['x-key']).toBe('k 1');
    const query = await sent({ apiKey: 'k&1' }, (c) => c.tags.queryKey());
    expect(new URL(query.url).searchParams.get('api_key')).toBe('k&1');
    const cookie = await sent({ apiKey: 'k;1' }, (c) => c.tags.cookieKey());
    expect(cookie.headers.cookie).toBe('session=k%3B1');
    for (const call of [header, query, cookie]) expect(call.headers.authorization).toBeUndefined();
  });

  test('HTTP bearer, OAuth2 and OpenID Connect take bearerToken: Authorization: Bearer', async () => {
    for (const name of ['bearer', 'oauth', 'oidc']) {
      const call = await sent({ bearerToken: 'tok.en' }, (c) => c.tags[name]());
      expect(call.headers.authorization, name).toBe('Bearer tok.en');
    }
  });

  test('HTTP basic takes basic: { username, password } (UTF-8, base64)', async () => {
    const call = await sent({ basic: { username: 'ann', password: 'pässword:1' } }, (c) => c.tags.basic());
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from('ann:pässword:1', 'utf8').toString('base64')}`);
  });

  test('a token function is called on every call, so a refreshed token is used', async () => {
    let n = 0;
    const f = fakeFetch(jsonResponse(200, {}));
    const c = create(f.fetch, { bearerToken: async () => `t${++n}` });
    await c.tags.bearer();
    await c.tags.oauth();
    expect(f.calls.map((r) => r.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2']);
    const keyed = fakeFetch(jsonResponse(200, {}));
    await create(keyed.fetch, { apiKey: () => 'from-fn' }).tags.headerKey();
    expect(keyed.calls[0]!.headers['x-key']).toBe('from-fn');
  });
});

describe('the operation chooses, as its security alternatives say', () => {
  test('the first alternative whose credentials the client has', async () => {
    expect((await sent({ bearerToken: 'b', apiKey: 'k' }, (c) => c.tags.bearerOrKey())).headers).toMatchObject({ authorization: 'Bearer b' });
    const keyOnly = await sent({ apiKey: 'k' }, (c) => c.tags.bearerOrKey());
    expect(keyOnly.headers['x-key']).toBe('k');
    expect(keyOnly.headers.authorization).toBeUndefined();
  });

  test('an alternative of two schemes sends both, and is skipped when one credential is missing', async () => {
    const both = await sent({ bearerToken: 'b', apiKey: 'k' }, (c) => c.tags.keyAndBearer());
    expect(both.headers).toMatchObject({ authorization: 'Bearer b', 'x-key': 'k' });
    const half = await sent({ apiKey: 'k' }, (c) => c.tags.keyAndBearer());
    expect(half.headers['x-key']).toBeUndefined();
  });

  test('optional auth sends the key when the client has one; a scheme the client cannot apply (mutualTLS) is passed over', async () => {
    expect((await sent({ apiKey: 'k' }, (c) => c.tags.optional())).headers['x-key']).toBe('k');
    expect(new URL((await sent({ apiKey: 'k' }, (c) => c.tags.mtlsOrKey())).url).searchParams.get('api_key')).toBe('k');
  });

  test('security: [] sends no credential, whatever the client has', async () => {
    const call = await sent({ apiKey: 'k', bearerToken: 'b', basic: { username: 'u', password: 'p' } }, (c) => c.tags.open());
    expect(call.headers.authorization).toBeUndefined();
    expect(call.headers['x-key']).toBeUndefined();
    expect(call.url).toBe('https://h/v1/open');
  });
});

describe('a credential no scheme uses', () => {
  const keyOnly = model([op('get', 'get', '/x')]);

  test('is refused at createClient with the option named (and never its value)', async () => {
    const b = await buildClient(keyOnly);
    expect(() => b.mod.createClient({ baseUrl: 'https://h', bearerToken: 'secret-token' })).toThrow(
      /the option bearerToken is not used by any security scheme of this API \(its schemes take apiKey\)/,
    );
    expect(() => b.mod.createClient({ baseUrl: 'https://h', basic: { username: 'u', password: 'secret' } })).toThrow(/option basic/);
    try {
      b.mod.createClient({ baseUrl: 'https://h', bearerToken: 'secret-token' });
    } catch (error) {
      expect(String(error)).not.toContain('secret-token');
    }
    expect(() => b.mod.createClient({ baseUrl: 'https://h', apiKey: 'k' })).not.toThrow();
  });

  test('is a type error in an object literal passed to createClient', async () => {
    const b = await buildClient(keyOnly);
    writeFileSync(
      join(b.dir, 'consumer.ts'),
      [
        "import { createClient } from './index.js';",
        "void createClient({ baseUrl: 'https://h', apiKey: 'k' });",
        "void createClient({ baseUrl: 'https://h', bearerToken: 't' });",
        '',
      ].join('\n'),
    );
    const diagnostics = typeCheck(b.dir);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatch(/consumer\.ts:3: .*'bearerToken' does not exist/);
  });
});
