// Metrics: versions as for agents (built-in metrics list none), soft delete, restore (history unchanged,
// no-op on an active metric, 404 when missing / built-in / another workspace / no workspace resolves,
// the default workspace restores legacy metrics whose workspace is unset).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

async function newMetric(prompt = 'Did the agent greet the caller?') {
  return (await h.client.metrics.createMetric({ metric_name: 'Greeting', description: 'Greets', metric_type: 'METRIC_LLM_BINARY', prompt })).metric;
}

describe('metrics', () => {
  it('enforces type-specific required fields (binary needs prompt)', async () => {
    const error = await failure(h.client.metrics.createMetric({ metric_name: 'x', description: 'y', metric_type: 'METRIC_LLM_BINARY' }));
    expect(error.status).toBe(400);
    expect(JSON.stringify(error.details)).toContain('prompt');
  });

  it('keeps a version history: scoring changes record versions, renames do not', async () => {
    const metric = await newMetric();
    await h.client.metrics.updateMetric(metric.id, { metric_name: 'Renamed' });
    await h.client.metrics.updateMetric(metric.id, { prompt: 'Did the agent say hello?' });
    const { versions } = await h.client.metrics.listMetricVersions(metric.id);
    expect(versions.map((v) => v.version_number)).toEqual([2, 1]);
  });

  it('gives a metric that predates versioning its first version on its next save, even a cosmetic one', async () => {
    const [legacy] = await h.control.loadFixtures(h.sandbox.organizationId, [
      { kind: 'metric', data: { metric_name: 'Legacy', description: 'Old', metric_type: 'METRIC_LLM_BINARY', prompt: 'p' } },
    ]);
    expect((await h.client.metrics.listMetricVersions(legacy!.id)).versions).toEqual([]);
    const saved = (await h.client.metrics.updateMetric(legacy!.id, { metric_name: 'Legacy, renamed' })).metric;
    expect(saved.current_version).toMatchObject({ version_number: 1, change_type: 'save' });
    expect((await h.client.metrics.listMetricVersions(legacy!.id)).versions).toHaveLength(1);
  });

  it('lists no versions for a built-in metric', async () => {
    const [builtin] = await h.control.loadFixtures(h.sandbox.organizationId, [
      { kind: 'metric', platform: true, data: { metric_name: 'Built-in latency', description: 'Platform metric', metric_type: 'METRIC_LLM_TTFB', is_builtin: true } },
    ]);
    expect((await h.client.metrics.getMetric(builtin!.id)).metric.id).toBe(builtin!.id);
    expect((await h.client.metrics.listMetricVersions(builtin!.id)).versions).toEqual([]);
    expect((await failure(h.client.metrics.restoreMetric(builtin!.id))).status).toBe(404);
  });

  it('soft-deletes and restores with history and current version unchanged; restore of an active metric is a no-op', async () => {
    const metric = await newMetric();
    await h.client.metrics.updateMetric(metric.id, { prompt: 'Changed' });
    const before = (await h.client.metrics.getMetric(metric.id)).metric;
    expect(await h.client.metrics.deleteMetric(metric.id)).toEqual({});
    expect((await failure(h.client.metrics.getMetric(metric.id))).status).toBe(404);
    expect((await h.client.metrics.listRecentlyDeletedMetrics()).metrics.map((m) => m.id)).toContain(metric.id);
    const restored = (await h.client.metrics.restoreMetric(metric.id)).metric;
    expect(restored.current_version).toEqual(before.current_version);
    expect((await h.client.metrics.listMetricVersions(metric.id)).versions).toHaveLength(2);
    expect((await h.client.metrics.restoreMetric(metric.id)).metric.current_version).toEqual(before.current_version);
    expect((await h.client.metrics.getMetric(metric.id)).metric.id).toBe(metric.id);
  });

  it('restore is 404 for a missing metric and outside the current workspace', async () => {
    expect((await failure(h.client.metrics.restoreMetric('M'.repeat(22)))).status).toBe(404);
    const metric = await newMetric();
    await h.client.metrics.deleteMetric(metric.id);
    const { workspace } = await h.client.workspaces.createWorkspace({ slug: 'metrics-elsewhere', display_name: 'Elsewhere' });
    const error = await failure(h.client.metrics.restoreMetric(metric.id, { headers: { 'X-Service-Workspace-Id': workspace.id } }));
    expect(error.status).toBe(404);
  });

  it('restore is 404 when no workspace resolves (the default workspace is not active)', async () => {
    const org = await h.control.createOrganization();
    const [legacy] = await h.control.loadFixtures(org.organization.id, [
      { kind: 'metric', workspace_id: null, deleted: true, data: { metric_name: 'Legacy', description: 'Old', metric_type: 'METRIC_LLM_BINARY', prompt: 'p' } },
    ]);
    const client = h.clientFor(org.api_key.key);
    // The default workspace restores organization-owned legacy metrics whose workspace is unset.
    expect((await client.metrics.restoreMetric(legacy!.id)).metric.id).toBe(legacy!.id);

    const lonely = await h.control.createOrganization();
    const [orphan] = await h.control.loadFixtures(lonely.organization.id, [
      { kind: 'metric', workspace_id: null, deleted: true, data: { metric_name: 'Orphan', description: 'Old', metric_type: 'METRIC_LLM_BINARY', prompt: 'p' } },
      { kind: 'workspace', data: { slug: 'w', display_name: 'W', workspace_type: 'CUSTOM', status: 'ARCHIVED' } },
    ]);
    // Archive the default workspace by fixture: no workspace resolves without the header.
    await h.control.request('POST', `/organizations/${lonely.organization.id}/fixtures`, { records: [] });
    const store = h.sandbox.runtime.store;
    const ws = store.get('workspace', lonely.organization.default_workspace_id)!;
    ws.data.status = 'ARCHIVED';
    store.update(ws);
    const error = await failure(h.clientFor(lonely.api_key.key).metrics.restoreMetric(orphan!.id));
    expect(error.status).toBe(404);
  });

  it("is 404 for another organization's metric on every metric operation", async () => {
    const metric = await newMetric();
    const other = h.clientFor((await h.control.createOrganization()).api_key.key);
    for (const call of [
      other.metrics.getMetric(metric.id),
      other.metrics.updateMetric(metric.id, { metric_name: 'stolen' }),
      other.metrics.deleteMetric(metric.id),
      other.metrics.listMetricVersions(metric.id),
      other.metrics.restoreMetric(metric.id),
    ]) {
      expect((await failure(call)).status).toBe(404);
    }
  });
});
