// Agents: version history (save vs cosmetic save, newest first, revert creates a `revert` version and is 400
// to the current version), soft delete (200 {} twice), the active run template guard; runs pin versions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

async function newAgent(prompt = 'Be helpful.') {
  return (await h.client.agents.createAgent({ display_name: 'Support bot', model_type: 'VOICE', prompt, phone_number: '+14155550100' })).agent;
}

describe('agents', () => {
  it('stores VOICE as MODEL_TYPE_VOICE and starts at version 1', async () => {
    const agent = await newAgent();
    expect(agent.model_type).toBe('MODEL_TYPE_VOICE');
    expect(agent.current_version).toMatchObject({ version_number: 1, change_type: 'save' });
    expect(agent.id).toMatch(/^[A-Za-z0-9]{22}$/);
  });

  it('records a version for behaviour changes only; cosmetic and no-op saves record none', async () => {
    const agent = await newAgent();
    await h.client.agents.updateAgent(agent.id, { display_name: 'Renamed' });
    await h.client.agents.updateAgent(agent.id, { prompt: 'Be helpful.' });
    expect((await h.client.agents.listAgentVersions(agent.id)).versions).toHaveLength(1);
    const changed = await h.client.agents.updateAgent(agent.id, { prompt: 'Be brief.' });
    expect(changed.agent.current_version).toMatchObject({ version_number: 2, change_type: 'save' });
    await h.client.agents.updateAgent(agent.id, { metric_ids: ['A'.repeat(22)] });
    const { versions } = await h.client.agents.listAgentVersions(agent.id);
    expect(versions.map((v) => v.version_number)).toEqual([3, 2, 1]);
    expect(versions[0]!.ulid).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('reverts by re-applying the target configuration as a new revert version; reverting to the current one is 400', async () => {
    const agent = await newAgent('First.');
    const v1 = agent.current_version!;
    await h.client.agents.updateAgent(agent.id, { prompt: 'Second.' });
    const reverted = await h.client.agents.revertAgentVersion(agent.id, v1.ulid);
    expect(reverted.agent.prompt).toBe('First.');
    expect(reverted.agent.current_version).toMatchObject({ version_number: 3, change_type: 'revert' });
    const { versions } = await h.client.agents.listAgentVersions(agent.id);
    expect(versions.map((v) => v.change_type)).toEqual(['revert', 'save', 'save']);
    const error = await failure(h.client.agents.revertAgentVersion(agent.id, reverted.agent.current_version!.ulid));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect((await failure(h.client.agents.revertAgentVersion(agent.id, '01ARZ3NDEKTSV4RRFFQ69G5FAV'))).status).toBe(404);
  });

  it('soft-deletes with 200 {} and again 200 on repeat; the agent is then 404', async () => {
    const agent = await newAgent();
    expect(await h.client.agents.deleteAgent(agent.id)).toEqual({});
    expect(await h.client.agents.deleteAgent(agent.id)).toEqual({});
    expect((await failure(h.client.agents.getAgent(agent.id))).status).toBe(404);
    expect((await h.client.agents.listAgents()).agents.map((a) => a.id)).not.toContain(agent.id);
  });

  it('refuses to delete an agent an active run template references (400); an inactive template does not block', async () => {
    const agent = await newAgent();
    const other = await newAgent();
    await h.control.loadFixtures(h.sandbox.organizationId, [
      { kind: 'run_template', data: { display_name: 'Nightly', agent_id: agent.id, active: true } },
      { kind: 'run_template', data: { display_name: 'Retired', agent_id: other.id, active: false } },
    ]);
    const error = await failure(h.client.agents.deleteAgent(agent.id));
    expect(error.status).toBe(400);
    expect(error.details[0]?.field).toBe('agent_id');
    expect(await h.client.agents.deleteAgent(other.id)).toEqual({});
  });

  it('duplicate into a new agent (201) with its own id and first version; associations only when asked', async () => {
    const { agent } = await h.client.agents.createAgent({ display_name: 'Original', model_type: 'VOICE', prompt: 'Hi.', metric_ids: ['A'.repeat(22)], test_set_ids: ['ABCDEFGH'], tags: ['t'] });
    await h.client.agents.updateAgent(agent.id, { prompt: 'Hello.' });
    const raw = await h.raw(`/agents/${agent.id}/duplicate`, { method: 'POST', headers: { 'x-api-key': h.sandbox.apiKey } });
    expect(raw.status).toBe(201);
    const copy = ((await raw.json()) as { agent: typeof agent }).agent;
    expect(copy.id).not.toBe(agent.id);
    expect(copy).toMatchObject({ display_name: 'Original (copy)', model_type: 'MODEL_TYPE_VOICE', prompt: 'Hello.', tags: ['t'], metric_ids: [], test_set_ids: [], customer_agent_id: copy.id });
    expect(copy.current_version).toMatchObject({ version_number: 1, change_type: 'save' });
    const full = (await h.client.agents.duplicateAgent(agent.id, { include_associations: true })).agent;
    expect(full).toMatchObject({ metric_ids: ['A'.repeat(22)], test_set_ids: ['ABCDEFGH'] });
    expect((await h.client.agents.getAgent(agent.id)).agent.display_name).toBe('Original');
    await h.client.agents.deleteAgent(agent.id);
    expect((await failure(h.client.agents.duplicateAgent(agent.id))).status).toBe(404);
    expect((await failure(h.client.agents.duplicateAgent(copy.id, { include_associations: 'yes' as never }))).details[0]?.field).toBe('include_associations');
    const other = h.clientFor((await h.control.createOrganization()).api_key.key);
    expect((await failure(other.agents.duplicateAgent(copy.id))).status).toBe(404);
  });

  it('rejects malformed agent ids with 400 on agent_id', async () => {
    expect((await failure(h.client.agents.getAgent('short'))).details[0]?.field).toBe('agent_id');
  });
});

/** The persona and test set a launch requires (facts-shapes 2.13 RU1), made once per call. */
async function launchBody(agentId: string, extra: Record<string, unknown> = {}) {
  const { persona } = await h.client.personas.createPersona({ name: `Caller ${Math.random()}`, voice_name: 'hans', language_code: 'de-DE' });
  const { test_set } = await h.client.testSets.createTestSet({ display_name: `Set ${Math.random()}` });
  return { agent_id: agentId, persona_id: persona.id, test_set_id: test_set!.id!, ...extra };
}

describe('runs', () => {
  it('pin the versions they run against and show when they are no longer on the latest configuration', async () => {
    const agent = await newAgent('Pinned.');
    const { run } = await h.client.runs.launchRun(await launchBody(agent.id));
    expect(run.run_id).toMatch(/^[A-Za-z0-9]{22}$/);
    expect(run.name).toBe(`runs/${run.run_id}`);
    expect(run.status).toBe('PENDING');
    expect(run.pinned_versions.agent).toEqual(agent.current_version);
    expect(run.on_latest_configuration).toBe(true);
    await h.client.agents.updateAgent(agent.id, { prompt: 'Changed.' });
    const after = (await h.client.runs.getRun(run.run_id)).run;
    expect(after.pinned_versions.agent).toEqual(agent.current_version);
    expect(after.on_latest_configuration).toBe(false);
  });

  it('give a resource that predates versioning its first version when a run uses it', async () => {
    const [fixture] = await h.control.loadFixtures(h.sandbox.organizationId, [
      { kind: 'agent', data: { display_name: 'Legacy', model_type: 'MODEL_TYPE_CHAT', metadata: {}, workflows: {}, metric_ids: [], test_set_ids: [] } },
    ]);
    expect((await h.client.agents.listAgentVersions(fixture!.id)).versions).toEqual([]);
    const { run } = await h.client.runs.launchRun(await launchBody(fixture!.id));
    expect(run.pinned_versions.agent).toMatchObject({ version_number: 1 });
    expect((await h.client.agents.listAgentVersions(fixture!.id)).versions).toHaveLength(1);
  });

  it("compute the agent's attached metrics when the launch names none, and pin them", async () => {
    const { metric } = await h.client.metrics.createMetric({ metric_name: 'Politeness', description: 'Was the agent polite?', metric_type: 'METRIC_LLM_BINARY', prompt: 'Was the agent polite?' });
    const agent = await newAgent();
    await h.client.agents.updateAgent(agent.id, { metric_ids: [metric.id] });
    const { run } = await h.client.runs.launchRun(await launchBody(agent.id));
    expect(run.metric_ids).toEqual([metric.id]);
    expect(Object.keys(run.pinned_versions.metrics ?? {})).toEqual([metric.id]);
    const named = await h.client.runs.launchRun(await launchBody(agent.id, { metric_ids: [] }));
    expect(named.run.metric_ids).toEqual([]);
  });

  it('refuse an unknown agent, persona, test set or persona metric with 404 on the field, and a launch without persona or test set with 400', async () => {
    const agent = await newAgent();
    const body = await launchBody(agent.id);
    expect((await failure(h.client.runs.launchRun({ ...body, agent_id: 'Z'.repeat(22) }))).details[0]?.field).toBe('agent_id');
    expect((await failure(h.client.runs.launchRun({ ...body, persona_id: 'Z'.repeat(22) }))).details[0]?.field).toBe('persona_id');
    expect((await failure(h.client.runs.launchRun({ ...body, test_set_id: 'ZZZZZZZZ' }))).details[0]?.field).toBe('test_set_id');
    const metric = await failure(h.client.runs.launchRun({ ...body, persona_metrics: ['Z'.repeat(22)] }));
    expect([metric.status, metric.details[0]?.field]).toEqual([404, 'persona_metrics[0]']);
    const missing = await failure(h.client.runs.launchRun({ agent_id: agent.id } as never));
    expect(missing.status).toBe(400);
    expect(missing.details.map((d) => d.field).sort()).toEqual(['persona_id', 'test_set_id']);
  });

  it('read the launch body as the service client sends it: metadata, options and progress', async () => {
    const agent = await newAgent();
    const body = await launchBody(agent.id);
    const cases = [];
    for (const input_str of ['a', 'b', 'c']) cases.push((await h.client.testCases.createTestCase({ test_set_id: body.test_set_id, input_str })).test_case);
    const { run } = await h.client.runs.launchRun({
      ...body,
      tags: ['nightly'],
      metadata: { display_name: 'Nightly check', customer: { team: 'support' }, created_by: 'ci@example.com', tags: ['smoke', 'nightly'] },
      options: { iteration_count: 2, test_case_ids: [cases[0]!.id, cases[2]!.id] },
      mutation_ids: ['m1'],
    });
    expect(run).toMatchObject({ display_name: 'Nightly check', metadata: { team: 'support' }, tags: ['nightly', 'smoke'], results: null, is_public: false });
    expect(run.progress).toEqual({ total_test_cases: 4, completed_test_cases: 0, failed_test_cases: 0, in_progress_test_cases: 0 });
    const sampled = await h.client.runs.launchRun({ ...body, options: { sub_sample_size: 2 } });
    expect(sampled.run.progress?.total_test_cases).toBe(2);
    const foreign = await failure(h.client.runs.launchRun({ ...body, options: { test_case_ids: ['nope'] } }));
    expect([foreign.status, foreign.details[0]?.field]).toEqual([404, 'options.test_case_ids[0]']);
  });

  it('complete through the control plane with progress and results per observation', async () => {
    const { metric } = await h.client.metrics.createMetric({ metric_name: 'Accuracy', description: 'Right answer?', metric_type: 'METRIC_LLM_BINARY', prompt: 'Right?' });
    const agent = await newAgent();
    const { run } = await h.client.runs.launchRun(await launchBody(agent.id, { metric_ids: [metric.id] }));
    const done = await h.control.completeRun(h.sandbox.organizationId, { run_id: run.run_id, metric_values: { [metric.id]: [1, 0] } });
    expect(done.run.run_id).toBe(run.run_id);
    const read = (await h.client.runs.getRun(run.run_id)).run;
    expect(read.status).toBe('COMPLETED');
    expect(read.progress).toEqual({ total_test_cases: 0, completed_test_cases: 0, failed_test_cases: 0, in_progress_test_cases: 0 });
    const ids = [`${run.run_id}-1`, `${run.run_id}-2`];
    expect(read.results).toEqual({
      output_ids: ids,
      metrics: { [metric.id]: { metric_id: metric.id, metric_name: 'Accuracy', output_type: 'float', values: [{ simulation_output_id: ids[0], value: 1 }, { simulation_output_id: ids[1], value: 0 }] } },
    });
    const listed = await h.client.runs.listRuns({ query: { include: 'metric_averages', filter: `run_id = "${run.run_id}"` } });
    expect(listed.runs.map((r) => r.metric_averages)).toEqual([{ [metric.id]: 0.5 }]);
    expect((await h.client.runs.listRuns({ query: { filter: `run_id = "${run.run_id}"` } })).runs[0]).not.toHaveProperty('metric_averages');
  });

  it('list with filter (status values with spaces) and order_by', async () => {
    const agent = await newAgent();
    const first = (await h.client.runs.launchRun(await launchBody(agent.id))).run;
    const second = (await h.client.runs.launchRun(await launchBody(agent.id))).run;
    await h.control.completeRun(h.sandbox.organizationId, { run_id: first.run_id, metric_values: {} });
    const mine = `agent_id = "${agent.id}"`;
    expect((await h.client.runs.listRuns({ query: { filter: mine } })).runs.map((r) => r.run_id)).toEqual([second.run_id, first.run_id]);
    expect((await h.client.runs.listRuns({ query: { filter: mine, order_by: 'create_time' } })).runs.map((r) => r.run_id)).toEqual([first.run_id, second.run_id]);
    expect((await h.client.runs.listRuns({ query: { filter: `${mine} AND status = "COMPLETED"` } })).runs.map((r) => r.run_id)).toEqual([first.run_id]);
    const fresh = await h.control.completeRun(h.sandbox.organizationId, { agent_id: agent.id, metric_values: {} });
    expect(fresh.run.status).toBe('COMPLETED');
    expect((await failure(h.client.runs.listRuns({ query: { order_by: 'nope' } }))).details[0]?.field).toBe('order_by');
    expect((await h.raw('/runs?include=everything', { headers: { 'x-api-key': h.sandbox.apiKey } })).status).toBe(400);
  });

  it('replace their tags with PATCH, list their tags at /runs/tags, and delete to DELETED (then 404)', async () => {
    const org = await h.control.createOrganization();
    // Manual mode: these runs are not executed, so they stay PENDING and DELETE deletes them (issue 25).
    await h.control.request('PUT', `/organizations/${org.organization.id}/run-execution`, { mode: 'manual' });
    const c = h.clientFor(org.api_key.key);
    const { agent } = await c.agents.createAgent({ display_name: 'Tagged', model_type: 'MODEL_TYPE_CHAT' });
    const { persona } = await c.personas.createPersona({ name: 'p', voice_name: 'hans', language_code: 'de-DE' });
    const { test_set } = await c.testSets.createTestSet({ display_name: 'Set' });
    const body = { agent_id: agent.id, persona_id: persona.id, test_set_id: test_set!.id! };
    const a = (await c.runs.launchRun({ ...body, tags: ['Beta'] })).run;
    const b = (await c.runs.launchRun({ ...body, tags: ['alpha'] })).run;
    await c.tags.createTag({ tag_name: 'gamma', color: '#00ff00' });
    const updated = (await c.runs.updateRun(a.run_id, { tags: ['Gamma', 'beta'] })).run;
    expect(updated.tags).toEqual(['Gamma', 'beta']);
    expect(updated.status).toBe('PENDING');
    expect((await c.runs.listRunTags()).tags).toEqual([
      { tag: 'alpha', color: null },
      { tag: 'Gamma', color: '#00ff00' },
      { tag: 'beta', color: null },
    ].sort((x, y) => (x.tag.toLowerCase() < y.tag.toLowerCase() ? -1 : 1)));
    expect((await failure(c.runs.updateRun(a.run_id, {} as never))).details[0]?.field).toBe('tags');
    expect(await c.runs.deleteRun(b.run_id)).toEqual({});
    expect((await failure(c.runs.getRun(b.run_id))).status).toBe(404);
    expect((await failure(c.runs.deleteRun(b.run_id))).status).toBe(404);
    expect((await failure(c.runs.updateRun(b.run_id, { tags: [] }))).status).toBe(404);
    expect((await c.runs.listRunTags()).tags.map((t) => t.tag)).toEqual(['beta', 'Gamma']);
    expect((await c.runs.listRuns()).runs.map((r) => r.run_id)).toEqual([a.run_id]);
    // Another organization sees none of it.
    expect((await failure(h.client.runs.getRun(a.run_id))).status).toBe(404);
    expect((await failure(h.client.runs.deleteRun(a.run_id))).status).toBe(404);
    expect((await h.client.runs.listRunTags()).tags.map((t) => t.tag)).not.toContain('Gamma');
  });
});
