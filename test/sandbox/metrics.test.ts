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

describe('metric revert, duplicate, recently deleted, tags and catalog (issue 15)', () => {
  it('reverts to an earlier version as a new revert version; reverting to the live version is 400', async () => {
    const metric = await newMetric('First prompt');
    await h.client.metrics.updateMetric(metric.id, { prompt: 'Second prompt' });
    const { versions } = await h.client.metrics.listMetricVersions(metric.id);
    const first = versions.find((v) => v.version_number === 1)!;
    const reverted = (await h.client.metrics.revertMetricVersion(metric.id, first.ulid)).metric;
    expect(reverted.prompt).toBe('First prompt');
    expect(reverted.current_version).toMatchObject({ version_number: 3, change_type: 'revert' });
    const again = await failure(h.client.metrics.revertMetricVersion(metric.id, reverted.current_version!.ulid));
    expect(again.status).toBe(400);
    expect(again.details.map((d) => d.field)).toContain('version_id');
  });

  it('duplicates under a new id with " (copy)" names and a first version of its own', async () => {
    const metric = await newMetric('Copy this prompt');
    const copy = (await h.client.metrics.duplicateMetric(metric.id)).metric;
    expect(copy.id).not.toBe(metric.id);
    expect(copy.metric_name).toBe('Greeting (copy)');
    expect(copy.prompt).toBe('Copy this prompt');
    expect(copy.current_version).toMatchObject({ version_number: 1, change_type: 'save' });
    expect((await h.client.metrics.listMetricVersions(copy.id)).versions).toHaveLength(1);
    const copied = (await h.client.metrics.duplicateMetric(copy.id)).metric;
    expect(copied.metric_name).toBe('Greeting (copy) (copy)');
    expect((await failure(h.client.metrics.duplicateMetric('AAAAAAAAAAAAAAAAAAAAAA'))).status).toBe(404);
  });

  it('lists deleted metrics with delete_time, deleted_by and a purge_time 30 days later', async () => {
    const metric = await newMetric();
    await h.client.metrics.deleteMetric(metric.id);
    const item = (await h.client.metrics.listRecentlyDeletedMetrics()).metrics.find((m) => m.id === metric.id)!;
    expect(item).toMatchObject({ name: `metrics/${metric.id}`, metric_name: 'Greeting' });
    expect(typeof item.deleted_by).toBe('string');
    expect(Date.parse(item.purge_time!) - Date.parse(item.delete_time!)).toBe(30 * 86_400_000);
  });

  it('GET /metrics/tags lists the tags the metrics carry; template variables and models are served', async () => {
    await h.client.metrics.createMetric({ metric_name: 'Tagged', description: 'd', metric_type: 'METRIC_LLM_BINARY', prompt: 'p', tags: ['metric-tag-b', 'metric-tag-a'] });
    const { tags } = await h.client.metrics.listMetricTags();
    const names = tags.map((t) => t.tag);
    expect(names.indexOf('metric-tag-a')).toBeLessThan(names.indexOf('metric-tag-b'));
    expect(tags.find((t) => t.tag === 'metric-tag-a')).toEqual({ tag: 'metric-tag-a', color: null });
    const vars = await h.client.metrics.listMetricTemplateVariables();
    expect(vars.categories.length).toBeGreaterThan(0);
    for (const c of vars.categories) expect(c.example_keys.length).toBeGreaterThan(0);
    const { models } = await h.client.metrics.listMetricModels();
    expect(new Set(models.map((m) => m.provider))).toEqual(new Set(['openai', 'anthropic', 'google']));
  });
});

