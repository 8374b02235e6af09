// The platform data a persona chooses from: the service voices (and the languages each speaks), the
// organization's custom voices, the background sound presets and custom sounds, and the caller phone numbers.
// Shared by the persona rules (persona-voice, persona-background-sound) and the discovery endpoints
// (persona-discovery), so what the listings show is exactly what an update accepts.
//
// Decisions (the seed shows none of this data):
// - The built-in service voices are the fixed list BUILT_IN_VOICES below: the nine realtime voice names of the
//   seed's `voice` enum (multilingual) plus a few narrower service voices. `voice` fixture records (platform
//   or organization; data {voice_name, supported_languages | languages}) add voices or replace the languages
//   of a built-in one of the same name.
// - Custom voices are `custom_voice` records of the organization (data {display_name, languages}); they are
//   organization-wide (the workspace is not considered). A deleted one, or one whose data says `active: false`
//   or a `status` other than `active`, cannot be selected. A custom voice without a languages list speaks none.
// - Languages are BCP-47 tags compared case-insensitively (`en-us` matches `en-US`); the value is stored as sent.
// - Custom sounds are `background_sound` (or `custom_sound`) records of the organization (data {display_name,
//   active} or {status});
//   status is data.status when it is pending_upload|active|archived, else `archived` when active is false,
//   else `active`. Only active ones can be selected. Ids outside [A-Za-z0-9_-] (or too long for the 100-char
//   `custom:<id>` value) can never be selected and are not listed. default_volume (required by the service's
//   client, facts-shapes 3.3) is 1 for presets and for custom sounds that do not hold a non-negative number.
// - Caller numbers: DEFAULT_PHONE_NUMBERS (fictional 555-01xx numbers) plus `phone_number` records (platform
//   or organization; data {phone_number, direction inbound|outbound|both (default both)}).
import type { RequestContext } from '../../engine/context.js';
import type { Json, StoredRecord } from '../../storage/store.js';
import { PLATFORM_ORG } from '../../storage/store.js';

export interface ServiceVoice {
  voice_name: string;
  supported_languages: string[];
}

const MULTILINGUAL = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'es-ES', 'es-MX', 'fr-FR', 'fr-CA', 'de-DE', 'it-IT', 'pt-BR', 'pt-PT', 'nl-NL', 'ja-JP', 'ko-KR', 'zh-CN', 'hi-IN'];

export const BUILT_IN_VOICES: readonly ServiceVoice[] = [
  ...['alloy', 'ash', 'ballad', 'coral', 'echo', 'marin', 'sage', 'shimmer', 'verse'].map((voice_name) => ({ voice_name, supported_languages: MULTILINGUAL })),
  { voice_name: 'aria', supported_languages: ['en-US', 'en-GB'] },
  { voice_name: 'davis', supported_languages: ['en-US'] },
  { voice_name: 'sofia', supported_languages: ['es-ES', 'es-MX', 'en-US'] },
  { voice_name: 'camille', supported_languages: ['fr-FR', 'fr-CA'] },
  { voice_name: 'hans', supported_languages: ['de-DE'] },
  { voice_name: 'yuki', supported_languages: ['ja-JP'] },
  { voice_name: 'priya', supported_languages: ['en-IN', 'hi-IN'] },
];

export const BACKGROUND_SOUND_PRESETS: readonly string[] = [
  'off',
  'office',
  'lounge',
  'crowd',
  'airport',
  'bus',
  'playground',
  'doorbell',
  'train-arrival',
  'portable-air-conditioner',
  'skatepark',
  'small-dog-bark',
  'cafe',
  'ferry-and-announcement',
  'heavy-rain',
  'moderate-wind',
  'newborn-baby-crying',
  'office-with-alarm',
  'street-with-sirens',
  'construction-work',
  'backchanneling',
];

/** default_volume (required in the answer) of presets and of custom sounds that do not set one: the unchanged level. */
export const DEFAULT_SOUND_VOLUME = 1;

/** Presets that are one sound source in the room rather than an ambience. */
const POINT_SOURCES = new Set(['doorbell', 'small-dog-bark', 'newborn-baby-crying', 'backchanneling', 'portable-air-conditioner']);

export const DEFAULT_PHONE_NUMBERS: { inbound: readonly string[]; outbound: readonly string[] } = {
  inbound: ['+12025550101', '+12025550102', '+12025550103'],
  outbound: ['+12025550151', '+12025550152', '+12025550153'],
};

const CUSTOM_SOUND_ID = /^[A-Za-z0-9_-]{1,93}$/;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Records of a non-API kind that the organization sees: its own and the platform's (`*`), not deleted. */
function visible(ctx: RequestContext, kind: string): StoredRecord[] {
  return ctx.runtime.store.list(kind, { org: ctx.org }).filter((r) => !r.deleted && (r.org === ctx.org || r.org === PLATFORM_ORG));
}

/** Records of a non-API kind that belong to the organization itself (not platform records). */
function own(ctx: RequestContext, kind: string): StoredRecord[] {
  return ctx.runtime.store.list(kind, { org: ctx.org }).filter((r) => !r.deleted && r.org === ctx.org);
}

