// An operation without state (issue 27: nothing inferred for it) answers the example the route table carries: the
// spec's example of its success response, or one generated valid against the response schema.
import type { ActionResult } from './context.js';
import type { Route } from './tables.js';

export function exampleResult(route: Route): ActionResult {
  return { body: structuredClone(route.example!.value) };
}
