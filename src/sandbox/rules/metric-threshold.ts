// metric-threshold (getMetricThreshold, updateMetricThreshold): the metric's current threshold, the newest of
// its live thresholds (the list and create are generic; metric-threshold-scope checks the path and names them).
// - GET: the current threshold; when the metric has none, {name, metric_id} with every value null (the
//   facts' threshold fields are all optional and nullable).
// - PATCH: changes the current threshold (null clears a value, the body's x-null: clear), or creates it when
//   the metric has none.
//
// Decisions (the facts give the shapes only): docs/sandbox.md "Metrics".
import type { RequestContext } from '../engine/context.js';
import { applyUpdate, createAction } from '../engine/actions.js';
import type { Rule } from '../engine/hooks.js';
import { inScope, isHidden, present, stampUpdated } from '../engine/records.js';
import type { StoredRecord } from '../storage/store.js';
import { metricThresholdScope } from './metric-threshold-scope.js';

/** The metric's newest live threshold in the caller's workspace (the store answers in insertion order). */
function currentThreshold(ctx: RequestContext, metricId: string): StoredRecord | undefined {
  const resource = ctx.runtime.resource('threshold');
  const live = ctx.runtime.store.withField('threshold', ctx.org, 'metric_id', metricId).filter((r) => inScope(ctx, resource, r) && !isHidden(resource, r));
  return live[live.length - 1];
}

/** What a metric without a threshold answers: the name, and null for every value. */
function emptyThreshold(metricId: string) {
  const values = ['comparison_operator', 'target_float_upper', 'target_float_lower', 'target_values', 'source', 'create_time', 'update_time'];
  return { name: `metrics/${metricId}/threshold`, metric_id: metricId, ...Object.fromEntries(values.map((k) => [k, null])) };
}

export const metricThreshold: Rule = {
  handle(ctx) {
    const resource = ctx.runtime.resource('threshold');
    const current = currentThreshold(ctx, String(ctx.path.metric_id));
    if (ctx.route.method === 'GET') {
      if (!current) return { body: { threshold: emptyThreshold(String(ctx.path.metric_id)) } };
      return { body: { threshold: present(resource, current) } };
    }
    if (!current) {
      const { record } = createAction(ctx, { write: (c, next, previous) => metricThresholdScope.write!(c, next, previous) });
      return { body: { threshold: present(resource, record!) } };
    }
    applyUpdate(ctx, resource, current.data);
    stampUpdated(resource, current.data, ctx.now);
    ctx.runtime.store.update(current);
    return { body: { threshold: present(resource, current) } };
  },
};
