// Errors that help: a NetworkError names the method, the URL (credential query values hidden) and the cause
// (refused, DNS, abort, ...) with the fetch error attached; ApiError.code is typed as the spec's error codes,
// and a code the spec does not list arrives as UNKNOWN with the body kept.
import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { errorCodes, errorCodesModule } from '../../src/emit/client/error-codes-module.js';
import { json, model, op, param } from './fixtures.js';
import { buildClient, fakeFetch, jsonResponse } from './harness.js';

const errorSchema = {
  type: 'object',
  properties: { error: { type: 'object', properties: { code: { type: 'string', enum: ['NOT_FOUND', 'INTERNAL'] }, message: { type: 'string' } } } },
};
const api = model(
  [
    op('getThing', 'get', '/things/{id}', { parameters: { path: [param('id', 'path')], query: [], header: [], cookie: [] }, responses: [json('200'), json('404', { $ref: '#/$defs/ErrorResponse' })] }),
    op('search', 'get', '/search', { security: [['QueryKey']] }),
  ],
  {
    schemas: { ErrorResponse: { name: 'ErrorResponse', specs: ['test'], pointer: '', schema: errorSchema, provenance: { source: 'seed' }, semantics: {}, fields: {} } },
    securitySchemes: { ApiKeyAuth: { type: 'apiKey', name: 'X-API-Key', in: 'header' }, QueryKey: { type: 'apiKey', name: 'key', in: 'query' } },
  },
);
const built = await buildClient(api);

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('NetworkError', () => {
  test('connection refused: method, URL and cause named, the fetch error attached', async () => {
    const port = await closedPort();
    const client = built.mod.createClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'sk_secret', retry: false });
    const error = await rejection(client.tags.getThing('t1'));
    expect(error.name).toBe('NetworkError');
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', status: 0, method: 'GET', url: `http://127.0.0.1:${port}/v1/things/t1`, failure: 'refused' });
    expect(error.message).toContain(`GET http://127.0.0.1:${port}/v1/things/t1: connection refused (ECONNREFUSED)`);
    expect(error.cause).toBeInstanceOf(Error);
  });

  test('a host name that does not resolve is a DNS failure', async () => {
    const client = built.mod.createClient({ baseUrl: 'http://no-such-host.invalid/v1', apiKey: 'k', retry: false });
    const error = await rejection(client.tags.getThing('t1'));
    expect(error.failure).toBe('dns');
    expect(error.message).toMatch(/^GET http:\/\/no-such-host\.invalid\/v1\/things\/t1: host name not resolved \((ENOTFOUND|EAI_AGAIN|EAI_NONAME)\)/);
  });

  test('an abort from elsewhere (not the call signal) is named as such', async () => {
    const aborting = async () => {
      throw new DOMException('This operation was aborted', 'AbortError');
    };
    const error = await rejection(built.mod.createClient({ baseUrl: 'https://h', apiKey: 'k', fetch: aborting, retry: false }).tags.getThing('t'));
    expect(error.failure).toBe('abort');
    expect(error.message).toContain('GET https://h/things/t: request aborted');
  });

  test('the value of an API key sent in the query is hidden in the URL and message, and in the cause', async () => {
    const failing = async (request: Request) => {
      throw new TypeError(`fetch failed for ${request.url}`, { cause: Object.assign(new Error(`reset at ${request.url}`), { code: 'ECONNRESET' }) });
    };
    const client = built.mod.createClient({ baseUrl: 'https://h', apiKey: 'sk_query_secret', fetch: failing, retry: false });
    const error = await rejection(client.tags.search({ query: {} }));
    expect(error.url).toBe('https://h/search?key=[REDACTED]');
    expect(error.failure).toBe('reset');
    expect(error.message).toContain('GET https://h/search?key=[REDACTED]: connection reset (ECONNRESET)');
    const inspected = (await import('node:util')).inspect(error, { depth: 10 });
    expect(inspected).not.toContain('sk_query_secret');
    expect(error.cause.cause.code).toBe('ECONNRESET');
  });
});

describe('NetworkError.failure from the fetch error that undici and Node give', () => {
  // A connect timeout cannot be produced on loopback (the kernel refuses or accepts at once), so the fetch error is
  // built as undici builds it: a TypeError('fetch failed') whose cause carries the system or undici code.
  test.each([
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout', 'connection timed out'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout', 'connection timed out'],
    ['ETIMEDOUT', 'timeout', 'connection timed out'],
    ['ECONNREFUSED', 'refused', 'connection refused'],
    ['EAI_AGAIN', 'dns', 'host name not resolved'],
    ['UND_ERR_SOCKET', 'reset', 'connection reset'],
    ['EPROTO', 'other', 'request failed'],
  ])('%s is %s', async (code, failure, words) => {
    const failing = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
    };
    const error = await rejection(built.mod.createClient({ baseUrl: 'https://h', apiKey: 'k', fetch: failing, retry: false }).tags.getThing('t'));
    expect(error.name).toBe('NetworkError');
    expect(error.failure).toBe(failure);
    expect(error.message).toContain(`GET https://h/things/t: ${words}`);
    expect(error.message).toContain(`(${code})`);
  });
});

describe('ApiError.code', () => {
  test("the spec's error codes are found through references inside the error envelope", () => {
    expect(errorCodes(api)).toEqual(['NOT_FOUND', 'INTERNAL']);
    expect(errorCodesModule(api)).toContain('export type ApiErrorCode = "NOT_FOUND" | "INTERNAL";');
    expect(errorCodesModule(model([op('x', 'get', '/x')]))).toContain('export type ApiErrorCode = string;');
  });

  test('a listed code is kept; one the spec does not list is UNKNOWN, with the body kept', async () => {
    const f = fakeFetch(jsonResponse(404, { error: { code: 'NOT_FOUND', message: 'no' } }), jsonResponse(409, { error: { code: 'BRAND_NEW', message: 'new' } }));
    const client = built.mod.createClient({ baseUrl: 'https://h', apiKey: 'k', fetch: f.fetch, retry: false });
    expect((await rejection(client.tags.getThing('a'))).code).toBe('NOT_FOUND');
    const unknown = await rejection(client.tags.getThing('b'));
    expect(unknown.code).toBe('UNKNOWN');
    expect(unknown.body).toEqual({ error: { code: 'BRAND_NEW', message: 'new' } });
  });
});
