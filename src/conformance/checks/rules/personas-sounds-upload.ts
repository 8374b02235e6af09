// persona-sound-upload beyond the lifecycle of personas-sounds-tags.ts, as docs/sandbox.md "Personas, metrics and
// test sets" (Background sounds) decides it where the facts give the shapes only: default_volume 1 unless given;
// the upload target's form fields `key` (naming the file) and `Content-Type`, expiring 1 hour after the create,
// at most 10 MiB; the fields sent are kept; PATCH `status: active` activates a pending sound and a null
// acoustic_source_type clears it; complete answers any sound that is not pending unchanged; unknown sounds and
// built-in presets are 404 on background_sound_id. Seed "Resources and their fields": last_updated_at is the time
// of the last update, created_at stays.
import { fail } from '../../result.js';
import type { Route } from '../../suite-data.js';
import type { Check, CheckContext } from '../context.js';
import { expectRefused, listing, loadFixture, unique } from './personas-audio-shared.js';
import { show, succeed, type Json } from './records-support.js';

const UPLOAD = 'persona-sound-upload';
const HOUR_MS = 60 * 60 * 1000;
const MAX_SIZE_BYTES = 10 * 1024 * 1024;

function soundRoute(ctx: CheckContext, method: string, segments: number): Route {
  const route = ctx.suite.routes.find((r) => r.rules.includes(UPLOAD) && r.method === method && r.path.split('/').length === segments);
  if (!route) fail(`the spec has no ${method} background-sound operation with rule ${UPLOAD}`);
  return route;
}

const soundOf = (answer: { body: unknown }): Json => (answer.body as Json).background_sound as Json;

const uploadTarget: Check = {
  name: `rule ${UPLOAD}: a created sound keeps what was sent (default_volume 1 unless given); the upload target names the file, its content type, expires in 1 hour and takes at most 10 MiB`,
  applies: (route) => route.rules.includes(UPLOAD) && route.method === 'POST' && route.params.path.length === 0,
  async run(ctx) {
    const name = `Conformance target ${unique(ctx)}`;
    const body = { display_name: name, original_filename: 'rain.mp3', content_type: 'audio/mpeg', acoustic_source_type: 'ambient', metadata: { mood: 'calm' } };
    const created = (await succeed(ctx, ctx.route, { body }, 'creating a sound without default_volume')).body as Json;
    const sound = created.background_sound as Json;
    const want = { display_name: name, status: 'pending_upload', default_volume: 1, original_filename: 'rain.mp3', content_type: 'audio/mpeg', acoustic_source_type: 'ambient', metadata: { mood: 'calm' } };
    for (const [k, v] of Object.entries(want)) if (show(sound[k]) !== show(v)) fail(`the created sound shows ${k} ${show(sound[k])}, expected ${show(v)}`);
    const fields = created.upload_fields as Json;
    if (fields['Content-Type'] !== 'audio/mpeg' || typeof fields.key !== 'string' || !fields.key.endsWith('/rain.mp3')) fail(`upload_fields are ${show(fields)}, expected Content-Type audio/mpeg and a key ending in the file name`);
    if (created.max_size_bytes !== MAX_SIZE_BYTES) fail(`max_size_bytes is ${show(created.max_size_bytes)}, expected ${MAX_SIZE_BYTES}`);
    const lifetime = Date.parse(String(created.expires_at)) - Date.parse(String(sound.created_at));
    if (lifetime !== HOUR_MS) fail(`the upload target expires at ${show(created.expires_at)}, ${lifetime} ms after the sound was created at ${show(sound.created_at)}, expected 1 hour`);
    const again = soundOf(await succeed(ctx, ctx.route, { body: { ...body, display_name: `${name} loud`, default_volume: 0 } }, 'creating a sound with default_volume 0'));
    if (again.default_volume !== 0) fail(`a sound created with default_volume 0 shows ${show(again.default_volume)}`);
  },
};

