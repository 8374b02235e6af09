// persona-background-sound: background_sound is one of the listed presets or `custom:<id>` of an active
// custom sound of this organization (GET /personas/background-sounds); anything else is 400 on
// background_sound. The generated validator already checks the pattern (which lists the presets) and the
// 100-character limit, so only `custom:<id>` is left to check here; null clears (x-null: clear, generic).
//
// Decisions (the seed is silent): a custom sound that is pending_upload or archived, deleted, or another
// organization's, is refused like an unknown one. The check runs only when background_sound is sent, so a
// persona keeps a custom sound archived after it was selected (until background_sound is changed).
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { isActiveCustomSound } from './persona/catalog.js';

export const personaBackgroundSound: Rule = {
  write(ctx) {
    const value = ctx.body.background_sound;
    if (typeof value === 'string' && value.startsWith('custom:') && !isActiveCustomSound(ctx, value.slice('custom:'.length))) {
      throw invalid('background_sound', 'must name an active custom sound of this organization (GET /personas/background-sounds)');
    }
  },
};
