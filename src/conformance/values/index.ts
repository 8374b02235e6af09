// Deterministic JSON values from the IR's schemas (JSON Schema 2020-12, normalised as ir.ts describes), for the
// conformance suite: a valid value per schema, and for a request body the values just inside and just outside
// each constraint of its top-level properties.
//
// How it works: the schemas a value must satisfy are flattened into one set of merged constraints (`$ref` and
// `allOf` followed, `anyOf`/`oneOf` kept as choices, `if` as conditions); a search picks a branch per choice,
// generates a candidate per allowed type, decides each condition on the candidate and generates again with the
// chosen `then`/`else` merged in. Every candidate is checked against the original schemas by a small
// interpreter (`conforms`), so a value is only ever returned when the interpreter accepts it; when nothing
// passes, the answer is `undefined`. The interpreter's formats are a subset of what common validators accept
// (stricter, never looser), so an accepted value is accepted elsewhere too.
//
// Determinism: no clock, no Math.random; choices use a seeded PRNG (mulberry32) created per call, and every
// loop runs in schema order.

import type { JsonValue, SchemaNode } from '../../model/ir.js';
import { Prober } from './boundary.js';
import { makeContext, rootState } from './context.js';
import { generate } from './generate.js';
import { check } from './interpret.js';
import { NONE } from './types.js';
import type { Defs, ValueOptions, Variant } from './types.js';

export { mulberry32 } from './context.js';
export { readablePath } from './paths.js';
export type { Defs, ValueOptions, Variant } from './types.js';

/**
 * A valid value for `schema`, or undefined when none could be built (an unsatisfiable schema, or one beyond
 * what the generator can solve). Deterministic: the same input gives the same output.
 */
export function validValue(schema: SchemaNode, defs: Defs, options: ValueOptions = {}): unknown {
  const maximal = options.maximal === true;
  const state = () => ({ ...rootState(), variant: options.variant ?? 0 });
  try {
    let out = generate(makeContext(defs, options.seed ?? 1, maximal, false), [schema], state());
    // The other mode sometimes succeeds where this one does not (a oneOf whose branches only differ in optional
    // properties; a maximal value whose optional parts exhaust the budget).
    if (out === NONE) out = generate(makeContext(defs, options.seed ?? 1, !maximal, false), [schema], state());
    return out === NONE ? undefined : out;
  } catch {
    // A schema beyond the generator (a stack overflow on a pathological document): no value, never an exception.
    return undefined;
  }
}

/**
 * Probes for a request body (a top-level object schema). `valid`: the minimal and maximal bodies, then per
 * top-level property the values at each bound, each enum value and a pattern-valid string. `invalid`: per
 * property the values just outside each bound, an unknown enum value, a pattern-invalid string, a wrong JSON
 * type; per required property the body without it; and the body with an unknown property (when that is
 * refused). Every variant was checked: valid ones validate, and invalid ones fail only at `path` (errors
 * elsewhere come only from `anyOf`/`oneOf` branches the value was not meant for).
 */
export function boundaryVariants(schema: SchemaNode, defs: Defs, options: { seed?: number } = {}): { valid: Variant[]; invalid: Variant[] } {
  try {
    return new Prober(schema, defs, options.seed ?? 1).run();
  } catch {
    return { valid: [], invalid: [] };
  }
}

/** Whether `value` satisfies `schema` according to this module's interpreter (the oracle the generator uses). */
export function conforms(schema: SchemaNode, defs: Defs, value: unknown): boolean {
  const ctx = makeContext(defs, 1, false, false);
  return check(ctx, schema, value as JsonValue, [], null, false, 0);
}
