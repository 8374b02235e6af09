// metric-flow-filter (listMetricFlows): status_filter keeps flows in that state; search_query keeps flows whose
// trigger or follow-up metric_name contains it, case-insensitively. Neither parameter names a property of the
// flow, so the generic list does not apply them; the rest (order_by, paging) is the generic list's.
//
// Decision (docs/sandbox.md "Metrics"): search_query matches the two metric names as the flow shows them.
import { listAction } from '../engine/actions.js';
import type { Rule } from '../engine/hooks.js';

export const metricFlowFilter: Rule = {
  handle(ctx) {
    const status = ctx.query.status_filter;
    const search = typeof ctx.query.search_query === 'string' ? ctx.query.search_query.toLowerCase() : undefined;
    return listAction(ctx, undefined, (r) => {
      if (typeof status === 'string' && r.data.status !== status) return false;
      if (search === undefined) return true;
      return [r.data.trigger_metric_display_name, r.data.followup_metric_display_name].some((n) => typeof n === 'string' && n.toLowerCase().includes(search));
    });
  },
};
