// tag-summary: `GET /<collection>/tags` (runs: facts-shapes 2.13 RU6) answers the tags the operation's resource
// carries in scope (not deleted), each once, as `{ tag, color }`. A tag's color is that of the organization's
// active tag resource of the same name (tag names are stored lower case, so the match ignores case), else null.
// The first spelling met (in storage order) is the one answered; the list is in alphabetical order.
import type { Rule } from '../engine/hooks.js';
import { inScope, isHidden } from '../engine/records.js';

export const tagSummary: Rule = {
  handle(ctx) {
    const resource = ctx.runtime.resource(ctx.route.resource!);
    const colors = new Map<string, string | null>();
    for (const tag of ctx.runtime.store.list('tag', { org: ctx.org })) {
      if (tag.org !== ctx.org || tag.deleted) continue;
      colors.set(String(tag.data.tag_name).toLowerCase(), typeof tag.data.color === 'string' ? tag.data.color : null);
    }
    const seen = new Map<string, string>();
    for (const record of ctx.runtime.store.list(resource.name, { org: ctx.org })) {
      if (!inScope(ctx, resource, record) || isHidden(resource, record) || !Array.isArray(record.data.tags)) continue;
      for (const tag of record.data.tags) {
        if (typeof tag === 'string' && !seen.has(tag.toLowerCase())) seen.set(tag.toLowerCase(), tag);
      }
    }
    const tags = [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, tag]) => ({ tag, color: colors.get(key) ?? null }));
    return { body: { tags } };
  },
};
