// The optional parts of a chat connection (facts 2.16) end to end: initialization with its sessionId and answer used
// by later requests, persona initialization_parameters in the payload (seed Persona), input_template,
// payload_wrapper, response_message_path, the Responses format, tool calls kept, and the agent speaking first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../generated/client/index.js';
import { startHarness, type Harness } from '../../support/sandbox.js';
import { startChatAgent, until, type ChatAgent } from './chat-agent-server.js';

let h: Harness;
let agentServer: ChatAgent;
let c: Client;
beforeAll(async () => {
  agentServer = await startChatAgent();
  h = await startHarness({ runs: { paceMs: 0 } });
  c = h.clientFor((await h.control.createOrganization('connection options')).api_key.key);
});
afterAll(async () => {
  await h.close();
  await agentServer.close();
});

async function converse(metadata: Record<string, unknown>, persona: Record<string, unknown> = {}) {
  const { agent } = await c.agents.createAgent({ display_name: `A ${Math.random()}`, model_type: 'MODEL_TYPE_CHAT', metadata });
  const made = (await c.personas.createPersona({ name: `P ${Math.random()}`, voice_name: 'hans', language_code: 'de-DE' })).persona;
  // The seed lists these persona fields among those an update accepts.
  if (Object.keys(persona).length > 0) await c.personas.updatePersona(made.id, persona);
  const setId = (await c.testSets.createTestSet({ display_name: `S ${Math.random()}` })).test_set!.id!;
  await c.testCases.createTestCase({ test_set_id: setId, input_str: 'Track parcel 7' });
  const { run } = await c.runs.launchRun({ agent_id: agent.id, persona_id: made.id, test_set_id: setId });
  await until(async () => (await c.runs.getRun(run.run_id)).run, (r) => r.status === 'COMPLETED');
  const [sim] = (await c.simulatedConversations.listSimulatedConversations({ query: { filter: `run_id = "${run.run_id}"` } })).simulated_conversations;
  return (await c.simulatedConversations.getSimulatedConversation(sim!.simulation_id)).simulated_conversation;
}

describe('chat connection options', () => {
  it('initializes once, then templates the session, the init answer and the messages into a wrapped request; reads the reply at its path', async () => {
    agentServer.on('/init', () => ({ body: { sessionId: 'S-42', auth: { token: 'tk"1' } } }));
    agentServer.on('/custom', () => ({ body: { reply: { text: 'Parcel 7 is on its way' } } }));
    const sim = await converse(
      {
        chat_endpoint: `${agentServer.url}/custom`,
        initialization_endpoint: `${agentServer.url}/init`,
        initialization_payload: '{"user": "{{persona.account}}", "conversation": "{{simulation_output_id}}"}',
        input_template: '{"session": "{{sessionId}}", "token": "{{init_response.auth.token}}", "question": "{{last_user_message}}", "history": {{messages}}}',
        payload_wrapper: 'data',
        response_message_path: 'reply.text',
        custom_headers: JSON.stringify({ 'X-Session': '{{sessionId}}' }),
      },
      { initialization_parameters: { account: 'A-1' } },
    );
    expect(sim.status).toBe('COMPLETED');
    expect(sim.transcript!.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Track parcel 7'],
      ['assistant', 'Parcel 7 is on its way'],
      ['tool', 'end_conversation'],
    ]);
    const init = agentServer.calls.filter((x) => x.path === '/init');
    expect(init.map((x) => x.body)).toEqual([{ user: 'A-1', conversation: sim.simulation_id }]);
    const chat = agentServer.calls.filter((x) => x.path === '/custom');
    expect(chat).toHaveLength(1);
    expect(chat[0]!.headers['x-session']).toBe('S-42');
    expect(chat[0]!.body).toEqual({ data: { session: 'S-42', token: 'tk"1', question: 'Track parcel 7', history: [{ role: 'user', content: 'Track parcel 7' }] } });
  });

  it('reads the Responses format, keeps tool calls, and lets the agent speak first for a persona that waits', async () => {
    agentServer.on('/responses', (call) => {
      const messages = call.body.messages as unknown[];
      return messages.length === 0
        ? { body: { output: [{ type: 'message', content: [{ type: 'output_text', text: 'Welcome!' }] }] } }
        : { body: { output: [{ type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"parcel":7}' }] } };
    });
    const sim = await converse({ chat_endpoint: `${agentServer.url}/responses`, response_format: 'responses' }, { conversation_initiation: 'wait_for_user' });
    expect(sim.status).toBe('COMPLETED');
    const t = sim.transcript!;
    expect(t.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant', 'tool']);
    expect(t[0]!.content).toBe('Welcome!');
    expect(t[2]!.content).toBeNull();
    expect(t[2]!.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"parcel":7}' } }]);
  });
});
