// Test sets (a version captures configuration + ordered test-case grid; edits saved together give one
// version, unchanged content none), review disagreement state, dashboards (delete 200 {}, 404 elsewhere).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

let n = 0;
async function newTestSet() {
  return (await h.client.testSets.createTestSet({ display_name: `Set ${++n}` })).test_set;
}

describe('test sets', () => {
  it('starts at version 1 with an empty grid', async () => {
    const set = await newTestSet();
    expect(set.id).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(set.test_case_count).toBe(0);
    expect(set.current_version).toMatchObject({ version_number: 1 });
  });

  it('records one version for a grid saved in one PATCH, and none when the content is unchanged', async () => {
    const set = await newTestSet();
    const grid = [{ input_str: 'Hi' }, { input_str: 'Cancel my order', expected_output: 'Cancelled' }, { input_str: 'Bye' }];
    const saved = (await h.client.testSets.updateTestSet(set.id, { test_cases: grid })).test_set;
    expect(saved.current_version).toMatchObject({ version_number: 2 });
    expect(saved.test_case_count).toBe(3);
    const resaved = (await h.client.testSets.updateTestSet(set.id, { test_cases: grid })).test_set;
    expect(resaved.current_version).toEqual(saved.current_version);
    await h.client.testSets.updateTestSet(set.id, { display_name: 'Renamed set' });
    const { versions } = await h.client.testSets.listTestSetVersions(set.id);
    expect(versions.map((v) => v.version_number)).toEqual([2, 1]);
    expect(versions[0]!.test_cases.map((c) => c.input_str)).toEqual(['Hi', 'Cancel my order', 'Bye']);
    expect(versions[1]!.test_cases).toEqual([]);
  });

  it('snapshots the grid in order when test cases are added, edited and removed one by one', async () => {
    const set = await newTestSet();
    const a = (await h.client.testCases.createTestCase({ test_set_id: set.id, input_str: 'A' })).test_case;
    const b = (await h.client.testCases.createTestCase({ test_set_id: set.id, input_str: 'B' })).test_case;
    expect(b.position).toBe(1);
    await h.client.testCases.updateTestCase(a.id, { input_str: 'A2' });
    await h.client.testCases.deleteTestCase(b.id);
    const { versions } = await h.client.testSets.listTestSetVersions(set.id);
    expect(versions.map((v) => v.test_cases.map((c) => c.input_str))).toEqual([['A2'], ['A2', 'B'], ['A', 'B'], ['A'], []]);
    expect((await h.client.testSets.getTestSet(set.id)).test_set.test_case_count).toBe(1);
  });

  it('keeps answering after the control plane removes a test set or a grid row for good (never a 500)', async () => {
    const org = await h.control.createOrganization();
    const c = h.clientFor(org.api_key.key);
    // A test set removed for good: its test cases stay editable, with no grid to refresh.
    const gone = (await c.testSets.createTestSet({ display_name: 'Removed set' })).test_set;
    const orphan = (await c.testCases.createTestCase({ test_set_id: gone.id, input_str: 'A' })).test_case;
    await h.control.removeFixture(org.organization.id, 'test_set', gone.id);
    expect((await c.testCases.updateTestCase(orphan.id, { input_str: 'A2' })).test_case.input_str).toBe('A2');
    // A row of a saved grid removed for good: a revert to that grid brings back the rows that still exist.
    const set = (await c.testSets.createTestSet({ display_name: 'Kept set' })).test_set;
    const a = (await c.testCases.createTestCase({ test_set_id: set.id, input_str: 'A' })).test_case;
    const b = (await c.testCases.createTestCase({ test_set_id: set.id, input_str: 'B' })).test_case;
    const withBoth = (await c.testSets.listTestSetVersions(set.id)).versions[0]!;
    await c.testCases.deleteTestCase(a.id);
    await h.control.removeFixture(org.organization.id, 'test_case', b.id);
    const reverted = await c.testSets.revertTestSetVersion(set.id, withBoth.ulid);
    expect(reverted.test_set.test_cases?.map((row) => row.id)).toEqual([a.id]);
  });

  it('refuses a test case for a missing test set with 404 on test_set_id', async () => {
    const error = await failure(h.client.testCases.createTestCase({ test_set_id: 'ZZZZZZZZ', input_str: 'x' }));
    expect(error.status).toBe(404);
  });

  it('refuses a duplicate display_name among active test sets of the workspace (409)', async () => {
    await h.client.testSets.createTestSet({ display_name: 'Unique set' });
    expect((await failure(h.client.testSets.createTestSet({ display_name: 'Unique set' }))).status).toBe(409);
  });
});

