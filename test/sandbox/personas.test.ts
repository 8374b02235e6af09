// Personas through the generated client against the in-process sandbox: every field rule of the seed's
// persona table (which nulls clear and which are ignored, persona_prompt null only when silent, {} replaces
// initialization_parameters, custom_persona_data as a JSON object of at most 16383 characters, custom voices
// of this organization, language supported by the selected voice, background sound presets and active custom
// sounds, numeric ranges, tags), versioning (renames record none), isolation and the discovery endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type Client } from '../../generated/client/index.js';
import type { Persona, UpdatePersonaRequest } from '../../generated/client/types.js';
import { failure, startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
let other: Client;
let otherOrgId: string;

beforeAll(async () => {
  h = await startHarness();
  await h.control.loadFixtures(h.sandbox.organizationId, [
    { kind: 'custom_voice', id: 'cvFrench', data: { display_name: 'Claire', languages: ['fr-FR'] } },
    { kind: 'custom_voice', id: 'cvRetired', deleted: true, data: { display_name: 'Old', languages: ['en-US'] } },
    { kind: 'custom_sound', id: 'rain_custom', data: { display_name: 'Our rain', active: true, content_type: 'audio/wav' } },
    { kind: 'custom_sound', id: 'old-sound', data: { display_name: 'Old sound', active: false } },
    { kind: 'custom_sound', id: 'pending1', data: { display_name: 'Uploading', status: 'pending_upload' } },
    { kind: 'voice', id: 'orgvoice', data: { voice_name: 'org-nordic', supported_languages: ['sv-SE', 'nb-NO'] } },
    { kind: 'voice', id: 'platvoice', platform: true, data: { voice_name: 'platform-finnish', supported_languages: ['fi-FI'] } },
    { kind: 'phone_number', id: 'pn1', data: { phone_number: '+14155550111', direction: 'inbound' } },
    { kind: 'phone_number', id: 'pn2', data: { phone_number: '+14155550122', direction: 'outbound' } },
  ]);
  const org = await h.control.createOrganization('Other');
  otherOrgId = org.organization.id;
  other = h.clientFor(org.api_key.key);
  await h.control.loadFixtures(otherOrgId, [
    { kind: 'custom_voice', id: 'cvOtherOrg', data: { display_name: 'Theirs', languages: ['en-US'] } },
    { kind: 'custom_sound', id: 'their_sound', data: { display_name: 'Theirs', active: true } },
    { kind: 'phone_number', id: 'pnOther', data: { phone_number: '+14155550199', direction: 'inbound' } },
  ]);
});
afterAll(async () => h.close());

async function rejected(p: Promise<unknown>, field: string): Promise<ApiError> {
  const error = await failure(p);
  expect(error.status).toBe(400);
  expect(error.code).toBe('INVALID_ARGUMENT');
  expect(error.details.map((d) => d.field)).toContain(field);
  return error;
}

let counter = 0;
async function newPersona(extra: Record<string, unknown> = {}): Promise<Persona> {
  counter += 1;
  const { persona } = await h.client.personas.createPersona({
    name: `Caller ${counter}`,
    voice_name: 'aria',
    language_code: 'en-US',
    persona_prompt: 'You are an impatient customer.',
    ...extra,
  });
  return persona;
}

const update = (id: string, body: UpdatePersonaRequest) => h.client.personas.updatePersona(id, body);
const get = async (id: string) => (await h.client.personas.getPersona(id)).persona;

async function versions(id: string) {
  return (await h.client.personas.listPersonaVersions(id)).versions;
}

describe('persona create', () => {
  it('answers 201 {persona} with resource_name personas/<id> and a first version', async () => {
    const persona = await newPersona();
    expect(persona.resource_name).toBe(`personas/${persona.id}`);
    expect(persona.voice_name).toBe('aria');
    expect(persona.language_code).toBe('en-US');
    expect(persona.current_version?.version_number).toBe(1);
    expect(await get(persona.id)).toEqual(persona);
  });

  it('refuses an unknown voice_name (400 on voice_name) and a language the voice does not speak (400 on language_code)', async () => {
    await rejected(h.client.personas.createPersona({ name: 'x', voice_name: 'no-such-voice', language_code: 'en-US' }), 'voice_name');
    await rejected(h.client.personas.createPersona({ name: 'x', voice_name: 'hans', language_code: 'en-US' }), 'language_code');
    const ok = await h.client.personas.createPersona({ name: 'x', voice_name: 'hans', language_code: 'de-DE' });
    expect(ok.persona.language_code).toBe('de-DE');
  });

  it('checks background_sound on create too', async () => {
    expect((await newPersona({ background_sound: 'custom:rain_custom' })).background_sound).toBe('custom:rain_custom');
    await rejected(newPersona({ background_sound: 'custom:unknown' }), 'background_sound');
  });
});

describe('null semantics per field of the seed table', () => {
  const clears: [keyof UpdatePersonaRequest, unknown][] = [
    ['silent_mode', true],
    ['multi_phone_config', { inbound_index: 1 }],
    ['initialization_parameters', { account: 'A-1' }],
    ['custom_persona_data', '{"tier":"gold"}'],
    ['voice', 'coral'],
    ['custom_voice_id', 'cvFrench'],
    ['background_sound', 'cafe'],
    ['background_sound_volume', 0.7],
    ['voice_volume', 1.5],
    ['voice_speed', 1.25],
    ['wait_seconds', 0.5],
    ['conversation_initiation', 'wait_for_user'],
    ['multi_language_stt', true],
    ['hold_music_timeout_seconds', 60],
    ['situate_speaker', 'speakerphone-hard'],
    ['audio_degradation', { preset: 'lossy' }],
  ];
  it.each(clears)('%s: null clears the value', async (field, value) => {
    const extra: UpdatePersonaRequest = field === 'custom_voice_id' ? { language_code: 'fr-FR' } : {};
    const persona = await newPersona();
    const set = (await update(persona.id, { ...extra, [field]: value })).persona;
    expect(set[field as keyof Persona]).toEqual(value);
    const cleared = (await update(persona.id, { [field]: null, ...(field === 'custom_voice_id' ? { language_code: 'en-US' } : {}) })).persona;
    expect(cleared[field as keyof Persona] ?? null).toBeNull();
    expect((await get(persona.id))[field as keyof Persona] ?? null).toBeNull();
  });

  const ignored: [keyof UpdatePersonaRequest, unknown][] = [
    ['name', 'Renamed caller'],
    ['voice_name', 'davis'],
    ['language_code', 'en-GB'],
    ['interruption_rate', 'HIGH'],
    ['tags', ['vip', 'billing']],
  ];
  it.each(ignored)('%s: null is ignored (the value stays)', async (field, value) => {
    const persona = await newPersona();
    const set = (await update(persona.id, { [field]: value })).persona;
    expect(set[field as keyof Persona]).toEqual(value);
    const after = (await update(persona.id, { [field]: null })).persona;
    expect(after[field as keyof Persona]).toEqual(value);
    expect((await get(persona.id))[field as keyof Persona]).toEqual(value);
  });

  it('omitted fields are unchanged', async () => {
    const persona = await newPersona({ wait_seconds: 0.4, tags: ['keep'], background_sound: 'office' });
    const after = (await update(persona.id, { voice_volume: 1 })).persona;
    expect(after.wait_seconds).toBe(0.4);
    expect(after.tags).toEqual(['keep']);
    expect(after.background_sound).toBe('office');
    expect(after.persona_prompt).toBe(persona.persona_prompt);
    expect(after.name).toBe(persona.name);
  });
});

describe('persona_prompt: null', () => {
  it('clears the prompt when the stored silent_mode is true', async () => {
    const persona = await newPersona();
    await update(persona.id, { silent_mode: true });
    const after = (await update(persona.id, { persona_prompt: null })).persona;
    expect(after.persona_prompt ?? null).toBeNull();
    expect(after.silent_mode).toBe(true);
  });

  it('clears the prompt when the same request sets silent_mode true', async () => {
    const persona = await newPersona();
    const after = (await update(persona.id, { persona_prompt: null, silent_mode: true })).persona;
    expect(after.persona_prompt ?? null).toBeNull();
  });

  it.each([
    ['silent_mode never set', {}, {}],
    ['silent_mode false stored', { silent_mode: false }, {}],
    ['silent_mode set false in the request', { silent_mode: true }, { silent_mode: false }],
    ['silent_mode cleared (null) in the request', { silent_mode: true }, { silent_mode: null }],
  ] as [string, UpdatePersonaRequest, UpdatePersonaRequest][])('is 400 on persona_prompt when the resulting silent_mode is not true (%s)', async (_, before, request) => {
    const persona = await newPersona();
    await update(persona.id, before);
    await rejected(update(persona.id, { persona_prompt: null, ...request }), 'persona_prompt');
    const stored = await get(persona.id);
    expect(stored.persona_prompt).toBe(persona.persona_prompt);
    expect(stored.silent_mode ?? null).toBe(before.silent_mode ?? null);
  });
});

describe('initialization_parameters', () => {
  it('replaces the stored parameters (no merge); {} empties them', async () => {
    const persona = await newPersona();
    await update(persona.id, { initialization_parameters: { account: 'A-1', plan: 'pro' } });
    expect((await update(persona.id, { initialization_parameters: { region: 'eu' } })).persona.initialization_parameters).toEqual({ region: 'eu' });
    expect((await update(persona.id, { initialization_parameters: {} })).persona.initialization_parameters).toEqual({});
    expect((await get(persona.id)).initialization_parameters).toEqual({});
  });
});

describe('custom_persona_data', () => {
  const objectOfLength = (n: number) => `{"k":"${'a'.repeat(n - 8)}"}`;

  it('accepts a JSON object of exactly 16383 characters and stores the string as sent', async () => {
    const persona = await newPersona();
    const text = objectOfLength(16383);
    expect(text.length).toBe(16383);
    expect((await update(persona.id, { custom_persona_data: text })).persona.custom_persona_data).toBe(text);
  });

  it('refuses 16384 characters with 400 on custom_persona_data', async () => {
    const persona = await newPersona();
    const text = objectOfLength(16384);
    expect(text.length).toBe(16384);
    await rejected(update(persona.id, { custom_persona_data: text }), 'custom_persona_data');
    expect((await get(persona.id)).custom_persona_data ?? null).toBeNull();
  });

  it.each(['[1,2]', '"text"', '42', 'true', 'null', '{not json', ''])('refuses %j (not a serialized JSON object) with 400', async (text) => {
    const persona = await newPersona({});
    await update(persona.id, { custom_persona_data: '{"a":1}' });
    await rejected(update(persona.id, { custom_persona_data: text }), 'custom_persona_data');
    expect((await get(persona.id)).custom_persona_data).toBe('{"a":1}');
  });

  it('refuses a non-string value with 400', async () => {
    const persona = await newPersona();
    const res = await h.raw(`/personas/${persona.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ custom_persona_data: { tier: 'gold' } }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { details: { field: string }[] } };
    expect(body.error.details.map((d) => d.field)).toContain('custom_persona_data');
  });
});

describe('custom_voice_id', () => {
  it('accepts a custom voice of this organization', async () => {
    const persona = await newPersona();
    const after = (await update(persona.id, { custom_voice_id: 'cvFrench', language_code: 'fr-FR' })).persona;
    expect(after.custom_voice_id).toBe('cvFrench');
  });

  it.each([
    ['an unknown', 'cvNobody'],
    ["another organization's", 'cvOtherOrg'],
    ['a deleted', 'cvRetired'],
  ])('refuses %s custom voice with 400 on custom_voice_id', async (_, id) => {
    const persona = await newPersona();
    await rejected(update(persona.id, { custom_voice_id: id }), 'custom_voice_id');
    expect((await get(persona.id)).custom_voice_id ?? null).toBeNull();
  });

  it('refuses an empty custom_voice_id (min length 1)', async () => {
    const persona = await newPersona();
    await rejected(update(persona.id, { custom_voice_id: '' }), 'custom_voice_id');
  });

  it('null selects the built-in voice again, whose languages then apply', async () => {
    const persona = await newPersona();
    await update(persona.id, { custom_voice_id: 'cvFrench', language_code: 'fr-FR' });
    // aria (the built-in voice) does not speak fr-FR: going back needs a language it speaks.
    await rejected(update(persona.id, { custom_voice_id: null }), 'language_code');
    const after = (await update(persona.id, { custom_voice_id: null, language_code: 'en-GB' })).persona;
    expect(after.custom_voice_id ?? null).toBeNull();
    expect(after.voice_name).toBe('aria');
  });
});

describe('language_code must be supported by the selected voice', () => {
  it('refuses a language the voice_name voice does not speak (400 on language_code)', async () => {
    const persona = await newPersona();
    await rejected(update(persona.id, { language_code: 'ja-JP' }), 'language_code');
    expect((await get(persona.id)).language_code).toBe('en-US');
    expect((await update(persona.id, { language_code: 'en-GB' })).persona.language_code).toBe('en-GB');
  });

  it('refuses a new voice that does not speak the stored language, accepts voice and language together', async () => {
    const persona = await newPersona();
    await rejected(update(persona.id, { voice_name: 'yuki' }), 'language_code');
    const after = (await update(persona.id, { voice_name: 'yuki', language_code: 'ja-JP' })).persona;
    expect([after.voice_name, after.language_code]).toEqual(['yuki', 'ja-JP']);
  });

  it('uses the custom voice languages while a custom voice is selected', async () => {
    const persona = await newPersona();
    await rejected(update(persona.id, { custom_voice_id: 'cvFrench' }), 'language_code');
    await update(persona.id, { custom_voice_id: 'cvFrench', language_code: 'fr-FR' });
    await rejected(update(persona.id, { language_code: 'en-US' }), 'language_code');
  });

  it('refuses an unknown voice_name with 400 on voice_name', async () => {
    const persona = await newPersona();
    await rejected(update(persona.id, { voice_name: 'robot-9000' }), 'voice_name');
  });

  it('accepts voices from voice fixtures (organization and platform) with their languages', async () => {
    const persona = await newPersona();
    expect((await update(persona.id, { voice_name: 'org-nordic', language_code: 'nb-NO' })).persona.voice_name).toBe('org-nordic');
    expect((await update(persona.id, { voice_name: 'platform-finnish', language_code: 'fi-FI' })).persona.voice_name).toBe('platform-finnish');
    await rejected(update(persona.id, { language_code: 'sv-SE' }), 'language_code');
  });

  it('does not tie language_code to `voice` (the agent voice override)', async () => {
    const persona = await newPersona({ voice_name: 'hans', language_code: 'de-DE' });
    expect((await update(persona.id, { voice: 'alloy' })).persona.voice).toBe('alloy');
  });
});

describe('background_sound', () => {
  it.each(['off', 'office', 'train-arrival', 'backchanneling', 'custom:rain_custom'])('accepts %s', async (value) => {
    const persona = await newPersona();
    expect((await update(persona.id, { background_sound: value })).persona.background_sound).toBe(value);
  });

  it.each([
    ['an unknown preset', 'jungle'],
    ['an unknown custom sound', 'custom:nope'],
    ['an archived custom sound', 'custom:old-sound'],
    ['a custom sound still uploading', 'custom:pending1'],
    ["another organization's custom sound", 'custom:their_sound'],
    ['a custom id with other characters', 'custom:rain custom'],
    ['more than 100 characters', `custom:${'a'.repeat(94)}`],
  ])('refuses %s with 400 on background_sound', async (_, value) => {
    const persona = await newPersona({ background_sound: 'office' });
    await rejected(update(persona.id, { background_sound: value }), 'background_sound');
    expect((await get(persona.id)).background_sound).toBe('office');
  });
});

describe('numeric ranges', () => {
  const ranges: [keyof UpdatePersonaRequest, number[], number[]][] = [
    ['voice_volume', [0, 2], [-0.01, 2.01]],
    ['voice_speed', [0.25, 2.0], [0.24, 2.01]],
    ['wait_seconds', [0.1, 2], [0.09, 2.01]],
    ['hold_music_timeout_seconds', [5, 300], [4.99, 300.01]],
    ['background_sound_volume', [0, 1000], [-0.01]],
  ];
  it.each(ranges)('%s: accepts %j, refuses %j with 400 on the field', async (field, inside, outside) => {
    const persona = await newPersona();
    for (const value of inside) expect((await update(persona.id, { [field]: value })).persona[field as keyof Persona]).toBe(value);
    const kept = inside[inside.length - 1];
    for (const value of outside) await rejected(update(persona.id, { [field]: value }), field);
    expect((await get(persona.id))[field as keyof Persona]).toBe(kept);
  });
});

describe('interruption_rate', () => {
  it('null is ignored; NONE disables', async () => {
    const persona = await newPersona();
    await update(persona.id, { interruption_rate: 'HIGH' });
    expect((await update(persona.id, { interruption_rate: null })).persona.interruption_rate).toBe('HIGH');
    expect((await update(persona.id, { interruption_rate: 'NONE' })).persona.interruption_rate).toBe('NONE');
  });
});

describe('tags', () => {
  it('accepts 20 tags of up to 200 characters; refuses 21 tags, 201 characters, empty or blank tags', async () => {
    const persona = await newPersona({ tags: ['start'] });
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
    expect((await update(persona.id, { tags: twenty })).persona.tags).toEqual(twenty);
    expect((await update(persona.id, { tags: ['x'.repeat(200)] })).persona.tags).toEqual(['x'.repeat(200)]);
    await rejected(update(persona.id, { tags: [...twenty, 't20'] }), 'tags');
    for (const bad of ['y'.repeat(201), '', '   ']) {
      const error = await rejected(update(persona.id, { tags: ['ok', bad] }), 'tags[1]');
      expect(error.status).toBe(400);
    }
    expect((await get(persona.id)).tags).toEqual(['x'.repeat(200)]);
  });

  it('omitted or null leaves tags unchanged; [] clears them', async () => {
    const persona = await newPersona({ tags: ['a', 'b'] });
    expect((await update(persona.id, { name: 'still tagged' })).persona.tags).toEqual(['a', 'b']);
    expect((await update(persona.id, { tags: null })).persona.tags).toEqual(['a', 'b']);
    expect((await update(persona.id, { tags: [] })).persona.tags ?? []).toEqual([]);
    expect((await get(persona.id)).tags ?? []).toEqual([]);
  });
});

describe('versions', () => {
  it('a rename or retag records no version', async () => {
    const persona = await newPersona();
    const v1 = persona.current_version!;
    const renamed = (await update(persona.id, { name: 'New name', tags: ['x'] })).persona;
    expect(renamed.current_version).toEqual(v1);
    expect((await versions(persona.id)).map((v) => v.version_number)).toEqual([1]);
  });

  it.each([
    ['a prompt change', { persona_prompt: 'You are calm.' }],
    ['a voice change', { voice_name: 'davis' }],
    ['a language change', { language_code: 'en-GB' }],
    ['a behavioural change', { interruption_rate: 'LOW' }],
    ['a custom voice', { custom_voice_id: 'cvFrench', language_code: 'fr-FR' }],
  ] as [string, UpdatePersonaRequest][])('%s records a version', async (_, body) => {
    const persona = await newPersona();
    const after = (await update(persona.id, body)).persona;
    expect(after.current_version?.version_number).toBe(2);
    expect(after.current_version?.ulid).not.toBe(persona.current_version?.ulid);
    expect((await versions(persona.id)).map((v) => v.version_number)).toEqual([2, 1]);
  });

  it('a version captures the prompt, voice and language, and the behavioural settings in metadata', async () => {
    const persona = await newPersona();
    await update(persona.id, { voice_name: 'davis', wait_seconds: 0.3, interruption_rate: 'MEDIUM', name: 'cosmetic' });
    const [latest] = await versions(persona.id);
    expect(latest).toMatchObject({ version_number: 2, change_type: 'save', persona_prompt: persona.persona_prompt, voice_name: 'davis', language_code: 'en-US' });
    expect(latest!.metadata).toMatchObject({ wait_seconds: 0.3, interruption_rate: 'MEDIUM' });
    expect(JSON.stringify(latest)).not.toContain('cosmetic');
  });

  it('a save that changes nothing records no version; the listing is newest first', async () => {
    const persona = await newPersona();
    await update(persona.id, { persona_prompt: 'Second.' });
    await update(persona.id, { persona_prompt: 'Second.' });
    await update(persona.id, { persona_prompt: 'Third.' });
    const list = await versions(persona.id);
    expect(list.map((v) => v.version_number)).toEqual([3, 2, 1]);
    expect(list.map((v) => v.persona_prompt)).toEqual(['Third.', 'Second.', persona.persona_prompt]);
    expect(list[0]!.ulid).toBe((await get(persona.id)).current_version?.ulid);
  });
});

describe('isolation and permissions', () => {
  it("answers 404 for another organization's persona", async () => {
    const persona = await newPersona();
    for (const call of [
      other.personas.getPersona(persona.id),
      other.personas.updatePersona(persona.id, { name: 'stolen' }),
      other.personas.listPersonaVersions(persona.id),
      other.personas.deletePersona(persona.id),
    ]) {
      const error = await failure(call);
      expect(error.status).toBe(404);
      expect(JSON.stringify(error.details)).not.toContain(persona.id);
    }
    expect((await get(persona.id)).name).toBe(persona.name);
    expect((await other.personas.listPersonas()).personas).toEqual([]);
  });

  it('needs personas:write to update (403 on field permissions)', async () => {
    const persona = await newPersona();
    const key = await h.control.createApiKey(h.sandbox.organizationId, ['personas:read']);
    const error = await failure(h.clientFor(key.key).personas.updatePersona(persona.id, { name: 'nope' }));
    expect(error.status).toBe(403);
    expect(error.details[0]?.field).toBe('permissions');
  });
});

describe('discovery', () => {
  it('GET /personas/voices lists the voices with their languages, fixtures and own custom voices included', async () => {
    const { voices } = await h.client.personas.listPersonaVoices();
    const byName = new Map(voices.map((v) => [v.voice_name, v.supported_languages]));
    for (const name of ['alloy', 'ash', 'ballad', 'coral', 'echo', 'marin', 'sage', 'shimmer', 'verse']) expect(byName.get(name)).toContain('en-US');
    expect(byName.get('hans')).toEqual(['de-DE']);
    expect(byName.get('org-nordic')).toEqual(['sv-SE', 'nb-NO']);
    expect(byName.get('platform-finnish')).toEqual(['fi-FI']);
    expect(byName.get('cvFrench')).toEqual(['fr-FR']);
    expect(byName.has('cvRetired')).toBe(false);
    expect(byName.has('cvOtherOrg')).toBe(false);
    const theirs = new Map((await other.personas.listPersonaVoices()).voices.map((v) => [v.voice_name, v.supported_languages]));
    expect(theirs.get('cvOtherOrg')).toEqual(['en-US']);
    expect(theirs.has('org-nordic')).toBe(false);
    expect(theirs.get('platform-finnish')).toEqual(['fi-FI']);
  });

  it('every listed service voice is accepted with each of its languages', async () => {
    const { voices } = await h.client.personas.listPersonaVoices();
    const persona = await newPersona();
    for (const v of voices.filter((x) => x.voice_name !== 'cvFrench')) {
      const language = v.supported_languages[v.supported_languages.length - 1]!;
      const after = (await update(persona.id, { voice_name: v.voice_name, language_code: language })).persona;
      expect([after.voice_name, after.language_code]).toEqual([v.voice_name, language]);
    }
  });

  it('GET /personas/phone-numbers lists inbound and outbound numbers with 1-based indexes', async () => {
    const { phone_numbers } = await h.client.personas.listPersonaPhoneNumbers();
    for (const list of [phone_numbers.inbound, phone_numbers.outbound]) {
      expect(list.length).toBeGreaterThan(0);
      expect(list.map((n) => n.index)).toEqual(list.map((_, i) => i + 1));
      for (const n of list) expect(n.phone_number).toMatch(/^\+[1-9]\d{6,14}$/);
    }
    expect(phone_numbers.inbound.map((n) => n.phone_number)).toContain('+14155550111');
    expect(phone_numbers.inbound.map((n) => n.phone_number)).not.toContain('+14155550122');
    expect(phone_numbers.outbound.map((n) => n.phone_number)).toContain('+14155550122');
    expect(JSON.stringify(phone_numbers)).not.toContain('+14155550199');
    expect((await other.personas.listPersonaPhoneNumbers()).phone_numbers.inbound.map((n) => n.phone_number)).toContain('+14155550199');
  });

  it('GET /personas/background-sounds lists the presets and active custom sounds; archived ones only with include_archived', async () => {
    const { background_sounds } = await h.client.personas.listPersonaBackgroundSounds();
    const values = background_sounds.map((s) => s.value);
    for (const preset of ['office', 'cafe', 'heavy-rain', 'backchanneling', 'construction-work']) expect(values).toContain(preset);
    expect(background_sounds.find((s) => s.value === 'office')).toMatchObject({ source: 'built_in', status: 'active' });
    expect(background_sounds.find((s) => s.value === 'custom:rain_custom')).toMatchObject({
      id: 'rain_custom',
      source: 'custom',
      display_name: 'Our rain',
      status: 'active',
      content_type: 'audio/wav',
    });
    expect(background_sounds.find((s) => s.id === 'pending1')?.status).toBe('pending_upload');
    expect(values).not.toContain('custom:old-sound');
    expect(values).not.toContain('custom:their_sound');
    const all = (await h.client.personas.listPersonaBackgroundSounds({ query: { include_archived: true } })).background_sounds;
    expect(all.find((s) => s.value === 'custom:old-sound')?.status).toBe('archived');
  });

  it('every listed active background sound is accepted as background_sound', async () => {
    const { background_sounds } = await h.client.personas.listPersonaBackgroundSounds();
    const persona = await newPersona();
    const active = background_sounds.filter((s) => s.status === 'active');
    expect(active.length).toBeGreaterThan(20);
    for (const s of active) expect((await update(persona.id, { background_sound: s.value })).persona.background_sound).toBe(s.value);
  });
});

describe('persona revert, duplicate and tags (issue 15)', () => {
  it('reverts to an earlier version as a new revert version; reverting to the live version is 400', async () => {
    const persona = await newPersona({ persona_prompt: 'First prompt' });
    await update(persona.id, { persona_prompt: 'Second prompt' });
    const { versions } = await h.client.personas.listPersonaVersions(persona.id);
    const first = versions.find((v) => v.version_number === 1)!;
    const reverted = (await h.client.personas.revertPersonaVersion(persona.id, first.ulid)).persona;
    expect(reverted.persona_prompt).toBe('First prompt');
    expect(reverted.current_version).toMatchObject({ version_number: 3, change_type: 'revert' });
    await rejected(h.client.personas.revertPersonaVersion(persona.id, reverted.current_version!.ulid), 'version_id');
    expect((await failure(h.client.personas.revertPersonaVersion(persona.id, '01ARZ3NDEKTSV4RRFFQ69G5FAV'))).status).toBe(404);
  });

  it('duplicates under a new id and name with the configuration and its own first version', async () => {
    const persona = await newPersona({ persona_prompt: 'Copy me', voice_speed: 1.5, tags: ['vip'] });
    await update(persona.id, { wait_seconds: 1 });
    const copy = (await h.client.personas.duplicatePersona(persona.id)).persona;
    expect(copy.id).not.toBe(persona.id);
    expect(copy.name).toBe(`${persona.name} (copy)`);
    expect(copy.resource_name).toBe(`personas/${copy.id}`);
    expect(copy).toMatchObject({ persona_prompt: 'Copy me', voice_speed: 1.5, wait_seconds: 1, tags: ['vip'], voice_name: 'aria' });
    expect(copy.current_version).toMatchObject({ version_number: 1, change_type: 'save' });
    expect((await h.client.personas.listPersonaVersions(copy.id)).versions).toHaveLength(1);
    expect((await h.client.personas.getPersona(persona.id)).persona.name).toBe(persona.name);
    expect((await failure(other.personas.duplicatePersona(persona.id))).status).toBe(404);
  });

  it('GET /personas/tags lists the tags in use once each, with the color of the tag of that name', async () => {
    await h.client.tags.createTag({ tag_name: 'persona-gold', color: '#FFD700' });
    await newPersona({ tags: ['persona-gold', 'persona-plain'] });
    await newPersona({ tags: ['persona-gold'] });
    const { tags } = await h.client.personas.listPersonaTags();
    expect(tags.filter((t) => t.tag === 'persona-gold')).toEqual([{ tag: 'persona-gold', color: '#FFD700' }]);
    expect(tags).toContainEqual({ tag: 'persona-plain', color: null });
    expect((await other.personas.listPersonaTags()).tags.map((t) => t.tag)).not.toContain('persona-gold');
  });
});

describe('background sounds through the API (issue 15)', () => {
  it('lists every sound with a non-negative default_volume', async () => {
    const { background_sounds } = await h.client.personas.listPersonaBackgroundSounds({ query: { include_archived: true } });
    for (const s of background_sounds) expect(s.default_volume).toBeGreaterThanOrEqual(0);
  });

  it('creates a pending sound with an upload target, completes it, then it can be selected', async () => {
    const created = await h.client.personas.createPersonaBackgroundSound({ display_name: 'Call centre', original_filename: 'cc.wav', content_type: 'audio/wav', default_volume: 0.4 });
    const sound = created.background_sound;
    expect(sound).toMatchObject({ source: 'custom', status: 'pending_upload', default_volume: 0.4, value: `custom:${sound.id}`, original_filename: 'cc.wav' });
    expect(created.max_size_bytes).toBeGreaterThan(0);
    expect(Date.parse(created.expires_at)).toBeGreaterThan(Date.parse(sound.created_at!));
    const persona = await newPersona();
    await rejected(update(persona.id, { background_sound: sound.value }), 'background_sound');
    const done = (await h.client.personas.completePersonaBackgroundSound(sound.id)).background_sound;
    expect(done.status).toBe('active');
    expect((await h.client.personas.completePersonaBackgroundSound(sound.id)).background_sound.status).toBe('active');
    expect((await update(persona.id, { background_sound: sound.value })).persona.background_sound).toBe(sound.value);
  });

  it('updates, archives and re-activates a sound; PATCH status active completes a pending one; unknown ids are 404', async () => {
    const { background_sound: sound } = await h.client.personas.createPersonaBackgroundSound({ display_name: 'Hum', original_filename: 'hum.mp3', content_type: 'audio/mpeg' });
    expect(sound.default_volume).toBe(1);
    expect((await h.client.personas.updatePersonaBackgroundSound(sound.id, { status: 'active' })).background_sound.status).toBe('active');
    const renamed = (await h.client.personas.updatePersonaBackgroundSound(sound.id, { display_name: 'Low hum', default_volume: 0.2, acoustic_source_type: 'point_source' })).background_sound;
    expect(renamed).toMatchObject({ display_name: 'Low hum', default_volume: 0.2, acoustic_source_type: 'point_source' });
    expect((await h.client.personas.updatePersonaBackgroundSound(sound.id, { acoustic_source_type: null })).background_sound.acoustic_source_type).toBeUndefined();
    expect((await h.client.personas.updatePersonaBackgroundSound(sound.id, { status: 'archived' })).background_sound.status).toBe('archived');
    expect((await h.client.personas.completePersonaBackgroundSound(sound.id)).background_sound.status).toBe('archived');
    const listed = (await h.client.personas.listPersonaBackgroundSounds()).background_sounds.map((s) => s.id);
    expect(listed).not.toContain(sound.id);
    expect((await h.client.personas.updatePersonaBackgroundSound(sound.id, { status: 'active' })).background_sound.status).toBe('active');
    expect((await failure(h.client.personas.updatePersonaBackgroundSound('office', { display_name: 'x' }))).status).toBe(404);
    expect((await failure(other.personas.updatePersonaBackgroundSound(sound.id, { display_name: 'x' }))).status).toBe(404);
    expect((await failure(other.personas.completePersonaBackgroundSound(sound.id))).status).toBe(404);
  });

  it('refuses bad create and update bodies with 400 naming the field', async () => {
    await rejected(h.client.personas.createPersonaBackgroundSound({ display_name: 'x', original_filename: 'x.ogg', content_type: 'audio/ogg' as 'audio/wav' }), 'content_type');
    await rejected(h.client.personas.createPersonaBackgroundSound({ display_name: 'x', original_filename: 'x.wav', content_type: 'audio/wav', default_volume: -1 }), 'default_volume');
    await rejected(h.client.personas.createPersonaBackgroundSound({ original_filename: 'x.wav', content_type: 'audio/wav' } as never), 'display_name');
    await rejected(h.client.personas.updatePersonaBackgroundSound('rain_custom', { status: 'pending_upload' as 'active' }), 'status');
  });
});
