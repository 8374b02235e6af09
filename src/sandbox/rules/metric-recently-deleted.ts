// metric-recently-deleted: the soft-deleted metrics of the current workspace that restore can bring back, as
// {name, id, metric_name, delete_time, deleted_by, purge_time} items (facts-shapes 3.8).
// delete_time and deleted_by are the delete's own stamps (the generic soft delete stamps update_time and
// updated_by; null where a metric loaded as deleted carries none, the facts' items allow null); purge_time is
// delete_time plus RETENTION_DAYS. name and metric_name are the metric's own (every stored metric has both: the
// engine names each record, and metric_name is required on create).
//
// Decision (docs/sandbox.md "Metrics"): a 30-day retention; the sandbox never purges (restore works later too).
import type { Rule } from '../engine/hooks.js';
import { inScope } from '../engine/records.js';

export const RETENTION_DAYS = 30;

export const metricRecentlyDeleted: Rule = {
  handle(ctx) {
    const resource = ctx.runtime.resource('metric');
    const deleted = ctx.runtime.store
      .list('metric', { org: ctx.org, includeDeleted: true })
      .filter((r) => r.deleted && r.org === ctx.org && inScope(ctx, resource, r));
    const items = deleted.map((r) => {
      // update_time is a date-time or null (the Metric schema); the engine stamps it on every write.
      const deleteTime = (r.data.update_time as string | null | undefined) ?? null;
      return {
        name: r.data.name,
        id: r.id,
        metric_name: r.data.metric_name,
        delete_time: deleteTime,
        deleted_by: r.data.updated_by ?? null,
        purge_time: deleteTime === null ? null : new Date(Date.parse(deleteTime) + RETENTION_DAYS * 86_400_000).toISOString(),
      };
    });
    // The answer is a list without paging (the spec's { metrics: [...] }).
    return { body: { metrics: items } };
  },
};
