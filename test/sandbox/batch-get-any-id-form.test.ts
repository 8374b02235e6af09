// POST /metrics/outputs:batchGet keeps answering when an output id does not name its simulation (the facts call
// output ids ULIDs; outputId may change form): with outputId's inverse giving no candidate, the batch finds the
// outputs among every visible simulation's, and still refuses an unknown or foreign id with 404 on its item.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { failure, startHarness, type Harness } from '../support/sandbox.js';

vi.mock('../../src/sandbox/rules/conversation/outputs.js', async (original) => ({
  ...(await original<typeof import('../../src/sandbox/rules/conversation/outputs.js')>()),
  conversationIdsOfOutput: () => [],
}));

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

describe('batchGet without the id inverse', () => {
  it('finds every visible output by id and refuses the others', async () => {
    const o = await h.control.createOrganization();
    const client = h.clientFor(o.api_key.key);
    const metric = (await client.metrics.createMetric({ metric_name: 'Tone', description: 'd', metric_type: 'METRIC_LLM_BINARY', prompt: 'p' })).metric.id;
    const [s1, s2] = (
      await h.control.loadFixtures(o.organization.id, [
        { kind: 'simulation', data: { status: 'COMPLETED', run_id: 'RunAAAAAAAAAAAAAAAAAAA', metric_values: { [metric]: 1 } } },
        { kind: 'simulation', data: { status: 'COMPLETED', run_id: 'RunAAAAAAAAAAAAAAAAAAA', metric_values: { [metric]: 2 } } },
      ])
    ).map((r) => r.id);
    const first = (await client.simulatedConversations.listSimulatedConversationMetricOutputs(s1!)).metrics[0]!;
    const second = (await client.simulatedConversations.listSimulatedConversationMetricOutputs(s2!)).metrics[0]!;
    const got = await client.metrics.batchGetMetricOutputs({ metric_output_ids: [second.metric_output_id, first.metric_output_id] });
    expect(got.metric_outputs).toEqual([second, first]);
    const unknown = await failure(client.metrics.batchGetMetricOutputs({ metric_output_ids: [first.metric_output_id, 'no-such-output'] }));
    expect([unknown.status, unknown.details[0]?.field]).toEqual([404, 'metric_output_ids[1]']);
    const other = h.clientFor((await h.control.createOrganization()).api_key.key);
    expect((await failure(other.metrics.batchGetMetricOutputs({ metric_output_ids: [first.metric_output_id] }))).status).toBe(404);
  });
});
