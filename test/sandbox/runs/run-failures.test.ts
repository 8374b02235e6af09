// Bad agents (issue 25 "Bad input"): refused, timeout, non-2xx, oversized, malformed, an unusable configuration.
// Each fails its own conversation with a clear error_message; the run still completes, with EXECUTION_FAILURE, the
// failed conversations in output_ids. An agent without a usable chat endpoint gets synthetic transcripts.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../generated/client/index.js';
import { startHarness, type Harness } from '../../support/sandbox.js';
import { startChatAgent, until, type ChatAgent } from './chat-agent-server.js';

let h: Harness;
let agentServer: ChatAgent;
beforeAll(async () => {
  agentServer = await startChatAgent();
  h = await startHarness({ runs: { paceMs: 0, agentTimeoutMs: 300, maxAgentResponseBytes: 2_000 } });
});
afterAll(async () => {
  await h.close();
  await agentServer.close();
});

/** A loopback port nobody listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function runOnce(c: Client, metadata: Record<string, unknown>, modelType: 'MODEL_TYPE_CHAT' | 'MODEL_TYPE_VOICE' = 'MODEL_TYPE_CHAT', inputs = ['Hello there']) {
  const { agent } = await c.agents.createAgent({ display_name: `Agent ${Math.random()}`, model_type: modelType, metadata });
  const { persona } = await c.personas.createPersona({ name: `P ${Math.random()}`, voice_name: 'hans', language_code: 'de-DE' });
  const setId = (await c.testSets.createTestSet({ display_name: `S ${Math.random()}` })).test_set!.id!;
  for (const input_str of inputs) await c.testCases.createTestCase({ test_set_id: setId, input_str });
  const launched = (await c.runs.launchRun({ agent_id: agent.id, persona_id: persona.id, test_set_id: setId })).run;
  const run = await until(
    async () => (await c.runs.getRun(launched.run_id)).run,
    (r) => r.status === 'COMPLETED' || r.status === 'FAILED',
  );
  const sims = (await c.simulatedConversations.listSimulatedConversations({ query: { filter: `run_id = "${run.run_id}"` } })).simulated_conversations;
  const full = await Promise.all(sims.map(async (s) => (await c.simulatedConversations.getSimulatedConversation(s.simulation_id)).simulated_conversation));
  return { run, sims: full };
}

describe('a run whose agent misbehaves', () => {
  let c: Client;
  beforeAll(async () => {
    c = h.clientFor((await h.control.createOrganization('failures')).api_key.key);
  });

  const cases: [string, (url: string) => Promise<Record<string, unknown>>, RegExp][] = [
    ['a refused connection', async () => ({ chat_endpoint: `http://127.0.0.1:${await closedPort()}/chat` }), /connection refused/],
    ['a timeout', async (url) => (agentServer.on('/slow', () => ({ delayMs: 2_000, body: {} })), { chat_endpoint: `${url}/slow` }), /timeout/],
    ['a non-2xx answer', async (url) => (agentServer.on('/down', () => ({ status: 503, body: { error: 'down' } })), { chat_endpoint: `${url}/down` }), /HTTP 503/],
    ['an oversized answer', async (url) => (agentServer.on('/huge', () => ({ raw: JSON.stringify({ choices: [{ message: { content: 'x'.repeat(10_000) } }] }) })), { chat_endpoint: `${url}/huge` }), /larger than 2000 bytes/],
    ['a body that is not JSON', async (url) => (agentServer.on('/garbled', () => ({ raw: '<html>oops' })), { chat_endpoint: `${url}/garbled` }), /not JSON/],
    ['JSON without choices', async (url) => (agentServer.on('/odd', () => ({ body: { answer: 'hi' } })), { chat_endpoint: `${url}/odd` }), /choices\[0\]\.message/],
    ['a connection closed without an answer', async (url) => (agentServer.on('/hangup', () => ({ hangUp: true })), { chat_endpoint: `${url}/hangup` }), /closed|network error/],
    ['custom_headers that are not a JSON object', async (url) => ({ chat_endpoint: `${url}/chat`, custom_headers: '[1, 2]' }), /custom_headers is not a JSON object/],
  ];
  for (const [what, metadata, message] of cases) {
    it(`fails the conversation on ${what}, and the run completes with EXECUTION_FAILURE`, async () => {
      const { run, sims } = await runOnce(c, await metadata(agentServer.url));
      expect(run.status).toBe('COMPLETED');
      expect(run.error_status).toBe('EXECUTION_FAILURE');
      expect(run.progress).toMatchObject({ total_test_cases: 1, completed_test_cases: 0, failed_test_cases: 1, in_progress_test_cases: 0 });
      expect(sims).toHaveLength(1);
      expect(sims[0]!.status).toBe('FAILED');
      expect(sims[0]!.error_message).toMatch(message);
      expect(run.results?.output_ids).toEqual([sims[0]!.simulation_id]);
    });
  }

  it('never puts the authorization header or a URL query in an error message', async () => {
    agentServer.on('/secret-down', () => ({ status: 500, body: {} }));
    const { sims } = await runOnce(c, { chat_endpoint: `${agentServer.url}/secret-down?token=query-secret`, authorization_header: 'Bearer header-secret' });
    expect(sims[0]!.error_message).toMatch(/HTTP 500/);
    expect(sims[0]!.error_message).not.toMatch(/query-secret|header-secret/);
  });
});

describe('agents the sandbox cannot talk to', () => {
  it('get deterministic synthetic transcripts, marked, with no network call', async () => {
    const c = h.clientFor((await h.control.createOrganization('synthetic')).api_key.key);
    const before = agentServer.calls.length;
    const voice = await runOnce(c, { chat_endpoint: `${agentServer.url}/chat` }, 'MODEL_TYPE_VOICE', ['Book a table', 'Move my booking']);
    const noEndpoint = await runOnce(c, {}, 'MODEL_TYPE_CHAT', ['Book a table']);
    const notHttp = await runOnce(c, { chat_endpoint: 'ftp://example.test/chat' }, 'MODEL_TYPE_CHAT', ['Book a table']);
    expect(agentServer.calls.length).toBe(before);
    for (const { run, sims } of [voice, noEndpoint, notHttp]) {
      expect(run.status).toBe('COMPLETED');
      expect(run.error_status ?? null).toBeNull();
      for (const s of sims) expect(s.status).toBe('COMPLETED');
    }
    const table = (r: typeof voice) => r.sims.map((s) => s.transcript!.map((m) => [m.role, m.content, m.start_offset, m.end_offset])).find((t) => t[0]![1] === 'Book a table');
    // The same test case input gives the same transcript, whichever agent and run.
    expect(table(voice)).toEqual(table(noEndpoint));
    expect(table(voice)).toEqual(table(notHttp));
    expect(table(voice)!.map((m) => m[0])).toEqual(['user', 'assistant', 'tool']);
    // Marked synthetic in the record (bookkeeping the metric evaluator reads).
    const stored = h.sandbox.runtime.store.get('simulation', voice.sims[0]!.simulation_id)!;
    expect(stored.data.synthetic_transcript).toBe(true);
  });
});
