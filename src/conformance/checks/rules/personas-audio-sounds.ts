// persona-background-sound and the persona-discovery listings.
// - Seed (Persona): background_sound is "one of off, office, ... backchanneling, or `custom:<background_sound_id>`
//   ... of an active custom sound from GET /personas/background-sounds; null clears".
// - The spec's listings: GET /personas/background-sounds lists BackgroundSound items whose `value` "is what a
//   persona's background_sound takes"; include_archived "Also list archived custom sounds"; GET
//   /personas/voices lists the voices voice_name takes; GET /personas/phone-numbers lists numbers with a
//   1-based index.
// Custom sounds, voices and phone numbers come from control-plane fixtures (docs/sandbox.md: custom sounds
// have "`status` active / archived / pending_upload; only active ones can be selected"; "`voice` fixtures
// add voices"; phone numbers are "defaults plus `phone_number` fixtures").
import { send } from '../../http.js';
import { fail } from '../../result.js';
import type { Check, CheckContext } from '../context.js';
import { currentRecord } from '../happy.js';
import { appliesTo, discoveryRoute, expectField, expectRefused, listedVoices, listing, loadFixture, requireControl, speaks, successRecord, unique, unlistedLanguage } from './personas-audio-shared.js';

const SOUND = 'persona-background-sound';
const DISCOVERY = 'persona-discovery';

interface Sound {
  id: string;
  value: string;
  source: string;
  status: string;
}

async function sounds(ctx: CheckContext, includeArchived = false): Promise<Sound[]> {
  return (await listing(ctx, 'background_sounds', includeArchived ? { include_archived: 'true' } : {})) as Sound[];
}

/** The presets the spec's background_sound pattern enumerates (the seed's list), without `custom:`. */
function seedPresets(ctx: CheckContext): string[] {
  const schema = (ctx.suite.defs.Persona as { properties: Record<string, { pattern?: string }> }).properties.background_sound;
  const inner = /^\^\((.*)\)\$$/.exec(schema?.pattern ?? '')?.[1] ?? '';
  return inner.split('|').filter((p) => !p.startsWith('custom:'));
}

/** Custom sounds in each status, loaded as fixtures; answers their ids. */
async function customSounds(ctx: CheckContext): Promise<Record<'active' | 'archived' | 'pending_upload', string>> {
  const why = 'load custom sounds';
  requireControl(ctx, why);
  const name = `Conformance sound ${unique(ctx)}`;
  return {
    active: await loadFixture(ctx, 'custom_sound', { display_name: `${name} active`, status: 'active' }, why),
    archived: await loadFixture(ctx, 'custom_sound', { display_name: `${name} archived`, status: 'archived' }, why),
    pending_upload: await loadFixture(ctx, 'custom_sound', { display_name: `${name} pending`, status: 'pending_upload' }, why),
  };
}

const builtInSounds: Check = {
  name: `rule ${SOUND}: every built-in sound GET /personas/background-sounds lists, and off, is accepted; null clears`,
  applies: appliesTo(SOUND, 'update'),
  async run(ctx) {
    const path = (await ctx.world.create('persona')).path;
    const values = [...(await sounds(ctx)).filter((s) => s.source === 'built_in').map((s) => s.value), 'off'];
    for (const value of values) {
      expectField(successRecord(await send(ctx.target, ctx.route, { path, body: { background_sound: value } }), ctx.route, `background_sound ${value}`), 'background_sound', value, 'the answer');
    }
    successRecord(await send(ctx.target, ctx.route, { path, body: { background_sound: null } }), ctx.route, 'background_sound null');
    expectField(await currentRecord(ctx, 'persona', path), 'background_sound', undefined, 'after background_sound null');
  },
};

const customSoundSelection: Check = {
  name: `rule ${SOUND}: custom:<id> is accepted for an active custom sound only (archived, pending_upload, unknown: 400 on background_sound)`,
  applies: appliesTo(SOUND, 'update'),
  async run(ctx) {
    const ids = await customSounds(ctx);
    const listed = await sounds(ctx, true);
    const valueOf = (id: string): string => listed.find((s) => s.id === id)?.value ?? `custom:${id}`;
    const path = (await ctx.world.create('persona')).path;
    const active = valueOf(ids.active);
    expectField(successRecord(await send(ctx.target, ctx.route, { path, body: { background_sound: active } }), ctx.route, `the active custom sound ${active}`), 'background_sound', active, 'the answer');
    for (const status of ['archived', 'pending_upload'] as const) {
      await expectRefused(ctx, ctx.route, { path, body: { background_sound: valueOf(ids[status]) } }, 'background_sound', `a ${status} custom sound`);
    }
    await expectRefused(ctx, ctx.route, { path, body: { background_sound: `custom:unknown${unique(ctx)}` } }, 'background_sound', 'an unknown custom sound');
    expectField(await currentRecord(ctx, 'persona', path), 'background_sound', active, 'after the refused values');
  },
};

