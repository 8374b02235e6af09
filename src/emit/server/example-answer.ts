// The answer of an operation the sandbox has no state for (issue 27: a spec without our vocabulary, where no
// resource could be inferred for it): its success response's example as the spec gives it, else a value generated
// from the response schema by the conformance value generator (deterministic, checked against the schema by its
// interpreter), as Prism answers. No content: `{ value: null }`, answered with no body.
import type { ApiModel, JsonValue, Operation } from '../../model/ir.js';
import { preferredMedia } from '../../model/media.js';
import { validValue, type Defs } from '../../conformance/values/index.js';

export function exampleAnswer(model: ApiModel, op: Operation, status: string): { value: JsonValue } | null {
  const media = preferredMedia(op.responses.find((r) => r.status === status)?.content ?? []);
  // No content (a 204 delete of a path no resource was inferred for): answered with no body, never "not implemented".
  if (!media) return { value: null };
  if (media.examples.length > 0) return { value: media.examples[0]! };
  const value = validValue(media.schema, defsOf(model));
  return value === undefined ? null : { value: value as JsonValue };
}

/** The named schemas as the generator's definitions, once per model (a built model is not changed afterwards). */
const defsByModel = new WeakMap<ApiModel, Defs>();
export function defsOf(model: ApiModel): Defs {
  let defs = defsByModel.get(model);
  if (defs === undefined) {
    defs = {};
    for (const [name, named] of Object.entries(model.schemas)) Object.defineProperty(defs, name, { value: named.schema, enumerable: true, writable: true, configurable: true });
    defsByModel.set(model, defs);
  }
  return defs;
}
