// persona-voice: the persona's voice and language, on create and update.
// - voice_name must be a service voice the organization can use (GET /personas/voices): 400 on voice_name.
// - custom_voice_id must be a selectable custom voice of this organization: 400 on custom_voice_id
//   (another organization's voice is indistinguishable from an unknown one). null clears it (generic
//   x-null: clear), which selects the built-in voice (voice_name) again.
// - language_code must be supported by the selected voice after the write: the custom voice when
//   custom_voice_id is set, else the voice_name voice; otherwise 400 on language_code. So changing the voice
//   alone can be refused because the stored language does not fit the new voice.
// Also sets the read-only resource_name `personas/<id>` (the generic create does not know it).
//
// Decisions (the seed is silent):
// - `voice` (the agent's voice override for realtime speech-model simulations) is not the persona's voice:
//   it is checked only against its enum and does not constrain language_code.
// - The checks run on create (which requires voice_name and language_code) and on updates that send voice_name,
//   custom_voice_id or language_code (a null that is ignored counts as sent); other updates (a rename) never fail
//   because a voice was retired since.
// - Languages compare case-insensitively; the value is stored as sent. See persona/catalog.ts for the data.
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';
import { writtenData } from '../engine/request-parts.js';
import { findCustomVoice, findServiceVoice, supports } from './persona/catalog.js';

function sent(body: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, key);
}

export const personaVoice: Rule = {
  write(ctx, next) {
    // The same on every write (the id never changes).
    setOwn(next, 'resource_name', `personas/${String(next.id)}`);
    const body = ctx.body;
    if (!sent(body, 'voice_name') && !sent(body, 'custom_voice_id') && !sent(body, 'language_code')) return;

    if (typeof body.voice_name === 'string' && !findServiceVoice(ctx, body.voice_name)) {
      throw invalid('voice_name', 'is not a voice listed by GET /personas/voices');
    }

    let languages: readonly string[];
    let selected: string;
    if (typeof next.custom_voice_id === 'string') {
      const custom = findCustomVoice(ctx, next.custom_voice_id);
      // An unknown, inactive or other organization's voice, sent now or selected earlier and since retired.
      if (!custom) throw invalid('custom_voice_id', 'must be an available custom voice of this organization (select another or send null)');
      languages = custom.languages;
      selected = `custom voice ${custom.id}`;
    } else {
      // A persona stored without voice_name (loaded by fixture) has none selected either.
      const voice = findServiceVoice(ctx, writtenData(ctx, 'persona', next).voice_name);
      if (!voice) throw invalid('voice_name', 'no available voice is selected');
      languages = voice.supported_languages;
      selected = `voice ${voice.voice_name}`;
    }
    if (typeof next.language_code === 'string' && !supports(languages, next.language_code)) {
      throw invalid('language_code', `is not supported by the selected ${selected} (supported: ${languages.join(', ') || 'none'})`);
    }
  },
};
