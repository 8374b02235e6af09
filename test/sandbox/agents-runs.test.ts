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

  it('rejects malformed agent ids with 400 on agent_id', async () => {
    expect((await failure(h.client.agents.getAgent('short'))).details[0]?.field).toBe('agent_id');
  });
});

describe('runs', () => {
  it('pin the versions they run against and show when they are no longer on the latest configuration', async () => {
    const agent = await newAgent('Pinned.');
    const { run } = await h.client.runs.launchRun({ agent_id: agent.id });
    expect(run.pinned_versions.agent).toEqual(agent.current_version);
    expect(run.on_latest_configuration).toBe(true);
    await h.client.agents.updateAgent(agent.id, { prompt: 'Changed.' });
    const after = (await h.client.runs.getRun(run.id)).run;
    expect(after.pinned_versions.agent).toEqual(agent.current_version);
    expect(after.on_latest_configuration).toBe(false);
  });

  it('give a resource that predates versioning its first version when a run uses it', async () => {
    const [fixture] = await h.control.loadFixtures(h.sandbox.organizationId, [
      { kind: 'agent', data: { display_name: 'Legacy', model_type: 'MODEL_TYPE_CHAT', metadata: {}, workflows: {}, metric_ids: [], test_set_ids: [] } },
    ]);
    expect((await h.client.agents.listAgentVersions(fixture!.id)).versions).toEqual([]);
    const { run } = await h.client.runs.launchRun({ agent_id: fixture!.id });
    expect(run.pinned_versions.agent).toMatchObject({ version_number: 1 });
    expect((await h.client.agents.listAgentVersions(fixture!.id)).versions).toHaveLength(1);
  });

  it("compute the agent's attached metrics when the launch names none, and pin them", async () => {
    const { metric } = await h.client.metrics.createMetric({ metric_name: 'Politeness', description: 'Was the agent polite?', metric_type: 'METRIC_LLM_BINARY', prompt: 'Was the agent polite?' });
    const agent = await newAgent();
    await h.client.agents.updateAgent(agent.id, { metric_ids: [metric.id] });
    const { run } = await h.client.runs.launchRun({ agent_id: agent.id });
    expect(run.metric_ids).toEqual([metric.id]);
    expect(Object.keys(run.pinned_versions.metrics ?? {})).toEqual([metric.id]);
    const named = await h.client.runs.launchRun({ agent_id: agent.id, metric_ids: [] });
    expect(named.run.metric_ids).toEqual([]);
  });

  it('refuse an unknown agent with 404 on agent_id', async () => {
    const error = await failure(h.client.runs.launchRun({ agent_id: 'Z'.repeat(22) }));
    expect(error.status).toBe(404);
  });
});