describe('review projects: disagreement state', () => {
  const ulids = ['01HZY00000000000000000000A', '01HZY00000000000000000000B', '01HZY00000000000000000000C'];
  const sims = ['S'.repeat(22), 'T'.repeat(22), 'U'.repeat(24)];

  beforeAll(async () => {
    await h.control.loadFixtures(h.sandbox.organizationId, [
      { kind: 'review-project', id: ulids[0], data: { display_name: 'Strict', project_rules: ['require_disagreement_notes'] } },
      { kind: 'review-project', id: ulids[1], data: { display_name: 'Also strict', project_rules: ['require_disagreement_notes'] } },
      { kind: 'review-project', id: ulids[2], data: { display_name: 'Lenient', project_rules: null } },
      { kind: 'annotation', id: 'ann-1', data: { project_id: ulids[0], simulation_id: sims[0], disagreement: true, resolved: false } },
      { kind: 'annotation', id: 'ann-2', data: { project_id: ulids[0], simulation_id: sims[0], disagreement: true, resolved: false } },
      { kind: 'annotation', id: 'ann-3', data: { project_id: ulids[0], simulation_id: sims[1], disagreement: true, resolved: true } },
      { kind: 'annotation', id: 'ann-4', data: { project_id: ulids[1], simulation_id: sims[2], disagreement: true, resolved: false } },
      { kind: 'annotation', id: 'ann-5', data: { project_id: ulids[2], simulation_id: sims[2], disagreement: true, resolved: false } },
    ]);
  });

  it('reports counts only, for projects with require_disagreement_notes only', async () => {
    const { projects } = await h.client.reviewProjects.getReviewDisagreementState({ project_ids: ulids });
    expect(projects).toEqual([
      { project_id: ulids[0], unresolved_simulation_count: 1 },
      { project_id: ulids[1], unresolved_simulation_count: 1 },
    ]);
  });

  it('lists ids with include_unresolved_ids, limited to selected_project_id when given', async () => {
    const all = await h.client.reviewProjects.getReviewDisagreementState({ project_ids: ulids, include_unresolved_ids: true });
    expect(all.projects[0]).toEqual({ project_id: ulids[0], unresolved_simulation_count: 1, unresolved_simulation_ids: [sims[0]], unresolved_annotation_ids: ['ann-1', 'ann-2'] });
    const one = await h.client.reviewProjects.getReviewDisagreementState({ project_ids: ulids, include_unresolved_ids: true, selected_project_id: ulids[1] });
    expect(one.projects[0]!.unresolved_simulation_ids).toBeUndefined();
    expect(one.projects[1]!.unresolved_simulation_ids).toEqual([sims[2]]);
  });

  it('validates 1-1000 ULIDs and needs the reviews permission', async () => {
    expect((await failure(h.client.reviewProjects.getReviewDisagreementState({ project_ids: [] }))).status).toBe(400);
    expect((await failure(h.client.reviewProjects.getReviewDisagreementState({ project_ids: Array(1001).fill(ulids[0]) }))).details[0]?.field).toBe('project_ids');
    expect((await failure(h.client.reviewProjects.getReviewDisagreementState({ project_ids: ['not-a-ulid'] }))).status).toBe(400);
    const key = await h.control.createApiKey(h.sandbox.organizationId, ['tags:read']);
    const denied = await failure(h.clientFor(key.key).reviewProjects.getReviewDisagreementState({ project_ids: ulids }));
    expect(denied.status).toBe(403);
    expect(denied.message).toContain('reviews');
  });

  it("leaves out another organization's projects", async () => {
    const other = h.clientFor((await h.control.createOrganization()).api_key.key);
    expect((await other.reviewProjects.getReviewDisagreementState({ project_ids: ulids })).projects).toEqual([]);
  });
});

