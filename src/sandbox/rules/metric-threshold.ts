// metric-threshold (getMetricThreshold, updateMetricThreshold): the metric's current threshold, the newest of
// its live thresholds (the list and create are generic; metric-threshold-scope checks the path and names them).
// - GET: the current threshold; 404 (field null) when the metric has none.
// - PATCH: changes the current threshold (null clears a value, the body's x-null: clear), or creates it when
//   the metric has none.
//
// Decisions (the facts give the shapes only): docs/sandbox.md "Metrics".
import { notFound } from '../errors.js';
import type { RequestContext } from '../engine/context.js';
import { applyUpdate, createAction } from '../engine/actions.js';
import type { Rule } from '../engine/hooks.js';
import { inScope, isHidden, present, stampUpdated } from '../engine/records.js';
import type { StoredRecord } from '../storage/store.js';
import { metricThresholdScope } from './metric-threshold-scope.js';

/** The metric's newest live threshold (the store lists in insertion order). */
function currentThreshold(ctx: RequestContext, metricId: string): StoredRecord | undefined {
  const resource = ctx.runtime.resource('threshold');
  const live = ctx.runtime.store.list('threshold', { org: ctx.org }).filter((r) => inScope(ctx, resource, r) && !isHidden(resource, r) && r.data.metric_id === metricId);
  return live[live.length - 1];
}

export const metricThreshold: Rule = {
  handle(ctx) {
    const resource = ctx.runtime.resource('threshold');
    const current = currentThreshold(ctx, String(ctx.path.metric_id));
    if (ctx.route.method === 'GET') {
      if (!current) throw notFound(null, 'threshold');
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
