// ApiError from the error envelope and from anything else a server or gateway answers; the API key never leaks.
import { inspect } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { tagsModel } from './fixtures.js';
import { buildClient, fakeFetch, jsonResponse, type Built } from './harness.js';

let built: Built;
beforeAll(async () => {
  built = await buildClient(tagsModel());
});

const KEY = 'sk_live_9f8e7d6c5b4a';
const noRetry = { retry: false };
const client = (fetch: (r: Request) => Promise<Response>, extra: Record<string, unknown> = {}) =>
  built.mod.createClient({ baseUrl: 'https://api.example.com/v1', apiKey: KEY, fetch, ...noRetry, ...extra });

async function caught(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function everyRendering(error: any): string[] {
  return [error.message, String(error), JSON.stringify(error), inspect(error, { depth: 10 }), inspect(error, { showHidden: true, depth: 10 }), String(error.stack)];
}

describe('ApiError', () => {
  test('fields from the error envelope and x-request-id', async () => {
    const envelope = { error: { code: 'ALREADY_EXISTS', message: 'Tag name taken', details: [{ field: 'tag_name', description: 'in use' }, { description: 'no field' }] } };
    const f = fakeFetch(jsonResponse(409, envelope, { 'x-request-id': 'req_123' }));
    const error = await caught(client(f.fetch).tags.createTag({ tag_name: 'a' }));
    expect(error).toBeInstanceOf(built.mod.ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 409,
      code: 'ALREADY_EXISTS',
      message: 'Tag name taken',
      requestId: 'req_123',
      operationId: 'createTag',
      details: [{ field: 'tag_name', description: 'in use' }, { field: null, description: 'no field' }],
      body: envelope,
    });
  });

  test.each([
    ['HTML', new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, headers: { 'content-type': 'text/html' } }), 'HTTP 502: <html><body><h1>502 Bad Gateway</h1></body></html>'],
    ['plain text', new Response('upstream   timed\nout', { status: 504 }), 'HTTP 504: upstream timed out'],
    ['{ message }', jsonResponse(403, { message: 'Missing API Key' }), 'HTTP 403: Missing API Key'],
    ['{ error: string }', jsonResponse(400, { error: 'bad thing' }), 'HTTP 400: bad thing'],
    ['empty', new Response(null, { status: 500, statusText: 'Internal Server Error' }), 'HTTP 500 Internal Server Error (empty body)'],
  ])('a %s body still gives a useful message and code UNKNOWN', async (_kind, response, message) => {
    const f = fakeFetch(response as Response);
    const error = await caught(client(f.fetch).tags.deleteTag('t'));
    expect(error).toMatchObject({ status: (response as Response).status, code: 'UNKNOWN', message, details: [] });
  });

  test('a long body is cut to 200 characters in the message, and kept whole in body', async () => {
    const text = 'x'.repeat(1000);
    const f = fakeFetch(new Response(text, { status: 502 }));
    const error = await caught(client(f.fetch).tags.deleteTag('t'));
    expect(error.message).toBe(`HTTP 502: ${'x'.repeat(200)}`);
    expect(error.body).toBe(text);
  });
});

describe('the API key never leaks', () => {
  test('not in message, String, JSON, inspect of an error whose body echoes the key', async () => {
    const echo = { error: { code: 'UNAUTHENTICATED', message: `invalid key ${KEY}`, details: [{ field: 'X-API-Key', description: `got ${KEY}` }] }, [KEY]: KEY };
    const f = fakeFetch(jsonResponse(401, echo));
    const error = await caught(client(f.fetch).tags.createTag({}));
    expect(error.code).toBe('UNAUTHENTICATED');
    expect(error.message).toBe('invalid key [REDACTED]');
    for (const text of everyRendering(error)) expect(text).not.toContain(KEY);
  });

  test('not in a non-envelope echo, even where the 200-character cut would split it', async () => {
    const text = `${'y'.repeat(195)}${KEY} and more`;
    const f = fakeFetch(new Response(text, { status: 500 }));
    const error = await caught(client(f.fetch).tags.deleteTag('t'));
    for (const rendering of everyRendering(error)) expect(rendering).not.toContain(KEY.slice(0, 5));
  });

  test('not in network, timeout or validation errors, nor in the client/config when logged', async () => {
    const failing = async () => {
      throw new TypeError(`connect failed for key=${KEY}`);
    };
    const network = await caught(client(failing).tags.createTag({}));
    expect(network).toMatchObject({ name: 'NetworkError', code: 'NETWORK_ERROR', status: 0 });
    const hanging = () => new Promise<Response>(() => undefined);
    const timeout = await caught(client(hanging, { timeoutMs: 5 }).tags.createTag({}));
    expect(timeout.code).toBe('TIMEOUT');
    const invalid = await caught(client(fakeFetch(jsonResponse(201, { invalid: KEY })).fetch, { validateResponses: true }).tags.createTag({}));
    expect(invalid.code).toBe('RESPONSE_VALIDATION');
    for (const error of [network, timeout, invalid]) for (const text of everyRendering(error)) expect(text).not.toContain(KEY);
    const c = client(failing);
    for (const text of [JSON.stringify(c.raw), inspect(c, { depth: 10 }), inspect(c.raw), String(Object.keys(c.raw))]) expect(text).not.toContain(KEY);
    expect(c.raw.apiKey).toBe(KEY);
  });

  test('not in the message of a refused header value', async () => {
    const bad = `${KEY}\nX-Injected: 1`;
    const c = built.mod.createClient({ baseUrl: 'https://h', apiKey: 'k', fetch: fakeFetch(jsonResponse(200, {})).fetch });
    const error = await caught(c.tags.createTag({}, { extraHeaders: { 'X-Thing': bad } }));
    expect(error).toBeInstanceOf(TypeError);
    const keyed = built.mod.createClient({ baseUrl: 'https://h', apiKey: bad, fetch: fakeFetch(jsonResponse(200, {})).fetch });
    const error2 = await caught(keyed.tags.createTag({}));
    expect(error2.message).toContain('[REDACTED]');
    for (const text of everyRendering(error2)) expect(text).not.toContain(KEY);
  });
});
