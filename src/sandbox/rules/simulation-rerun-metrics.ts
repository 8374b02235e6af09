// simulation-rerun-metrics (POST …:rerunMetrics, both paths): evaluates metrics again on simulated
// conversations. Each id is QUEUED when the simulation is visible to the caller, else NOT_FOUND (with an error
// text); the answer is 202 when every one was queued and 207 otherwise (facts-shapes 2.4 SC6). The metrics must
// be visible to the caller (404 on metric_ids otherwise, like the metrics of a submit); more than 500
// simulation-metric pairs is 400 on metric_ids (facts 2.17).
// A queued simulation with a stored transcript is re-scored for real (facts 2.17: re-scores without
// re-simulating, results overwritten as each completes): its outputs of the metrics go IN QUEUE in the request's
// transaction, and this rule's handler of simulation.metrics-rescore scores them in the background
// (runs/metrics/score.ts), then raises simulation.metrics-rerun with the new values; the scoring is also a job in the
// run queue (runs/metrics/metric-jobs.ts), so on a shared store another instance finishes it if this one dies. A simulation without a
// transcript (a fixture that carries its values) has nothing to score: it keeps its values, and
// simulation.metrics-rerun is raised at once with them. Either way each queued simulation is delivered once to
// the job_complete webhooks as a run-wave delivery of its run (docs/sandbox.md).
import type { Runtime } from '../engine/context.js';
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, inScope, isHidden } from '../engine/records.js';
import { bodyOf } from '../engine/request-parts.js';
import { queueMetricJob, rerunValues, rescoreKey, runMetricJobHere } from '../runs/metrics/metric-jobs.js';
import { queueOutput, versionOf } from '../runs/metrics/stored-outputs.js';
import { transcriptOf } from '../runs/metrics/transcript.js';
import type { Json } from '../storage/store.js';
import { payloadOf, raiseEvent } from './events/payloads.js';
import { getRecord } from '../storage/typed.js';
import { ulid } from '../ids.js';

const MAX_PAIRS = 500;

export const simulationRerunMetrics: Rule = {
  handle(ctx) {
    const body = bodyOf(ctx, 'rerunSimulatedConversationMetrics');
    const metricIds = [...new Set(body.metric_ids)];
    // Facts 2.17: at most 500 simulation-metric pairs per call (the lists' own bounds are the schema's).
    const pairs = new Set(body.simulation_ids).size * metricIds.length;
    if (pairs > MAX_PAIRS) throw invalid('metric_ids', `at most ${MAX_PAIRS} simulation-metric pairs per call (simulation_ids × metric_ids is ${pairs})`);
    const metrics = metricIds.map((id) => findRecord(ctx, 'metric', id, { field: 'metric_ids' }));
    const resource = ctx.runtime.resource('simulation');
    const results: Json[] = [];
    for (const id of body.simulation_ids) {
      const record = getRecord(ctx.runtime.store, 'simulation', id);
      if (!record || !inScope(ctx, resource, record) || isHidden(resource, record)) {
        results.push({ simulation_id: id, status: 'NOT_FOUND', error: 'The simulated conversation was not found.' });
        continue;
      }
      const runId = typeof record.data.run_id === 'string' ? record.data.run_id : null;
      if (transcriptOf(record.data) !== null) {
        const stored = ctx.runtime.store.get('simulation', record.id)!;
        for (const metric of metrics) queueOutput(stored, metric.id, versionOf(metric.data));
        ctx.runtime.store.update(stored);
        const jobId = ulid();
        queueMetricJob(ctx.runtime, rescoreKey(record.id, jobId), ctx.org);
        raiseEvent(ctx.runtime, { name: 'simulation.metrics-rescore', org: ctx.org, workspace: ctx.workspace, payload: { run_id: runId, simulation_id: record.id, metric_ids: metricIds, job_id: jobId } });
      } else {
        raiseEvent(ctx.runtime, {
          name: 'simulation.metrics-rerun',
          org: ctx.org,
          workspace: ctx.workspace,
          payload: { run_id: runId, simulation_id: record.id, completed_at: ctx.now, metric_ids: metricIds, metric_values: rerunValues(record.data, metricIds) },
        });
      }
      results.push({ simulation_id: id, status: 'QUEUED', error: null });
    }
    const queued = results.filter((r) => r.status === 'QUEUED').length;
    const failed = results.length - queued;
    return { status: failed === 0 ? 202 : 207, body: { results, queued_count: queued, failed_count: failed } };
  },
  async onEvent(runtime: Runtime, event) {
    const { simulation_id, metric_ids, job_id } = payloadOf(event, 'simulation.metrics-rescore');
    await runMetricJobHere(runtime, rescoreKey(simulation_id, job_id), metric_ids);
  },
};
