// The `<fn>All` iterator over pages, and `validateResponses`.
import { beforeAll, describe, expect, test } from 'vitest';
import { tagsModel } from './fixtures.js';
import { buildClient, fakeFetch, jsonResponse, type Built } from './harness.js';

let built: Built;
beforeAll(async () => {
  built = await buildClient(tagsModel());
});

const make = (fetch: (r: Request) => Promise<Response>, extra: Record<string, unknown> = {}) =>
  built.mod.createClient({ baseUrl: 'https://h', apiKey: 'k', fetch, ...extra });

describe('pagination', () => {
  test('iterates items over 3 pages following next_page_token, keeping the other arguments', async () => {
    const f = fakeFetch(
      jsonResponse(200, { tags: [{ id: '1' }, { id: '2' }], next_page_token: 'p2' }),
      jsonResponse(200, { tags: [{ id: '3' }], next_page_token: 'p 3' }),
      jsonResponse(200, { tags: [{ id: '4' }], next_page_token: null }),
    );
    const ids: string[] = [];
    for await (const tag of make(f.fetch).tags.listFolderTagsAll('fo/lder', { query: { page_size: 2 } })) ids.push(tag.id);
    expect(ids).toEqual(['1', '2', '3', '4']);
    expect(f.calls.map((c) => c.url)).toEqual([
      'https://h/folders/fo%2Flder/tags?page_size=2',
      'https://h/folders/fo%2Flder/tags?page_size=2&page_token=p2',
      'https://h/folders/fo%2Flder/tags?page_size=2&page_token=p%203',
    ]);
  });

  test('the standalone iterator function works and stops early when the caller breaks', async () => {
    const f = fakeFetch(jsonResponse(200, { tags: [{ id: '1' }, { id: '2' }], next_page_token: 'p2' }), jsonResponse(200, { tags: [{ id: '3' }] }));
    const config = built.mod.createConfig({ baseUrl: 'https://h', fetch: f.fetch });
    for await (const tag of built.mod.listFolderTagsAll(config, 'f')) {
      expect(tag).toEqual({ id: '1' });
      break;
    }
    expect(f.calls).toHaveLength(1);
  });

  test('a repeated token is an error, not an endless loop', async () => {
    const f = fakeFetch(jsonResponse(200, { tags: [{ id: '1' }], next_page_token: 'same' }));
    const collect = async () => {
      for await (const _ of make(f.fetch).tags.listFolderTagsAll('f')) void _;
    };
    await expect(collect()).rejects.toThrow(/same next_page_token twice/);
    expect(f.calls).toHaveLength(2);
  });
});

describe('validateResponses', () => {
  test('off (default): an invalid body is returned as is', async () => {
    const f = fakeFetch(jsonResponse(200, { invalid: true }));
    expect(await make(f.fetch).tags.updateTag('t', {})).toEqual({ invalid: true });
  });

  test('on: an invalid body throws ResponseValidationError with the validator errors', async () => {
    const f = fakeFetch(jsonResponse(200, { invalid: true }, { 'x-request-id': 'r1' }));
    const error = await make(f.fetch, { validateResponses: true }).tags.updateTag('t', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(built.mod.ResponseValidationError);
    expect(error).toBeInstanceOf(built.mod.ApiError);
    expect(error).toMatchObject({ status: 200, code: 'RESPONSE_VALIDATION', requestId: 'r1', details: [{ field: 'invalid', description: 'must not be present' }] });
    expect(error.message).toContain('invalid: must not be present');
  });

  test('on: a valid body passes; a text body for a JSON-only response fails', async () => {
    const ok = fakeFetch(jsonResponse(200, { id: 't' }));
    expect(await make(ok.fetch, { validateResponses: true }).tags.updateTag('t', {})).toEqual({ id: 't' });
    const html = fakeFetch(new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    await expect(make(html.fetch, { validateResponses: true }).tags.updateTag('t', {})).rejects.toMatchObject({ code: 'RESPONSE_VALIDATION' });
  });

  test('on: text and JSON variants of a multi-media response both validate', async () => {
    const f = fakeFetch(new Response('openapi: 3.1.0', { headers: { 'content-type': 'application/yaml' } }), jsonResponse(200, { openapi: '3.1.0' }));
    const c = make(f.fetch, { validateResponses: true });
    expect(await c.catalog.getSpec('tags')).toBe('openapi: 3.1.0');
    expect(await c.catalog.getSpec('tags', { accept: 'application/json' })).toEqual({ openapi: '3.1.0' });
  });

  test('a 2xx body that is not valid JSON is an INVALID_RESPONSE error', async () => {
    const f = fakeFetch(new Response('{oops', { status: 200, headers: { 'content-type': 'application/json' } }));
    await expect(make(f.fetch).tags.updateTag('t', {})).rejects.toMatchObject({ code: 'INVALID_RESPONSE', status: 200 });
  });
});
