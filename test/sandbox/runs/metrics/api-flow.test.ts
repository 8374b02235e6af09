// Metrics at work through the API and the control plane: the SQL schema (MT28) describes the frames sql:test
// (MT29) runs over, authoring errors are 200 with `error` and only a malformed body is 400; a metric test
// (MT30) answers 202 at once and its output appears on the conversation's metrics; an invalid regex is a FAILED
// output, never a 500; scripted answers decide a judge's outcome; rerunMetrics re-scores a stored transcript and
// delivers the new values; scoreSimulation stores outputs and only numeric values in metric_values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_TABLES } from '../../../../src/sandbox/runs/metrics/frames.js';
import { scoreSimulation } from '../../../../src/sandbox/runs/metrics/score.js';
import { failure, startHarness, type Harness } from '../../../support/sandbox.js';
import { CHAT } from './transcripts.js';

const deliveries: Record<string, unknown>[] = [];
let h: Harness;
let org: string;

beforeAll(async () => {
  h = await startHarness({
    deliveryFetch: async (_url, init) => {
      deliveries.push(JSON.parse(init.body) as Record<string, unknown>);
      return { status: 200 };
    },
  });
  org = h.sandbox.organizationId;
});
afterAll(async () => h.close());

let counter = 0;
async function metric(data: Record<string, unknown>): Promise<string> {
  return (await h.control.loadFixtures(org, [{ kind: 'metric', data: { metric_name: `Metric ${++counter}`, description: 'test', ...data } }]))[0]!.id;
}
async function simulation(data: Record<string, unknown> = {}): Promise<string> {
  const id = `metsim${String(++counter).padStart(4, '0')}`.padEnd(22, 'x');
  await h.control.loadFixtures(org, [{ kind: 'simulation', id, data: { run_id: 'RunMMMMMMMMMMMMMMMMMMM', status: 'COMPLETED', has_audio: false, test_case_id: 'TestCaseAAAAAAAAAAAAAA', transcript: CHAT, ...data } }]);
  return id;
}
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await h.raw(path, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: JSON.parse(await res.text()) };
}
async function outputs(simulationId: string): Promise<Record<string, any>[]> {
  return (await h.client.simulatedConversations.listSimulatedConversationMetricOutputs(simulationId)).metrics as Record<string, any>[];
}

describe('GET /metrics/sql-schema', () => {
  it('describes exactly the tables the queries run over, with sql_type, enum and sample rows', async () => {
    const schema = await h.client.metrics.getMetricSqlSchema();
    expect(schema.tables.map((t) => t.name)).toEqual(FRAME_TABLES.map((t) => t.name));
    const messages = schema.tables.find((t) => t.name === 'messages')!;
    expect(messages.columns.find((c) => c.name === 'role')).toMatchObject({ sql_type: 'TEXT', enum: { name: 'message_role', values: ['user', 'assistant', 'tool', 'system'] } });
    expect(messages.columns.find((c) => c.name === 'start_offset_milliseconds')).toMatchObject({ sql_type: 'INTEGER', enum: null });
    expect(messages.sample_rows).toHaveLength(3);
    expect(messages.sample_rows![0]).toMatchObject({ message_index: 0, role: 'user' });
    // Every column the schema names can be selected by sql:test, and nothing else.
    for (const table of schema.tables) {
      const names = table.columns.map((c) => c.name).join(', ');
      const answer = await h.client.metrics.testMetricSql({ sql_query: `SELECT ${names}, 0 AS start_offset_milliseconds, 1 AS value FROM ${table.name}`, aggregation_method: 'COUNT' });
      expect(answer.error).toBeNull();
    }
  });
});

describe('POST /metrics/sql:test', () => {
  it('aggregates the sample rows and answers the subvalues in seconds', async () => {
    const answer = await h.client.metrics.testMetricSql({ sql_query: 'SELECT start_offset_milliseconds, end_offset_milliseconds, latency_milliseconds AS value FROM agent_turns WHERE latency_milliseconds IS NOT NULL', aggregation_method: 'MAX', unit: 'ms' });
    expect(answer).toMatchObject({ value: 1200, unit: "ms", aggregation_method: "MAX", row_count: 3, error: null });
    expect(answer.subvalues![0]).toEqual({ start_offset_seconds: 4.1, end_offset_seconds: 5.6, value: 900 });
  });

  it.each([
    ['a write', "UPDATE messages SET content = ''"],
    ['SQL that does not parse', 'SELECT FROM WHERE'],
    ['a table the schema does not describe', 'SELECT 0 AS start_offset_milliseconds, 1 AS value FROM simulations'],
    ['no rows', 'SELECT start_offset_milliseconds, 1 AS value FROM messages WHERE 0'],
    ['an unknown aggregation', 'SELECT start_offset_milliseconds, 1 AS value FROM messages'],
  ])('answers %s 200 with error', async (name, sql) => {
    const res = await call('POST', '/metrics/sql:test', { sql_query: sql, ...(name === 'an unknown aggregation' ? { aggregation_method: 'MEDIAN' } : {}) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ value: null, error: expect.any(String), subvalues: [] });
  });

  it('answers a malformed body 400 naming the field', async () => {
    const missing = await call('POST', '/metrics/sql:test', { aggregation_method: 'SUM' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'sql_query' })]));
    expect((await call('POST', '/metrics/sql:test', { sql_query: 42 })).status).toBe(400);
  });
});

