// simulation-rerun-metrics (POST …:rerunMetrics, both paths): evaluates metrics again on simulated
// conversations. Each id is QUEUED when the simulation is visible to the caller, else NOT_FOUND (with an error
// text); the answer is 202 when every one was queued and 207 otherwise (facts-shapes 2.4 SC6). The metrics must
// be visible to the caller (404 on metric_ids otherwise, like the metrics of a submit).
// Decisions (docs/sandbox.md): the sandbox has no scorer, so a re-run changes no value: each queued
// simulation raises `simulation.metrics-rerun`, a new wave delivered to the job_complete webhooks as a run-wave
// delivery of the simulation's run with the simulation's current values of the re-run metrics.
import type { Rule } from '../engine/hooks.js';
import { findRecord, inScope, isHidden, setOwn } from '../engine/records.js';
import { bodyOf } from '../engine/request-parts.js';
import type { Json } from '../storage/store.js';
import { valuesOf } from './conversation/outputs.js';
import { raiseEvent } from './events/payloads.js';
import { getRecord } from '../storage/typed.js';

export const simulationRerunMetrics: Rule = {
  handle(ctx) {
    const body = bodyOf(ctx, 'rerunSimulatedConversationMetrics');
    const metricIds = [...new Set(body.metric_ids)];
    for (const id of metricIds) findRecord(ctx, 'metric', id, { field: 'metric_ids' });
    const resource = ctx.runtime.resource('simulation');
    const results: Json[] = [];
    for (const id of body.simulation_ids) {
      const record = getRecord(ctx.runtime.store, 'simulation', id);
      if (!record || !inScope(ctx, resource, record) || isHidden(resource, record)) {
        results.push({ simulation_id: id, status: 'NOT_FOUND', error: 'The simulated conversation was not found.' });
        continue;
      }
      const values = valuesOf(record.data);
      const rerun: Record<string, number[]> = {};
      for (const m of metricIds) {
        const value = values.get(m);
        if (typeof value === 'number') setOwn(rerun, m, [value]);
      }
      raiseEvent(ctx.runtime, {
        name: 'simulation.metrics-rerun',
        org: ctx.org,
        workspace: ctx.workspace,
        payload: { run_id: record.data.run_id ?? null, simulation_id: record.id, completed_at: ctx.now, metric_ids: metricIds, metric_values: rerun },
      });
      results.push({ simulation_id: id, status: 'QUEUED', error: null });
    }
    const queued = results.filter((r) => r.status === 'QUEUED').length;
    const failed = results.length - queued;
    return { status: failed === 0 ? 202 : 207, body: { results, queued_count: queued, failed_count: failed } };
  },
};
