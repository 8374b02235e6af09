// Workspaces: lifecycle (ACTIVE/ARCHIVED visible, DELETED 404), the DEFAULT workspace is immutable (409),
// PATCH takes only display_name (1-200), the workspace header selects where workspace-scoped resources live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startHarness, type Harness } from '../support/sandbox.js';
import { recordsDecoded } from '../../src/sandbox/storage/decode-count.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

let n = 0;
const slug = (): string => `team-${++n}`;

describe('workspaces', () => {
  it('creates a CUSTOM, ACTIVE workspace and lists it with the default one', async () => {
    const { workspace } = await h.client.workspaces.createWorkspace({ slug: slug(), display_name: 'Team' });
    expect(workspace.workspace_type).toBe('CUSTOM');
    expect(workspace.status).toBe('ACTIVE');
    const { workspaces } = await h.client.workspaces.listWorkspaces();
    expect(workspaces.map((w) => w.id)).toContain(workspace.id);
    expect(workspaces.filter((w) => w.workspace_type === 'DEFAULT')).toHaveLength(1);
  });

  it('renames with display_name, 1-200 characters; any other property is 400', async () => {
    const { workspace } = await h.client.workspaces.createWorkspace({ slug: slug(), display_name: 'Before' });
    const renamed = await h.client.workspaces.updateWorkspace(workspace.id, { display_name: 'x'.repeat(200) });
    expect(renamed.workspace.display_name).toHaveLength(200);
    expect((await failure(h.client.workspaces.updateWorkspace(workspace.id, { display_name: 'x'.repeat(201) }))).details[0]?.field).toBe('display_name');
    expect((await failure(h.client.workspaces.updateWorkspace(workspace.id, { display_name: '' }))).status).toBe(400);
    const extra = await h.raw(`/workspaces/${workspace.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ display_name: 'ok', status: 'ARCHIVED' }),
    });
    expect(extra.status).toBe(400);
    const body = (await extra.json()) as { error: { code: string; details: { field: string }[] } };
    expect(body.error.code).toBe('INVALID_ARGUMENT');
    expect(JSON.stringify(body.error.details)).toContain('status');
    const missing = await h.raw(`/workspaces/${workspace.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(missing.status).toBe(400);
  });

  it('refuses to update, delete or archive the DEFAULT workspace with 409', async () => {
    const def = (await h.client.workspaces.listWorkspaces()).workspaces.find((w) => w.workspace_type === 'DEFAULT')!;
    for (const call of [
      h.client.workspaces.updateWorkspace(def.id, { display_name: 'Renamed' }),
      h.client.workspaces.deleteWorkspace(def.id),
      h.client.workspaces.archiveWorkspace(def.id),
    ]) {
      const error = await failure(call);
      expect(error.status).toBe(409);
      expect(error.code).toBe('ALREADY_EXISTS');
    }
    expect((await h.client.workspaces.getWorkspace(def.id)).workspace.display_name).toBe(def.display_name);
  });

  it('returns ARCHIVED workspaces, and soft-deletes to DELETED which is then 404', async () => {
    const { workspace } = await h.client.workspaces.createWorkspace({ slug: slug(), display_name: 'Old' });
    expect((await h.client.workspaces.archiveWorkspace(workspace.id)).workspace.status).toBe('ARCHIVED');
    expect((await h.client.workspaces.archiveWorkspace(workspace.id)).workspace.status).toBe('ARCHIVED');
    expect((await h.client.workspaces.getWorkspace(workspace.id)).workspace.status).toBe('ARCHIVED');
    const deleted = await h.client.workspaces.deleteWorkspace(workspace.id);
    expect(deleted.workspace.status).toBe('DELETED');
    expect((await failure(h.client.workspaces.getWorkspace(workspace.id))).status).toBe(404);
    expect((await failure(h.client.workspaces.deleteWorkspace(workspace.id))).status).toBe(404);
    expect((await h.client.workspaces.listWorkspaces()).workspaces.map((w) => w.id)).not.toContain(workspace.id);
  });

  it('rejects workspace ids longer than 26 characters with 400 on workspace_id', async () => {
    const error = await failure(h.client.workspaces.getWorkspace('w'.repeat(27)));
    expect(error.status).toBe(400);
    expect(error.details[0]?.field).toBe('workspace_id');
  });

  it("answers 404 for another organization's workspace", async () => {
    const other = await h.control.createOrganization();
    const error = await failure(h.client.workspaces.getWorkspace(other.organization.default_workspace_id));
    expect(error.status).toBe(404);
  });

  it('scopes workspace resources by X-Service-Workspace-Id, defaulting to the DEFAULT workspace', async () => {
    const { workspace } = await h.client.workspaces.createWorkspace({ slug: slug(), display_name: 'Scoped' });
    const scoped = h.clientFor(h.sandbox.apiKey, { workspaceId: workspace.id });
    const { dashboard } = await scoped.dashboards.createDashboard({ display_name: 'In team' } as never);
    expect((await scoped.dashboards.getDashboard(dashboard.id)).dashboard.id).toBe(dashboard.id);
    expect((await failure(h.client.dashboards.getDashboard(dashboard.id))).status).toBe(404);
    expect((await h.client.dashboards.listDashboards()).dashboards.map((d) => d.id)).not.toContain(dashboard.id);
    const unknown = await failure(h.client.dashboards.listDashboards({ headers: { 'X-Service-Workspace-Id': 'nope' } }));
    expect(unknown.status).toBe(404);
  });
});

describe('workspace create as the service client sends it', () => {
  it('answers 201; slug is optional and nullable and then made from the display name; a taken slug is 409, also after a delete', async () => {
    const raw = await h.raw('/workspaces', { method: 'POST', headers: { 'x-api-key': h.sandbox.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ display_name: 'Support Team #1' }) });
    expect(raw.status).toBe(201);
    const first = ((await raw.json()) as { workspace: { id: string; slug: string; workspace_type: string } }).workspace;
    expect(first.slug).toBe('support-team-1');
    expect(first.workspace_type).toBe('CUSTOM');
    const second = (await h.client.workspaces.createWorkspace({ display_name: 'support team 1', slug: null })).workspace;
    expect(second.slug).toBe('support-team-1-2');
    expect((await h.client.workspaces.createWorkspace({ display_name: '!!!' })).workspace.slug).toMatch(/^workspace(-\d+)?$/);
    const taken = await failure(h.client.workspaces.createWorkspace({ display_name: 'Again', slug: 'support-team-1' }));
    expect([taken.status, taken.code, taken.details[0]?.field]).toEqual([409, 'ALREADY_EXISTS', 'slug']);
    await h.client.workspaces.deleteWorkspace(second.id);
    expect((await failure(h.client.workspaces.createWorkspace({ display_name: 'Reuse', slug: 'support-team-1-2' }))).status).toBe(409);
    expect((await h.client.workspaces.createWorkspace({ display_name: 'Support team 1' })).workspace.slug).toBe('support-team-1-3');
    const missing = await failure(h.client.workspaces.createWorkspace({ slug: 'only-slug' } as never));
    expect([missing.status, missing.details[0]?.field]).toEqual([400, 'display_name']);
    expect((await failure(h.client.workspaces.createWorkspace({ display_name: 'Bad', slug: 'Not A Slug' }))).details[0]?.field).toBe('slug');
  });
});

describe('a made slug when the name was used many times', () => {
  it('resumes where the last search ended (a few lookups, not one per earlier workspace), also after deletes, and starts over after a reset', async () => {
    const org = await h.control.createOrganization();
    const c = h.clientFor(org.api_key.key);
    const made: string[] = [];
    for (let i = 0; i < 120; i++) made.push((await c.workspaces.createWorkspace({ display_name: 'Nightly' })).workspace.slug);
    expect(made.slice(0, 3)).toEqual(['nightly', 'nightly-2', 'nightly-3']);
    expect(made[119]).toBe('nightly-120');
    for (const w of (await c.workspaces.listWorkspaces()).workspaces.filter((x) => x.slug.startsWith('nightly'))) await c.workspaces.deleteWorkspace(w.id);
    // A slug the caller chose above the numbers made so far is skipped when the numbers reach it.
    await c.workspaces.createWorkspace({ display_name: 'Mine', slug: 'nightly-121' });
    const before = recordsDecoded();
    expect((await c.workspaces.createWorkspace({ display_name: 'Nightly' })).workspace.slug).toBe('nightly-122');
    expect(recordsDecoded() - before).toBeLessThan(20);
  });

  it('after a reset the numbers start again', async () => {
    await h.control.reset();
    const org = await h.control.createOrganization();
    const c = h.clientFor(org.api_key.key);
    expect((await c.workspaces.createWorkspace({ display_name: 'Nightly' })).workspace.slug).toBe('nightly');
  });
});

describe('control plane: fixtures changed or removed, the default workspace archived', () => {
  it('deactivates a run template so that its agent can be deleted, and removes a record for good', async () => {
    const org = await h.control.createOrganization();
    const c = h.clientFor(org.api_key.key);
    const { agent } = await c.agents.createAgent({ display_name: 'Guarded', model_type: 'MODEL_TYPE_CHAT' });
    const [template] = await h.control.loadFixtures(org.organization.id, [{ kind: 'run_template', data: { agent_id: agent.id, active: true } }]);
    expect((await failure(c.agents.deleteAgent(agent.id))).details[0]?.field).toBe('agent_id');
    const changed = await h.control.changeFixture(org.organization.id, 'run_template', template!.id, { data: { active: false } });
    expect(changed).toMatchObject({ kind: 'run_template', id: template!.id, deleted: false, data: { agent_id: agent.id, active: false } });
    expect(await c.agents.deleteAgent(agent.id)).toEqual({});
    // A record made through the API: soft-deleted and restored, then removed (404 after, and for another organization).
    const { tag } = await c.tags.createTag({ tag_name: 'fixture-tag' });
    await h.control.changeFixture(org.organization.id, 'tag', tag.id, { deleted: true });
    expect((await failure(c.tags.getTag(tag.id))).status).toBe(404);
    await h.control.changeFixture(org.organization.id, 'tag', tag.id, { deleted: false, data: { color: '#abcdef' } });
    expect((await c.tags.getTag(tag.id)).tag.color).toBe('#abcdef');
    const foreign = await h.control.request('DELETE', `/organizations/${h.sandbox.organizationId}/fixtures/tag/${tag.id}`);
    expect(foreign.status).toBe(404);
    await h.control.removeFixture(org.organization.id, 'tag', tag.id);
    expect((await failure(c.tags.getTag(tag.id))).status).toBe(404);
    expect((await c.tags.createTag({ tag_name: 'fixture-tag' })).tag.tag_name).toBe('fixture-tag');
    const again = await h.control.request('DELETE', `/organizations/${org.organization.id}/fixtures/tag/${tag.id}`);
    expect(again.status).toBe(404);
    const unknownKind = await h.control.request('PATCH', `/organizations/${org.organization.id}/fixtures/nothing/x`, { data: {} });
    expect(unknownKind.status).toBe(400);
    const badData = await h.control.request('PATCH', `/organizations/${org.organization.id}/fixtures/tag/x`, { data: [] });
    expect(((await badData.json()) as { error: { details: { field: string }[] } }).error.details[0]?.field).toBe('data');
    const idChange = await h.control.request('PATCH', `/organizations/${org.organization.id}/fixtures/run_template/${template!.id}`, { data: { id: 'other' } });
    expect(idChange.status).toBe(400);
  });

  it('archives the DEFAULT workspace, which the API refuses; calls without the workspace header then resolve no workspace', async () => {
    const org = await h.control.createOrganization();
    const c = h.clientFor(org.api_key.key);
    const id = org.organization.default_workspace_id;
    expect((await failure(c.workspaces.archiveWorkspace(id))).status).toBe(409);
    const { metric } = await c.metrics.createMetric({ metric_name: 'Restorable', description: 'r', metric_type: 'METRIC_LLM_BINARY', prompt: 'r' });
    await c.metrics.deleteMetric(metric.id);
    const archived = await h.control.archiveDefaultWorkspace(org.organization.id);
    expect(archived).toMatchObject({ id, status: 'ARCHIVED', workspace_type: 'DEFAULT' });
    expect(await h.control.archiveDefaultWorkspace(org.organization.id)).toEqual(archived);
    expect((await c.workspaces.getWorkspace(id)).workspace.status).toBe('ARCHIVED');
    // Metric restore needs a workspace: without the header none resolves now (seed: 404).
    const restore = await failure(c.metrics.restoreMetric(metric.id));
    expect([restore.status, restore.details[0]?.field]).toEqual([404, 'X-Service-Workspace-Id']);
    expect((await c.metrics.restoreMetric(metric.id, { headers: { 'X-Service-Workspace-Id': id } })).metric.id).toBe(metric.id);
    expect((await h.control.request('POST', '/organizations/nope/default-workspace/archive')).status).toBe(404);
  });
});
