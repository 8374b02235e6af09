// The pieces of a chat connection: template filling (facts 2.16 variables, seed {{persona.key}}), reading the
// agent's metadata, the reply's place in the answer, the seeded sub-sample of test cases, the persona's turns.
import { describe, expect, it } from 'vitest';
import { agentConnection } from '../../../src/sandbox/runs/agent-connection.js';
import { readReply } from '../../../src/sandbox/runs/chat-agent.js';
import { personaTurns } from '../../../src/sandbox/runs/persona-turns.js';
import { subSample } from '../../../src/sandbox/runs/select-cases.js';
import { fillJson, fillText } from '../../../src/sandbox/runs/templates.js';

describe('templates', () => {
  const vars = { sessionId: 'S-1', simulation_output_id: 'sim1', init_response: { data: { token: 't"k' } }, persona: { tier: 'gold', age: 42 }, messages: [{ role: 'user', content: 'hi' }] };
  it('fill a JSON template: strings escaped inside quotes, other values as JSON, unknown names left as written', () => {
    expect(fillJson('{"s":"{{sessionId}}","t":"{{ init_response.data.token }}","age":{{persona.age}},"m":{{messages}},"x":"{{nope}}"}', vars)).toEqual({ s: 'S-1', t: 't"k', age: 42, m: [{ role: 'user', content: 'hi' }], x: '{{nope}}' });
    expect(fillJson({ tier: '{{persona.tier}}', id: '{{simulation_output_id}}' }, vars)).toEqual({ tier: 'gold', id: 'sim1' });
  });
  it('fill a header value as plain text', () => {
    expect(fillText('Session {{sessionId}} / {{persona.age}}', vars)).toBe('Session S-1 / 42');
  });
});

describe('agentConnection', () => {
  it('reads a chat agent metadata, and sends other agents to synthetic transcripts', () => {
    const chat = agentConnection({ model_type: 'MODEL_TYPE_CHAT', metadata: { chat_endpoint: 'http://127.0.0.1:9/chat', authorization_header: 'Bearer x', custom_data: '{"a":1}', response_format: 'responses', payload_wrapper: 'body' } });
    expect(chat).toMatchObject({ kind: 'chat', connection: { endpoint: 'http://127.0.0.1:9/chat', authorization: 'Bearer x', customData: { a: 1 }, responseFormat: 'responses', payloadWrapper: 'body' } });
    expect(agentConnection({ model_type: 'MODEL_TYPE_VOICE', metadata: { chat_endpoint: 'http://127.0.0.1:9/chat' } }).kind).toBe('synthetic');
    expect(agentConnection({ model_type: 'MODEL_TYPE_CHAT', metadata: {} }).kind).toBe('synthetic');
    expect(agentConnection({ model_type: 'MODEL_TYPE_CHAT', metadata: { chat_endpoint: 'http://user:pw@127.0.0.1/chat' } }).kind).toBe('synthetic');
    expect(agentConnection({ model_type: 'MODEL_TYPE_CHAT', metadata: { chat_endpoint: 'http://127.0.0.1/chat', response_format: 'xml' } })).toMatchObject({ kind: 'invalid' });
    expect(agentConnection({ model_type: 'MODEL_TYPE_CHAT', metadata: { chat_endpoint: 'http://127.0.0.1/chat', custom_data: 'not json' } })).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('custom_data') });
  });
});

describe('readReply', () => {
  it('takes choices[0].message with its tool calls, the Responses output, or the configured path', () => {
    const call = { id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } };
    expect(readReply({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [call] } }] }, 'chat_completions', null, 'x')).toEqual({ content: null, toolCalls: [call] });
    expect(readReply({ output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hello' }] }, { type: 'function_call', call_id: 'c2', name: 'f', arguments: '{"a":1}' }] }, 'responses', null, 'x')).toEqual({ content: 'Hello', toolCalls: [{ id: 'c2', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] });
    expect(readReply({ data: { reply: { text: 'no' } } }, 'chat_completions', 'data.reply.text', 'x')).toEqual({ content: 'no', toolCalls: [] });
    expect(() => readReply({ data: {} }, 'chat_completions', 'data.reply', 'x')).toThrow(/response_message_path/);
  });
});

describe('subSample', () => {
  const ids = Array.from({ length: 20 }, (_, i) => `case${i}`);
  it('is reproducible for one seed, differs across seeds, keeps grid order and size', () => {
    const a = subSample(ids, 5, 7);
    expect(subSample(ids, 5, 7)).toEqual(a);
    expect(a).toHaveLength(5);
    expect(a).toEqual([...a].sort((x, y) => ids.indexOf(x) - ids.indexOf(y)));
    expect([1, 2, 3, 4].map((seed) => subSample(ids, 5, seed).join()).some((s) => s !== a.join())).toBe(true);
    expect(subSample(ids, 0, 1)).toEqual(ids);
  });
});

describe('personaTurns', () => {
  it('says a SCRIPT word for word (DTMF as text, skip as nothing), else the input, and nothing when silent', () => {
    expect(personaTurns({ input_type: 'SCRIPT', input_str: 'x', simulation_metadata_input: { script_turns: ['Hi', { type: 'dtmf', value: '12#' }, { type: 'skip' }] } }, {})).toEqual(['Hi', '12#', null]);
    expect(personaTurns({ input_type: 'SCENARIO', input_str: 'Where is my order?' }, {})).toEqual(['Where is my order?']);
    expect(personaTurns({ input_str: 'x' }, { silent_mode: true })).toEqual([]);
  });
});
