// metric-flow: a metric flow links a trigger metric to a follow-up metric of the same workspace.
// - create/update: trigger_metric_id and followup_metric_id must name metrics in scope (404 on the field;
//   deleted ones count as missing, built-in ones are allowed); the two must differ (400 on followup_metric_id).
//   Several flows may link the same pair (no uniqueness is published). The metrics' resource names
//   and metric_names are copied into trigger_/followup_metric_name and _display_name on every write; the
//   flow's name is `metrics/flows/<id>`.
// - update is a full replace (UpdateMetricFlowRequest requires the ids and status): an omitted
//   trigger_criteria is removed like a null one.
// (The list's status_filter and search_query are metric-flow-filter's.)
//
// Decisions (the facts give the shapes only): docs/sandbox.md "Metrics".
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, setOwn } from '../engine/records.js';

export const metricFlow: Rule = {
  write(ctx, next) {
    const trigger = findRecord(ctx, 'metric', next.trigger_metric_id, { field: 'trigger_metric_id' });
    const followup = findRecord(ctx, 'metric', next.followup_metric_id, { field: 'followup_metric_id' });
    if (trigger.id === followup.id) throw invalid('followup_metric_id', 'must differ from trigger_metric_id');
    // update is a full replace: an omitted trigger_criteria goes (a create without one has none to remove).
    if (!Object.prototype.hasOwnProperty.call(ctx.body, 'trigger_criteria')) delete next.trigger_criteria;
    // The flow's resource name follows its path (the generic name would be metrics/<id>).
    setOwn(next, 'name', `metrics/flows/${String(next.id)}`);
    setOwn(next, 'trigger_metric_name', `metrics/${trigger.id}`);
    setOwn(next, 'trigger_metric_display_name', trigger.data.metric_name ?? null);
    setOwn(next, 'followup_metric_name', `metrics/${followup.id}`);
    setOwn(next, 'followup_metric_display_name', followup.data.metric_name ?? null);
  },
};
