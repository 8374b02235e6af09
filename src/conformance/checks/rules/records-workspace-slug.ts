// workspace-slug (facts-shapes 2.1 WS2: slug optional and nullable; facts 2.14: a slug stays reserved after a
// delete; docs/sandbox.md "Resources", the sandbox's choice): without a slug one is made from the display name,
// with -2, -3, ... while taken; a taken slug given by the caller is 409 on slug.
import { expectError, send } from '../../http.js';
import { fail } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check } from '../context.js';
import { operationWithRule, routeOf, show, succeed, type Json } from './records-support.js';

export const slugs: Check = {
  name: 'rule workspace-slug: a workspace created without a slug gets one made from its display name, numbered while taken (deleted ones too); a taken slug is 409',
  applies: operationWithRule('workspace', 'create', 'workspace-slug'),
  async run(ctx) {
    const stamp = `${ctx.world.nextSeed()}${Date.now().toString(36)}`;
    const create = async (body: Json, what: string): Promise<Json> => {
      const record = recordOf(ctx.route, await succeed(ctx, ctx.route, { body }, what))!;
      ctx.world.created.push({ resource: 'workspace', id: String(record.id), path: { workspace_id: String(record.id) }, record });
      return record;
    };
    const first = await create({ display_name: `Slug Test ${stamp}!` }, 'creating a workspace without a slug');
    const base = `slug-test-${stamp}`;
    if (first.slug !== base) fail(`a workspace named "Slug Test ${stamp}!" got slug ${show(first.slug)}, expected ${base}`);
    const second = await create({ display_name: `slug test ${stamp}`, slug: null }, 'creating a workspace with slug null');
    if (second.slug !== `${base}-2`) fail(`a second workspace of that name got slug ${show(second.slug)}, expected ${base}-2`);
    await succeed(ctx, routeOf(ctx, 'workspace', 'delete'), { path: { workspace_id: String(second.id) } }, 'deleting the second workspace');
    const third = await create({ display_name: `Slug test ${stamp}` }, 'creating a third workspace of the name');
    if (third.slug !== `${base}-3`) fail(`after a delete a third workspace got slug ${show(third.slug)}, expected ${base}-3 (slugs stay reserved)`);
    expectError(await send(ctx.target, ctx.route, { body: { display_name: 'Taken', slug: base } }), 409, 'ALREADY_EXISTS', 'slug', 'a slug another workspace has');
  },
};

export const checks: Check[] = [slugs];
