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