describe('metric thresholds (issue 15)', () => {
  it('answers an all-null threshold at first; POST adds the current one; PATCH changes it; DELETE falls back to the previous one', async () => {
    const metric = await newMetric();
    expect((await h.client.metrics.getMetricThreshold(metric.id)).threshold).toEqual({
      name: `metrics/${metric.id}/threshold`,
      metric_id: metric.id,
      comparison_operator: null,
      target_float_upper: null,
      target_float_lower: null,
      target_values: null,
      source: null,
      create_time: null,
      update_time: null,
    });
    const first = (await h.client.metrics.createMetricThreshold(metric.id, { comparison_operator: 'gte', target_float_lower: 0.5 })).threshold;
    expect(first).toMatchObject({ name: `metrics/${metric.id}/threshold`, comparison_operator: 'gte', target_float_lower: 0.5, source: 'manual', metric_id: metric.id });
    const second = (await h.client.metrics.createMetricThreshold(metric.id, { comparison_operator: 'bt', target_float_lower: 0.2, target_float_upper: 0.8 })).threshold;
    expect((await h.client.metrics.getMetricThreshold(metric.id)).threshold.id).toBe(second.id);
    const patched = (await h.client.metrics.updateMetricThreshold(metric.id, { comparison_operator: 'lt', target_float_lower: null })).threshold;
    expect(patched).toMatchObject({ id: second.id, comparison_operator: 'lt', target_float_upper: 0.8 });
    expect(patched.target_float_lower).toBeUndefined();
    expect((await h.client.metrics.listMetricThresholds(metric.id)).thresholds.map((t) => t.id)).toEqual([first.id, second.id]);
    expect(await h.client.metrics.deleteMetricThreshold(metric.id, second.id!)).toEqual({});
    expect((await h.client.metrics.getMetricThreshold(metric.id)).threshold.id).toBe(first.id);
    expect((await failure(h.client.metrics.deleteMetricThreshold(metric.id, second.id!))).status).toBe(404);
  });

  it('PATCH creates the threshold when there is none; another metric path or bad input is refused', async () => {
    const metric = await newMetric();
    const created = (await h.client.metrics.updateMetricThreshold(metric.id, { comparison_operator: 'eq', target_values: ['yes'] })).threshold;
    expect(created).toMatchObject({ comparison_operator: 'eq', target_values: ['yes'] });
    const otherMetric = await newMetric();
    const wrong = await failure(h.client.metrics.deleteMetricThreshold(otherMetric.id, created.id!));
    expect(wrong.status).toBe(404);
    expect(wrong.details.map((d) => d.field)).toContain('threshold_id');
    const bad = await failure(h.client.metrics.createMetricThreshold(metric.id, { comparison_operator: 'between' as 'bt' }));
    expect(bad.status).toBe(400);
    expect(bad.details.map((d) => d.field)).toContain('comparison_operator');
    expect((await failure(h.client.metrics.listMetricThresholds('AAAAAAAAAAAAAAAAAAAAAA'))).status).toBe(404);
  });
});

describe('metric flows (issue 15)', () => {
  it('creates, lists with filters, replaces and deletes a flow', async () => {
    const trigger = await h.client.metrics.createMetric({ metric_name: 'Escalation asked', description: 'd', metric_type: 'METRIC_LLM_BINARY', prompt: 'p' });
    const followup = await h.client.metrics.createMetric({ metric_name: 'Escalation handled', description: 'd', metric_type: 'METRIC_LLM_BINARY', prompt: 'p' });
    const flow = (await h.client.metrics.createMetricFlow({ trigger_metric_id: trigger.metric.id, followup_metric_id: followup.metric.id, trigger_criteria: { equals: true } })).metric_flow;
    expect(flow).toMatchObject({
      status: 'ACTIVE',
      name: `metrics/flows/${flow.id}`,
      trigger_metric_name: `metrics/${trigger.metric.id}`,
      trigger_metric_display_name: 'Escalation asked',
      followup_metric_display_name: 'Escalation handled',
    });
    const same = await failure(h.client.metrics.createMetricFlow({ trigger_metric_id: trigger.metric.id, followup_metric_id: trigger.metric.id }));
    expect(same.status).toBe(400);
    expect(same.details.map((d) => d.field)).toContain('followup_metric_id');
    const unknown = await failure(h.client.metrics.createMetricFlow({ trigger_metric_id: 'AAAAAAAAAAAAAAAAAAAAAA', followup_metric_id: followup.metric.id }));
    expect(unknown.status).toBe(404);
    expect(unknown.details.map((d) => d.field)).toContain('trigger_metric_id');

    expect((await h.client.metrics.listMetricFlows({ query: { search_query: 'ESCALATION ASKED' } })).metric_flows.map((f) => f.id)).toEqual([flow.id]);
    const replaced = (await h.client.metrics.updateMetricFlow(flow.id, { trigger_metric_id: trigger.metric.id, followup_metric_id: followup.metric.id, status: 'INACTIVE' })).metric_flow;
    expect(replaced.status).toBe('INACTIVE');
    expect(replaced.trigger_criteria).toBeUndefined();
    expect((await h.client.metrics.listMetricFlows({ query: { status_filter: 'ACTIVE' } })).metric_flows.map((f) => f.id)).not.toContain(flow.id);
    expect((await h.client.metrics.listMetricFlows({ query: { status_filter: 'INACTIVE' } })).metric_flows.map((f) => f.id)).toContain(flow.id);
    expect(await h.client.metrics.deleteMetricFlow(flow.id)).toEqual({});
    expect((await h.client.metrics.listMetricFlows()).metric_flows.map((f) => f.id)).not.toContain(flow.id);
    expect((await failure(h.client.metrics.deleteMetricFlow(flow.id))).status).toBe(404);
  });
});
