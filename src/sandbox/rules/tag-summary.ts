// tag-summary: GET /<family>/tags answers {tags: [{tag, color}]}: every tag the operation's resource's records
// in scope carry (hidden and deleted records left out), each once, in alphabetical order, with the color of the
// organization's active tag of that name (compared case-insensitively), else null.
// Generic over the route's resource (personas, metrics, ...); built-in records count as the listing shows them.
//
// Decisions (docs/sandbox.md): alphabetical order, case-insensitive match with the tags resource; a tag no
// tag resource names has color null.
import type { Rule } from '../engine/hooks.js';
import { inScope, isHidden } from '../engine/records.js';

export const tagSummary: Rule = {
  handle(ctx) {
    const resource = ctx.runtime.resource(ctx.route.resource!);
    const names = new Set<string>();
    for (const record of ctx.runtime.store.list(resource.name, { org: ctx.org })) {
      if (!inScope(ctx, resource, record) || isHidden(resource, record)) continue;
      const tags = record.data.tags;
      if (Array.isArray(tags)) for (const tag of tags) if (typeof tag === 'string') names.add(tag);
    }
    const colors = new Map<string, string | null>();
    for (const tag of ctx.runtime.store.list('tag', { org: ctx.org })) {
      if (tag.deleted || tag.org !== ctx.org || typeof tag.data.tag_name !== 'string') continue;
      colors.set(tag.data.tag_name.toLowerCase(), typeof tag.data.color === 'string' ? tag.data.color : null);
    }
    const tags = [...names].sort().map((tag) => ({ tag, color: colors.get(tag.toLowerCase()) ?? null }));
    return { body: { tags } };
  },
};
