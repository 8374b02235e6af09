// persona-custom-data: custom_persona_data is a serialized JSON object: a string of at most 16383 characters
// (the generated validator's maxLength, counted in characters as JSON Schema does) that parses as a JSON
// object; an array, a scalar, `null` text or unparsable text is 400 on custom_persona_data. The string is
// stored as sent; `null` clears it (x-null: clear, the generic update).
//
// Decision: the check applies to any value being written from the body, so it also holds if the operation
// is ever named on create.
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';

export const CUSTOM_PERSONA_DATA_MAX = 16383;

export function parsesAsObject(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export const personaCustomData: Rule = {
  write(ctx) {
    if (!Object.prototype.hasOwnProperty.call(ctx.body, 'custom_persona_data')) return;
    const value = ctx.body.custom_persona_data;
    if (value === null) return;
    if (typeof value !== 'string') throw invalid('custom_persona_data', 'must be a string holding a serialized JSON object');
    if ([...value].length > CUSTOM_PERSONA_DATA_MAX) throw invalid('custom_persona_data', `must be at most ${CUSTOM_PERSONA_DATA_MAX} characters`);
    if (!parsesAsObject(value)) throw invalid('custom_persona_data', 'must parse as a JSON object');
  },
};
