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
import type { Json, StoredRecord } from '../storage/store.js';
import { observe } from './events/ewma.js';

interface RunCompleted {
  run_id: string;
  agent_id: string | null;
  metric_values: Record<string, number[]>;
  completed_at: string;
}

/** Whether a workspace-scoped record belongs to the event's workspace (unset = the default workspace). */
export function sameWorkspace(runtime: Runtime, org: string, recordWorkspace: string | null, eventWorkspace: string | null): boolean {
  if (recordWorkspace === eventWorkspace) return true;
  if (recordWorkspace !== null) return false;
  return eventWorkspace !== null && runtime.store.getOrganization(org)?.default_workspace_id === eventWorkspace;
}

function mean(values: unknown): number | null {
  const list = (Array.isArray(values) ? values : [values]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return list.length === 0 ? null : list.reduce((a, x) => a + x, 0) / list.length;
}

function scopeMatches(baseline: Json, run: { agent_id: string | null; test_set_id: unknown; persona_id: unknown }): boolean {
  const wants = (field: string, actual: unknown): boolean => baseline[field] === undefined || baseline[field] === null || baseline[field] === actual;
  return wants('agent_id', run.agent_id) && wants('test_set_id', run.test_set_id) && wants('persona_id', run.persona_id);
}

export function feedBaselines(runtime: Runtime, event: RaisedEvent): void {
  const p = event.payload as unknown as RunCompleted;
  if (typeof p.run_id !== 'string' || p.metric_values === null || typeof p.metric_values !== 'object') return;
  const completedAt = typeof p.completed_at === 'string' ? p.completed_at : runtime.clock.now().toISOString();
  runtime.store.transaction(() => {
    const run = runtime.store.get('run', p.run_id);
    const scope = {
      agent_id: p.agent_id ?? ((run?.data.agent_id as string | undefined) ?? null),
      test_set_id: run?.data.test_set_id ?? null,
      persona_id: run?.data.persona_id ?? null,
    };
    const now = runtime.clock.now().toISOString();
    const baselines: StoredRecord[] = runtime.store.list('baseline', { org: event.org });
    for (const baseline of baselines) {
      if (baseline.deleted || baseline.org !== event.org || baseline.data.status !== 'ACTIVE') continue;
      if (!sameWorkspace(runtime, event.org, baseline.workspace, event.workspace)) continue;
      const metric = baseline.data.metric_id;
      if (typeof metric !== 'string' || !Object.prototype.hasOwnProperty.call(p.metric_values, metric)) continue;
      if (!scopeMatches(baseline.data, scope)) continue;
      const x = mean(p.metric_values[metric]);
      if (x === null) continue;
      observe(baseline.data, p.run_id, completedAt, x, now);
      runtime.store.update(baseline);
    }
  });
}

export const updateBaselines: Rule = {
  onEvent(runtime, event) {
    if (event.name === 'run.completed') feedBaselines(runtime, event);
  },
};
