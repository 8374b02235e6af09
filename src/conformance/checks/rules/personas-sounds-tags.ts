// Custom background sounds through the API (persona-sound-upload) and the per-family tag listings (tag-summary).
// - The spec's createPersonaBackgroundSound: a new sound is pending_upload with an upload target; complete makes
//   it active and selectable as `custom:<id>` (persona-background-sound accepts only active custom sounds);
//   PATCH renames it and archives it (archived sounds are left out of the listing without include_archived).
// - The spec's listPersonaTags / listMetricTags: "the tags the ... carry, each once, with the color of the
//   organization tag of that name".
import { send } from '../../http.js';
import { fail } from '../../result.js';
import type { Route } from '../../suite-data.js';
import type { Check, CheckContext } from '../context.js';
import { controlOf, loadFixtures, routeOf, show, succeed, type Json } from './records-support.js';
import { listing, unique } from './personas-audio-shared.js';

const UPLOAD = 'persona-sound-upload';
const TAGS = 'tag-summary';

function soundRoute(ctx: CheckContext, method: string, segments: number): Route {
  const route = ctx.suite.routes.find((r) => r.rules.includes(UPLOAD) && r.method === method && r.path.split('/').length === segments);
  if (!route) fail(`the spec has no ${method} background-sound operation with rule ${UPLOAD}`);
  return route;
}

async function listedSound(ctx: CheckContext, id: string, includeArchived: boolean): Promise<Json | undefined> {
  const sounds = (await listing(ctx, 'background_sounds', includeArchived ? { include_archived: 'true' } : {})) as Json[];
  return sounds.find((s) => s.id === id);
}

const soundLifecycle: Check = {
  name: `rule ${UPLOAD}: a created sound is pending_upload with an upload target; complete makes it active and selectable; archive hides it`,
  applies: (route) => route.rules.includes(UPLOAD) && route.method === 'POST' && route.params.path.length === 0,
  async run(ctx) {
    const complete = soundRoute(ctx, 'POST', 5);
    const update = soundRoute(ctx, 'PATCH', 4);
    const name = `Conformance upload ${unique(ctx)}`;
    const created = (await succeed(ctx, ctx.route, { body: { display_name: name, original_filename: 'a.wav', content_type: 'audio/wav', default_volume: 0.5 } }, 'creating a sound')).body as Json;
    const sound = created.background_sound as Json;
    if (sound.status !== 'pending_upload' || sound.source !== 'custom' || sound.display_name !== name || sound.default_volume !== 0.5) {
      fail(`a created sound shows ${show(sound)}, expected a custom pending_upload sound named ${show(name)} with default_volume 0.5`);
    }
    if (sound.value !== `custom:${String(sound.id)}`) fail(`its value is ${show(sound.value)}, expected custom:${String(sound.id)}`);
    if (typeof created.upload_url !== 'string' || created.upload_url === '') fail('the answer has no upload_url');
    const path = { background_sound_id: String(sound.id) };
    const personaUpdate = routeOf(ctx, 'persona', 'update');
    const persona = await ctx.world.create('persona');
    const early = await send(ctx.target, personaUpdate, { path: persona.path, body: { background_sound: sound.value } });
    if (early.status !== 400) fail(`selecting a pending_upload sound answered ${early.status}, expected 400`);
    const done = ((await succeed(ctx, complete, { path }, 'completing the upload')).body as Json).background_sound as Json;
    if (done.status !== 'active') fail(`after complete the sound is ${show(done.status)}, expected active`);
    await succeed(ctx, personaUpdate, { path: persona.path, body: { background_sound: sound.value } }, 'selecting the completed sound');
    if (!(await listedSound(ctx, String(sound.id), false))) fail('the active sound is not listed');
    const archived = ((await succeed(ctx, update, { path, body: { status: 'archived', display_name: `${name} old` } }, 'archiving the sound')).body as Json).background_sound as Json;
    if (archived.status !== 'archived' || archived.display_name !== `${name} old`) fail(`after PATCH the sound shows ${show(archived)}`);
    if (await listedSound(ctx, String(sound.id), false)) fail('the archived sound is listed without include_archived');
    if (!(await listedSound(ctx, String(sound.id), true))) fail('the archived sound is not listed with include_archived');
  },
};

const tagSummary: Check = {
  name: `rule ${TAGS}: lists each tag the records carry once, in order, with the color of the tag of that name (else null)`,
  applies: (route) => route.rules.includes(TAGS) && route.resource !== null && route.aliasOf === null,
  async run(ctx) {
    const resource = ctx.route.resource!;
    const token = unique(ctx).toLowerCase();
    const [colored, plain] = [`zz-${token}-b`, `zz-${token}-a`];
    const tagCreate = routeOf(ctx, 'tag', 'create');
    await succeed(ctx, tagCreate, { body: { tag_name: colored, color: '#123456' } }, 'creating a tag with a color');
    await ctx.world.create(resource, { tags: [colored, plain] });
    await ctx.world.create(resource, { tags: [colored] });
    const tags = ((await succeed(ctx, ctx.route, {}, 'listing tags')).body as { tags: Json[] }).tags;
    const mine = tags.filter((t) => t.tag === colored || t.tag === plain);
    const expected = [
      { tag: plain, color: null },
      { tag: colored, color: '#123456' },
    ];
    if (JSON.stringify(mine) !== JSON.stringify(expected)) fail(`the listing shows ${show(mine)}, expected ${show(expected)}`);
  },
};


