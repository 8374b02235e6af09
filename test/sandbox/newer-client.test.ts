// The newer client's operations (issue 30; facts-shapes MT31 and 2.14) against the in-process sandbox: metric
// outputs read in a batch, review-project insights per metric with their id lists and criteria_view_mode,
// completing a review conversation (blockers, counts, errors), the tag list filters and the alert list's
// conversation_source filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../generated/client/index.js';
import { failure, startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** A fresh organization per test: nothing another test loads is visible. */
async function org(): Promise<{ id: string; key: string; client: Client }> {
  const o = await h.control.createOrganization();
  return { id: o.organization.id, key: o.api_key.key, client: h.clientFor(o.api_key.key) };
}

async function metricOf(client: Client, name: string): Promise<string> {
  return (await client.metrics.createMetric({ metric_name: name, description: name, metric_type: 'METRIC_LLM_BINARY', prompt: name })).metric.id;
}

async function simulations(orgId: string, data: Record<string, unknown>[]): Promise<string[]> {
  const loaded = await h.control.loadFixtures(
    orgId,
    data.map((d) => ({ kind: 'simulation', data: { status: 'COMPLETED', run_id: 'RunAAAAAAAAAAAAAAAAAAA', ...d } })),
  );
  return loaded.map((r) => r.id);
}

describe('POST /metrics/outputs:batchGet (MT31)', () => {
  it('answers the outputs the simulations list, in the order asked, repeats included', async () => {
    const o = await org();
    const [m1, m2] = [await metricOf(o.client, 'Tone'), await metricOf(o.client, 'Accuracy')];
    const [s1, s2] = await simulations(o.id, [{ metric_values: { [m1]: 0.5, [m2]: 'yes' } }, { metric_values: { [m1]: 1 } }]);
    const listed1 = (await o.client.simulatedConversations.listSimulatedConversationMetricOutputs(s1!)).metrics;
    const listed2 = (await o.client.simulatedConversations.listSimulatedConversationMetricOutputs(s2!)).metrics;
    const ids = [listed2[0]!.metric_output_id, listed1[1]!.metric_output_id, listed1[0]!.metric_output_id, listed2[0]!.metric_output_id];
    const { metric_outputs } = await o.client.metrics.batchGetMetricOutputs({ metric_output_ids: ids });
    expect(metric_outputs).toEqual([listed2[0], listed1[1], listed1[0], listed2[0]]);
    expect(metric_outputs[1]).toMatchObject({ metric_id: m2, value: 'yes', status: 'COMPLETED' });
    expect(await o.client.metrics.batchGetMetricOutputs({ metric_output_ids: [] })).toEqual({ metric_outputs: [] });
  });

  it('finds the output of a simulation whose own id holds an underscore', async () => {
    const o = await org();
    const m = await metricOf(o.client, 'Tone');
    const id = 'sim_with_under_score_01';
    await h.control.loadFixtures(o.id, [{ kind: 'simulation', id, data: { status: 'COMPLETED', run_id: 'RunAAAAAAAAAAAAAAAAAAA', metric_values: { [m]: 3 } } }]);
    const [listed] = (await o.client.simulatedConversations.listSimulatedConversationMetricOutputs(id)).metrics;
    expect((await o.client.metrics.batchGetMetricOutputs({ metric_output_ids: [listed!.metric_output_id] })).metric_outputs).toEqual([listed]);
  });

  it('is all or nothing: an unknown or foreign id is 404 on its item; a bad body is 400 on the field', async () => {
    const o = await org();
    const m = await metricOf(o.client, 'Tone');
    const [s] = await simulations(o.id, [{ metric_values: { [m]: 0.5 } }]);
    const known = (await o.client.simulatedConversations.listSimulatedConversationMetricOutputs(s!)).metrics[0]!.metric_output_id;
    const unknown = await failure(o.client.metrics.batchGetMetricOutputs({ metric_output_ids: [known, `${s}_${'Z'.repeat(22)}`] }));
    expect([unknown.status, unknown.code, unknown.details[0]?.field]).toEqual([404, 'NOT_FOUND', 'metric_output_ids[1]']);
    const noSeparator = await failure(o.client.metrics.batchGetMetricOutputs({ metric_output_ids: ['plain'] }));
    expect([noSeparator.status, noSeparator.details[0]?.field]).toEqual([404, 'metric_output_ids[0]']);
    const other = await org();
    const foreign = await failure(other.client.metrics.batchGetMetricOutputs({ metric_output_ids: [known] }));
    expect([foreign.status, foreign.details[0]?.field]).toEqual([404, 'metric_output_ids[0]']);
    const missing = await failure(o.client.metrics.batchGetMetricOutputs({} as never));
    expect([missing.status, missing.details[0]?.field]).toEqual([400, 'metric_output_ids']);
    const tooMany = await failure(o.client.metrics.batchGetMetricOutputs({ metric_output_ids: Array(1001).fill(known) }));
    expect([tooMany.status, tooMany.details[0]?.field]).toEqual([400, 'metric_output_ids']);
    // A deleted simulation's outputs are gone with it.
    await o.client.simulatedConversations.deleteSimulatedConversation(s!);
    expect((await failure(o.client.metrics.batchGetMetricOutputs({ metric_output_ids: [known] }))).status).toBe(404);
  });
});

const A = 'a@example.com';
const B = 'b@example.com';

function label(project: string, sim: string, metric: string, reviewer: string, value: unknown, extra: Record<string, unknown> = {}) {
  return { kind: 'annotation', data: { project_id: project, simulation_id: sim, metric_id: metric, reviewer, label: value, create_time: '2026-02-01T00:00:00Z', ...extra } };
}

describe("review insights per metric and criteria_view_mode (RP7', RP8')", () => {
  it('sorts the linked simulations into agreement, disagreement, unknown and not reviewed, with their ids', async () => {
    const o = await org();
    const m = await metricOf(o.client, 'Tone');
    const sims = await simulations(o.id, [{}, {}, {}, {}, {}]);
    const [s1, s2, s3, s4, s5] = sims as [string, string, string, string, string];
    const project = (await o.client.reviewProjects.createReviewProject({ display_name: 'P', assignees: [A, B], linked_simulation_ids: [s1, s2, s3, s4], linked_metric_ids: [m] })).review_project;
    await h.control.loadFixtures(o.id, [
      label(project.id, s1, m, A, 'good'),
      label(project.id, s1, m, B, 'good'),
      label(project.id, s2, m, A, 'good'),
      label(project.id, s2, m, B, 'bad'),
      label(project.id, s3, m, A, 'good'),
      // s4 has no label; s5 is not linked and stays out of every list.
      label(project.id, s5, m, A, 'good'),
      label(project.id, s5, m, B, 'good'),
    ]);
    const window = { start_date: '2026-01-01T00:00:00Z', end_date: '2026-12-31T00:00:00Z' };
    const insights = await o.client.reviewProjects.getReviewProjectInsights(project.id, { query: window });
    expect(insights.metric_stats).toEqual([
      {
        metric_id: m,
        conversations: 4,
        annotations: 5,
        agreements: 1,
        disagreements: 1,
        not_reviewed: 1,
        unknown: 1,
        agreement_rate: 0.5,
        criteria_agreement: null,
        simulation_output_ids: [s1, s2, s3, s4],
        agreement_simulation_output_ids: [s1],
        disagreement_simulation_output_ids: [s2],
        not_reviewed_simulation_output_ids: [s4],
        unknown_simulation_output_ids: [s3],
        label_count: 7,
        labeled_simulations: 4,
      },
    ]);
    // Outside the window every linked simulation is not reviewed.
    const empty = await o.client.reviewProjects.getReviewProjectInsights(project.id, { query: { start_date: '2025-01-01T00:00:00Z', end_date: '2025-12-31T00:00:00Z' } });
    expect(empty.metric_stats[0]).toMatchObject({ annotations: 0, not_reviewed: 4, not_reviewed_simulation_output_ids: [s1, s2, s3, s4], agreements: 0 });
  });

  it('criteria mode compares labels criterion by criterion and adds criteria_agreement; score mode compares them whole', async () => {
    const o = await org();
    const m = await metricOf(o.client, 'Rubric');
    const [s1, s2] = (await simulations(o.id, [{}, {}])) as [string, string];
    const project = (await o.client.reviewProjects.createReviewProject({ display_name: 'Rubric', assignees: [A, B], linked_simulation_ids: [s1, s2], linked_metric_ids: [m] })).review_project;
    await h.control.loadFixtures(o.id, [
      // s1: the same tone; accuracy only B labeled. Whole labels differ; the criteria both labeled agree.
      label(project.id, s1, m, A, { tone: 'good' }),
      label(project.id, s1, m, B, { tone: 'good', accuracy: 'bad' }),
      // s2: tone differs.
      label(project.id, s2, m, A, { tone: 'good', accuracy: 'good' }),
      label(project.id, s2, m, B, { tone: 'bad', accuracy: 'good' }),
    ]);
    const window = { start_date: '2026-01-01T00:00:00Z', end_date: '2026-12-31T00:00:00Z' };
    const score = (await o.client.reviewProjects.getReviewProjectInsights(project.id, { query: window })).metric_stats[0]!;
    expect(score).toMatchObject({ agreements: 0, disagreements: 2, criteria_agreement: null });
    const criteria = (await o.client.reviewProjects.getReviewProjectInsights(project.id, { query: { ...window, criteria_view_mode: 'criteria' } })).metric_stats[0]!;
    expect(criteria).toMatchObject({ agreements: 1, disagreements: 1, agreement_rate: 0.5, agreement_simulation_output_ids: [s1], disagreement_simulation_output_ids: [s2] });
    expect(criteria.criteria_agreement).toEqual({
      accuracy: { agreements: 1, disagreements: 0, agreement_rate: 1 },
      tone: { agreements: 1, disagreements: 1, agreement_rate: 0.5 },
    });
    expect((await o.client.reviewProjects.getReviewProjectMetricAgreement(project.id)).agreement_by_metric_id[m]).toEqual({ metric_id: m, agreements: 0, disagreements: 2, agreement_rate: 0 });
    expect((await o.client.reviewProjects.getReviewProjectMetricAgreement(project.id, { query: { criteria_view_mode: 'criteria' } })).agreement_by_metric_id[m]).toEqual({ metric_id: m, agreements: 1, disagreements: 1, agreement_rate: 0.5 });
    const bad = await failure(o.client.reviewProjects.getReviewProjectMetricAgreement(project.id, { query: { criteria_view_mode: 'rubric' as never } }));
    expect([bad.status, bad.details[0]?.field]).toEqual([400, 'criteria_view_mode']);
  });
});

describe('POST /review-projects/{project_id}/complete-conversation (RP10)', () => {
  async function scene(projectExtra: Record<string, unknown> = {}, linkedCount = 2) {
    const o = await org();
    const [m1, m2] = [await metricOf(o.client, 'Tone'), await metricOf(o.client, 'Accuracy')];
    const [s1, s2, s3] = (await simulations(o.id, [{ metric_values: { [m1]: 1, [m2]: 0 } }, { metric_values: { [m1]: 1 } }, { metric_values: { [m1]: 1, [m2]: 1 } }])) as [string, string, string];
    const project = (
      await o.client.reviewProjects.createReviewProject({ display_name: 'Complete', assignees: [A, B], linked_simulation_ids: [s1, s2].slice(0, linkedCount), linked_metric_ids: [m1, m2], ...projectExtra })
    ).review_project;
    return { o, m1, m2, s1, s2, s3, project };
  }

  it('answers the blockers: a metric without a value, a metric without a label, a disagreement without a note', async () => {
    const { o, m1, m2, s1, s2, project } = await scene({ project_rules: ['require_disagreement_notes'] });
    const c = o.client.reviewProjects;
    const none = await c.completeReviewConversation(project.id, { simulation_output_id: s2 });
    expect(none).toEqual({
      success: false,
      is_complete: false,
      completed_conversation_count: 0,
      blockers: [
        { code: 'MISSING_REVIEW_LABEL', message: expect.any(String), metric_id: m1 },
        { code: 'MISSING_METRIC_VALUE', message: expect.any(String), metric_id: m2 },
        { code: 'MISSING_REVIEW_LABEL', message: expect.any(String), metric_id: m2 },
      ],
    });
    await h.control.loadFixtures(o.id, [label(project.id, s1, m1, A, 'good'), label(project.id, s1, m2, B, 'bad', { disagreement: true, note: '  ' })]);
    const unnoted = await c.completeReviewConversation(project.id, { simulation_output_id: s1 });
    expect(unnoted.success).toBe(false);
    expect(unnoted.blockers).toEqual([{ code: 'MISSING_DISAGREEMENT_NOTE', message: expect.any(String), metric_id: m2 }]);
    await h.control.loadFixtures(o.id, [label(project.id, s1, m2, B, 'bad', { disagreement: true, note: 'the agent never confirmed' })]);
    // The earlier annotation still has no note: B's newer one does not replace it.
    expect((await c.completeReviewConversation(project.id, { simulation_output_id: s1 })).blockers.map((b) => b.code)).toEqual(['MISSING_DISAGREEMENT_NOTE']);
  });

  it('completes a collaborative conversation once on everyone’s labels, and counts the completed ones', async () => {
    const { o, m1, m2, s1, s2, project } = await scene();
    const c = o.client.reviewProjects;
    await h.control.loadFixtures(o.id, [label(project.id, s1, m1, A, 'good'), label(project.id, s1, m2, B, 'bad', { disagreement: true })]);
    // Without require_disagreement_notes a disagreement needs no note.
    const done = await c.completeReviewConversation(project.id, { simulation_output_id: s1, assignee: null });
    expect(done).toEqual({ success: true, is_complete: false, completed_conversation_count: 1, blockers: [] });
    expect(await c.completeReviewConversation(project.id, { simulation_output_id: s1, assignee: 'A@Example.com' })).toEqual(done);
    // s2 has no value for m2: it cannot complete, so the project never is.
    expect((await c.completeReviewConversation(project.id, { simulation_output_id: s2 })).completed_conversation_count).toBe(1);
    // Progress still counts labels, not completions.
    expect(await c.getReviewProjectProgress(project.id)).toMatchObject({ total_tasks: 4, completed_tasks: 2 });
  });

  it('completes an individual project per assignee, on that assignee’s labels; is_complete once all are', async () => {
    const { o, m1, m2, s1, project } = await scene({ project_type: 'PROJECT_INDIVIDUAL' }, 1);
    const c = o.client.reviewProjects;
    await h.control.loadFixtures(o.id, [label(project.id, s1, m1, A, 'good'), label(project.id, s1, m2, A, 'good'), label(project.id, s1, m1, B, 'good')]);
    expect(await c.completeReviewConversation(project.id, { simulation_output_id: s1, assignee: A })).toEqual({ success: true, is_complete: true, completed_conversation_count: 1, blockers: [] });
    const b = await c.completeReviewConversation(project.id, { simulation_output_id: s1, assignee: B });
    expect(b).toMatchObject({ success: false, is_complete: false, completed_conversation_count: 0 });
    expect(b.blockers).toEqual([{ code: 'MISSING_REVIEW_LABEL', message: expect.any(String), metric_id: m2 }]);
    const noAssignee = await failure(c.completeReviewConversation(project.id, { simulation_output_id: s1 }));
    expect([noAssignee.status, noAssignee.details[0]?.field]).toEqual([400, 'assignee']);
  });

  it('refuses bad input: 400 naming the field, 404 for ids outside the project or the organization', async () => {
    const { o, s1, s3, project } = await scene();
    const c = o.client.reviewProjects;
    const stranger = await failure(c.completeReviewConversation(project.id, { simulation_output_id: s1, assignee: 'z@example.com' }));
    expect([stranger.status, stranger.details[0]?.field]).toEqual([400, 'assignee']);
    const notEmail = await failure(c.completeReviewConversation(project.id, { simulation_output_id: s1, assignee: 'nobody' }));
    expect([notEmail.status, notEmail.details[0]?.field]).toEqual([400, 'assignee']);
    const missing = await failure(c.completeReviewConversation(project.id, {} as never));
    expect([missing.status, missing.details[0]?.field]).toEqual([400, 'simulation_output_id']);
    const unlinked = await failure(c.completeReviewConversation(project.id, { simulation_output_id: s3 }));
    expect([unlinked.status, unlinked.details[0]?.field]).toEqual([404, 'simulation_output_id']);
    const unknownProject = await failure(c.completeReviewConversation('0'.repeat(26), { simulation_output_id: s1 }));
    expect([unknownProject.status, unknownProject.details[0]?.field]).toEqual([404, 'project_id']);
    const other = await org();
    expect((await failure(other.client.reviewProjects.completeReviewConversation(project.id, { simulation_output_id: s1 }))).status).toBe(404);
    // A linked simulation deleted since is not there either.
    await o.client.simulatedConversations.deleteSimulatedConversation(s1);
    const gone = await failure(c.completeReviewConversation(project.id, { simulation_output_id: s1 }));
    expect([gone.status, gone.details[0]?.field]).toEqual([404, 'simulation_output_id']);
  });
});

describe("GET /tags filters (TG1')", () => {
  it('search, tag_id, unused_only and include_usage, counted over every resource with a tags list', async () => {
    const o = await org();
    const t = o.client.tags;
    const billing = (await t.createTag({ tag_name: 'Billing' })).tag;
    const billingFlow = (await t.createTag({ tag_name: 'billing-flow' })).tag;
    const unused = (await t.createTag({ tag_name: 'spare' })).tag;
    await o.client.metrics.createMetric({ metric_name: 'Tagged', description: 'd', metric_type: 'METRIC_LLM_BINARY', prompt: 'p', tags: ['BILLING'] });
    await o.client.testSets.createTestSet({ display_name: 'Set', tags: ['billing', 'billing-flow'] });
    const deleted = (await o.client.testSets.createTestSet({ display_name: 'Gone', tags: ['spare'] })).test_set;
    await o.client.testSets.deleteTestSet(deleted.id);

    const names = (r: { tags: { tag_name: string }[] }) => r.tags.map((x) => x.tag_name).sort();
    expect(names(await t.listTags({ query: { search: 'BILL' } }))).toEqual(['billing', 'billing-flow']);
    expect(names(await t.listTags({ query: { search: 'flow' } }))).toEqual(['billing-flow']);
    expect(names(await t.listTags({ query: { search: '' } }))).toEqual(['billing', 'billing-flow', 'spare']);
    expect((await t.listTags({ query: { tag_id: billingFlow.id } })).tags).toEqual([billingFlow]);
    expect((await t.listTags({ query: { tag_id: 'N'.repeat(22) } })).tags).toEqual([]);
    expect((await t.listTags({ query: { unused_only: true } })).tags.map((x) => x.id)).toEqual([unused.id]);
    const usage = await t.listTags({ query: { include_usage: true } });
    const count = Object.fromEntries(usage.tags.map((x) => [x.tag_name, x.usage_count]));
    expect(count).toEqual({ billing: 2, 'billing-flow': 1, spare: 0 });
    // Without include_usage there is no count; the filters combine; paging runs over the filtered list.
    expect((await t.listTags()).tags[0]).not.toHaveProperty('usage_count');
    expect(await t.listTags({ query: { search: 'bill', unused_only: true } })).toEqual({ tags: [] });
    const first = await t.listTags({ query: { search: 'bill', page_size: 1 } });
    expect(first.tags).toHaveLength(1);
    const second = await t.listTags({ query: { search: 'bill', page_size: 1, page_token: first.next_page_token! } });
    expect([...first.tags, ...second.tags].map((x) => x.id).sort()).toEqual([billing.id, billingFlow.id].sort());
    expect(second.next_page_token ?? null).toBeNull();
    // Another organization's records do not use this organization's tags.
    const other = await org();
    await other.client.tags.createTag({ tag_name: 'billing' });
    expect((await other.client.tags.listTags({ query: { include_usage: true } })).tags[0]!.usage_count).toBe(0);
  });

  it('refuses a malformed tag_id, unused_only or a search over 200 characters with 400 on the parameter', async () => {
    const o = await org();
    for (const [query, field] of [
      ['tag_id=short', 'tag_id'],
      ['unused_only=maybe', 'unused_only'],
      [`search=${'x'.repeat(201)}`, 'search'],
    ] as const) {
      const res = await h.raw(`/tags?${query}`, { headers: { 'x-api-key': o.key } });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; details: { field: string }[] } };
      expect([body.error.code, body.error.details[0]?.field]).toEqual(['INVALID_ARGUMENT', field]);
    }
  });
});

