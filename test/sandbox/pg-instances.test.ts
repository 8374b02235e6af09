// Several sandbox instances over one PostgreSQL database are one sandbox: what one writes the others read at
// once (keys, organizations, workspaces are cached per instance and checked against the cache epoch every request), uniqueness and version numbers hold across them, the
// control plane works from any, and a webhook delivery is sent once, by the instance that took the request,
// or, when that instance dies mid-way, by another at the attempt it had reached.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FetchLike } from '../../src/sandbox/events/deliver.js';
import { startHarness, type Harness } from '../support/sandbox.js';
import { describePg, dropSchema, freshSchemaUrl, pgQuery } from './pg-env.js';

const METRIC = 'MetricWWWWWWWWWWWWWWWW';
const AGENT = { display_name: 'Versioned bot', model_type: 'VOICE', prompt: 'Prompt.', phone_number: '+14155550100' } as const;

describePg('several instances over one PostgreSQL database', () => {
  const { url, schema } = freshSchemaUrl('instances');
  /** Calls each instance's outbound fetch received, by instance. */
  const received: Record<'a' | 'b', { url: string; body: Record<string, unknown> }[]> = { a: [], b: [] };
  /** Answers per webhook URL (default 200) for instance a; `hang` never answers (the instance "dies" mid-request). */
  const scriptA = new Map<string, (number | 'hang')[]>();
  const fetchOf =
    (name: 'a' | 'b'): FetchLike =>
    async (target, init) => {
      received[name].push({ url: target, body: JSON.parse(init.body) as Record<string, unknown> });
      const next = name === 'a' ? (scriptA.get(target)?.shift() ?? 200) : 200;
      if (next === 'hang') return new Promise(() => {});
      return { status: next };
    };
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    a = await startHarness({ db: url, deliveryFetch: fetchOf('a'), delivery: { attempts: 3, baseDelayMs: 600, timeoutMs: 300 } });
    b = await startHarness({ db: url, deliveryFetch: fetchOf('b'), delivery: { attempts: 3, baseDelayMs: 600, timeoutMs: 300 } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.sandbox.close().catch(() => {});
    dropSchema(schema);
  });

  it('agree on the admin token and the development organization, and migrate once', () => {
    expect(b.sandbox.adminToken).toBe(a.sandbox.adminToken);
    expect(b.sandbox.apiKey).toBe(a.sandbox.apiKey);
    expect(pgQuery('SELECT version FROM schema_migrations ORDER BY version', [], schema).map((r) => r.version)).toEqual(['1', '2', '3', '4']);
  });

  it('see each other’s organizations, keys and workspaces at once (control plane from either)', async () => {
    const org = await a.control.createOrganization('made on a');
    const key = await b.control.createApiKey(org.organization.id, ['tags:read', 'tags:write']);
    const { tag } = await a.clientFor(key.key).tags.createTag({ tag_name: 'shared' });
    expect((await b.clientFor(key.key).tags.getTag(tag.id)).tag.tag_name).toBe('shared');

    const { workspace } = await a.client.workspaces.createWorkspace({ display_name: 'short-lived', slug: 'short-lived' } as never);
    const inWorkspace = { headers: { 'X-Service-Workspace-Id': workspace.id } };
    expect((await b.raw('/agents', inWorkspace)).status).toBe(200);
    await a.client.workspaces.deleteWorkspace(workspace.id);
    expect((await b.raw('/agents', inWorkspace)).status).toBe(404);
  });

  it('hold uniqueness across instances: renaming two tags to one name through both, the second gets 409', async () => {
    const [{ tag: x }, { tag: y }] = [await a.client.tags.createTag({ tag_name: 'x-tag' }), await b.client.tags.createTag({ tag_name: 'y-tag' })];
    const results = await Promise.allSettled([a.client.tags.updateTag(x.id, { tag_name: 'Same Name' }), b.client.tags.updateTag(y.id, { tag_name: 'same name' })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as { status: number }).status).toBe(409);
  });

  it('number versions densely whichever instance writes', async () => {
    const { agent } = await a.client.agents.createAgent(AGENT);
    for (const [i, h] of [a, b, a, b].entries()) await h.client.agents.updateAgent(agent.id, { prompt: `Prompt ${i}.` });
    const { versions } = await b.client.agents.listAgentVersions(agent.id);
    expect(versions.map((v) => v.version_number)).toEqual([5, 4, 3, 2, 1]);
  });

  it('deliver a completed run’s webhook once, from the instance that took the request', async () => {
    const o = await a.control.createOrganization('deliveries once');
    const hook = 'https://client.example.test/once';
    await a.clientFor(o.api_key.key).webhooks.createWebhook({ type: 'job_complete', url: hook });
    const done = await a.control.completeRun(o.organization.id, { metric_values: { [METRIC]: 1 } });
    expect(done.sent).toEqual([expect.objectContaining({ status: 'delivered' })]);
    await new Promise((r) => setTimeout(r, 1200)); // two rounds of b's takeover sweep
    expect(received.a.filter((c) => c.url === hook)).toHaveLength(1);
    expect(received.b.filter((c) => c.url === hook)).toHaveLength(0);
  });

  it('hand a delivery over when its instance dies: another sends the next attempt, keeping the count', async () => {
    const o = await b.control.createOrganization('deliveries taken over');
    const hook = 'https://client.example.test/taken-over';
    await b.clientFor(o.api_key.key).webhooks.createWebhook({ type: 'job_complete', url: hook });
    scriptA.set(hook, [503, 'hang']);
    await a.control.completeRun(o.organization.id, { metric_values: { [METRIC]: 1 }, wait_for_deliveries: false });
    // a made attempt 1 (503); it dies before the retry: its database connection goes, its timers stay unheard.
    const firstAttempt = async () => ((await b.control.sent({ organization_id: o.organization.id, kind: 'webhook_delivery' }))[0]?.attempts as unknown[] | undefined)?.length ?? 0;
    for (let i = 0; i < 100 && (await firstAttempt()) < 1; i++) await new Promise((r) => setTimeout(r, 50));
    a.sandbox.runtime.store.close();
    let entry: Record<string, unknown> | undefined;
    for (let i = 0; i < 200; i++) {
      entry = (await b.control.sent({ organization_id: o.organization.id, kind: 'webhook_delivery' }))[0];
      if (entry?.status === 'delivered') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(entry).toMatchObject({ status: 'delivered' });
    expect((entry!.attempts as { status?: number }[]).map((x) => x.status)).toEqual([503, 200]);
    expect(received.a.filter((c) => c.url === hook)).toHaveLength(1);
    expect(received.b.filter((c) => c.url === hook)).toHaveLength(1);
    expect(received.b.find((c) => c.url === hook)!.body.delivery_id).toBe(received.a.find((c) => c.url === hook)!.body.delivery_id);
  });
});
