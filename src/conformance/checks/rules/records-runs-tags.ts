// The tags of runs (tag-summary on GET /runs/tags, facts-shapes 2.13 RU6): each tag carried by a run of the
// workspace once (names compared without case, the first spelling kept), alphabetically, with the color of the
// organization's tag of that name or null; a deleted run's tags leave the list (docs/sandbox.md "Runs").
import { fail } from '../../result.js';
import type { Check, CheckContext } from '../context.js';
import { itemsOf, operationWithRule, routeOf, show, succeed, type Json } from './records-support.js';

async function tagsOf(ctx: CheckContext, stamp: string): Promise<Json[]> {
  const answer = await succeed(ctx, ctx.route, {}, 'listing the run tags');
  const items = itemsOf(ctx.route, answer.body);
  const all = items.map((t) => String(t.tag).toLowerCase());
  const sorted = [...all].sort();
  if (JSON.stringify(all) !== JSON.stringify(sorted)) fail(`the run tags are not in alphabetical order: ${show(all.slice(0, 10))}`);
  return items.filter((t) => String(t.tag).toLowerCase().includes(stamp));
}

export const runTags: Check = {
  name: 'rule tag-summary: GET /runs/tags lists each tag of the runs once, alphabetically, with its tag color or null; a deleted run takes its tags away',
  applies: operationWithRule('run', 'custom', 'tag-summary'),
  async run(ctx) {
    const stamp = `t${ctx.world.nextSeed()}${Date.now().toString(36)}`;
    await ctx.world.create('tag', { tag_name: `c-${stamp}`, color: '#123456' });
    await ctx.world.create('run', { tags: [`B-${stamp}`, `c-${stamp}`] });
    const b = await ctx.world.create('run', { tags: [`b-${stamp}`, `a-${stamp}`] });
    const want = [
      { tag: `a-${stamp}`, color: null },
      { tag: `B-${stamp}`, color: null },
      { tag: `c-${stamp}`, color: '#123456' },
    ];
    const listed = await tagsOf(ctx, stamp);
    if (JSON.stringify(listed) !== JSON.stringify(want)) fail(`expected ${show(want)}, got ${show(listed)}`);
    const remove = routeOf(ctx, 'run', 'delete');
    await succeed(ctx, remove, { path: b.path }, 'deleting a run');
    const after = await tagsOf(ctx, stamp);
    if (JSON.stringify(after) !== JSON.stringify(want.slice(1))) fail(`after deleting the run that alone carried a-${stamp}: expected ${show(want.slice(1))}, got ${show(after)}`);
  },
};

export const checks: Check[] = [runTags];