describe("GET /alerts conversation_source (AL1')", () => {
  it('keeps the alerts whose conversation_source is the value asked, total_count included', async () => {
    const o = await org();
    const m = await metricOf(o.client, 'Tone');
    const make = (source: 'ALL' | 'UPLOADED' | 'SIMULATED') =>
      o.client.alerts.createAlert({ name: source, evaluation_type: 'ON_RUN_COMPLETE', conversation_source: source, conditions: [{ metric_id: m, aggregation: 'SINGLE', operator: 'GT', threshold_float: 1 }] });
    const [all, uploaded, simulated] = [await make('ALL'), await make('UPLOADED'), await make('SIMULATED')];
    const listed = async (source?: 'ALL' | 'UPLOADED' | 'SIMULATED') => {
      const r = await o.client.alerts.listAlerts(source === undefined ? undefined : { query: { conversation_source: source } });
      return { ids: r.alerts.map((a) => a.ulid).sort(), total: r.total_count };
    };
    expect(await listed('SIMULATED')).toEqual({ ids: [simulated.ulid], total: 1 });
    expect(await listed('UPLOADED')).toEqual({ ids: [uploaded.ulid], total: 1 });
    expect(await listed('ALL')).toEqual({ ids: [all.ulid], total: 1 });
    expect(await listed()).toEqual({ ids: [all.ulid, uploaded.ulid, simulated.ulid].sort(), total: 3 });
    const bad = await failure(o.client.alerts.listAlerts({ query: { conversation_source: 'MONITORING' as never } }));
    expect([bad.status, bad.details[0]?.field]).toEqual([400, 'conversation_source']);
  });
});
