// tag-summary: `GET /<collection>/tags` (runs: facts-shapes 2.13 RU6) answers the tags the operation's resource
// carries in scope (not deleted), each once, as `{ tag, color }`. A tag's color is that of the organization's
// active tag resource of the same name (tag names are stored lower case, so the match ignores case), else null.
// The first spelling met (in storage order) is the one answered; the list is in alphabetical order.
import type { Rule } from '../engine/hooks.js';
import { inScope, isHidden } from '../engine/records.js';

export const tagSummary: Rule = {
  handle(ctx) {
    const resource = ctx.runtime.resource(ctx.route.resource!);
    // A tag without a color (never given, or cleared by null) gives null below.
    const colors = new Map<string, unknown>();
    // store.list leaves deleted tags out; it adds the platform's records, and the platform has no tags.
    for (const tag of ctx.runtime.store.list('tag', { org: ctx.org })) {
      colors.set(String(tag.data.tag_name).toLowerCase(), tag.data.color);
    }
    const seen = new Map<string, string>();
    for (const record of ctx.runtime.store.list(resource.name, { org: ctx.org })) {
      if (!inScope(ctx, resource, record) || isHidden(resource, record)) continue;
      // Tags written through the API are strings (validated); String() keeps an odd fixture from failing the listing.
      for (const tag of ((record.data.tags as unknown[] | undefined) ?? []).map(String)) {
        if (!seen.has(tag.toLowerCase())) seen.set(tag.toLowerCase(), tag);
      }
    }
    // The keys are distinct, so the default (code unit) order of the lower-case names is the alphabetical one.
    const tags = [...seen.keys()].sort().map((key) => ({ tag: seen.get(key)!, color: colors.get(key) ?? null }));
    return { body: { tags } };
  },
};