describe('review projects', () => {
  async function scene() {
    const org = await h.control.createOrganization();
    const c = h.clientFor(org.api_key.key);
    const metric = async (name: string) => (await c.metrics.createMetric({ metric_name: name, description: name, metric_type: 'METRIC_LLM_BINARY', prompt: name })).metric.id;
    const [m1, m2] = [await metric('Tone'), await metric('Accuracy')];
    const sims = (await h.control.loadFixtures(org.organization.id, [1, 2, 3].map((i) => ({ kind: 'simulation', data: { status: 'COMPLETED', create_time: `2026-01-0${i}T00:00:00.000Z` } })))).map((r) => r.id);
    return { org, c, m1: m1!, m2: m2!, sims };
  }

  it('create with the service body (201), read, list, update and delete (then 404)', async () => {
    const { c, m1, m2, sims } = await scene();
    const created = await c.reviewProjects.createReviewProject({ display_name: 'Q1 review', assignees: ['a@example.com', 'b@example.com'], linked_simulation_ids: [sims[0]!], linked_metric_ids: [m1], project_rules: ['require_disagreement_notes'] });
    const p = created.review_project;
    expect(p).toMatchObject({ display_name: 'Q1 review', project_type: 'PROJECT_COLLABORATIVE', notifications: false, linked_simulation_ids: [sims[0]], project_rules: ['require_disagreement_notes'] });
    expect(p.name).toBe(`review-projects/${p.id}`);
    expect(p.update_time).toBe(p.create_time);
    expect((await c.reviewProjects.getReviewProject(p.id)).review_project).toEqual(p);
    expect((await c.reviewProjects.listReviewProjects()).review_projects.map((x) => x.id)).toEqual([p.id]);
    const updated = (
      await c.reviewProjects.updateReviewProject(p.id, {
        description: 'first quarter',
        add_linked_simulation_ids: [sims[1]!, sims[0]!],
        remove_linked_simulation_ids: [sims[0]!],
        linked_metric_ids: [m1, m2],
        blind_labeling_shown_metric_ids: [m2],
        opted_out_assignees: ['B@example.com'],
        display_name: null,
      })
    ).review_project;
    expect(updated).toMatchObject({ display_name: 'Q1 review', description: 'first quarter', linked_simulation_ids: [sims[1]], linked_metric_ids: [m1, m2], assignees: ['a@example.com'], blind_labeling_shown_metric_ids: [m2] });
    expect(updated).not.toHaveProperty('add_linked_simulation_ids');
    const cleared = (await c.reviewProjects.updateReviewProject(p.id, { description: null, project_rules: null })).review_project;
    expect(cleared).not.toHaveProperty('description');
    expect(cleared).not.toHaveProperty('project_rules');
    expect(await c.reviewProjects.deleteReviewProject(p.id)).toEqual({});
    expect((await failure(c.reviewProjects.getReviewProject(p.id))).status).toBe(404);
    expect((await failure(c.reviewProjects.deleteReviewProject(p.id))).status).toBe(404);
    expect((await c.reviewProjects.getReviewDisagreementState({ project_ids: [p.id] })).projects).toEqual([]);
  });

  it('refuse bad input: 400 naming the field, 404 on unknown or foreign ids', async () => {
    const { c, m1, sims } = await scene();
    const body = { display_name: 'R', assignees: ['a@example.com'], linked_simulation_ids: [sims[0]!], linked_metric_ids: [m1] };
    const missing = await failure(c.reviewProjects.createReviewProject({ display_name: 'R' } as never));
    expect(missing.details.map((d) => d.field).sort()).toEqual(['assignees', 'linked_metric_ids', 'linked_simulation_ids']);
    expect((await failure(c.reviewProjects.createReviewProject({ ...body, assignees: ['not an address'] }))).details[0]?.field).toBe('assignees[0]');
    expect((await failure(c.reviewProjects.createReviewProject({ ...body, project_type: 'PROJECT_SOLO' as never }))).details[0]?.field).toBe('project_type');
    const sim = await failure(c.reviewProjects.createReviewProject({ ...body, linked_simulation_ids: [sims[0]!, 'nope'] }));
    expect([sim.status, sim.details[0]?.field]).toEqual([404, 'linked_simulation_ids[1]']);
    const metric = await failure(c.reviewProjects.createReviewProject({ ...body, linked_metric_ids: ['Z'.repeat(22)] }));
    expect([metric.status, metric.details[0]?.field]).toEqual([404, 'linked_metric_ids[0]']);
    const blind = await failure(c.reviewProjects.createReviewProject({ ...body, blind_labeling_shown_metric_ids: [m1, m1] }));
    expect(blind.status).toBe(400);
    const { review_project } = await c.reviewProjects.createReviewProject(body);
    const { metric: other } = await c.metrics.createMetric({ metric_name: 'Other', description: 'o', metric_type: 'METRIC_LLM_BINARY', prompt: 'o' });
    const notLinked = await failure(c.reviewProjects.updateReviewProject(review_project.id, { blind_labeling_shown_metric_ids: [other.id] }));
    expect([notLinked.status, notLinked.details[0]?.field]).toEqual([400, 'blind_labeling_shown_metric_ids[0]']);
    // Another organization's project and simulations are not there.
    expect((await failure(h.client.reviewProjects.getReviewProject(review_project.id))).status).toBe(404);
    expect((await failure(h.client.reviewProjects.getReviewProjectProgress(review_project.id))).status).toBe(404);
    const foreign = await failure(h.client.reviewProjects.createReviewProject({ ...body, linked_metric_ids: [] }));
    expect([foreign.status, foreign.details[0]?.field]).toEqual([404, 'linked_simulation_ids[0]']);
  });

  it('compute progress, metric agreement and insights from the annotations', async () => {
    const { org, c, m1, m2, sims } = await scene();
    const base = { display_name: 'Labels', assignees: ['a@example.com', 'b@example.com'], linked_simulation_ids: sims.slice(0, 2), linked_metric_ids: [m1, m2] };
    const collab = (await c.reviewProjects.createReviewProject(base)).review_project;
    const solo = (await c.reviewProjects.createReviewProject({ ...base, project_type: 'PROJECT_INDIVIDUAL' })).review_project;
    const label = (project: string, sim: string, metric: string, reviewer: string, value: unknown, at: string) => ({
      kind: 'annotation',
      data: { project_id: project, simulation_id: sim, metric_id: metric, reviewer, label: value, create_time: at },
    });
    const [s1, s2, s3] = sims as [string, string, string];
    await h.control.loadFixtures(org.organization.id, [
      label(collab.id, s1, m1, 'a@example.com', 'good', '2026-02-01T00:00:00Z'),
      label(collab.id, s1, m1, 'b@example.com', 'good', '2026-02-02T00:00:00Z'),
      label(collab.id, s2, m1, 'a@example.com', 'good', '2026-02-03T00:00:00Z'),
      label(collab.id, s2, m1, 'b@example.com', 'bad', '2026-02-04T00:00:00Z'),
      label(collab.id, s1, m2, 'a@example.com', 1, '2026-03-01T00:00:00Z'),
      label(collab.id, s3, m2, 'a@example.com', 0, '2026-03-02T00:00:00Z'),
      label(solo.id, s1, m1, 'a@example.com', 'good', '2026-02-01T00:00:00Z'),
      label(solo.id, s1, m1, 'c@example.com', 'good', '2026-02-01T00:00:00Z'),
      { kind: 'annotation', data: { project_id: solo.id, simulation_id: s2, metric_id: m2, reviewer: 'b@example.com', disagreement: true } },
    ]);
    // Collaborative: 2 simulations × 2 metrics; (s1,m1), (s2,m1), (s1,m2) labeled; s3 is not linked.
    expect(await c.reviewProjects.getReviewProjectProgress(collab.id)).toEqual({
      project_id: collab.id, display_name: 'Labels', project_type: 'PROJECT_COLLABORATIVE', simulation_count: 2, metric_count: 2, assignee_count: 2, total_tasks: 4, completed_tasks: 3, completion_percentage: 75,
    });
    // Individual: × 2 assignees; only a@'s label counts (c@ is not assigned, b@'s annotation has no label).
    expect(await c.reviewProjects.getReviewProjectProgress(solo.id)).toMatchObject({ total_tasks: 8, completed_tasks: 1, completion_percentage: 12.5 });
    expect((await c.reviewProjects.getReviewProjectMetricAgreement(collab.id)).agreement_by_metric_id).toEqual({
      [m1]: { metric_id: m1, agreements: 1, disagreements: 1, agreement_rate: 0.5 },
      [m2]: { metric_id: m2, agreements: 0, disagreements: 0, agreement_rate: 0 },
    });
    const feb = await c.reviewProjects.getReviewProjectInsights(collab.id, { query: { start_date: '2026-02-01T00:00:00Z', end_date: '2026-02-28T23:59:59Z' } });
    expect(feb.project).toEqual({ ulid: collab.id, name: `review-projects/${collab.id}`, linked_metric_ids: [m1, m2], review_label_options: ['0', '1', 'bad', 'good'] });
    expect(feb.label_overview).toEqual({ total_labels: 4, labeled_simulations: 2, reviewers: 2, disagreements: 0, unresolved_disagreements: 0 });
    expect(feb.label_stats).toEqual([{ label: 'good', count: 3 }, { label: 'bad', count: 1 }]);
    const linked = { conversations: 2, criteria_agreement: null, simulation_output_ids: [s1, s2] };
    expect(feb.metric_stats).toEqual([
      { metric_id: m1, label_count: 4, labeled_simulations: 2, agreements: 1, disagreements: 1, agreement_rate: 0.5, ...linked, annotations: 4, not_reviewed: 0, unknown: 0, agreement_simulation_output_ids: [s1], disagreement_simulation_output_ids: [s2], not_reviewed_simulation_output_ids: [], unknown_simulation_output_ids: [] },
      { metric_id: m2, label_count: 0, labeled_simulations: 0, agreements: 0, disagreements: 0, agreement_rate: 0, ...linked, annotations: 0, not_reviewed: 2, unknown: 0, agreement_simulation_output_ids: [], disagreement_simulation_output_ids: [], not_reviewed_simulation_output_ids: [s1, s2], unknown_simulation_output_ids: [] },
    ]);
    // By the simulations' own times (January), the February window holds nothing; January holds every label.
    const bySim = await c.reviewProjects.getReviewProjectInsights(collab.id, { query: { start_date: '2026-02-01T00:00:00Z', end_date: '2026-02-28T00:00:00Z', label_triage_time_basis: 'simulation' } });
    expect(bySim.label_overview.total_labels).toBe(0);
    const jan = await c.reviewProjects.getReviewProjectInsights(collab.id, { query: { start_date: '2026-01-01T00:00:00Z', end_date: '2026-01-31T00:00:00Z', label_triage_time_basis: 'simulation' } });
    expect(jan.label_overview.total_labels).toBe(6);
    const backwards = await failure(c.reviewProjects.getReviewProjectInsights(collab.id, { query: { start_date: '2026-02-01T00:00:00Z', end_date: '2026-01-01T00:00:00Z' } }));
    expect([backwards.status, backwards.details[0]?.field]).toEqual([400, 'end_date']);
    const noStart = await failure(c.reviewProjects.getReviewProjectInsights(collab.id, { query: { end_date: '2026-01-01T00:00:00Z' } as never }));
    expect([noStart.status, noStart.details[0]?.field]).toEqual([400, 'start_date']);
  });
});

