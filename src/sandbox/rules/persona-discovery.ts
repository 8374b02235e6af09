// persona-discovery: the three listings a persona's settings are chosen from.
// - GET /personas/voices -> {voices: [{voice_name, supported_languages}]}: the built-in service voices, the
//   `voice` fixtures (platform or organization), then the organization's selectable custom voices.
// - GET /personas/phone-numbers -> {phone_numbers: {inbound, outbound}}: [{index (1-based), phone_number}].
// - GET /personas/background-sounds[?include_archived=true] -> {background_sounds}: the presets, then the
//   organization's custom sounds (value `custom:<id>`).
//
// Decisions (the seed shows no shapes; facts 2.7 give them):
// - Custom voices are listed with voice_name set to their id, the value custom_voice_id takes (PersonaVoice
//   has no other field to carry it); they are selected through custom_voice_id, not voice_name.
// - The preset `off` (no sound) is not listed as a sound; it is always accepted.
// - Without include_archived, archived custom sounds are left out; pending_upload ones are listed (with their
//   status) although they cannot be selected yet.
// - The listings are organization-wide (the workspace header is not declared on them).
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import type { ResponseShape } from '../engine/tables.js';
import { BACKGROUND_SOUND_PRESETS, customSoundEntry, customSounds, customVoices, phoneNumbers, presetEntry, serviceVoices, soundStatus } from './persona/catalog.js';

const LISTINGS = {
  voices: (ctx: RequestContext) => [...serviceVoices(ctx), ...customVoices(ctx).map((v) => ({ voice_name: v.id, supported_languages: v.languages }))],
  phone_numbers: (ctx: RequestContext) => {
    const numbers = phoneNumbers(ctx);
    const indexed = (list: string[]) => list.map((phone_number, i) => ({ index: i + 1, phone_number }));
    return { inbound: indexed(numbers.inbound), outbound: indexed(numbers.outbound) };
  },
  background_sounds: (ctx: RequestContext) => {
    const includeArchived = ctx.query.include_archived === true;
    const builtIn = BACKGROUND_SOUND_PRESETS.filter((p) => p !== 'off').map(presetEntry);
    const custom = customSounds(ctx)
      .filter((r) => includeArchived || soundStatus(r.data) !== 'archived')
      .map(customSoundEntry);
    return [...builtIn, ...custom];
  },
};

type Listing = keyof typeof LISTINGS;

// Named on the three listings only (spec/personas.yaml), each answering `{ <listing>: ... }`: the route's one
// answer key picks the listing. No other route names the rule, so no other shape or key can reach it.
export const personaDiscovery: Rule = {
  handle(ctx) {
    const [listing] = (ctx.route.success.shape as Extract<ResponseShape, { kind: 'other' }>).keys as [Listing];
    return { body: { [listing]: LISTINGS[listing](ctx) } };
  },
};
