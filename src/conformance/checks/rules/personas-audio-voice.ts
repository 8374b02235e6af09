// persona-voice: a persona's voice_name is a voice GET /personas/voices lists, custom_voice_id a custom voice
// of the organization, and language_code a language the voice selected after the write supports (seed,
// Persona: "voice_name | Service voice name (discover with GET /personas/voices)", "custom_voice_id |
// server-issued custom voice reference of this organization; null selects the built-in voice again",
// "language_code | BCP-47; must be supported by the selected voice"). Voices and languages come from the
// listing, custom voices from control-plane fixtures, so the checks hold for any deployment's catalogue.
import { send } from '../../http.js';
import { fail, skip } from '../../result.js';
import type { Check, CheckContext } from '../context.js';
import { currentRecord } from '../happy.js';
import { ownParam } from '../../world.js';
import {
  appliesTo,
  expectField,
  expectRefused,
  listedVoices,
  loadFixture,
  requireControl,
  speaks,
  successRecord,
  unique,
  unlistedLanguage,
  voiceMissingALanguage,
  type Voice,
} from './personas-audio-shared.js';

const RULE = 'persona-voice';

/** Two listed voices and languages: `a` does not speak `foreign`, `b` does; `a` speaks `own`. */
async function voicePair(ctx: CheckContext): Promise<{ a: Voice; b: Voice; own: string; foreign: string }> {
  const voices = await listedVoices(ctx);
  const pick = voiceMissingALanguage(voices);
  if (!pick) skip('GET /personas/voices lists no voice lacking a language another voice speaks');
  const b = voices.find((v) => speaks(v, pick.foreign))!;
  return { a: pick.voice, b, own: pick.voice.supported_languages[0]!, foreign: pick.foreign };
}

/** A persona created through the API with these overrides (voice_name, language_code, ...). */
async function persona(ctx: CheckContext, overrides: Record<string, unknown> = {}): Promise<{ path: Record<string, string>; record: Record<string, unknown> }> {
  const created = await ctx.world.create('persona', overrides);
  return { path: created.path, record: created.record };
}

const unknownVoiceName: Check = {
  name: `rule ${RULE}: a voice_name GET /personas/voices does not list is 400 on voice_name`,
  applies: appliesTo(RULE, 'create'),
  async run(ctx) {
    const names = new Set((await listedVoices(ctx)).map((v) => v.voice_name));
    let name = `conformance-unlisted-voice-${unique(ctx)}`;
    while (names.has(name)) name += 'x';
    const body = await ctx.world.bodyFor(ctx.route, { voice_name: name });
    await expectRefused(ctx, ctx.route, { body }, 'voice_name', `creating a persona with the unlisted voice ${name}`);
  },
};

const createLanguage: Check = {
  name: `rule ${RULE}: on create, language_code must be one the chosen voice lists (400 on language_code)`,
  applies: appliesTo(RULE, 'create'),
  async run(ctx) {
    const { a, foreign } = await voicePair(ctx);
    const refused = await ctx.world.bodyFor(ctx.route, { voice_name: a.voice_name, language_code: foreign });
    await expectRefused(ctx, ctx.route, { body: refused }, 'language_code', `voice ${a.voice_name} with ${foreign}, which it does not list`);
    // Sandbox's choice (docs/sandbox.md, Personas): "Language codes compare case-insensitively".
    const own = a.supported_languages[0]!;
    const swapped = [...own].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    const accepted = await ctx.world.bodyFor(ctx.route, { voice_name: a.voice_name, language_code: swapped });
    successRecord(await send(ctx.target, ctx.route, { body: accepted }), ctx.route, `voice ${a.voice_name} with its language ${own} written ${swapped}`);
  },
};

const resourceName: Check = {
  // The spec's Persona.resource_name: "The resource name, `personas/<id>`" (read-only, set by the server).
  name: `rule ${RULE}: a created persona's resource_name is personas/<id>`,
  applies: appliesTo(RULE, 'create'),
  async run(ctx) {
    const body = await ctx.world.bodyFor(ctx.route);
    const record = successRecord(await send(ctx.target, ctx.route, { body }), ctx.route, 'creating a persona');
    expectField(record, 'resource_name', `personas/${String(record.id)}`, 'the created persona');
  },
};

const updateLanguage: Check = {
  // docs/sandbox.md (Personas): "The language check uses the voice selected after the update".
  name: `rule ${RULE}: on update, the language must fit the voice selected after it (voice_name alone, language_code alone)`,
  applies: appliesTo(RULE, 'update'),
  async run(ctx) {
    const { a, b, own, foreign } = await voicePair(ctx);
    const p = await persona(ctx, { voice_name: b.voice_name, language_code: foreign });
    await expectRefused(ctx, ctx.route, { path: p.path, body: { voice_name: a.voice_name } }, 'language_code', `switching to ${a.voice_name}, which does not speak the stored ${foreign}`);
    expectField(await currentRecord(ctx, 'persona', p.path), 'voice_name', b.voice_name, 'after the refused voice change');
    const both = successRecord(await send(ctx.target, ctx.route, { path: p.path, body: { voice_name: a.voice_name, language_code: own } }), ctx.route, `switching to ${a.voice_name} with ${own}`);
    expectField(both, 'voice_name', a.voice_name, 'after switching voice and language');
    await expectRefused(ctx, ctx.route, { path: p.path, body: { language_code: foreign } }, 'language_code', `${foreign} with the stored voice ${a.voice_name}`);
  },
};