describe('dashboards', () => {
  it('take null as the service client sends it: is_default null on create is false; null on update keeps a field, except description, which it clears', async () => {
    const { dashboard } = await h.client.dashboards.createDashboard({ display_name: 'Nulls', description: 'about', is_default: null });
    expect(dashboard.is_default).toBe(false);
    const updated = (await h.client.dashboards.updateDashboard(dashboard.id, { display_name: null, is_favorite: null, position: null, config: null, description: null })).dashboard;
    expect(updated).toMatchObject({ display_name: 'Nulls', is_favorite: false, position: 0, config: {} });
    expect(updated).not.toHaveProperty('description');
  });

  it('deletes with 200 {}; a second delete, a missing one and another organization’s are 404', async () => {
    const { dashboard } = await h.client.dashboards.createDashboard({ display_name: 'Ops' });
    expect(dashboard.id).toMatch(/^[A-Za-z0-9]{22}$/);
    const other = h.clientFor((await h.control.createOrganization()).api_key.key);
    expect((await failure(other.dashboards.deleteDashboard(dashboard.id))).status).toBe(404);
    expect(await h.client.dashboards.deleteDashboard(dashboard.id)).toEqual({});
    expect((await failure(h.client.dashboards.deleteDashboard(dashboard.id))).status).toBe(404);
    expect((await failure(h.client.dashboards.deleteDashboard('N'.repeat(22)))).status).toBe(404);
  });
});

