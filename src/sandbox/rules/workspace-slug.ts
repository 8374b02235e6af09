// workspace-slug: a workspace created without a slug (facts-shapes 2.1 WS2: optional and nullable) gets one made
// from its display name: lower case, runs of other characters as one dash, at most 100 characters, `workspace`
// when nothing is left; `-2`, `-3`, ... is added while the organization has (or had: slugs stay reserved after a
// delete, facts 2.14) a workspace with it. A slug given by the caller is kept, and a taken one is 409 (x-unique).
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';

const MAX = 100;

export function slugFrom(displayName: string): string {
  // After the first replace no two dashes are adjacent, so one dash is all there is to trim at either end.
  const base = displayName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, MAX)
    .replace(/-$/, '');
  return base === '' ? 'workspace' : base;
}

export const workspaceSlug: Rule = {
  write(ctx, next) {
    // Named on the workspace create only; a slug given there is kept.
    if (typeof next.slug === 'string') return;
    const base = slugFrom(String(next.display_name));
    // withField answers the organization's workspaces with that slug, deleted ones included (slugs stay reserved).
  const taken = (slug: string): boolean => ctx.runtime.store.withField('workspace', ctx.org, 'slug', slug).length > 0;
    let slug = base;
    for (let n = 2; taken(slug); n++) {
      const suffix = `-${n}`;
      slug = `${base.slice(0, MAX - suffix.length).replace(/-$/, '')}${suffix}`;
    }
    setOwn(next, 'slug', slug);
  },
};