const soundEdits: Check = {
  name: `rule ${UPLOAD}: PATCH status active activates a pending sound, a null acoustic_source_type clears it; complete leaves an archived sound archived; unknown sounds and presets are 404`,
  applies: (route) => route.rules.includes(UPLOAD) && route.method === 'PATCH',
  async run(ctx) {
    const create = soundRoute(ctx, 'POST', 3);
    const complete = soundRoute(ctx, 'POST', 5);
    const body = { display_name: `Conformance edits ${unique(ctx)}`, original_filename: 'hum.wav', content_type: 'audio/wav', acoustic_source_type: 'point_source', default_volume: 0.25 };
    const sound = soundOf(await succeed(ctx, create, { body }, 'creating a sound'));
    const path = { background_sound_id: String(sound.id) };
    const activated = soundOf(await succeed(ctx, ctx.route, { path, body: { status: 'active', acoustic_source_type: null, default_volume: 0.75 } }, 'activating it by PATCH'));
    if (activated.status !== 'active' || 'acoustic_source_type' in activated || activated.default_volume !== 0.75) fail(`after PATCH {status: active, acoustic_source_type: null, default_volume: 0.75} the sound shows ${show(activated)}`);
    const renamed = soundOf(await succeed(ctx, ctx.route, { path, body: { display_name: `${body.display_name} 2` } }, 'renaming it'));
    if (renamed.status !== 'active' || renamed.default_volume !== 0.75 || renamed.display_name !== `${body.display_name} 2`) fail(`a rename changed more than the name: ${show(renamed)}`);
    await succeed(ctx, ctx.route, { path, body: { status: 'archived' } }, 'archiving it');
    const completed = soundOf(await succeed(ctx, complete, { path }, 'completing an archived sound'));
    if (completed.status !== 'archived') fail(`complete of an archived sound made it ${show(completed.status)}`);
    const missing = { background_sound_id: 'NoSuchSoundAAAAAAAAAAA' };
    await expectRefused(ctx, ctx.route, { path: missing, body: { display_name: 'x' } }, 'background_sound_id', 'PATCH of an unknown sound', 404);
    await expectRefused(ctx, complete, { path: missing }, 'background_sound_id', 'complete of an unknown sound', 404);
    const preset = ((await listing(ctx, 'background_sounds')) as Json[]).find((s) => s.source === 'built_in');
    if (preset) await expectRefused(ctx, ctx.route, { path: { background_sound_id: String(preset.id) }, body: { display_name: 'x' } }, 'background_sound_id', 'PATCH of a built-in preset', 404);
  },
};

const STORED_TIME = '2001-02-03T04:05:06.000Z';
const SLACK_MS = 5 * 60_000;

const soundStamps: Check = {
  name: `rule ${UPLOAD}: complete of a pending sound and PATCH stamp last_updated_at with the request's time and keep created_at and the fields not sent; complete of an active sound changes nothing`,
  applies: (route) => route.rules.includes(UPLOAD) && route.method === 'POST' && route.params.path.length > 0,
  async run(ctx) {
    const update = soundRoute(ctx, 'PATCH', 4);
    const why = 'load custom sounds with stored times';
    const name = `Conformance stamps ${unique(ctx)}`;
    const stored = { created_at: STORED_TIME, last_updated_at: STORED_TIME, default_volume: 0.5 };
    // docs/sandbox.md "The control plane": custom_sound fixtures carry `active`/`status`; a pending one whose
    // legacy flag says inactive is still pending, and complete makes it active.
    const pending = await loadFixture(ctx, 'custom_sound', { display_name: `${name} pending`, status: 'pending_upload', active: false, ...stored }, why);
    const edited = await loadFixture(ctx, 'custom_sound', { display_name: `${name} edited`, status: 'active', ...stored }, why);
    const untouched = await loadFixture(ctx, 'custom_sound', { display_name: `${name} untouched`, status: 'active', ...stored }, why);
    const started = Date.now();
    const completed = soundOf(await succeed(ctx, ctx.route, { path: { background_sound_id: pending } }, 'completing a pending sound'));
    const patched = soundOf(await succeed(ctx, update, { path: { background_sound_id: edited }, body: { default_volume: 0.25 } }, "changing a sound's volume"));
    const ended = Date.now();
    const cases: [Json, Json][] = [
      [completed, { display_name: `${name} pending`, status: 'active', default_volume: 0.5 }],
      [patched, { display_name: `${name} edited`, status: 'active', default_volume: 0.25 }],
    ];
    for (const [sound, want] of cases) {
      for (const [k, v] of Object.entries({ ...want, created_at: STORED_TIME })) if (show(sound[k]) !== show(v)) fail(`${show(want.display_name)} shows ${k} ${show(sound[k])}, expected ${show(v)}`);
      const at = Date.parse(String(sound.last_updated_at));
      if (!(at >= started - SLACK_MS && at <= ended + SLACK_MS)) fail(`${show(want.display_name)} shows last_updated_at ${show(sound.last_updated_at)}, expected the time of the request`);
    }
    const same = soundOf(await succeed(ctx, ctx.route, { path: { background_sound_id: untouched } }, 'completing an active sound'));
    if (same.status !== 'active' || same.last_updated_at !== STORED_TIME) fail(`complete of an active sound changed it: ${show(same)}`);
  },
};

export const checks: Check[] = [uploadTarget, soundEdits, soundStamps];
