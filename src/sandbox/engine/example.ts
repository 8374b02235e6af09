// An operation without state (issue 27: nothing inferred for it) answers the example the route table carries: the
// spec's example of its success response, or one generated valid against the response schema.
import type { ActionResult } from './context.js';
import type { Route } from './tables.js';

export function exampleResult(route: Route): ActionResult {
  // A success response without content has no body to answer (shape 'none').
  if (route.success.shape.kind === 'none') return {};
  return { body: structuredClone(route.example!.value) };
}
