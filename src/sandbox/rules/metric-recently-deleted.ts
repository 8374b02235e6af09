// metric-recently-deleted: the soft-deleted metrics of the current workspace that restore can bring back.
import type { Rule } from '../engine/hooks.js';
import { inScope, present } from '../engine/records.js';

export const metricRecentlyDeleted: Rule = {
  handle(ctx) {
    const resource = ctx.runtime.resource('metric');
    const deleted = ctx.runtime.store
      .list('metric', { org: ctx.org, includeDeleted: true })
      .filter((r) => r.deleted && r.org === ctx.org && inScope(ctx, resource, r));
    // The answer is a list without paging (the spec's { metrics: [...] }).
    const { items } = ctx.route.success.shape as { items: string };
    return { body: { [items]: deleted.map((r) => present(resource, r)) } };
  },
};
