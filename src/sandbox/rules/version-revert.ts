// version-revert: reverting to the version the resource already points at is 400 on the version parameter
// (the generic revert action then re-applies the target's configuration as a new `revert` version).
// Named on revert operations only, whose path is /<resources>/{<resource>_id}/versions/{version_id}/revert:
// the first path parameter names the resource, the second the version.
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord } from '../engine/records.js';
import { isJsonObject } from '../storage/store.js';

export const versionRevert: Rule = {
  before(ctx) {
    const [resourceParam, versionParam] = ctx.route.params.path;
    const record = findRecord(ctx, ctx.route.resource!, ctx.path[resourceParam!.name], { field: resourceParam!.name });
    const current = record.data.current_version;
    // The path's version id is a string, so a current version without a ulid never matches it.
    if (isJsonObject(current) && current.ulid === ctx.path[versionParam!.name]) {
      throw invalid(versionParam!.name, 'is the version the resource already uses: there is nothing to revert');
    }
  },
};
