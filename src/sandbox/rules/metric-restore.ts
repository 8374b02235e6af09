// metric-restore: built-in (platform) metrics are not restorable, so restoring one is 404 like a missing one.
// Scope (another workspace, no workspace) is enforced by the engine; a legacy metric whose workspace is unset
// is in scope of the default workspace only.
import { notFound } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { PLATFORM_ORG } from '../storage/store.js';

export const metricRestore: Rule = {
  before(ctx) {
    const param = ctx.route.params.path[0]!.name;
    const record = ctx.runtime.store.get('metric', String(ctx.path[param]));
    if (record && (record.org === PLATFORM_ORG || record.data.is_builtin === true)) throw notFound(param, 'metric');
  },
};
