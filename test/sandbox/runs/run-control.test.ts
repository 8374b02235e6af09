// Cancelling a run in progress (DELETE -> CANCELLED, execution stops), manual mode (only the control plane completes
// runs), the control plane completing a run the executor is running (one completion), resimulate in place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../generated/client/index.js';
import type { FetchLike } from '../../../src/sandbox/events/deliver.js';
import { failure, startHarness, type Harness } from '../../support/sandbox.js';
import { startChatAgent, until, type ChatAgent } from './chat-agent-server.js';

const deliveries: Record<string, unknown>[] = [];
const captureFetch: FetchLike = async (_url, init) => {
  deliveries.push(JSON.parse(init.body) as Record<string, unknown>);
  return { status: 200 };
};

let h: Harness;
let agentServer: ChatAgent;
beforeAll(async () => {
  agentServer = await startChatAgent();
  h = await startHarness({ deliveryFetch: captureFetch, runs: { paceMs: 0 } });
});
afterAll(async () => {
  await h.close();
  await agentServer.close();
});

async function setup(path: string, inputs: string[]) {
  const org = await h.control.createOrganization(`control ${path}`);
  const c = h.clientFor(org.api_key.key);
  const { agent } = await c.agents.createAgent({ display_name: 'Agent', model_type: 'MODEL_TYPE_CHAT', metadata: { chat_endpoint: `${agentServer.url}${path}` } });
  const { persona } = await c.personas.createPersona({ name: 'P', voice_name: 'hans', language_code: 'de-DE' });
  const setId = (await c.testSets.createTestSet({ display_name: 'S' })).test_set!.id!;
  for (const input_str of inputs) await c.testCases.createTestCase({ test_set_id: setId, input_str });
  await c.webhooks.createWebhook({ type: 'job_complete', url: `https://hooks.example.test${path}` });
  return { org, c, launch: { agent_id: agent.id, persona_id: persona.id, test_set_id: setId }, agentId: agent.id };
}

const simsOf = async (c: Client, runId: string) => (await c.simulatedConversations.listSimulatedConversations({ query: { filter: `run_id = "${runId}"` } })).simulated_conversations;