describe('test-set revert, duplicate, agents and records (issue 15)', () => {
  it('reverts configuration and grid to an earlier version; the rows follow', async () => {
    const set = await newTestSet();
    await h.client.testSets.updateTestSet(set.id, { test_cases: [{ input_str: 'A' }, { input_str: 'B' }] });
    const v2 = (await h.client.testSets.getTestSet(set.id)).test_set.current_version!;
    await h.client.testSets.updateTestSet(set.id, { test_cases: [{ input_str: 'C' }] });
    const reverted = (await h.client.testSets.revertTestSetVersion(set.id, v2.ulid)).test_set;
    expect(reverted.current_version).toMatchObject({ version_number: 4, change_type: 'revert' });
    expect(reverted.test_case_count).toBe(2);
    expect(reverted.test_cases!.map((c) => c.input_str)).toEqual(['A', 'B']);
    const rows = (await h.client.testSets.listTestSetRecords(set.id)).records;
    expect(rows.map((r) => r.input)).toEqual(['A', 'B']);
    expect(rows.map((r) => r.id)).toEqual(reverted.test_cases!.map((c) => c.id));
    const again = await failure(h.client.testSets.revertTestSetVersion(set.id, reverted.current_version!.ulid));
    expect(again.status).toBe(400);
  });

  it('duplicates with a new id, " (copy)" names, its own test cases and its own first version', async () => {
    const set = (await h.client.testSets.createTestSet({ display_name: `Dup ${++n}`, slug: `dup-${n}`, test_set_type: 'SCENARIO', tags: ['t'] })).test_set;
    await h.client.testSets.updateTestSet(set.id, { test_cases: [{ input_str: 'One', expected_output: 'Uno' }] });
    const copy = (await h.client.testSets.duplicateTestSet(set.id)).test_set;
    expect(copy.id).not.toBe(set.id);
    expect(copy).toMatchObject({ display_name: `${set.display_name} (copy)`, slug: `${set.slug} (copy)`, test_set_type: 'SCENARIO', tags: ['t'], test_case_count: 1 });
    expect(copy.current_version).toMatchObject({ version_number: 1 });
    const [source] = (await h.client.testSets.listTestSetRecords(set.id)).records;
    const [copied] = (await h.client.testSets.listTestSetRecords(copy.id)).records;
    expect(copied).toMatchObject({ input: 'One', expected_output: 'Uno', test_set_id: copy.id });
    expect(copied!.id).not.toBe(source!.id);
    // A second copy does not clash with the first on the unique display_name and slug.
    expect((await h.client.testSets.duplicateTestSet(set.id)).test_set.display_name).toBe(`${set.display_name} (copy 2)`);
  });

  it('attaches and detaches agents through their test_set_ids', async () => {
    const set = await newTestSet();
    const agent = (await h.client.agents.createAgent({ display_name: 'Linked bot', model_type: 'MODEL_TYPE_CHAT' })).agent;
    expect((await h.client.testSets.listTestSetAgents(set.id)).agents).toEqual([]);
    const added = await h.client.testSets.addTestSetAgents(set.id, { agent_ids: [agent.id, agent.id] });
    expect(added.agents).toEqual([{ name: `agents/${agent.id}`, agent_id: agent.id, display_name: 'Linked bot' }]);
    expect((await h.client.agents.getAgent(agent.id)).agent.test_set_ids).toEqual([set.id]);
    const unknown = await failure(h.client.testSets.addTestSetAgents(set.id, { agent_ids: ['AAAAAAAAAAAAAAAAAAAAAA'] }));
    expect(unknown.status).toBe(404);
    expect(unknown.details.map((d) => d.field)).toContain('agent_ids');
    expect(await h.client.testSets.removeTestSetAgent(set.id, agent.id)).toEqual({});
    expect((await h.client.agents.getAgent(agent.id)).agent.test_set_ids).toEqual([]);
    expect(await h.client.testSets.removeTestSetAgent(set.id, agent.id)).toEqual({});
    expect((await failure(h.client.testSets.removeTestSetAgent(set.id, 'AAAAAAAAAAAAAAAAAAAAAA'))).status).toBe(404);
    expect((await failure(h.client.testSets.listTestSetAgents('ZZZZZZZZ'))).status).toBe(404);
    const empty = await failure(h.client.testSets.addTestSetAgents(set.id, { agent_ids: [] }));
    expect(empty.status).toBe(400);
  });
});
