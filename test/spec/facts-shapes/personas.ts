// Personas family, transcribed by hand from api-facts-shapes.md 2.3 (operations), 3.3 (resources) and 4 (E2,
// E32, E33). Requiredness is asserted only where the facts mark a field `*`; `|null` is asserted as nullable.
import { type FactRow, type FieldSpec, f } from './row.js';

const strNull: FieldSpec = { type: 'string', nullable: true };
const numNull: FieldSpec = { type: 'number', nullable: true };
const E33_INITIATION = ['speak_first', 'wait_for_user'];
const E33_SITUATE = ['speakerphone-easy', 'speakerphone-hard'];

// 3.3 Persona
const persona: Record<string, FieldSpec> = {
  resource_name: { type: 'string', required: true },
  id: { type: 'string', required: true },
  name: { type: 'string', required: true },
  persona_prompt: strNull,
  voice_name: strNull,
  language_code: strNull,
  background_sound: strNull,
  background_sound_volume: numNull,
  voice_volume: numNull,
  voice_speed: numNull,
  wait_seconds: numNull,
  hold_music_timeout_seconds: numNull,
  conversation_initiation: { type: 'string', nullable: true, enum: E33_INITIATION },
  multi_language_stt: { type: 'boolean', nullable: true },
  situate_speaker: { type: 'string', nullable: true, enum: E33_SITUATE },
  tags: { type: 'array' },
  create_time: { type: 'string', required: true },
  update_time: strNull,
};

// 3.3 Background sound
const backgroundSound: Record<string, FieldSpec> = {
  id: { type: 'string', required: true },
  value: { type: 'string', required: true },
  display_name: { type: 'string', required: true },
  source: { type: 'string', required: true, enum: ['built_in', 'custom'] },
  status: { type: 'string', required: true, enum: ['pending_upload', 'active', 'archived'] },
  preview_url: strNull,
  preview_url_expires_at: strNull,
  default_volume: { type: 'number', required: true, nullable: false },
  content_type: strNull,
  original_filename: strNull,
  acoustic_source_type: { type: 'string', nullable: true, enum: ['ambient', 'point_source'] },
  metadata: { type: 'object' },
  created_at: strNull,
  last_updated_at: strNull,
};

// 3.3 Persona version
const personaVersion: Record<string, FieldSpec> = {
  name: { type: 'string', required: true },
  ulid: { type: 'string', required: true },
  version_number: { type: 'number', required: true },
  change_type: { type: 'string', required: true, enum: ['save', 'revert'] },
  label: strNull,
  persona_prompt: strNull,
  metadata: { type: 'object' },
  voice_name: strNull,
  language_code: strNull,
  created_by: { type: 'string', required: true },
  create_time: strNull,
};

// PE2 body, in the facts' notation (PE4: the same fields, all optional and nullable, as the seed's update table has them)
const createBody: Record<string, FieldSpec> = {
  name: f('string*'),
  voice_name: f('string*'),
  language_code: f('string*'),
  persona_prompt: f('string|null'),
  background_sound: f('string|null'),
  background_sound_volume: f('number|null'),
  voice_volume: f('number|null'),
  voice_speed: f('number|null'),
  wait_seconds: f('number|null'),
  conversation_initiation: f('string|null', E33_INITIATION),
  multi_language_stt: f('boolean|null'),
  hold_music_timeout_seconds: f('number|null'),
  situate_speaker: f('string|null', E33_SITUATE),
  tags: f('array|null'),
};
const updateBody: Record<string, FieldSpec> = Object.fromEntries(Object.entries(createBody).map(([k, v]) => [k, { ...v, required: false, nullable: true }]));

export const rows: FactRow[] = [
  { fact: 'PE1', method: 'GET', path: '/personas', status: 200, wrapper: 'personas', response: persona, query: ['page_size', 'page_token', 'filter', 'order_by', 'tag_filters'] },
  { fact: 'PE1 token', method: 'GET', path: '/personas', response: { next_page_token: strNull } },
  { fact: 'PE2', method: 'POST', path: '/personas', status: 201, wrapper: 'persona', body: createBody, response: persona },
  { fact: 'PE3', method: 'GET', path: '/personas/{persona_id}', status: 200, wrapper: 'persona', response: persona },
  { fact: 'PE4', method: 'PATCH', path: '/personas/{persona_id}', status: 200, wrapper: 'persona', body: updateBody, response: persona },
  { fact: 'PE5', method: 'DELETE', path: '/personas/{persona_id}', status: 200 },
  { fact: 'PE6', method: 'GET', path: '/personas/{persona_id}/versions', status: 200, wrapper: 'versions', response: personaVersion },
  { fact: 'PE7', method: 'POST', path: '/personas/{persona_id}/versions/{version_id}/revert', status: 200, wrapper: 'persona', response: persona },
  { fact: 'PE8', method: 'POST', path: '/personas/{persona_id}/duplicate', status: 201, wrapper: 'persona', response: persona },
  { fact: 'PE9', method: 'GET', path: '/personas/voices', status: 200, wrapper: 'voices', response: { voice_name: { type: 'string', required: true }, supported_languages: { type: 'array', required: true } } },
  { fact: 'PE10', method: 'GET', path: '/personas/phone-numbers', status: 200, wrapper: 'phone_numbers', response: { inbound: { type: 'array', required: true }, outbound: { type: 'array', required: true } } },
  { fact: 'PE11', method: 'GET', path: '/personas/background-sounds', status: 200, wrapper: 'background_sounds', response: backgroundSound, query: ['include_archived'] },
  {
    fact: 'PE12',
    method: 'POST',
    path: '/personas/background-sounds',
    status: 201,
    wrapper: 'background_sound',
    body: {
      display_name: f('string*'),
      original_filename: f('string*'),
      content_type: f('string*', ['audio/mpeg', 'audio/mp3', 'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave']),
      default_volume: f('number'),
      acoustic_source_type: f('string|null', ['ambient', 'point_source']),
      metadata: f('object'),
    },
    response: backgroundSound,
  },
  {
    fact: 'PE12 upload',
    method: 'POST',
    path: '/personas/background-sounds',
    response: {
      background_sound: { type: 'object', required: true },
      upload_url: { type: 'string', required: true },
      upload_fields: { type: 'object', required: true },
      expires_at: { type: 'string', required: true },
      max_size_bytes: { type: 'number', required: true },
    },
  },
  {
    fact: 'PE13',
    method: 'PATCH',
    path: '/personas/background-sounds/{background_sound_id}',
    status: 200,
    wrapper: 'background_sound',
    body: { display_name: f('string'), default_volume: f('number'), acoustic_source_type: f('string|null', ['ambient', 'point_source']), status: f('string', ['active', 'archived']) },
    response: backgroundSound,
  },
  { fact: 'PE14', method: 'POST', path: '/personas/background-sounds/{background_sound_id}/complete', status: 200, wrapper: 'background_sound', response: backgroundSound },
  { fact: 'PE15', method: 'GET', path: '/personas/tags', status: 200, wrapper: 'tags', response: { tag: { type: 'string', required: true }, color: strNull } },
];
