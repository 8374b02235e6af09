// persona-custom-data: custom_persona_data is a serialized JSON object: a string that parses as a JSON object;
// an array, a scalar, `null` text or unparsable text is 400 on custom_persona_data. The generated validator
// already checks the type (string or null) and the limit of 16383 characters (counted in code points, as JSON
// Schema does). The string is stored as sent; `null` clears it (x-null: clear, the generic update).
//
// Decision: the check applies to any value being written from the body, so it also holds if the operation
// is ever named on create.
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';

export function parsesAsObject(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: value stays undefined, which is no object.
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export const personaCustomData: Rule = {
  write(ctx) {
    const value = ctx.body.custom_persona_data;
    if (typeof value === 'string' && !parsesAsObject(value)) throw invalid('custom_persona_data', 'must parse as a JSON object');
  },
};