describe('POST /metrics/{metric_id}/test', () => {
  it('answers 202 at once; the output appears on the conversation, metric_values untouched', async () => {
    const regex = await metric({ metric_type: 'METRIC_TRANSCRIPT_REGEX', regex_pattern: 'goodbye', case_insensitive: true, position: 'last' });
    const sim = await simulation({ metric_values: { [regex]: 0 } });
    const res = await call('POST', `/metrics/${regex}/test`, { simulation_output_id: sim, dev_id: 'dev-1' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ metric_output_ulid: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/) });
    await h.sandbox.idle();
    const out = (await outputs(sim)).find((o) => o.metric_output_id === res.body.metric_output_ulid)!;
    expect(out).toMatchObject({ metric_id: regex, status: 'COMPLETED', value: 1, status_reason: null, runtime_metadata: { source: 'metric_test', dev_id: 'dev-1' } });
    const one = await h.client.simulatedConversations.getSimulatedConversationMetricOutput(sim, res.body.metric_output_ulid);
    expect(one.metric).toEqual(out);
    const record = await h.client.simulatedConversations.getSimulatedConversation(sim);
    expect(record.simulated_conversation?.metric_values ?? (record as any).metric_values).toEqual({ [regex]: 0 });
  });

  it('makes an invalid regex_pattern a FAILED output with a status_reason, not an error', async () => {
    const broken = await metric({ metric_type: 'METRIC_TRANSCRIPT_REGEX', regex_pattern: '(unclosed' });
    const sim = await simulation();
    const res = await h.client.metrics.testMetric(broken, { simulation_output_id: sim });
    await h.sandbox.idle();
    const out = (await outputs(sim)).find((o) => o.metric_output_id === res.metric_output_ulid)!;
    expect(out).toMatchObject({ status: 'FAILED', value: null, status_reason: expect.stringMatching(/invalid regex_pattern/) });
  });

  it('answers 404 naming the field for an unknown simulation or metric, 400 without simulation_output_id', async () => {
    const m = await metric({ metric_type: 'METRIC_LLM_BINARY' });
    const sim = await simulation();
    expect((await failure(h.client.metrics.testMetric(m, { simulation_output_id: 'missingAAAAAAAAAAAAAAA' }))).body).toMatchObject({ error: { code: 'NOT_FOUND', details: [{ field: 'simulation_output_id' }] } });
    expect((await failure(h.client.metrics.testMetric('AAAAAAAAAAAAAAAAAAAAAA', { simulation_output_id: sim }))).status).toBe(404);
    expect((await call('POST', `/metrics/${m}/test`, {})).status).toBe(400);
  });

  it('judges with a stand-in of the metric kind, the same answer on the same conversation', async () => {
    const judge = await metric({ metric_type: 'METRIC_NUMERICAL_LLM_JUDGE', min_value: 1, max_value: 5 });
    const sim = await simulation();
    const first = await h.client.metrics.testMetric(judge, { simulation_output_id: sim });
    const second = await h.client.metrics.testMetric(judge, { simulation_output_id: sim });
    await h.sandbox.idle();
    const listed = await outputs(sim);
    const a = listed.find((o) => o.metric_output_id === first.metric_output_ulid)!;
    const b = listed.find((o) => o.metric_output_id === second.metric_output_ulid)!;
    expect(a.value).toBeGreaterThanOrEqual(1);
    expect(a.value).toBeLessThanOrEqual(5);
    expect(b.value).toBe(a.value);
    expect(a.explanation).toMatch(/stand-in/);
  });
});

describe('scripted answers (control plane)', () => {
  it('decide the answer per metric and test case, checked against the judge kind', async () => {
    const judge = await metric({ metric_type: 'METRIC_LLM_BINARY' });
    const scripted = await h.control.request('POST', `/organizations/${org}/metric-answers`, { answers: [{ metric_id: judge, test_case_id: 'TestCaseAAAAAAAAAAAAAA', value: 'NO', explanation: 'scripted no' }] });
    expect(scripted.status).toBe(200);
    const sim = await simulation();
    const other = await simulation({ test_case_id: 'TestCaseBBBBBBBBBBBBBB' });
    const [res, otherRes] = [await h.client.metrics.testMetric(judge, { simulation_output_id: sim }), await h.client.metrics.testMetric(judge, { simulation_output_id: other })];
    await h.sandbox.idle();
    expect((await outputs(sim)).find((o) => o.metric_output_id === res.metric_output_ulid)).toMatchObject({ status: 'COMPLETED', value: 'NO', explanation: 'scripted no' });
    // Another test case is judged by the stand-in.
    expect((await outputs(other)).find((o) => o.metric_output_id === otherRes.metric_output_ulid)!.explanation).toMatch(/stand-in/);

    // Every test case, and a FAILED answer.
    await h.control.request('POST', `/organizations/${org}/metric-answers`, { answers: [{ metric_id: judge, status: 'FAILED', explanation: 'judge unavailable' }] });
    const failedRes = await h.client.metrics.testMetric(judge, { simulation_output_id: other });
    await h.sandbox.idle();
    expect((await outputs(other)).find((o) => o.metric_output_id === failedRes.metric_output_ulid)).toMatchObject({ status: 'FAILED', status_reason: 'judge unavailable' });

    const wrong = await h.control.request('POST', `/organizations/${org}/metric-answers`, { answers: [{ metric_id: judge, value: 'MAYBE' }] });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as any).error.details[0].field).toBe('answers[0].value');
    const unknown = await h.control.request('POST', `/organizations/${org}/metric-answers`, { answers: [{ metric_id: 'AAAAAAAAAAAAAAAAAAAAAA', value: 1 }] });
    expect(unknown.status).toBe(404);
  });
});

