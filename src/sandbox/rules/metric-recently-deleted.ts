// metric-recently-deleted: the soft-deleted metrics of the current workspace that restore can bring back, as
// {name, id, metric_name, delete_time, deleted_by, purge_time} items (facts-shapes 3.8).
// delete_time and deleted_by are the delete's own stamps (the generic soft delete stamps update_time and
// updated_by); purge_time is delete_time plus RETENTION_DAYS.
//
// Decision (docs/sandbox.md "Metrics"): a 30-day retention; the sandbox never purges (restore works later too).
import type { Rule } from '../engine/hooks.js';
import { inScope } from '../engine/records.js';

export const RETENTION_DAYS = 30;

function plusDays(time: unknown, days: number): string | null {
  if (typeof time !== 'string' || Number.isNaN(Date.parse(time))) return null;
  return new Date(Date.parse(time) + days * 86_400_000).toISOString();
}

export const metricRecentlyDeleted: Rule = {
  handle(ctx) {
    const resource = ctx.runtime.resource('metric');
    const deleted = ctx.runtime.store
      .list('metric', { org: ctx.org, includeDeleted: true })
      .filter((r) => r.deleted && r.org === ctx.org && inScope(ctx, resource, r));
    const items = deleted.map((r) => {
      const deleteTime = typeof r.data.update_time === 'string' ? r.data.update_time : null;
      return {
        name: typeof r.data.name === 'string' ? r.data.name : `metrics/${r.id}`,
        id: r.id,
        metric_name: typeof r.data.metric_name === 'string' ? r.data.metric_name : '',
        delete_time: deleteTime,
        deleted_by: typeof r.data.updated_by === 'string' ? r.data.updated_by : null,
        purge_time: plusDays(deleteTime, RETENTION_DAYS),
      };
    });
    // The answer is a list without paging (the spec's { metrics: [...] }).
    return { body: { metrics: items } };
  },
};
