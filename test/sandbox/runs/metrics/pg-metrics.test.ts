// The metric evaluator on PostgreSQL: a metric test's output queued in the request and completed by the handler,
// a re-run overwriting a stored output, and scoreSimulation's values, all through the shared store; scripted
// answers stored there too.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { scoreSimulation } from '../../../../src/sandbox/runs/metrics/score.js';
import { startHarness, type Harness } from '../../../support/sandbox.js';
import { describePg, dropSchema, freshSchemaUrl } from '../../pg-env.js';
import { CHAT } from './transcripts.js';

describePg('metrics at work on PostgreSQL', () => {
  let h: Harness;
  let schema: string;
  beforeAll(async () => {
    const fresh = freshSchemaUrl('metrics');
    schema = fresh.schema;
    h = await startHarness({ db: fresh.url });
  });
  afterAll(async () => {
    await h.close();
    dropSchema(schema);
  });

  it('queues, scores and re-scores outputs in the shared store', async () => {
    const org = h.sandbox.organizationId;
    const [regex, judge] = await h.control.loadFixtures(org, [
      { kind: 'metric', data: { metric_name: 'Goodbye', description: 'd', metric_type: 'METRIC_TRANSCRIPT_REGEX', regex_pattern: 'Goodbye', position: 'last' } },
      { kind: 'metric', data: { metric_name: 'Resolved', description: 'd', metric_type: 'METRIC_LLM_BINARY' } },
    ]);
    const sim = 'pgmetricsim'.padEnd(22, 'x');
    await h.control.loadFixtures(org, [{ kind: 'simulation', id: sim, data: { run_id: 'RunPPPPPPPPPPPPPPPPPPP', status: 'COMPLETED', has_audio: false, test_case_id: 'TestCasePPPPPPPPPPPPPP', transcript: CHAT } }]);
    const scripted = await h.control.request('POST', `/organizations/${org}/metric-answers`, { answers: [{ metric_id: judge!.id, test_case_id: 'TestCasePPPPPPPPPPPPPP', value: 'YES' }] });
    expect(scripted.status).toBe(200);

    const scored = await scoreSimulation(h.sandbox.runtime, sim, [regex!.id, judge!.id]);
    expect(scored.map((s) => s.value)).toEqual([1, 'YES']);
    expect(h.sandbox.runtime.store.get('simulation', sim)!.data.metric_values).toEqual({ [regex!.id]: 1 });

    const tested = await h.client.metrics.testMetric(regex!.id, { simulation_output_id: sim });
    await h.sandbox.idle();
    const listed = (await h.client.simulatedConversations.listSimulatedConversationMetricOutputs(sim)).metrics;
    expect(listed.find((o) => o.metric_output_id === tested.metric_output_ulid)).toMatchObject({ status: 'COMPLETED', value: 1 });

    const before = listed.find((o) => o.metric_id === regex!.id && o.runtime_metadata === null)!;
    await h.control.changeFixture(org, 'simulation', sim, { data: { transcript: CHAT.slice(0, 2) } });
    await h.client.simulatedConversations.rerunSimulatedConversationMetrics({ simulation_ids: [sim], metric_ids: [regex!.id] });
    await h.sandbox.idle();
    const after = (await h.client.simulatedConversations.listSimulatedConversationMetricOutputs(sim)).metrics.find((o) => o.metric_output_id === before.metric_output_id);
    expect(after).toMatchObject({ status: 'COMPLETED', value: 0 });
    expect(h.sandbox.runtime.store.get('simulation', sim)!.data.metric_values).toEqual({ [regex!.id]: 0 });
  });
});
