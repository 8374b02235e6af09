// Retries (which methods, which statuses, Retry-After, backoff, giving up), timeouts and cancellation.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient as createSandboxClient } from '../../generated/client/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
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

// Issue 29: the generated client against a real sandbox (HTTP on loopback) asked for faults on demand through
// its control plane: 503 outages, 429 with Retry-After and connections dropped mid-answer, which the client
// rides through; a faulted write is never applied, so retrying a POST on 503 creates each tag once.
describe('retries against a real sandbox with faults on demand', () => {
  let sandbox: Sandbox;
  let server: Awaited<ReturnType<Sandbox['listen']>>;
  beforeAll(async () => {
    sandbox = await createSandbox({ db: ':memory:', log: () => {} });
    server = await sandbox.listen({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await sandbox.close();
  });

  const control = async (method: string, body?: unknown): Promise<{ matched: number[]; injected: number }> => {
    const res = await fetch(`${server.controlUrl}/faults`, {
      method,
      headers: { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { matched: number[]; injected: number };
  };

  function realClient(retry: Record<string, unknown> = {}) {
    const delays: number[] = [];
    // Waits are recorded and shortened (the policy is under test, not the clock).
    const sleep = async (ms: number) => {
      delays.push(ms);
      await new Promise((resolve) => setTimeout(resolve, 1));
    };
    return { delays, client: createSandboxClient({ baseUrl: server.baseUrl, apiKey: sandbox.apiKey, retry: { attempts: 8, sleep, ...retry } }) };
  }

  test('GETs ride through 503 outages and dropped connections', async () => {
    await control('PUT', { seed: 29, rules: [{ operations: ['listTags'], unavailable: 0.3, dropped: 0.2 }] });
    const { client } = realClient();
    for (let i = 0; i < 15; i++) expect(Array.isArray((await client.tags.listTags()).tags)).toBe(true);
    const state = await control('GET');
    expect(state.matched[0]).toBeGreaterThan(15); // some calls needed more than one attempt
    await control('DELETE');
  });

  test('429 answers are retried after their Retry-After', async () => {
    await control('PUT', { seed: 5, rules: [{ operations: ['listTags'], rate_limited: 0.5, retry_after_seconds: 2 }] });
    const { client, delays } = realClient();
    for (let i = 0; i < 8; i++) await client.tags.listTags();
    expect(delays.length).toBeGreaterThan(0);
    expect(new Set(delays)).toEqual(new Set([2000]));
    await control('DELETE');
  });

  test('without retries the fault reaches the caller as an ApiError (503 INTERNAL)', async () => {
    await control('PUT', { rules: [{ operations: ['listTags'], unavailable: 1 }] });
    const { client } = realClient({ attempts: 1 });
    await expect(client.tags.listTags()).rejects.toMatchObject({ status: 503, code: 'INTERNAL' });
    await control('DELETE');
  });

  test('POSTs retried on 503 (opted in) create each tag exactly once', async () => {
    await control('PUT', { seed: 8, rules: [{ operations: ['createTag'], unavailable: 0.5 }] });
    const { client } = realClient({ retryNonIdempotentOn503: true });
    for (let i = 0; i < 10; i++) await client.tags.createTag({ tag_name: `ride-through-${i}` });
    const state = await control('GET');
    expect(state.matched[0]).toBeGreaterThan(10);
    await control('DELETE');
    const names = (await client.tags.listTags({ query: { page_size: 100 } })).tags.map((t) => t.tag_name).filter((n) => n.startsWith('ride-through-'));
    expect(names.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `ride-through-${i}`).sort());
  });
});
