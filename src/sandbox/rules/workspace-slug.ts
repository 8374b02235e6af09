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

/** `base` for n = 1, else `base-n` cut so the whole stays within MAX. */
function numbered(base: string, n: number): string {
  if (n < 2) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, MAX - suffix.length).replace(/-$/, '')}${suffix}`;
}

export const workspaceSlug: Rule = {
  write(ctx, next) {
    // Named on the workspace create only; a slug given there is kept.
    if (typeof next.slug === 'string') return;
    const store = ctx.runtime.store;
    const base = slugFrom(String(next.display_name));
    // withField answers the organization's workspaces with that slug, deleted ones included (slugs stay reserved).
    const taken = (slug: string): boolean => store.withField('workspace', ctx.org, 'slug', slug).length > 0;
    // Where the last search for this name ended: every number below it was taken then, and a slug is never freed,
    // so the search resumes there instead of probing 2, 3, ... again (a name used a thousand times cost a thousand
    // lookups per create: issue 29's soak). A create that fails after this only leaves the number it tried, still
    // the lowest that can be free. The number below the remembered one must still be taken; when it is not, the
    // store was reset under the note (reset keeps meta), and the search starts over.
    const key = `workspace-slug-next:${ctx.org}:${base}`;
    let n = Math.max(1, Number(store.meta(key) ?? '1') || 1);
    if (n > 1 && !taken(numbered(base, n - 1))) n = 1;
    while (taken(numbered(base, n))) n++;
    store.setMeta(key, String(n));
    setOwn(next, 'slug', numbered(base, n));
  },
};
