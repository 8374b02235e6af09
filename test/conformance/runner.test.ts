// The runner's guarantees for a run against a deployment: a check that never finishes is a failure under its own
// name and the run goes on; subscriptions a check makes do not outlive it (every later event would be delivered
// to them); the HTTP receiver hands out the calls once the target says its deliveries are done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../../src/conformance/checks/index.js';
import { startHttpReceiver } from '../../src/conformance/http-receiver.js';
import { inProcessTarget } from '../../src/conformance/in-process.js';
import { runSuite } from '../../src/conformance/run.js';
import type { Target } from '../../src/conformance/target.js';
import type { Sandbox } from '../../src/sandbox/index.js';

let target: Target;
let sandbox: Sandbox;
beforeAll(async () => {
  ({ target, sandbox } = await inProcessTarget());
});
afterAll(async () => sandbox.close());

const onWebhookCreate = (route: { resource: string | null; action: string | null }): boolean => route.resource === 'webhook' && route.action === 'create';

async function webhookUrls(): Promise<string[]> {
  const answer = await target.request('GET', '/webhooks', { headers: { 'x-api-key': target.apiKey } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { webhooks: { url: string }[] }).webhooks.map((w) => w.url);
}

describe('the conformance runner', () => {
  it('reports a check over the per-check limit as a failure naming it, and runs the next check', async () => {
    const never: Check = { name: 'a check that never finishes', applies: onWebhookCreate, run: () => new Promise<void>(() => {}) };
    const next: Check = { name: 'the check after it', applies: onWebhookCreate, run: async () => {} };
    const results = await runSuite(target, { checks: [never, next], timeoutMs: 200 });
    expect(results.map((r) => [r.operation, r.check, r.outcome])).toEqual([
      ['createWebhook', 'a check that never finishes', 'fail'],
      ['createWebhook', 'the check after it', 'pass'],
    ]);
    expect(results[0]!.detail).toMatch(/per-check limit of 200 ms/);
  });

  it("removes the subscriptions a check made when it ends, keeps the organization's own, and points those the World makes at the receiver", async () => {
    const own = await target.request('POST', '/webhooks', { headers: { 'x-api-key': target.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'job_complete', url: 'https://hooks.example.com/own' }) });
    expect(own.status).toBe(200);
    const seen: string[][] = [];
    const subscribe: Check = {
      name: 'makes subscriptions',
      applies: onWebhookCreate,
      async run(ctx) {
        await ctx.world.create('webhook');
        await ctx.world.ensure('webhook');
        // Made by the check's own request, as a happy-path check makes one.
        await ctx.world.target.request('POST', '/webhooks', { headers: { 'x-api-key': ctx.target.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'job_complete', url: 'https://hooks.example.com/made' }) });
        seen.push(await webhookUrls());
      },
    };
    const after: Check = { name: 'runs after it', applies: onWebhookCreate, run: async () => void seen.push(await webhookUrls()) };
    const results = await runSuite(target, { checks: [subscribe, after] });
    expect(results.map((r) => r.outcome)).toEqual(['pass', 'pass']);
    expect(seen[0]).toHaveLength(4);
    expect(seen[0]!.filter((url) => /^https:\/\/receiver\.conformance\.invalid\/hooks\//.test(url))).toHaveLength(2);
    expect(seen[1]).toEqual(['https://hooks.example.com/own']);
  });
});

describe('the HTTP receiver', () => {
  it('answers calls with the chosen statuses and returns them once the target is idle', async () => {
    let idle!: () => void;
    const done = new Promise<void>((resolve) => {
      idle = resolve;
    });
    const receiver = await startHttpReceiver(() => done);
    try {
      const url = receiver.endpoint([503, 204]);
      const first = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-token': 't' }, body: '{"n":1}' });
      const second = await fetch(url, { method: 'POST', body: 'not json' });
      expect([first.status, second.status]).toEqual([503, 204]);
      let returned = false;
      const calls = receiver.calls(url).then((c) => {
        returned = true;
        return c;
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(returned).toBe(false);
      idle();
      expect((await calls).map((c) => [c.method, c.status, c.body, c.headers['x-webhook-token']])).toEqual([
        ['POST', 503, { n: 1 }, 't'],
        ['POST', 204, 'not json', undefined],
      ]);
      expect(await receiver.calls(receiver.endpoint())).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
