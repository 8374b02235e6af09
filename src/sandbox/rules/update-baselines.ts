// update-baselines (handler of run.completed): folds the completed run into every matching baseline.
//
// EWMA (exponentially weighted moving average), smoothing constant alpha = 0.3:
//   one observation per run and metric: x = the mean of the run's results for the baseline's metric
//   first observation:      mean_1 = x_1,  var_1 = 0
//   each later observation:  d = x_n - mean_{n-1}
//                            mean_n = mean_{n-1} + alpha * d          (= alpha * x_n + (1 - alpha) * mean_{n-1})
//                            var_n  = (1 - alpha) * (var_{n-1} + alpha * d^2)
//   baseline_float = mean_n, baseline_sigma = sqrt(var_n), observation_count = n.
//   An observation is an anomaly when, against the estimates before it (and only once sigma > 0), it lies more
//   than sigma_threshold * sigma above the mean (direction ABOVE), below it (BELOW), or either (BOTH).
//
// Decisions (the seed is silent):
// - Which runs feed a baseline: the run's metric_values name the baseline's metric; the baseline is ACTIVE
//   (STANDBY and ARCHIVED ones are frozen); it lives in the run's workspace (a baseline without workspace
//   counts as the default workspace's); and each scope id the baseline sets (agent_id, test_set_id,
//   persona_id) equals the run's. A null scope id means "any".
// - Observations are kept in completion order (`completed_at`), whatever order runs arrive in, and the
//   estimates are refolded from all of them; completing the same run again replaces its observation.
//   last_processed_run_completed_at is the latest completion time folded in.
// - The per-observation history (`_observations`: run, time, value, estimates after it, anomaly flag) lives in
//   the baseline's internal data, never presented; at most 10,000 are kept (older ones are folded into
//   `_ewma_seed` and leave the history).
import type { Runtime, RaisedEvent } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import type { Json } from '../storage/store.js';
import { observe } from './events/ewma.js';
import { payloadOf, type RunCompleted } from './events/payloads.js';
import { getRecord, recordsWithField } from '../storage/typed.js';

/** The payload of a run.completed event (the one event this module and evaluate-alerts handle), typed. */
export function runCompleted(event: RaisedEvent): RunCompleted {
  return payloadOf(event, 'run.completed');
}

/** Whether a workspace-scoped record belongs to the event's workspace (unset = the default workspace). */
export function sameWorkspace(runtime: Runtime, org: string, recordWorkspace: string | null, eventWorkspace: string | null): boolean {
  if (recordWorkspace === eventWorkspace) return true;
  if (recordWorkspace !== null) return false;
  // The event's organization exists, and every organization has a default workspace.
  return runtime.store.getOrganization(org)!.default_workspace_id === eventWorkspace;
}

function mean(values: number[]): number {
  return values.reduce((a, x) => a + x, 0) / values.length;
}

function scopeMatches(baseline: Json, run: { agent_id: string | null; test_set_id: unknown; persona_id: unknown }): boolean {
  const wants = (field: string, actual: unknown): boolean => (baseline[field] ?? null) === null || baseline[field] === actual;
  return wants('agent_id', run.agent_id) && wants('test_set_id', run.test_set_id) && wants('persona_id', run.persona_id);
}

export function feedBaselines(runtime: Runtime, event: RaisedEvent): void {
  const p = runCompleted(event);
  runtime.store.transaction(() => {
    // The control plane has just completed (and stored) the run; the payload's agent_id is the run's (null for
    // a run completed without one).
    const run = getRecord(runtime.store, 'run', p.run_id)!;
    const scope = { agent_id: p.agent_id, test_set_id: run.data.test_set_id, persona_id: run.data.persona_id };
    const now = runtime.clock.now().toISOString();
    // The organization's own ACTIVE baselines (withField: exactly this organization, deleted ones included;
    // the API has no baseline delete, so only a fixture can hold one).
    const baselines = recordsWithField(runtime.store, 'baseline', event.org, 'status', 'ACTIVE').filter((b) => !b.deleted);
    for (const baseline of baselines) {
      if (!sameWorkspace(runtime, event.org, baseline.workspace, event.workspace)) continue;
      // metric_id is set by createBaseline (a path parameter); the facts type it nullable, so a baseline without one
      // (a fixture) observes nothing.
      const metric = baseline.data.metric_id;
      if (metric === null || !Object.prototype.hasOwnProperty.call(p.metric_values, metric)) continue;
      if (!scopeMatches(baseline.data, scope)) continue;
      observe(baseline.data, p.run_id, p.completed_at, mean(p.metric_values[metric]!), now);
      runtime.store.update(baseline);
    }
  });
}

// x-handlers give this rule run.completed only.
export const updateBaselines: Rule = {
  onEvent: feedBaselines,
};
