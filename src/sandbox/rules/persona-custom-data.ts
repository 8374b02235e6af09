// persona-custom-data: not yet implemented (being written).
import type { Rule } from '../engine/hooks.js';

export const personaCustomData: Rule = {};