/** The service voices the organization can select by voice_name: built-ins, then voice fixtures (by name). */
export function serviceVoices(ctx: RequestContext): ServiceVoice[] {
  const byName = new Map<string, ServiceVoice>();
  for (const v of BUILT_IN_VOICES) byName.set(v.voice_name, { voice_name: v.voice_name, supported_languages: [...v.supported_languages] });
  for (const r of visible(ctx, 'voice')) {
    const name = str(r.data.voice_name) ?? str(r.data.name) ?? r.id;
    const languages = Array.isArray(r.data.supported_languages) ? strings(r.data.supported_languages) : strings(r.data.languages);
    byName.set(name, { voice_name: name, supported_languages: languages });
  }
  return [...byName.values()];
}

/** The service voice of that name; none for a persona without a voice name (null or absent). */
export function findServiceVoice(ctx: RequestContext, name: string | null | undefined): ServiceVoice | undefined {
  return serviceVoices(ctx).find((v) => v.voice_name === name);
}

function selectable(data: Json): boolean {
  if (data.active === false) return false;
  return data.status === undefined || data.status === 'active';
}

/** The organization's selectable custom voices, as {id, languages}. */
export function customVoices(ctx: RequestContext): { id: string; display_name: string; languages: string[] }[] {
  return own(ctx, 'custom_voice')
    .filter((r) => selectable(r.data))
    .map((r) => ({ id: r.id, display_name: str(r.data.display_name) ?? r.id, languages: strings(r.data.languages) }));
}

export function findCustomVoice(ctx: RequestContext, id: string): { id: string; languages: string[] } | undefined {
  return customVoices(ctx).find((v) => v.id === id);
}

export function supports(languages: readonly string[], code: string): boolean {
  const wanted = code.toLowerCase();
  return languages.some((l) => l.toLowerCase() === wanted);
}

export type SoundStatus = 'pending_upload' | 'active' | 'archived';

export function soundStatus(data: Json): SoundStatus {
  if (data.status === 'pending_upload' || data.status === 'active' || data.status === 'archived') return data.status;
  return data.active === false ? 'archived' : 'active';
}

/**
 * The organization's custom sounds that could ever be selected (ids fit `custom:<id>`): `background_sound`
 * records (created through the API, or fixtures of the spec's resource) and `custom_sound` fixtures.
 */
export function customSounds(ctx: RequestContext): StoredRecord[] {
  return [...own(ctx, 'custom_sound'), ...own(ctx, 'background_sound')].filter((r) => CUSTOM_SOUND_ID.test(r.id));
}

export function isActiveCustomSound(ctx: RequestContext, id: string): boolean {
  return customSounds(ctx).some((r) => r.id === id && soundStatus(r.data) === 'active');
}

function displayName(preset: string): string {
  const words = preset.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A listing entry of a built-in preset. */
export function presetEntry(preset: string): Json {
  return {
    id: preset,
    value: preset,
    source: 'built_in',
    display_name: displayName(preset),
    status: 'active',
    default_volume: DEFAULT_SOUND_VOLUME,
    acoustic_source_type: POINT_SOURCES.has(preset) ? 'point_source' : 'ambient',
  };
}

/** A listing entry of a custom sound: the documented fields the record's data holds with the right type. */
export function customSoundEntry(record: StoredRecord): Json {
  const d = record.data;
  const out: Json = {
    id: record.id,
    value: `custom:${record.id}`,
    source: 'custom',
    display_name: str(d.display_name) ?? record.id,
    status: soundStatus(d),
  };
  for (const key of ['preview_url', 'preview_url_expires_at', 'content_type', 'original_filename', 'created_at', 'last_updated_at'] as const) {
    if (typeof d[key] === 'string') out[key] = d[key];
  }
  out.default_volume = typeof d.default_volume === 'number' && d.default_volume >= 0 ? d.default_volume : DEFAULT_SOUND_VOLUME;
  if (d.acoustic_source_type === 'ambient' || d.acoustic_source_type === 'point_source') out.acoustic_source_type = d.acoustic_source_type;
  if (d.metadata !== null && typeof d.metadata === 'object' && !Array.isArray(d.metadata)) out.metadata = d.metadata;
  return out;
}

/** Caller numbers by direction: defaults first, then platform and organization fixtures, without duplicates. */
export function phoneNumbers(ctx: RequestContext): { inbound: string[]; outbound: string[] } {
  const inbound = [...DEFAULT_PHONE_NUMBERS.inbound];
  const outbound = [...DEFAULT_PHONE_NUMBERS.outbound];
  for (const r of visible(ctx, 'phone_number')) {
    const number = str(r.data.phone_number) ?? str(r.data.number);
    if (number === undefined || number === '') continue;
    const direction = str(r.data.direction) ?? 'both';
    if ((direction === 'inbound' || direction === 'both') && !inbound.includes(number)) inbound.push(number);
    if ((direction === 'outbound' || direction === 'both') && !outbound.includes(number)) outbound.push(number);
  }
  return { inbound, outbound };
}