const customSoundOnCreate: Check = {
  name: `rule ${SOUND}: on create, custom:<id> must name an active custom sound (400 on background_sound)`,
  applies: appliesTo(SOUND, 'create'),
  async run(ctx) {
    const ids = await customSounds(ctx);
    const refused = await ctx.world.bodyFor(ctx.route, { background_sound: `custom:${ids.archived}` });
    await expectRefused(ctx, ctx.route, { body: refused }, 'background_sound', 'creating a persona with an archived custom sound');
    const accepted = await ctx.world.bodyFor(ctx.route, { background_sound: `custom:${ids.active}` });
    expectField(successRecord(await send(ctx.target, ctx.route, { body: accepted }), ctx.route, 'creating a persona with an active custom sound'), 'background_sound', `custom:${ids.active}`, 'the created persona');
  },
};

const soundListing: Check = {
  name: `rule ${DISCOVERY}: background sounds list the seed's presets (not off) and custom sounds as custom:<id>; archived ones only with include_archived`,
  applies: (route, suite) => route.id === discoveryRoute(suite, 'background_sounds')?.id,
  async run(ctx) {
    const ids = await customSounds(ctx);
    const plain = await sounds(ctx);
    const builtIn = new Set(plain.filter((s) => s.source === 'built_in').map((s) => s.value));
    // `off` is "no sound": the sandbox's choice is not to list it as a sound (it is always accepted).
    const missing = seedPresets(ctx).filter((p) => p !== 'off' && !builtIn.has(p));
    if (missing.length > 0) fail(`the listing lacks the seed's presets ${missing.join(', ')}`);
    if (plain.some((s) => s.value === 'off')) fail('the listing shows off, which is no sound (persona-discovery lists only sounds)');
    const entry = (list: Sound[], id: string) => list.find((s) => s.id === id);
    for (const status of ['active', 'pending_upload'] as const) {
      const e = entry(plain, ids[status]);
      if (!e) fail(`the ${status} custom sound ${ids[status]} is not listed`);
      if (e.value !== `custom:${ids[status]}` || e.source !== 'custom' || e.status !== status) fail(`expected the ${status} custom sound as {value: custom:${ids[status]}, source: custom, status: ${status}}, got ${JSON.stringify(e)}`);
    }
    if (entry(plain, ids.archived)) fail('an archived custom sound is listed without include_archived');
    const all = await sounds(ctx, true);
    const archived = entry(all, ids.archived);
    if (!archived || archived.status !== 'archived') fail(`expected the archived custom sound with status archived under include_archived=true, got ${JSON.stringify(archived)}`);
  },
};

const voiceListing: Check = {
  name: `rule ${DISCOVERY}: voices list the voice a persona was created with, with its language, and voices added as fixtures (custom voices present)`,
  applies: (route, suite) => route.id === discoveryRoute(suite, 'voices')?.id,
  async run(ctx) {
    const created = (await ctx.world.create('persona')).record;
    const voices = await listedVoices(ctx);
    const used = voices.find((v) => v.voice_name === created.voice_name);
    if (!used || !speaks(used, String(created.language_code))) fail(`the persona's voice ${String(created.voice_name)} with ${String(created.language_code)} is not listed: ${JSON.stringify(used)}`);
    const language = unlistedLanguage(ctx, voices);
    const name = `conformance-voice-${unique(ctx)}`;
    await loadFixture(ctx, 'voice', { voice_name: name, supported_languages: [language] }, 'load a voice');
    // A custom voice of the organization may be listed too; either way the listing still matches the spec.
    await loadFixture(ctx, 'custom_voice', { display_name: `Conformance voice ${name}`, languages: [language] }, 'load a custom voice');
    const added = (await listedVoices(ctx)).find((v) => v.voice_name === name);
    if (!added || JSON.stringify(added.supported_languages) !== JSON.stringify([language])) fail(`expected the voice fixture ${name} listed with [${language}], got ${JSON.stringify(added)}`);
  },
};

interface Numbered {
  index: number;
  phone_number: string;
}

const phoneListing: Check = {
  name: `rule ${DISCOVERY}: phone numbers are indexed 1, 2, ... per direction and include a number added as a fixture`,
  applies: (route, suite) => route.id === discoveryRoute(suite, 'phone_numbers')?.id,
  async run(ctx) {
    const number = `+1202555${String(1000 + (ctx.world.nextSeed() % 9000)).padStart(4, '0')}`;
    await loadFixture(ctx, 'phone_number', { phone_number: number }, 'load a phone number');
    const lists = (await listing(ctx, 'phone_numbers')) as Record<'inbound' | 'outbound', Numbered[]>;
    for (const direction of ['inbound', 'outbound'] as const) {
      const list = lists[direction];
      const indexes = list.map((n) => n.index);
      if (indexes.some((i, k) => i !== k + 1)) fail(`${direction} indexes are not 1..${list.length} in order: ${JSON.stringify(indexes)}`);
    }
    if (![...lists.inbound, ...lists.outbound].some((n) => n.phone_number === number)) fail(`the phone_number fixture ${number} is not listed`);
  },
};

export const checks: Check[] = [builtInSounds, customSoundSelection, customSoundOnCreate, soundListing, voiceListing, phoneListing];