/** A persona created with the default voice, and the language it was created with. */
async function builtInPersona(ctx: CheckContext): Promise<{ path: Record<string, string>; language: string }> {
  const p = await persona(ctx);
  const language = p.record.language_code;
  if (typeof language !== 'string') fail('the created persona has no language_code');
  return { path: p.path, language };
}

const customVoice: Check = {
  name: `rule ${RULE}: custom_voice_id selects an active custom voice of the organization whose languages then apply; null goes back to voice_name`,
  applies: appliesTo(RULE, 'update'),
  async run(ctx) {
    requireControl(ctx, 'load custom voices');
    const custom = unlistedLanguage(ctx, await listedVoices(ctx));
    const voiceId = await loadFixture(ctx, 'custom_voice', { display_name: `Conformance voice ${unique(ctx)}`, languages: [custom] }, 'load custom voices');
    // Sandbox's choice (docs/sandbox.md, Personas): custom voices "are unusable when deleted, active: false".
    const inactiveId = await loadFixture(ctx, 'custom_voice', { display_name: 'Conformance inactive voice', languages: [custom], active: false }, 'load custom voices');
    const { path, language } = await builtInPersona(ctx);
    const route = ctx.route;
    await expectRefused(ctx, route, { path, body: { custom_voice_id: `unknown${unique(ctx)}`, language_code: custom } }, 'custom_voice_id', 'an unknown custom voice');
    await expectRefused(ctx, route, { path, body: { custom_voice_id: inactiveId, language_code: custom } }, 'custom_voice_id', 'an inactive custom voice');
    await expectRefused(ctx, route, { path, body: { custom_voice_id: voiceId } }, 'language_code', `custom voice ${voiceId} (speaks ${custom}) with the stored ${language}`);
    const selected = successRecord(await send(ctx.target, route, { path, body: { custom_voice_id: voiceId, language_code: custom } }), route, `custom voice ${voiceId} with ${custom}`);
    expectField(selected, 'custom_voice_id', voiceId, 'after selecting the custom voice');
    expectField(selected, 'language_code', custom, 'after selecting the custom voice');
    await expectRefused(ctx, route, { path, body: { language_code: language } }, 'language_code', `${language} while custom voice ${voiceId} (speaks only ${custom}) is selected`);
    await expectRefused(ctx, route, { path, body: { voice_name: `conformance-unlisted-voice-${unique(ctx)}` } }, 'voice_name', `an unlisted voice_name while custom voice ${voiceId} is selected`);
    await expectRefused(ctx, route, { path, body: { custom_voice_id: null } }, 'language_code', `custom_voice_id null (back to the built-in voice) with the stored ${custom}`);
    const back = successRecord(await send(ctx.target, route, { path, body: { custom_voice_id: null, language_code: language } }), route, `custom_voice_id null with ${language}`);
    expectField(back, 'custom_voice_id', undefined, 'after custom_voice_id null');
  },
};

const unusableSelection: Check = {
  // Seed: language_code "must be supported by the selected voice"; a persona whose custom voice is unusable
  // (docs/sandbox.md: active: false) or whose voice_name is no longer listed (retired) has no voice to support it.
  name: `rule ${RULE}: a language change of a persona whose selected voice is unusable is 400; an update not touching the voice is not checked`,
  applies: appliesTo(RULE, 'update'),
  async run(ctx) {
    const control = requireControl(ctx, 'load a persona whose voice became unusable');
    const voices = await listedVoices(ctx);
    const custom = unlistedLanguage(ctx, voices);
    const inactiveId = await loadFixture(ctx, 'custom_voice', { display_name: 'Conformance retired voice', languages: [custom], active: false }, 'load custom voices');
    const [withRetired, withUnlisted] = await control.loadFixtures([
      { kind: 'persona', data: { name: `Conformance retired ${unique(ctx)}`, voice_name: voices[0]!.voice_name, language_code: custom, custom_voice_id: inactiveId } },
      { kind: 'persona', data: { name: `Conformance unlisted ${unique(ctx)}`, voice_name: `conformance-retired-voice-${unique(ctx)}`, language_code: custom } },
    ]);
    const param = ownParam(ctx.route)!;
    await expectRefused(ctx, ctx.route, { path: { [param]: withRetired!.id }, body: { language_code: custom } }, 'custom_voice_id,language_code', 'a language change while the selected custom voice is inactive');
    await expectRefused(ctx, ctx.route, { path: { [param]: withUnlisted!.id }, body: { language_code: custom } }, 'voice_name,language_code', 'a language change of a persona whose voice_name is no longer listed');
    // The seed gives the voice rules per field sent on update ("Omitted fields are unchanged"): a rename
    // sends none of voice_name, custom_voice_id, language_code, so it is not refused for the stored voice.
    for (const id of [withRetired!.id, withUnlisted!.id]) {
      successRecord(await send(ctx.target, ctx.route, { path: { [param]: id }, body: { name: `Conformance renamed ${unique(ctx)}` } }), ctx.route, 'renaming a persona whose voice is unusable');
    }
  },
};

export const checks: Check[] = [unknownVoiceName, createLanguage, resourceName, updateLanguage, customVoice, unusableSelection];
