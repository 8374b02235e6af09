// baseline-sigma-bands (createBaseline, getBaseline, listBaselines, updateBaseline, deleteBaseline): the metric in the path must exist
// (404 on metric_id) and own the baseline (404 on baseline_id); a new baseline starts without statistics;
// presented baselines carry sigma_bands for the requested `sigma_levels` (default 1,2).
//
// Decisions (the seed is silent):
// - A new baseline: baseline_float 0, baseline_sigma 0, observation_count 0, sigma_bands null,
//   last_processed_run_completed_at null; omitted agent_id / test_set_id / persona_id are null; an omitted
//   display_name is the metric's metric_name.
// - sigma_bands: for each level n, `upper_<n>sigma` = baseline_float + n * baseline_sigma and
//   `lower_<n>sigma` = baseline_float - n * baseline_sigma, n written as a plain decimal (1, 2, 1.5 ->
//   upper_1.5sigma); null while observation_count is 0. Both bands are given whatever the direction:
//   direction (and sigma_threshold) only decide which observations count as anomalies.
// - sigma_levels: positive plain decimals (no exponent), at most 20 distinct levels; otherwise 400 on
//   sigma_levels. Repeated levels count once.
import { invalid, notFound } from '../errors.js';
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord } from '../engine/records.js';
import type { StoredRecord } from '../storage/store.js';
import { DEFAULT_SIGMA_LEVELS, sigmaBands } from './events/ewma.js';

const MAX_LEVELS = 20;

function levels(ctx: RequestContext): number[] {
  // The validators already refused anything but a non-empty list of numbers above 0 (the SigmaLevels schema).
  const given = ctx.query.sigma_levels as number[] | undefined; // the validator checked it: a list of numbers when given
  if (given === undefined) return [...DEFAULT_SIGMA_LEVELS];
  const out: number[] = [];
  for (const n of given) {
    // A level JavaScript writes with an exponent (1e-7, 1e+21) cannot name a band key.
    if (!/^[0-9]+(\.[0-9]+)?$/.test(String(n))) throw invalid('sigma_levels', 'must be comma-separated positive numbers, for example 1,2,3');
    if (!out.includes(n)) out.push(n);
  }
  if (out.length > MAX_LEVELS) throw invalid('sigma_levels', `at most ${MAX_LEVELS} sigma levels`);
  return out;
}

/** The metric named by the path (404 on metric_id when missing, deleted or out of scope). */
export function pathMetric(ctx: RequestContext): StoredRecord {
  return findRecord(ctx, 'metric', ctx.path.metric_id, { field: 'metric_id' });
}

function withBands(record: StoredRecord, lv: number[]): StoredRecord {
  return { ...record, data: { ...record.data, sigma_bands: sigmaBands(record.data, lv) } };
}

export const baselineSigmaBands: Rule = {
  before(ctx) {
    pathMetric(ctx);
    levels(ctx);
  },
  // A new baseline starts without statistics; an update (display_name, sigma_threshold, direction, status)
  // keeps them.
  write(ctx, next, previous) {
    if (previous !== undefined) return;
    for (const field of ['agent_id', 'test_set_id', 'persona_id']) if (next[field] === undefined) next[field] = null;
    // metric_name is required (1-200 characters, display_name's limit too).
    if (typeof next.display_name !== 'string') next.display_name = pathMetric(ctx).data.metric_name;
    next.baseline_float = 0;
    next.baseline_sigma = 0;
    next.observation_count = 0;
    next.sigma_bands = null;
    next.last_processed_run_completed_at = null;
  },
  after(ctx, result) {
    const lv = levels(ctx);
    if (result.record) {
      if (result.record.data.metric_id !== ctx.path.metric_id) throw notFound('baseline_id', 'baseline');
      result.record = withBands(result.record, lv);
    }
    if (result.records) result.records = result.records.map((r) => withBands(r, lv));
  },
};