const tagSummaryLive: Check = {
  // docs/sandbox.md (Family tag listings): the tags the live records carry, once each whatever their case, with
  // the color of the organization's live tag of that name matched case-insensitively.
  name: `rule ${TAGS}: a deleted record's tags are not listed; a tag is listed once whatever its case, colored by the tag of that name in any case; a deleted tag gives no color`,
  applies: (route) => route.rules.includes(TAGS) && route.resource !== null && route.aliasOf === null,
  async run(ctx) {
    const resource = ctx.route.resource!;
    const token = unique(ctx).toLowerCase();
    const [gone, mixed, uncolored] = [`zz-${token}-gone`, `zz-${token}-mixed`, `zz-${token}-uncolored`];
    const tagCreate = routeOf(ctx, 'tag', 'create');
    const tagDelete = routeOf(ctx, 'tag', 'delete');
    await succeed(ctx, tagCreate, { body: { tag_name: mixed, color: '#abcdef' } }, 'creating a tag with a color');
    const dropped = (await succeed(ctx, tagCreate, { body: { tag_name: uncolored, color: '#fedcba' } }, 'creating a tag to delete')).body as Json;
    const droppedTag = (dropped.tag ?? dropped) as Json;
    await succeed(ctx, tagDelete, { path: { [tagDelete.params.path[0]!.name]: String(droppedTag.id ?? droppedTag.tag_id) } }, 'deleting that tag');
    await ctx.world.create(resource, { tags: [mixed.toUpperCase(), uncolored] });
    await ctx.world.create(resource, { tags: [mixed] });
    const doomed = await ctx.world.create(resource, { tags: [gone] });
    await succeed(ctx, routeOf(ctx, resource, 'delete'), { path: doomed.path }, `deleting the ${resource} carrying ${gone}`);
    const tags = ((await succeed(ctx, ctx.route, {}, 'listing tags')).body as { tags: Json[] }).tags;
    const mine = tags.filter((t) => String(t.tag).toLowerCase().startsWith(`zz-${token}-`)).map((t) => ({ tag: String(t.tag).toLowerCase(), color: t.color }));
    const expected = [
      { tag: mixed, color: '#abcdef' },
      { tag: uncolored, color: null },
    ];
    if (JSON.stringify(mine) !== JSON.stringify(expected)) fail(`the listing shows ${show(mine)} (case ignored), expected ${show(expected)}`);
  },
};

const tagSummaryScope: Check = {
  // docs/sandbox.md (Family tag listings, Runs): the tags of the records in scope (the workspace's), colored by the
  // organization's own tag of that name; another workspace's records and another organization's tags count for nothing.
  name: `rule ${TAGS}: a record of another workspace adds no tag; another organization's tag of the same name gives no color`,
  applies: (route) => route.rules.includes(TAGS) && route.resource !== null && route.aliasOf === null,
  async run(ctx) {
    const control = controlOf(ctx, 'load a record into another workspace and make a second organization');
    const resource = ctx.route.resource!;
    const token = unique(ctx).toLowerCase();
    const [elsewhere, foreign] = [`zz-${token}-elsewhere`, `zz-${token}-foreign`];
    const workspace = routeOf(ctx, 'workspace', 'create');
    const custom = (await succeed(ctx, workspace, { body: { display_name: `Tags ${token}` } }, 'creating a workspace')).body as Json;
    const customWorkspace = (custom.workspace ?? custom) as Json;
    const customId = String(customWorkspace.id);
    ctx.world.created.push({ resource: 'workspace', id: customId, path: { workspace_id: customId }, record: customWorkspace });
    await loadFixtures(control, [{ kind: resource, data: { tags: [elsewhere] }, workspace_id: customId }]);
    const otherKey = ctx.target.otherApiKey ?? (await control.createOtherOrganizationKey());
    const tagCreate = routeOf(ctx, 'tag', 'create');
    const made = await send(ctx.target, tagCreate, { key: otherKey, body: { tag_name: foreign, color: '#0a0b0c' } });
    if (made.status !== tagCreate.success.status) fail(`creating another organization's tag answered ${made.status}`);
    await ctx.world.create(resource, { tags: [foreign] });
    const tags = ((await succeed(ctx, ctx.route, {}, 'listing tags')).body as { tags: Json[] }).tags;
    const mine = tags.filter((t) => String(t.tag).startsWith(`zz-${token}-`));
    const expected = [{ tag: foreign, color: null }];
    if (JSON.stringify(mine) !== JSON.stringify(expected)) fail(`the default workspace's listing shows ${show(mine)}, expected ${show(expected)}`);
  },
};

export const checks: Check[] = [soundLifecycle, tagSummary, tagSummaryLive, tagSummaryScope];