describe('rerunMetrics and scoreSimulation', () => {
  it('re-scores a stored transcript, overwriting the output and delivering the new value', async () => {
    await h.client.webhooks.createWebhook({ type: 'job_complete', url: 'https://hooks.example/rescore' });
    const regex = await metric({ metric_type: 'METRIC_TRANSCRIPT_REGEX', regex_pattern: 'Order', position: 'first' });
    const sim = await simulation({ run_id: 'RunRRRRRRRRRRRRRRRRRRR', metric_values: { [regex]: 0 } });
    const res = await call('POST', '/conversations/simulated:rerunMetrics', { simulation_ids: [sim], metric_ids: [regex] });
    expect(res.status).toBe(202);
    await h.sandbox.idle();
    const listed = await outputs(sim);
    expect(listed.filter((o) => o.metric_id === regex)).toEqual([expect.objectContaining({ status: 'COMPLETED', value: 1 })]);
    const included = await h.client.simulatedConversations.listSimulatedConversations({ query: { include: "metric_values", page_size: 100 } });
    expect(included.simulated_conversations.find((s) => s.simulation_id === sim)!.metric_values).toEqual({ [regex]: 1 });
    expect(deliveries.filter((d) => d.run_id === 'RunRRRRRRRRRRRRRRRRRRR')).toEqual([expect.objectContaining({ metric_values: { [regex]: 1 } })]);
    // A second re-run overwrites the same output.
    await call('POST', '/conversations/simulated:rerunMetrics', { simulation_ids: [sim], metric_ids: [regex] });
    await h.sandbox.idle();
    const again = (await outputs(sim)).filter((o) => o.metric_id === regex);
    expect(again.map((o) => o.metric_output_id)).toEqual(listed.filter((o) => o.metric_id === regex).map((o) => o.metric_output_id));
  });

  it('refuses more than 500 simulation-metric pairs, 400 on metric_ids (facts 2.17)', async () => {
    const sims = Array.from({ length: 2 }, (_, i) => `pairsim${i}`.padEnd(22, 'x'));
    const metrics = Array.from({ length: 251 }, (_, i) => `m${i}`.padEnd(22, 'x'));
    const res = await call('POST', '/conversations/simulated:rerunMetrics', { simulation_ids: sims, metric_ids: metrics });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'metric_ids', description: expect.stringMatching(/502/) })]);
  });

  it('scores a simulation: outputs in metric order, only numbers in metric_values', async () => {
    const judge = await metric({ metric_type: 'METRIC_LLM_BINARY' });
    const latency = await metric({ metric_type: 'METRIC_LLM_TTFB' });
    const audio = await metric({ metric_type: 'METRIC_LUFS' });
    const sim = await simulation();
    const scored = await scoreSimulation(h.sandbox.runtime, sim, [judge, latency, audio]);
    expect(scored).toEqual([
      { metric_id: judge, metric_name: expect.any(String), output_type: 'string', status: 'COMPLETED', value: expect.stringMatching(/^(YES|NO)$/) },
      { metric_id: latency, metric_name: expect.any(String), output_type: 'float', status: 'COMPLETED', value: 0.4 },
      { metric_id: audio, metric_name: expect.any(String), output_type: 'float', status: 'SKIPPED', value: null },
    ]);
    const record = h.sandbox.runtime.store.get('simulation', sim)!;
    expect(record.data.metric_values).toEqual({ [latency]: 0.4 });
    expect((await outputs(sim)).map((o) => [o.metric_id, o.status])).toEqual([
      [judge, 'COMPLETED'],
      [latency, 'COMPLETED'],
      [audio, 'SKIPPED'],
    ]);
  });

  it('fails every output of a simulation without a transcript, with the reason', async () => {
    const judge = await metric({ metric_type: 'METRIC_LLM_BINARY' });
    const sim = await simulation({ transcript: null });
    const [scored] = await scoreSimulation(h.sandbox.runtime, sim, [judge]);
    expect(scored).toMatchObject({ status: 'FAILED', value: null });
    expect((await outputs(sim))[0]).toMatchObject({ status: 'FAILED', status_reason: expect.stringMatching(/no transcript/) });
  });
});
