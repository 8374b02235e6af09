// Issue 25, done means: through the public API alone, a run against a local chat agent completes: one conversation
// per selected case, transcripts of the real exchange, results, the job_complete webhook delivered once with the
// service's payload, the alert evaluated. Also read on the legacy simulation paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../generated/client/index.js';
import type { FetchLike } from '../../../src/sandbox/events/deliver.js';
import { startHarness, type Harness } from '../../support/sandbox.js';
import { startChatAgent, until, type ChatAgent } from './chat-agent-server.js';

const deliveries: { url: string; headers: Record<string, string>; body: Record<string, unknown> }[] = [];
const captureFetch: FetchLike = async (url, init) => {
  deliveries.push({ url, headers: init.headers, body: JSON.parse(init.body) as Record<string, unknown> });
  return { status: 200 };
};

let h: Harness;
let agentServer: ChatAgent;
beforeAll(async () => {
  agentServer = await startChatAgent();
  h = await startHarness({ deliveryFetch: captureFetch, runs: { paceMs: 5 } });
});
afterAll(async () => {
  await h.close();
  await agentServer.close();
});

type Run = Awaited<ReturnType<Client['runs']['getRun']>>['run'];

describe('a launched run against a local chat agent', () => {
  it('executes every selected case, records the exchange, completes once and fires the webhook and the alert', async () => {
    const org = await h.control.createOrganization('run flow');
    const c = h.clientFor(org.api_key.key);
    const { agent } = await c.agents.createAgent({
      display_name: 'Support bot',
      model_type: 'MODEL_TYPE_CHAT',
      metadata: {
        chat_endpoint: `${agentServer.url}/chat`,
        authorization_header: 'Bearer agent-secret-1',
        custom_headers: JSON.stringify({ 'X-Conversation': '{{simulation_output_id}}' }),
        custom_data: JSON.stringify({ tier: 'gold' }),
        custom_persona_data: JSON.stringify({ from: 'agent' }),
      },
    });
    const { persona } = await c.personas.createPersona({ name: 'Caller', voice_name: 'hans', language_code: 'de-DE' });
    // The persona's own custom data wins over the agent's (seed Persona); the update is where the seed accepts it.
    await c.personas.updatePersona(persona.id, { custom_persona_data: '{"account":"42"}' });
    const { test_set } = await c.testSets.createTestSet({ display_name: 'Orders' });
    const setId = test_set!.id!;
    await c.testCases.createTestCase({ test_set_id: setId, input_str: 'Where is my order?' });
    await c.testCases.createTestCase({ test_set_id: setId, input_str: 'Cancel my plan' });
    await c.testCases.createTestCase({ test_set_id: setId, input_str: 'Scripted', input_type: 'SCRIPT', simulation_metadata_input: { script_turns: ['Hi', 'I need help', 'Thanks'] } });
    const m1 = (await c.metrics.createMetric({ metric_name: 'Polite', description: 'Was the agent polite?', metric_type: 'METRIC_LLM_BINARY', prompt: 'Polite?' })).metric;
    const m2 = (await c.metrics.createMetric({ metric_name: 'Helpful', description: 'Was the agent helpful?', metric_type: 'METRIC_LLM_BINARY', prompt: 'Helpful?' })).metric;
    // Computed for real on the exchange: the agent answers every turn with "echo: <what it heard>".
    const m3 = (await c.metrics.createMetric({ metric_name: 'Echoes', description: 'Did the agent echo?', metric_type: 'METRIC_TRANSCRIPT_REGEX', regex_pattern: '^ECHO: ', role: 'agent', case_insensitive: true } as Parameters<Client['metrics']['createMetric']>[0])).metric;
    const { webhook } = await c.webhooks.createWebhook({ type: 'job_complete', url: 'https://hooks.example.test/job', auth_token: 'hook-token' });
    const alert = await c.alerts.createAlert({ name: 'any run', evaluation_type: 'ON_RUN_COMPLETE', conversation_source: 'SIMULATED', channels: [{ channel_type: 'SLACK', config: { channel_id: 'C1', channel_name: '#runs' } }], conditions: [{ metric_id: m1.id, aggregation: 'JOB_SUCCESS', operator: 'GTE', threshold_float: 0 }] });

    const launched = (await c.runs.launchRun({ agent_id: agent.id, persona_id: persona.id, test_set_id: setId, metric_ids: [m1.id, m2.id, m3.id], metadata: { created_by: 'ci@example.com' } })).run;
    expect(launched.status).toBe('PENDING');
    const seen = new Set<string>();
    const run: Run = await until(
      async () => (await c.runs.getRun(launched.run_id)).run,
      (r) => {
        seen.add(r.status);
        return r.status === 'COMPLETED';
      },
    );
    // Every status read was one of the cycle's (the poll may miss the short ones).
    expect([...seen].every((s) => ['PENDING', 'IN QUEUE', 'IN PROGRESS', 'COMPLETED'].includes(s))).toBe(true);
    expect(run.progress).toEqual({ total_test_cases: 3, completed_test_cases: 3, failed_test_cases: 0, in_progress_test_cases: 0 });
    expect(run.error_status ?? null).toBeNull();
    expect(run.complete_time).toEqual(expect.any(String));

    const sims = (await c.simulatedConversations.listSimulatedConversations({ query: { filter: `run_id = "${run.run_id}"` } })).simulated_conversations;
    expect(sims).toHaveLength(3);
    for (const s of sims) expect(s).toMatchObject({ run_id: run.run_id, agent_id: agent.id, persona_id: persona.id, test_set_id: setId, status: 'COMPLETED' });
    expect(new Set(sims.map((s) => s.test_case_id)).size).toBe(3);
    expect(run.results?.output_ids?.slice().sort()).toEqual(sims.map((s) => s.simulation_id).sort());
    expect(Object.keys(run.results?.metrics ?? {}).sort()).toEqual([m1.id, m2.id, m3.id].sort());
    // Judged metrics: the service's kind of answer (binary judges YES or NO, as strings), one per conversation.
    for (const judged of [m1, m2]) {
      expect(run.results?.metrics?.[judged.id]).toMatchObject({ output_type: 'string' });
      const values = run.results?.metrics?.[judged.id]?.values ?? [];
      expect(values).toHaveLength(3);
      for (const v of values) expect(['YES', 'NO']).toContain(v.value);
    }
    // The regex metric, computed on the real transcripts: every conversation's agent echoed, so 1 each.
    expect(run.results?.metrics?.[m3.id]).toMatchObject({ output_type: 'float' });
    expect((run.results?.metrics?.[m3.id]?.values ?? []).map((v) => v.value)).toEqual([1, 1, 1]);
    expect(run.results?.metrics?.[m1.id]).toMatchObject({ metric_id: m1.id, metric_name: 'Polite' });
    for (const m of Object.values(run.results?.metrics ?? {})) for (const v of m.values ?? []) expect(run.results?.output_ids).toContain(v.simulation_output_id);

    // The scripted conversation: the script word for word, each answered, the persona's end_conversation last.
    const cases = (await c.testCases.listTestCases({ query: { test_set_id: setId } })).test_cases;
    const scripted = sims.find((s) => s.test_case_id === cases.find((tc) => tc.input_str === 'Scripted')!.id)!;
    const full = (await c.simulatedConversations.getSimulatedConversation(scripted.simulation_id)).simulated_conversation;
    const transcript = full.transcript!;
    expect(transcript.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'echo: Hi'],
      ['user', 'I need help'],
      ['assistant', 'echo: I need help'],
      ['user', 'Thanks'],
      ['assistant', 'echo: Thanks'],
      ['tool', 'end_conversation'],
    ]);
    const offsets = transcript.map((m) => m.start_offset!);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    for (const m of transcript) expect(Number(m.end_timestamp)).toBeGreaterThanOrEqual(Number(m.start_timestamp));

    // What the agent received: one POST per agent turn with the conversation so far, the configured headers and data.
    const mine = agentServer.calls.filter((call) => call.headers['x-conversation'] === scripted.simulation_id);
    expect(mine.map((call) => (call.body.messages as unknown[]).length)).toEqual([1, 3, 5]);
    expect(mine[2]!.body).toMatchObject({ model: expect.any(String), customData: { tier: 'gold' }, customPersonaData: { account: '42' } });
    expect((mine[2]!.body.messages as { role: string }[]).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(mine.every((call) => call.headers.authorization === 'Bearer agent-secret-1')).toBe(true);

    // Legacy paths show the same simulations.
    const legacy = await h.raw(`/simulations/${scripted.simulation_id}`, { headers: { 'x-api-key': org.api_key.key } });
    expect(legacy.status).toBe(200);
    expect(((await legacy.json()) as { simulation: { run_id: string; transcript: unknown[] } }).simulation).toMatchObject({ run_id: run.run_id, transcript: expect.any(Array) });

    // Completion fired once: the job_complete webhook with the service's payload, and the alert evaluated.
    await h.sandbox.idle();
    const sent = deliveries.filter((d) => d.body.run_id === run.run_id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ webhook_id: webhook.id, organization_id: org.organization.id, run_id: run.run_id, status: 'COMPLETED', message: expect.stringContaining('Orders') });
    expect(String(sent[0]!.body.message)).toContain('ci@example.com');
    const events = (await c.alerts.listAlertEvents(alert.ulid)).events;
    expect(events).toHaveLength(1);
    expect(events[0]!.outcome).toBe('TRIGGERED');
    // The agent's secret never reaches an API answer.
    expect(JSON.stringify(run)).not.toContain('agent-secret-1');
  });
});
