// tag-list-filters: GET /tags with the newer client's filters (facts-shapes 2.14 TG1'; the facts give only their
// names, so their meaning is ours: docs/sandbox.md "Newer client (issue 30)"). `search` keeps the tags whose
// tag_name contains the text, without case; `tag_id` keeps the tag of that id (none when unknown: a filter, not a
// lookup); `unused_only` keeps the tags no record carries; `include_usage` adds usage_count to each listed tag.
// A tag's usage is the number of the organization's records, in every workspace (a tag is organization-wide),
// that are not deleted and whose tags list (the x-field-role tags property of any resource) holds its name,
// compared without case. Filters apply before paging, so pages and next_page_token stay consistent.
import { listAction } from '../engine/actions.js';
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { isHidden } from '../engine/records.js';
import { queryOf } from '../engine/request-parts.js';
import type { StoredRecord } from '../storage/store.js';

/** Lower-case tag name -> number of the organization's live records carrying it. */
function usageCounts(ctx: RequestContext): Map<string, number> {
  const counts = new Map<string, number>();
  for (const resource of ctx.runtime.tables.resources) {
    const field = resource.roles.tags;
    if (field === null) continue;
    for (const record of ctx.runtime.store.list(resource.name, { org: ctx.org })) {
      // The platform's built-in records are not the organization's: they do not use its tags.
      if (record.org !== ctx.org || isHidden(resource, record)) continue;
      const held = record.data[field];
      // A record counts once per tag, however often (or in whichever case) it lists it.
      const names = new Set((Array.isArray(held) ? held : []).map((t) => String(t).toLowerCase()));
      for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return counts;
}

function nameOf(record: StoredRecord): string {
  return String(record.data.tag_name).toLowerCase();
}

export const tagListFilters: Rule = {
  handle(ctx) {
    const q = queryOf(ctx, 'listTags');
    const search = (q.search ?? '').toLowerCase();
    const usage = q.unused_only === true || q.include_usage === true ? usageCounts(ctx) : undefined;
    const keep = (record: StoredRecord): boolean =>
      (search === '' || nameOf(record).includes(search)) &&
      (q.tag_id === undefined || record.id === q.tag_id) &&
      (q.unused_only !== true || (usage!.get(nameOf(record)) ?? 0) === 0);
    const result = listAction(ctx, undefined, keep);
    if (q.include_usage !== true || !result.records) return result;
    // Copies: the count is part of this answer only, never stored.
    const records = result.records.map((r) => ({ ...r, data: { ...r.data, usage_count: usage!.get(nameOf(r)) ?? 0 } }));
    return { ...result, records };
  },
};
