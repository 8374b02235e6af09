// Several instances over PostgreSQL (issue 25, item 6): each run is executed by exactly one instance, claimed in
// the database; when that instance stops, another resumes the run after the claim runs out; no conversation is
// executed twice; the completion fires once (one job_complete delivery across instances).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '../../../generated/client/index.js';
import type { FetchLike } from '../../../src/sandbox/events/deliver.js';
import { startHarness, type Harness } from '../../support/sandbox.js';
import { describePg, dropSchema, freshSchemaUrl } from '../pg-env.js';
import { startChatAgent, until, type ChatAgent } from './chat-agent-server.js';

describePg('run execution over one PostgreSQL database', () => {
  const { url, schema } = freshSchemaUrl('runs');
  const delivered: Record<string, unknown>[] = [];
  const capture: FetchLike = async (_target, init) => {
    delivered.push(JSON.parse(init.body) as Record<string, unknown>);
    return { status: 200 };
  };
  const runs = { paceMs: 0, leaseMs: 800, sweepMs: 100 };
  let agentServer: ChatAgent;
  let a: Harness;
  let b: Harness;
  let c: Client;
  let launch: { agent_id: string; persona_id: string; test_set_id: string };
  beforeAll(async () => {
    agentServer = await startChatAgent();
    a = await startHarness({ db: url, deliveryFetch: capture, runs });
    b = await startHarness({ db: url, deliveryFetch: capture, runs });
    c = a.client;
    const { agent } = await c.agents.createAgent({ display_name: 'Shared bot', model_type: 'MODEL_TYPE_CHAT', metadata: { chat_endpoint: `${agentServer.url}/pg`, custom_headers: JSON.stringify({ 'X-Conversation': '{{simulation_output_id}}' }) } });
    const { persona } = await c.personas.createPersona({ name: 'P', voice_name: 'hans', language_code: 'de-DE' });
    const setId = (await c.testSets.createTestSet({ display_name: 'Shared' })).test_set!.id!;
    for (const input_str of ['one', 'two', 'three', 'four', 'five', 'six']) await c.testCases.createTestCase({ test_set_id: setId, input_str });
    await c.webhooks.createWebhook({ type: 'job_complete', url: 'https://hooks.example.test/pg' });
    launch = { agent_id: agent.id, persona_id: persona.id, test_set_id: setId };
  });
  afterAll(async () => {
    await b?.sandbox.close().catch(() => {});
    await a?.sandbox.close().catch(() => {});
    await agentServer?.close();
    dropSchema(schema);
  });

  const conversationsOf = (runId: string, sims: { simulation_id: string }[]) => {
    const ids = new Set(sims.map((s) => s.simulation_id));
    return agentServer.calls.filter((call) => ids.has(String(call.headers['x-conversation']))).map((call) => String(call.headers['x-conversation']));
  };

  it('execute each conversation once and complete once, whichever instance took the launch', async () => {
    const run = (await b.client.runs.launchRun({ ...launch, options: { concurrency: 3 } })).run;
    const done = await until(async () => (await a.client.runs.getRun(run.run_id)).run, (r) => r.status === 'COMPLETED');
    expect(done.progress).toMatchObject({ total_test_cases: 6, completed_test_cases: 6, failed_test_cases: 0 });
    const sims = (await b.client.simulatedConversations.listSimulatedConversations({ query: { filter: `run_id = "${run.run_id}"` } })).simulated_conversations;
    expect(sims).toHaveLength(6);
    const calls = conversationsOf(run.run_id, sims);
    expect(calls).toHaveLength(6);
    expect(new Set(calls).size).toBe(6);
    await a.sandbox.idle();
    await b.sandbox.idle();
    expect(delivered.filter((d) => d.run_id === run.run_id)).toHaveLength(1);
  });

  it('resume a run on another instance when the executing one stops: the interrupted conversation FAILED, the rest run once', async () => {
    agentServer.on('/pg', (call) => ({ delayMs: 300, body: { choices: [{ message: { role: 'assistant', content: `slow ${String(call.headers['x-conversation'])}` } }] } }));
    // Instance b is closed first, so a is the only instance when the run is launched: a executes it. A third
    // instance starts once a is under way, then a stops; the third resumes the run when a's claim runs out.
    await b.close();
    const run = (await a.client.runs.launchRun({ ...launch, options: { concurrency: 1 } })).run;
    await until(async () => (await a.client.runs.getRun(run.run_id)).run, (r) => (r.progress?.completed_test_cases ?? 0) >= 1);
    const late = await startHarness({ db: url, deliveryFetch: capture, runs });
    try {
      const before = agentServer.calls.length;
      await a.sandbox.close();
      const done = await until(async () => (await late.client.runs.getRun(run.run_id)).run, (r) => r.status === 'COMPLETED', 20_000);
      const sims = (await late.client.simulatedConversations.listSimulatedConversations({ query: { filter: `run_id = "${run.run_id}"` } })).simulated_conversations;
      expect(sims).toHaveLength(6);
      const calls = conversationsOf(run.run_id, sims);
      // No conversation was sent to the agent twice.
      expect(new Set(calls).size).toBe(calls.length);
      expect(agentServer.calls.length).toBeGreaterThan(before);
      // The conversation a had in progress (concurrency 1, the agent takes 300 ms) is the one the third instance
      // found interrupted: only a takeover produces it.
      const failed = sims.filter((s) => s.status === 'FAILED');
      expect(failed).toHaveLength(1);
      expect(failed[0]!.error_message).toMatch(/interrupted/);
      expect(done.progress).toMatchObject({ completed_test_cases: 5, failed_test_cases: 1, in_progress_test_cases: 0 });
      expect(done.error_status).toBe('EXECUTION_FAILURE');
      await late.sandbox.idle();
      expect(delivered.filter((d) => d.run_id === run.run_id)).toHaveLength(1);
    } finally {
      await late.close();
    }
  });
});
