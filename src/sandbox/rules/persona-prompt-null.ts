// persona-prompt-null: `persona_prompt: null` on a persona update clears the prompt only when the persona is
// silent after the update (the resulting silent_mode, i.e. the body's silent_mode when sent, else the stored
// one, is true); otherwise the update is refused with 400 on persona_prompt. A string prompt is stored as
// sent (the generic update); `x-null: rule` leaves null to this module.
//
// Decisions (the seed is silent): a persona without any prompt is not refused on its own (the prompt is
// optional on create), so only an explicit null is checked; `silent_mode: null` clears the override, which
// leaves the persona not silent, so `{persona_prompt: null, silent_mode: null}` is refused.
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';

export const personaPromptNull: Rule = {
  // Named on the persona update only.
  write(ctx, next) {
    if (!Object.prototype.hasOwnProperty.call(ctx.body, 'persona_prompt') || ctx.body.persona_prompt !== null) return;
    if (next.silent_mode !== true) {
      throw invalid('persona_prompt', 'can be cleared (null) only when the resulting silent_mode is true');
    }
    delete next.persona_prompt;
  },
};
