// workspace-archive: a custom workspace moves to ARCHIVED (idempotent); a DEFAULT one is a lifecycle conflict.
import type { Rule } from '../engine/hooks.js';
import { checkNotFrozen, findRecord, setOwn, stampUpdated } from '../engine/records.js';

export const workspaceArchive: Rule = {
  handle(ctx) {
    const resource = ctx.runtime.resource('workspace');
    const param = ctx.route.params.path[0]!.name;
    const record = findRecord(ctx, 'workspace', ctx.path[param], { field: param });
    checkNotFrozen(resource, record);
    if (record.data.status !== 'ARCHIVED') {
      setOwn(record.data, 'status', 'ARCHIVED');
      stampUpdated(resource, record.data, ctx.now);
      ctx.runtime.store.update(record);
    }
    return { record };
  },
};
