// x-references: a body field that names another resource by id (or a list of such ids) must name one the caller
// can see (not deleted, in the organization and workspace): otherwise 404 on the field (`field[i]` for an item).
// Checked for every operation before its rules and action, so rule modules read only ids that exist.
import type { RequestContext } from './context.js';
import { findRecord } from './records.js';

export function checkBodyReferences(ctx: RequestContext): void {
  for (const [field, rule] of Object.entries(ctx.route.body?.fields ?? {})) {
    const kind = rule.references;
    if (kind === undefined) continue;
    const value = ctx.body[field];
    if (typeof value === 'string') findRecord(ctx, kind, value, { field });
    else if (Array.isArray(value)) value.forEach((id, i) => findRecord(ctx, kind, id, { field: `${field}[${i}]` }));
  }
}
