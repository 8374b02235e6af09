// Faults on demand (issue 29): PUT/GET/DELETE /control/faults and the start-up option. Per organization and
// per operation, reproducible from the seed; a replaced answer runs nothing (a faulted write is not applied);
// latency is added; a dropped connection fails the fetch; every fault shows in the inspector's events feed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());
beforeEach(async () => {
  expect((await h.control.request('DELETE', '/faults')).status).toBe(200);
});

type Envelope = { error: { code: string; message: string; details: { field: string | null; description: string }[] } };

async function setFaults(config: unknown): Promise<Response> {
  return h.control.request('PUT', '/faults', config);
}

async function tagsStatus(key = h.sandbox.apiKey): Promise<number> {
  return (await h.raw('/tags', { headers: { 'x-api-key': key } })).status;
}

describe('faults on demand', () => {
  it('answers 503 INTERNAL for the organization and operation named, and only those', async () => {
    const other = await h.control.createOrganization('Not faulted');
    expect((await setFaults({ rules: [{ organization_id: h.sandbox.organizationId, operations: ['listTags'], unavailable: 1 }] })).status).toBe(200);
    const answer = await h.raw('/tags');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('x-sandbox-fault')).toBe('unavailable');
    expect(((await answer.json()) as Envelope).error.code).toBe('INTERNAL');
    expect(await tagsStatus(other.api_key.key)).toBe(200);
    expect((await h.raw('/workspaces')).status).toBe(200);
    const state = (await (await h.control.request('GET', '/faults')).json()) as { matched: number[]; rules: { unavailable: number; operations: string[] }[] };
    expect(state.matched).toEqual([1]);
    expect(state.rules[0]).toMatchObject({ unavailable: 1, operations: ['listTags'] });
  });

  it('answers 429 RESOURCE_EXHAUSTED with Retry-After', async () => {
    await setFaults({ rules: [{ rate_limited: 1, retry_after_seconds: 7 }] });
    const answer = await h.raw('/tags');
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(((await answer.json()) as Envelope).error.code).toBe('RESOURCE_EXHAUSTED');
  });

  it('does not apply a faulted write', async () => {
    await setFaults({ rules: [{ operations: ['createTag'], unavailable: 0.5 }], seed: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const answer = await h.raw('/tags', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tag_name: `faulted-write-${i}` }) });
      statuses.push(answer.status);
    }
    expect(statuses).toContain(503);
    expect(statuses).toContain(201);
    await h.control.request('DELETE', '/faults');
    const names = new Set(((await (await h.raw('/tags?page_size=100')).json()) as { tags: { tag_name: string }[] }).tags.map((t) => t.tag_name));
    statuses.forEach((status, i) => expect(names.has(`faulted-write-${i}`)).toBe(status === 201));
  });

  it('repeats the same sequence for the same seed, another for another seed', async () => {
    const run = async (seed: number): Promise<number[]> => {
      await setFaults({ seed, rules: [{ operations: ['listTags'], unavailable: 0.3, rate_limited: 0.2 }] });
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push(await tagsStatus());
      return out;
    };
    const first = await run(11);
    expect(await run(11)).toEqual(first);
    expect(await run(12)).not.toEqual(first);
    const faulted = first.filter((s) => s !== 200).length;
    expect(faulted).toBeGreaterThan(5);
    expect(faulted).toBeLessThan(35);
    expect(new Set(first)).toEqual(new Set([200, 429, 503]));
  });

  it('adds latency (fixed, and uniform within its bounds) and marks every fault in the inspector events feed', async () => {
    await setFaults({ rules: [{ operations: ['listTags'], latency: { fixed_ms: 150 } }, { operations: ['listWorkspaces'], latency: { min_ms: 10, max_ms: 40 }, unavailable: 0.5 }] });
    const started = performance.now();
    expect(await tagsStatus()).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145); // a timer never fires early
    for (let i = 0; i < 6; i++) await h.raw('/workspaces');
    const feed = await h.sandbox.fetch(new Request('http://sandbox.test/inspector/api/events?kind=fault.injected', { headers: { authorization: `Bearer ${h.sandbox.apiKey}` } }));
    const events = ((await feed.json()) as { events: { kind: string; status: string; data: { operation_id: string; latency_ms: number; fault: string } }[] }).events;
    const tags = events.filter((e) => e.data.operation_id === 'listTags');
    expect(tags[0]).toMatchObject({ kind: 'fault.injected', status: 'DELAYED', data: { fault: 'delayed', latency_ms: 150 } });
    const workspaces = events.filter((e) => e.data.operation_id === 'listWorkspaces');
    expect(workspaces.length).toBeGreaterThanOrEqual(6);
    for (const e of workspaces) {
      expect(e.data.latency_ms).toBeGreaterThanOrEqual(10);
      expect(e.data.latency_ms).toBeLessThanOrEqual(40);
    }
    expect(workspaces.some((e) => e.data.fault === 'unavailable')).toBe(true);
  });

  it('drops the connection: in process the fetch fails, on a real listener the client sees the server close mid-answer', async () => {
    await setFaults({ rules: [{ operations: ['listTags'], dropped: 1 }] });
    await expect(h.raw('/tags')).rejects.toThrow(TypeError);
    const server = await h.sandbox.listen({ port: 0 });
    try {
      await expect(fetch(`${server.baseUrl}/tags`, { headers: { 'x-api-key': h.sandbox.apiKey } })).rejects.toThrow(TypeError);
      // The listener still serves the next request.
      await h.control.request('DELETE', '/faults');
      expect((await fetch(`${server.baseUrl}/tags`, { headers: { 'x-api-key': h.sandbox.apiKey } })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses a bad configuration with 400 naming the field, and keeps the previous one', async () => {
    await setFaults({ rules: [{ operations: ['listTags'], unavailable: 1 }] });
    const cases: [unknown, string | null][] = [
      [{ rules: [{ unavailable: 2 }] }, 'rules[0].unavailable'],
      [{ rules: [{ unavailable: 0.6, dropped: 0.6 }] }, 'rules[0]'],
      [{ rules: [{ operations: ['noSuchOperation'] }] }, 'rules[0].operations'],
      [{ rules: [{ latency: { fixed_ms: 600_000 } }] }, 'rules[0].latency.fixed_ms'],
      [{ rules: [{ latency: { min_ms: 50, max_ms: 10 } }] }, 'rules[0].latency.max_ms'],
      [{ rules: [{ latency: { median_ms: 5 } }] }, 'rules[0].latency'],
      [{ rules: [{ surprise: 1 }] }, 'rules[0].surprise'],
      [{ seed: -1, rules: [] }, 'seed'],
      [{ seed: 1 }, 'rules'],
    ];
    for (const [config, field] of cases) {
      const answer = await setFaults(config);
      expect(answer.status, JSON.stringify(config)).toBe(400);
      const body = (await answer.json()) as Envelope;
      expect(body.error.code).toBe('INVALID_ARGUMENT');
      expect(body.error.details[0]!.field, JSON.stringify(config)).toBe(field);
    }
    expect(await tagsStatus()).toBe(503);
  });

  it('takes faults at start-up (the --faults flag hands them to createSandbox) and refuses bad ones by field', async () => {
    const sandbox = await createSandbox({ db: ':memory:', log: () => {}, faults: { seed: 1, rules: [{ operations: ['listTags'], unavailable: 1 }] } });
    try {
      const answer = await sandbox.fetch(new Request('http://sandbox.test/v1/tags', { headers: { 'x-api-key': sandbox.apiKey } }));
      expect(answer.status).toBe(503);
    } finally {
      await sandbox.close();
    }
    await expect(createSandbox({ db: ':memory:', log: () => {}, faults: { rules: [{ rate_limited: -1 }] } })).rejects.toThrow('faults: rules[0].rate_limited');
  });
});
