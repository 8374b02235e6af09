// persona-prompt-null: not yet implemented (being written).
import type { Rule } from '../engine/hooks.js';

export const personaPromptNull: Rule = {};