describe('run control', () => {
  it('DELETE of a run in progress cancels it: CANCELLED, its open conversations CANCELLED, no more agent calls, nothing fired', async () => {
    agentServer.on('/slow-cancel', () => ({ delayMs: 600, body: { choices: [{ message: { role: 'assistant', content: 'late' } }] } }));
    const { c, launch } = await setup('/slow-cancel', ['a', 'b', 'c', 'd']);
    const run = (await c.runs.launchRun({ ...launch, options: { concurrency: 1 } })).run;
    await until(async () => (await c.runs.getRun(run.run_id)).run, (r) => r.status === 'IN PROGRESS' && (r.progress?.in_progress_test_cases ?? 0) > 0);
    expect(await c.runs.deleteRun(run.run_id)).toEqual({});
    const cancelled = (await c.runs.getRun(run.run_id)).run;
    expect(cancelled.status).toBe('CANCELLED');
    // A call the executor sent just before the DELETE may still reach the agent (its body arrives after the answer):
    // count after that settles, then see that no new turn comes (one would every ~650 ms: 600 ms answers, 50 ms pace).
    await new Promise((r) => setTimeout(r, 300));
    const calls = agentServer.calls.filter((x) => x.path === '/slow-cancel').length;
    await new Promise((r) => setTimeout(r, 900));
    expect(agentServer.calls.filter((x) => x.path === '/slow-cancel').length).toBe(calls);
    const sims = await simsOf(c, run.run_id);
    expect(sims.map((s) => s.status)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED', 'CANCELLED']);
    await h.sandbox.idle();
    expect(deliveries.filter((d) => d.run_id === run.run_id)).toEqual([]);
    expect((await c.runs.getRun(run.run_id)).run.status).toBe('CANCELLED');
  });

  it('manual mode leaves launched runs PENDING for the control plane; automatic again executes them', async () => {
    const { org, c, launch } = await setup('/chat', ['a']);
    const mode = await h.control.request('PUT', `/organizations/${org.organization.id}/run-execution`, { mode: 'manual' });
    expect(await mode.json()).toEqual({ mode: 'manual' });
    expect((await h.control.request('PUT', `/organizations/${org.organization.id}/run-execution`, { mode: 'sometimes' })).status).toBe(400);
    const run = (await c.runs.launchRun(launch)).run;
    await new Promise((r) => setTimeout(r, 300));
    expect((await c.runs.getRun(run.run_id)).run.status).toBe('PENDING');
    expect(await simsOf(c, run.run_id)).toEqual([]);
    await h.control.completeRun(org.organization.id, { run_id: run.run_id, metric_values: {} });
    expect((await c.runs.getRun(run.run_id)).run.status).toBe('COMPLETED');
    expect(deliveries.filter((d) => d.run_id === run.run_id)).toHaveLength(1);
    // A PENDING run of manual mode is deleted by DELETE (nothing executes it), as before.
    const waiting = (await c.runs.launchRun(launch)).run;
    await c.runs.deleteRun(waiting.run_id);
    expect((await failure(c.runs.getRun(waiting.run_id))).status).toBe(404);
    await h.control.request('PUT', `/organizations/${org.organization.id}/run-execution`, { mode: 'automatic' });
    const auto = (await c.runs.launchRun(launch)).run;
    await until(async () => (await c.runs.getRun(auto.run_id)).run, (r) => r.status === 'COMPLETED');
    const read = await h.control.request('GET', `/organizations/${org.organization.id}/run-execution`);
    expect(await read.json()).toEqual({ mode: 'automatic' });
  });

  it('the control plane completing a run being executed completes it once; the executor stops', async () => {
    agentServer.on('/slow-complete', () => ({ delayMs: 400, body: { choices: [{ message: { role: 'assistant', content: 'late' } }] } }));
    const { org, c, launch } = await setup('/slow-complete', ['a', 'b', 'c']);
    const run = (await c.runs.launchRun({ ...launch, options: { concurrency: 1 } })).run;
    await until(async () => (await c.runs.getRun(run.run_id)).run, (r) => r.status === 'IN PROGRESS');
    await h.control.completeRun(org.organization.id, { run_id: run.run_id, metric_values: {} });
    await new Promise((r) => setTimeout(r, 900));
    await h.sandbox.idle();
    expect((await c.runs.getRun(run.run_id)).run.status).toBe('COMPLETED');
    expect(deliveries.filter((d) => d.run_id === run.run_id)).toHaveLength(1);
    // Nothing is left open: what had not finished was cancelled with the reason.
    const sims = await simsOf(c, run.run_id);
    expect(sims.filter((s) => ['IN QUEUE', 'IN PROGRESS'].includes(s.status))).toEqual([]);
    expect(sims.some((s) => s.status === 'CANCELLED' && /control plane/.test(s.error_message ?? ''))).toBe(true);
  });

  it('resimulate runs the same simulation again in place with the latest agent; the run is not completed again', async () => {
    const { c, launch, agentId } = await setup('/chat', ['Where is my parcel?']);
    const run = (await c.runs.launchRun(launch)).run;
    await until(async () => (await c.runs.getRun(run.run_id)).run, (r) => r.status === 'COMPLETED');
    const [sim] = await simsOf(c, run.run_id);
    agentServer.on('/v2', () => ({ body: { choices: [{ message: { role: 'assistant', content: 'version two' } }] } }));
    await c.agents.updateAgent(agentId, { metadata: { chat_endpoint: `${agentServer.url}/v2` } });
    const answer = await c.simulatedConversations.resimulateSimulatedConversation(sim!.simulation_id);
    expect(answer).toMatchObject({ simulation_id: sim!.simulation_id, run_id: run.run_id, queued: true });
    const again = await until(
      async () => (await c.simulatedConversations.getSimulatedConversation(sim!.simulation_id)).simulated_conversation,
      (s) => s.status === 'COMPLETED' && s.transcript?.[1]?.content === 'version two',
    );
    expect(again.transcript!.map((m) => m.content)).toEqual(['Where is my parcel?', 'version two', 'end_conversation']);
    expect(await simsOf(c, run.run_id)).toHaveLength(1);
    await h.sandbox.idle();
    expect(deliveries.filter((d) => d.run_id === run.run_id)).toHaveLength(1);
    const after = (await c.runs.getRun(run.run_id)).run;
    expect(after.progress).toMatchObject({ total_test_cases: 1, completed_test_cases: 1, failed_test_cases: 0 });
  });

  // Last: the reset removes every organization the tests above made.
  it('a control-plane reset returns the development organization to automatic execution', async () => {
    const dev = h.sandbox.organizationId;
    await h.control.request('PUT', `/organizations/${dev}/run-execution`, { mode: 'manual' });
    await h.control.reset();
    expect(await (await h.control.request('GET', `/organizations/${dev}/run-execution`)).json()).toEqual({ mode: 'automatic' });
  });
});
