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
      { kind: 'review-project', id: ulids[0], data: { display_name: 'Strict', rules: ['require_disagreement_notes'] } },
      { kind: 'review-project', id: ulids[1], data: { display_name: 'Also strict', rules: ['require_disagreement_notes', 'blind_review'] } },
      { kind: 'review-project', id: ulids[2], data: { display_name: 'Lenient', rules: ['blind_review'] } },
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

describe('dashboards', () => {
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
