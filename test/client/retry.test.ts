// Retries (which methods, which statuses, Retry-After, backoff, giving up), timeouts and cancellation.
import { beforeAll, describe, expect, test } from 'vitest';
import { tagsModel } from './fixtures.js';
import { buildClient, fakeFetch, jsonResponse, type Built } from './harness.js';

let built: Built;
beforeAll(async () => {
  built = await buildClient(tagsModel());
});

function setup(extraRetry: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const delays: number[] = [];
  const sleep = async (ms: number) => {
    delays.push(ms);
  };
  const make = (fetch: (r: Request) => Promise<Response>) =>
    built.mod.createClient({ baseUrl: 'https://h', apiKey: 'k', fetch, retry: { sleep, random: () => 1, ...extraRetry }, ...extra });
  return { delays, make };
}

const unavailable = (headers: Record<string, string> = {}) => jsonResponse(503, { error: { code: 'INTERNAL', message: 'routing outage' } }, headers);

describe('retries', () => {
  test('GET is retried on 503, honouring Retry-After in seconds', async () => {
    const { delays, make } = setup();
    const f = fakeFetch(unavailable({ 'retry-after': '2' }), jsonResponse(200, { tags: [] }));
    expect(await make(f.fetch).tags.listFolderTags('f')).toEqual({ tags: [] });
    expect(f.calls).toHaveLength(2);
    expect(delays).toEqual([2000]);
  });

  test('Retry-After as an HTTP date, and capped at maxDelayMs', async () => {
    const { delays, make } = setup({ maxDelayMs: 3000 });
    const soon = new Date(Date.now() + 2000).toUTCString();
    const f = fakeFetch(unavailable({ 'retry-after': soon }), unavailable({ 'retry-after': '3600' }), jsonResponse(200, {}));
    await make(f.fetch).tags.deleteTag('t');
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThan(0);
    expect(delays[0]).toBeLessThanOrEqual(2000);
    expect(delays[1]).toBe(3000);
  });

  test('POST is not retried on 503 by default', async () => {
    const { delays, make } = setup();
    const f = fakeFetch(unavailable(), jsonResponse(201, {}));
    await expect(make(f.fetch).tags.createTag({})).rejects.toMatchObject({ status: 503, code: 'INTERNAL' });
    expect(f.calls).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  test('POST is retried on 503 when opted in (per client and per call), but not on 500', async () => {
    const { make } = setup({ retryNonIdempotentOn503: true });
    const f = fakeFetch(unavailable(), jsonResponse(201, { id: 'x' }));
    expect(await make(f.fetch).tags.createTag({})).toEqual({ id: 'x' });
    expect(f.calls).toHaveLength(2);

    const g = fakeFetch(jsonResponse(500, { error: { code: 'INTERNAL', message: 'boom' } }), jsonResponse(201, {}));
    await expect(make(g.fetch).tags.createTag({})).rejects.toMatchObject({ status: 500 });
    expect(g.calls).toHaveLength(1);

    const perCall = setup();
    const h = fakeFetch(unavailable(), jsonResponse(201, {}));
    await perCall.make(h.fetch).tags.createTag({}, { retry: { retryNonIdempotentOn503: true } });
    expect(h.calls).toHaveLength(2);
  });

  test('gives up after 3 attempts with exponential backoff, and throws the last error', async () => {
    const { delays, make } = setup();
    const f = fakeFetch(unavailable());
    await expect(make(f.fetch).tags.listFolderTags('f')).rejects.toMatchObject({ status: 503, message: 'routing outage' });
    expect(f.calls).toHaveLength(3);
    expect(delays).toEqual([200, 400]);
  });

  test('backoff jitter stays within 50-100% and the cap', async () => {
    const { delays, make } = setup({ attempts: 6, baseDelayMs: 1000, maxDelayMs: 5000, random: () => 0 });
    const f = fakeFetch(unavailable());
    await expect(make(f.fetch).tags.listFolderTags('f')).rejects.toBeDefined();
    expect(delays).toEqual([500, 1000, 2000, 2500, 2500]);
  });

  test('network errors are retried for idempotent methods only; 4xx never', async () => {
    let n = 0;
    const flaky = async () => {
      if (n++ === 0) throw new TypeError('fetch failed');
      return jsonResponse(200, { ok: 1 });
    };
    const { make } = setup();
    expect(await make(flaky).tags.updateTag('t', {}, { retry: { methods: ['PATCH'] } })).toEqual({ ok: 1 });
    n = 0;
    await expect(make(flaky).tags.createTag({})).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    const f = fakeFetch(jsonResponse(404, { error: { code: 'NOT_FOUND', message: 'no' } }));
    await expect(make(f.fetch).tags.deleteTag('t')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(f.calls).toHaveLength(1);
  });

  test('retry: false per client or per call', async () => {
    const f = fakeFetch(unavailable());
    const c = built.mod.createClient({ baseUrl: 'https://h', fetch: f.fetch, retry: false });
    await expect(c.tags.deleteTag('t')).rejects.toMatchObject({ status: 503 });
    const { make } = setup();
    await expect(make(f.fetch).tags.deleteTag('t', { retry: false })).rejects.toMatchObject({ status: 503 });
    expect(f.calls).toHaveLength(2);
    // A policy on the call re-enables what the client turned off.
    await expect(c.tags.deleteTag('t', { retry: { sleep: async () => undefined } })).rejects.toMatchObject({ status: 503 });
    expect(f.calls).toHaveLength(5);
  });

  test('the request body is sent again on each attempt', async () => {
    const { make } = setup({ retryNonIdempotentOn503: true });
    const f = fakeFetch(unavailable(), jsonResponse(201, {}));
    await make(f.fetch).tags.createTag({ a: 1 });
    expect(f.calls.map((c) => c.body)).toEqual(['{"a":1}', '{"a":1}']);
  });
});

describe('timeouts and cancellation', () => {
  const hanging = () => new Promise<Response>(() => undefined);

  test('timeoutMs per client gives a TimeoutError (an ApiError) with code TIMEOUT', async () => {
    const c = built.mod.createClient({ baseUrl: 'https://h', fetch: hanging, timeoutMs: 10 });
    const error = await c.tags.deleteTag('t').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(built.mod.TimeoutError);
    expect(error).toBeInstanceOf(built.mod.ApiError);
    expect(error).toMatchObject({ code: 'TIMEOUT', status: 0, operationId: 'deleteTag' });
  });

  test('timeoutMs per call overrides the client, and covers retry waits', async () => {
    const c = built.mod.createClient({ baseUrl: 'https://h', fetch: hanging, timeoutMs: 60_000 });
    await expect(c.tags.deleteTag('t', { timeoutMs: 10 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const f = fakeFetch(unavailable({ 'retry-after': '5' }));
    const slow = built.mod.createClient({ baseUrl: 'https://h', fetch: f.fetch, timeoutMs: 20 });
    await expect(slow.tags.deleteTag('t')).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(f.calls).toHaveLength(1);
  });

  test('a body that stalls after the headers still times out', async () => {
    const stalled = async () => new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"partial":')) }), { headers: { 'content-type': 'application/json' } });
    const c = built.mod.createClient({ baseUrl: 'https://h', fetch: stalled, timeoutMs: 20 });
    await expect(c.tags.deleteTag('t')).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  test('the fetch receives a signal that aborts on timeout', async () => {
    let signal: AbortSignal | undefined;
    const observing = (req: Request) => {
      signal = req.signal;
      return new Promise<Response>(() => undefined);
    };
    const c = built.mod.createClient({ baseUrl: 'https://h', fetch: observing, timeoutMs: 10 });
    await expect(c.tags.deleteTag('t')).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(signal?.aborted).toBe(true);
  });

  test('a caller abort rejects with the signal reason and is not retried', async () => {
    const controller = new AbortController();
    const f = { calls: 0 };
    const fetch = (req: Request) => {
      f.calls++;
      return new Promise<Response>((_resolve, reject) => req.signal.addEventListener('abort', () => reject(req.signal.reason)));
    };
    const c = built.mod.createClient({ baseUrl: 'https://h', fetch });
    const pending = c.tags.deleteTag('t', { signal: controller.signal });
    controller.abort(new Error('user cancelled'));
    await expect(pending).rejects.toThrow('user cancelled');
    expect(f.calls).toBe(1);
    await expect(c.tags.deleteTag('t', { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
