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

export const slugForms: Check = {
  name: 'rule workspace-slug: a given slug is kept, an update keeps the slug, a run of symbols is one dash, a name with no letter or digit gives "workspace", a long name is cut to 100 characters (the number suffix too)',
  applies: operationWithRule('workspace', 'create', 'workspace-slug'),
  async run(ctx) {
    const stamp = `${ctx.world.nextSeed()}${Date.now().toString(36)}`;
    const create = async (body: Json, what: string): Promise<Json> => {
      const record = recordOf(ctx.route, await succeed(ctx, ctx.route, { body }, what))!;
      ctx.world.created.push({ resource: 'workspace', id: String(record.id), path: { workspace_id: String(record.id) }, record });
      return record;
    };
    const given = await create({ display_name: 'Given Slug', slug: `given-${stamp}` }, 'creating a workspace with a slug');
    if (given.slug !== `given-${stamp}`) fail(`a workspace created with slug given-${stamp} shows ${show(given.slug)}`);
    const update = routeOf(ctx, 'workspace', 'update');
    const renamed = recordOf(update, await succeed(ctx, update, { path: { workspace_id: String(given.id) }, body: { display_name: 'Another Name' } }, 'renaming it'))!;
    if (renamed.slug !== `given-${stamp}`) fail(`a rename changed the slug to ${show(renamed.slug)}`);
    const spaced = await create({ display_name: `Team -- ${stamp} ++ Ops` }, 'creating a workspace whose name has runs of symbols');
    if (spaced.slug !== `team-${stamp}-ops`) fail(`a workspace named "Team -- ${stamp} ++ Ops" got slug ${show(spaced.slug)}, expected team-${stamp}-ops (a run of other characters is one dash)`);
    // Any earlier "workspace" slug of the organization numbers this one: compare without the suffix.
    const symbols = await create({ display_name: '!!! ???' }, 'creating a workspace named with symbols only');
    if (typeof symbols.slug !== 'string' || !/^workspace(-\d+)?$/.test(symbols.slug)) fail(`a workspace named "!!! ???" got slug ${show(symbols.slug)}, expected workspace (numbered while taken)`);
    const long = `${stamp}-${'x'.repeat(120)}`;
    const cut = await create({ display_name: long }, 'creating a workspace with a 120+ character name');
    const base = long.slice(0, 100);
    if (cut.slug !== base) fail(`a workspace named with ${long.length} characters got slug ${show(cut.slug)}, expected its first 100 characters`);
    const numbered = await create({ display_name: long }, 'creating a second workspace of that long name');
    if (numbered.slug !== `${base.slice(0, 98)}-2`) fail(`the second workspace of that long name got slug ${show(numbered.slug)}, expected ${base.slice(0, 98)}-2 (100 characters)`);
    // Numbered, a slug cut right after a dash loses the dash before the suffix.
    const edge = `${'a'.repeat(97 - stamp.length)}${stamp} bb`;
    await create({ display_name: edge }, 'creating a workspace whose 98th slug character is a dash');
    const edged = await create({ display_name: edge }, 'creating a second workspace of that name');
    if (edged.slug !== `${edge.slice(0, 97)}-2`) fail(`the second workspace named ${edge} got slug ${show(edged.slug)}, expected ${edge.slice(0, 97)}-2`);
    const dashed = await create({ display_name: `${stamp} ${'y'.repeat(100 - stamp.length - 2)} z` }, 'creating a workspace whose name is cut before a dash');
    if (dashed.slug !== `${stamp}-${'y'.repeat(100 - stamp.length - 2)}`) fail(`a name cut right before a dash got slug ${show(dashed.slug)}, expected no trailing dash`);
  },
};

export const checks: Check[] = [slugs, slugForms];
