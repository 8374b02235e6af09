// metric-threshold-scope (every threshold operation): the metric in the path must be in scope (404 on
// metric_id) and own the threshold the path names (404 on threshold_id); a written threshold is named
// `metrics/<metric_id>/threshold`, the form the facts give (facts-shapes 3.8).
import { notFound } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, setOwn } from '../engine/records.js';

export const metricThresholdScope: Rule = {
  before(ctx) {
    findRecord(ctx, 'metric', ctx.path.metric_id, { field: 'metric_id' });
    // Without threshold_id in the path (list, create, the current threshold) this looks up "undefined", which
    // names no threshold (their ids are ULIDs).
    const own = ctx.runtime.store.get('threshold', String(ctx.path.threshold_id));
    if (own && own.data.metric_id !== ctx.path.metric_id) throw notFound('threshold_id', 'threshold');
  },
  write(_ctx, next) {
    setOwn(next, 'name', `metrics/${String(next.metric_id)}/threshold`);
  },
};
