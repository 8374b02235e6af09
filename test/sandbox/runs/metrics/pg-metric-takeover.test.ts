// Metric work survives the instance that accepted it (issue 25, round 2), two instances over one PostgreSQL
// database: a metric test and a re-scoring accepted by instance a, which stops while its judge call is under way,
// are finished by instance b once a's claim runs out (the outputs leave IN QUEUE with the judge's answer), and the
// run queue holds nothing afterwards. (Before, a killed instance left such outputs IN QUEUE forever; a closed one
// wrote its late answer: the explanations below tell whose answer was stored.)
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../support/sandbox.js';
import { describePg, dropSchema, freshSchemaUrl } from '../../pg-env.js';
import { startChatAgent, until, type ChatAgent } from '../chat-agent-server.js';
import { CHAT } from './transcripts.js';

describePg('metric jobs taken over on PostgreSQL', () => {
  const { url, schema } = freshSchemaUrl('metricjobs');
  const runs = { paceMs: 0, leaseMs: 800, sweepMs: 100 };
  let judge: ChatAgent;
  let judgeUrl: string;
  let b: Harness;
  let judgedCalls = 0;
  beforeAll(async () => {
    judge = await startChatAgent();
    judgeUrl = `${judge.url}/judge`;
    // The first call of each pair (the accepting instance's) is slow, so that instance can be stopped while it waits.
    judge.on('/judge', () => {
      judgedCalls += 1;
      const body = { choices: [{ message: { role: 'assistant', content: JSON.stringify({ value: 'YES', explanation: `judge call ${judgedCalls}` }) } }] };
      return judgedCalls % 2 === 1 ? { delayMs: 1500, body } : { body };
    });
    b = await startHarness({ db: url, runs, judge: { url: judgeUrl, timeoutMs: 5000 } });
  });
  afterAll(async () => {
    await b?.close();
    await judge?.close();
    dropSchema(schema);
  });

  async function outputOf(h: Harness, sim: string, outputId: string) {
    return (await h.client.simulatedConversations.listSimulatedConversationMetricOutputs(sim)).metrics.find((o) => o.metric_output_id === outputId);
  }

  it('finish a metric test and a re-scoring on another instance when the accepting one stops', async () => {
    const a = await startHarness({ db: url, runs, judge: { url: judgeUrl, timeoutMs: 5000 } });
    const org = a.sandbox.organizationId;
    const [metric] = await a.control.loadFixtures(org, [{ kind: 'metric', data: { metric_name: 'Resolved', description: 'd', metric_type: 'METRIC_LLM_BINARY', prompt: 'Resolved?' } }]);
    const sim = 'takeoversim'.padEnd(22, 'x');
    await a.control.loadFixtures(org, [{ kind: 'simulation', id: sim, data: { run_id: 'RunTTTTTTTTTTTTTTTTTTT', status: 'COMPLETED', has_audio: false, test_case_id: 'TestCaseTTTTTTTTTTTTTT', transcript: CHAT } }]);

    // Accepted by a; a's judge call hangs; a stops meanwhile (its heartbeat ends at once, its late answer is
    // discarded): b claims the job when a's lease runs out and asks the judge again. The explanation says whose
    // answer was stored: the second call's (b's), never the first (a's).
    const tested = await a.client.metrics.testMetric(metric!.id, { simulation_output_id: sim });
    await until(async () => judgedCalls, (n) => n >= 1);
    await a.sandbox.close();
    const done = await until(async () => outputOf(b, sim, tested.metric_output_ulid), (o) => o?.status === 'COMPLETED', 20_000);
    expect(done).toMatchObject({ status: 'COMPLETED', value: 'YES', explanation: 'judge call 2' });

    // The same for a re-scoring: its scoring output is finished by the instance that takes it over.
    const a2 = await startHarness({ db: url, runs, judge: { url: judgeUrl, timeoutMs: 5000 } });
    await a2.client.simulatedConversations.rerunSimulatedConversationMetrics({ simulation_ids: [sim], metric_ids: [metric!.id] });
    await until(async () => judgedCalls, (n) => n >= 3);
    await a2.sandbox.close();
    const scoring = (await b.client.simulatedConversations.listSimulatedConversationMetricOutputs(sim)).metrics.find((o) => o.metric_id === metric!.id && o.runtime_metadata === null)!;
    const rescored = await until(async () => outputOf(b, sim, scoring.metric_output_id), (o) => o?.status === 'COMPLETED', 20_000);
    expect(rescored).toMatchObject({ value: 'YES', explanation: 'judge call 4' });

    // Each job was done once by the taker (four judge calls: two interrupted, two finished) and left the queue.
    await b.sandbox.idle();
    expect(judgedCalls).toBe(4);
    expect(JSON.parse(b.sandbox.runtime.store.meta('run_queue') ?? '{}')).toEqual({});
  });
});
