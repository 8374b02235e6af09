// Null in request bodies where the service's client sends it (facts-shapes section 2; docs/sandbox.md "Nullability
// and requiredness of request bodies"): in a create body null is the same as leaving the field out; in an update
// body null clears a field the resource lets be null and leaves the others unchanged; a null where the facts allow
// none is 400 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness();
  key = (await h.control.createOrganization('request nulls')).api_key.key;
});
afterAll(async () => h.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await h.raw(path, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

function expectInvalid(answer: { status: number; body: any }, field: string): void {
  expect(answer.status).toBe(400);
  expect(answer.body.error.code).toBe('INVALID_ARGUMENT');
  expect(answer.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
}

describe('agent update (AG4)', () => {
  it('null clears the nullable fields, leaves the others unchanged, and records a version', async () => {
    const created = await call('POST', '/agents', {
      display_name: 'a',
      model_type: 'MODEL_TYPE_VOICE',
      prompt: 'p',
      language: 'en',
      phone_number: '+15551234567',
      endpoint: 'https://agent.example.com/hook',
      attributes: { tier: 'gold' },
      metadata: { m: 1 },
      workflows: { w: true },
      tags: ['t'],
      customer_agent_id: 'cust-1',
    });
    expect(created.status).toBe(201);
    const id = created.body.agent.id;
    const nulls = { prompt: null, language: null, phone_number: null, endpoint: null, attributes: null, metadata: null, workflows: null, tags: null, customer_agent_id: null, metric_ids: null, test_set_ids: null };
    const patched = await call('PATCH', `/agents/${id}`, nulls);
    expect(patched.status).toBe(200);
    const agent = patched.body.agent;
    for (const cleared of ['prompt', 'language', 'phone_number', 'endpoint', 'attributes']) expect(agent[cleared] ?? null, cleared).toBeNull();
    expect(agent).toMatchObject({ metadata: { m: 1 }, workflows: { w: true }, tags: ['t'], customer_agent_id: 'cust-1', metric_ids: [], test_set_ids: [] });
    expect(agent.current_version.version_number).toBe(2);
    const read = await call('GET', `/agents/${id}`);
    expect(read.body.agent.prompt ?? null).toBeNull();
  });

  it('null on display_name or model_type is 400 naming the field', async () => {
    const id = (await call('POST', '/agents', { display_name: 'b', model_type: 'MODEL_TYPE_CHAT' })).body.agent.id;
    expectInvalid(await call('PATCH', `/agents/${id}`, { display_name: null }), 'display_name');
    expectInvalid(await call('PATCH', `/agents/${id}`, { model_type: null }), 'model_type');
  });
});

describe('create bodies: null is the same as leaving the field out', () => {
  it('a persona (PE2) and a test set (TS2)', async () => {
    const persona = await call('POST', '/personas', { name: 'p', voice_name: 'alloy', language_code: 'en-US', persona_prompt: null, background_sound: null, voice_speed: null, conversation_initiation: null, situate_speaker: null, multi_language_stt: null, tags: null });
    expect(persona.status).toBe(201);
    expect(persona.body.persona.voice_speed ?? null).toBeNull();
    const testSet = await call('POST', '/test-sets', { display_name: 'ts', description: null, tags: null });
    expect(testSet.status).toBe(201);
    expect(testSet.body.test_set.description ?? null).toBeNull();
  });

  it('a baseline (MT11): null sigma_threshold gets the default', async () => {
    const metric = (await call('POST', '/metrics', { metric_name: 'm', description: 'd', metric_type: 'METRIC_LLM_BINARY', prompt: 'x', target_condition: null, tags: null })).body.metric;
    expect(metric.id).toBeTypeOf('string');
    const baseline = await call('POST', `/metrics/${metric.id}/baselines`, { display_name: null, sigma_threshold: null });
    expect(baseline.status).toBe(201);
    expect(baseline.body.sigma_threshold).toBe(2);
  });
});

describe('metric, test set and alert updates', () => {
  it('metric (MT4): null clears include_traces and target_condition, leaves runtime_config and tags', async () => {
    const id = (await call('POST', '/metrics', { metric_name: 'm2', description: 'd', metric_type: 'METRIC_LLM_BINARY', prompt: 'x', tags: ['q'], include_traces: true, runtime_config: { model_version: 'openai:gpt-4o' }, target_condition: { comparison_operator: 'in', target_values: ['a'] } })).body.metric.id;
    const patched = await call('PATCH', `/metrics/${id}`, { include_traces: null, target_condition: null, runtime_config: null, tags: null });
    expect(patched.status).toBe(200);
    expect(patched.body.metric.include_traces ?? null).toBeNull();
    expect(patched.body.metric.target_condition ?? null).toBeNull();
    expect(patched.body.metric).toMatchObject({ tags: ['q'], runtime_config: { model_version: 'openai:gpt-4o' } });
  });

  it('test set (TS4): null clears description, leaves tags', async () => {
    const id = (await call('POST', '/test-sets', { display_name: 'ts2', description: 'd', tags: ['x'] })).body.test_set.id;
    const patched = await call('PATCH', `/test-sets/${id}`, { description: null, tags: null });
    expect(patched.status).toBe(200);
    expect(patched.body.test_set.description ?? null).toBeNull();
    expect(patched.body.test_set.tags).toEqual(['x']);
  });

  it('alert: evaluation_type is required on create (AL2); null removes custom_message_template (AL4); a null condition match_mode is kept', async () => {
    const metric = (await call('POST', '/metrics', { metric_name: 'm3', description: 'd', metric_type: 'METRIC_LLM_BINARY', prompt: 'x' })).body.metric.id;
    const conditions = [{ metric_id: metric, aggregation: 'SINGLE', operator: 'GT', threshold_float: 1, match_mode: null }];
    expectInvalid(await call('POST', '/alerts', { name: 'a', conditions }), 'evaluation_type');
    const alert = await call('POST', '/alerts', { name: 'a', evaluation_type: 'ON_RUN_COMPLETE', custom_message_template: 'hi', conditions });
    expect(alert.status).toBe(201);
    expect(alert.body.conditions[0].match_mode).toBeNull();
    const patched = await call('PATCH', `/alerts/${alert.body.ulid}`, { custom_message_template: null });
    expect(patched.status).toBe(200);
    expect(patched.body.custom_message_template ?? null).toBeNull();
    expectInvalid(await call('PATCH', `/alerts/${alert.body.ulid}`, { evaluation_type: null }), 'evaluation_type');
  });
});

describe('conversation submit (UC1)', () => {
  it('takes agent_id null and typed tool calls; a tool call without its type and function is 400 on each', async () => {
    const ok = await call('POST', '/conversations/uploaded:submit', { agent_id: null, transcript: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] }] });
    expect(ok.status).toBe(200);
    expect(ok.body.uploaded_conversation.agent_id).toBeNull();
    const bad = await call('POST', '/conversations/uploaded:submit', { transcript: [{ role: 'assistant', tool_calls: [{ id: 'c1' }] }] });
    expectInvalid(bad, 'transcript[0].tool_calls[0].type');
    expectInvalid(bad, 'transcript[0].tool_calls[0].function');
  });
});
