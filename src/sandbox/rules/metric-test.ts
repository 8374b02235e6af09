// metric-test (POST /metrics/{metric_id}/test, facts-shapes MT30, facts 2.17): runs one metric once on one
// simulated conversation. The answer is 202 `{metric_output_ulid}` at once: the output is stored IN QUEUE on
// the simulation in the request's transaction (so it is listed under the conversation's metrics at once) and
// scored after the commit by this rule's handler of metric.test-requested, which writes its outcome. The metric
// and the simulation must be visible to the caller (404 on metric_id, on simulation_output_id). A test's output
// is kept beside the metric's scoring output and does not change metric_values (runs/metrics/stored-outputs.ts).
// The scoring is also a job in the run queue (runs/metrics/metric-jobs.ts): on a shared store another instance
// scores the output if this one dies first, so it never stays IN QUEUE.
import type { Rule } from '../engine/hooks.js';
import { findRecord } from '../engine/records.js';
import { bodyOf } from '../engine/request-parts.js';
import { metricTestKey, queueMetricJob, runMetricJobHere } from '../runs/metrics/metric-jobs.js';
import { queueTestOutput, versionOf } from '../runs/metrics/stored-outputs.js';
import { payloadOf, raiseEvent } from './events/payloads.js';

export const metricTest: Rule = {
  handle(ctx) {
    const body = bodyOf(ctx, 'testMetric');
    const metric = findRecord(ctx, 'metric', ctx.path.metric_id, { field: 'metric_id' });
    const simulation = findRecord(ctx, 'simulation', body.simulation_output_id, { field: 'simulation_output_id' });
    const outputId = queueTestOutput(simulation, metric.id, versionOf(metric.data), body.dev_id ?? null);
    ctx.runtime.store.update(simulation);
    queueMetricJob(ctx.runtime, metricTestKey(simulation.id, outputId), ctx.org);
    raiseEvent(ctx.runtime, {
      name: 'metric.test-requested',
      org: ctx.org,
      workspace: ctx.workspace,
      payload: { simulation_id: simulation.id, metric_id: metric.id, metric_output_id: outputId },
    });
    return { status: 202, body: { metric_output_ulid: outputId } };
  },
  async onEvent(runtime, event) {
    const { simulation_id, metric_output_id } = payloadOf(event, 'metric.test-requested');
    await runMetricJobHere(runtime, metricTestKey(simulation_id, metric_output_id));
  },
};
