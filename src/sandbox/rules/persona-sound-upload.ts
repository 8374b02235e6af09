// persona-sound-upload: custom background sounds through the API (create, update, complete). A sound is a
// `background_sound` record of the organization (the resource of the spec's BackgroundSound; `custom_sound`
// fixture records count too), the records persona/catalog.ts lists and persona-background-sound accepts, so
// what is created here is selectable as `custom:<id>` once completed.
// - createPersonaBackgroundSound: a pending_upload sound (default_volume 1 unless given) and an upload target
//   {upload_url, upload_fields, expires_at (1 hour), max_size_bytes (10 MiB)}; 201 {background_sound, ...}.
// - completePersonaBackgroundSound: pending_upload -> active; an active or archived sound is answered unchanged.
// - updatePersonaBackgroundSound: display_name, default_volume, acoustic_source_type (null clears), status
//   active|archived (active on a pending_upload sound completes it, as the sandbox receives no bytes anyway).
// Unknown, deleted or another organization's sounds, and built-in presets, are 404 on background_sound_id.
//
// Decisions (the facts give the shapes only; docs/sandbox.md "Personas"): the sandbox receives no bytes, so the
// upload URL names a host that does not resolve (`.invalid`) and complete does not check that a file arrived.
import { notFound } from '../errors.js';
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { clone, setOwn } from '../engine/records.js';
import { alnum } from '../ids.js';
import type { Json, StoredRecord } from '../storage/store.js';
import { customSoundEntry, customSounds, soundStatus } from './persona/catalog.js';

const UPLOAD_TTL_MS = 60 * 60 * 1000;
const MAX_SIZE_BYTES = 10 * 1024 * 1024;

function findSound(ctx: RequestContext): StoredRecord {
  const id = ctx.path.background_sound_id;
  const record = customSounds(ctx).find((r) => r.id === id);
  if (!record) throw notFound('background_sound_id', 'background sound');
  return record;
}

function create(ctx: RequestContext): Json {
  const id = alnum(22);
  const data: Json = { display_name: ctx.body.display_name, status: 'pending_upload', created_at: ctx.now, last_updated_at: ctx.now };
  // The fields sent are kept as sent. One not sent (or a null acoustic_source_type) is shown as absent, and
  // default_volume then as 1: the listing entry (customSoundEntry) shows only values of the documented types.
  for (const key of ['original_filename', 'content_type', 'default_volume', 'acoustic_source_type', 'metadata']) setOwn(data, key, clone(ctx.body[key]));
  const record = ctx.runtime.store.insert({ kind: 'background_sound', id, org: ctx.org, workspace: null, deleted: false, data });
  const expires = new Date(Date.parse(ctx.now) + UPLOAD_TTL_MS).toISOString();
  return {
    background_sound: customSoundEntry(record),
    upload_url: `https://uploads.sandbox.invalid/background-sounds/${id}`,
    upload_fields: { key: `background-sounds/${id}/${String(ctx.body.original_filename)}`, 'Content-Type': String(ctx.body.content_type) },
    expires_at: expires,
    max_size_bytes: MAX_SIZE_BYTES,
  };
}

/**
 * Writes the fields given (a null acoustic_source_type is stored as null, which the entry shows as absent) and
 * stamps last_updated_at. A status written here outranks the legacy `active` flag of fixture records
 * (soundStatus reads `status` first), so that flag needs no clearing.
 */
function change(ctx: RequestContext, record: StoredRecord, fields: Json): void {
  for (const key of ['display_name', 'default_volume', 'acoustic_source_type', 'status']) {
    if (fields[key] !== undefined) setOwn(record.data, key, clone(fields[key]));
  }
  setOwn(record.data, 'last_updated_at', ctx.now);
  ctx.runtime.store.update(record);
}

// Named on the sound's create, update and complete operations, told apart by what their route rows say: the
// create is the one on the collection (no path parameter), the update is the PATCH, the completion the POST on
// the sound.
export const personaSoundUpload: Rule = {
  handle(ctx) {
    if (ctx.route.params.path.length === 0) return { body: create(ctx) };
    const record = findSound(ctx);
    // complete: a pending_upload sound becomes active; any other is answered unchanged.
    if (ctx.route.method === 'PATCH') change(ctx, record, ctx.body);
    else if (soundStatus(record.data) === 'pending_upload') change(ctx, record, { status: 'active' });
    return { body: { background_sound: customSoundEntry(record) } };
  },
};
