// Running the generated validators on each part of a request and collecting every violation into one
// 400 INVALID_ARGUMENT, with fields users can read (`tag_id`, `X-Service-Workspace-Id`, `conditions[0].metric_id`).
import type { ErrorDetail } from '../errors.js';
import type { Route } from './tables.js';

export interface RequestParts {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
  hasBody: boolean;
}

/**
 * Parameters are named as on the wire: the validators write a name that is not an identifier in brackets
 * (`["X-Service-Workspace-Id"]`), which is right for a body path but not for a header or query name.
 */
function plainName(field: string | null): string | null {
  if (field === null) return null;
  const m = /^\[("(?:[^"\\]|\\.)*")\](.*)$/.exec(field);
  if (!m) return field;
  try {
    return `${JSON.parse(m[1]!) as string}${m[2]}`;
  } catch {
    return field;
  }
}

export function validateRequest(route: Route, parts: RequestParts): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const run = (validator: Route['validators']['body'], value: unknown, rootField: string | null, plainNames = false): void => {
    if (!validator) return;
    const result = validator.validate(value);
    if (!result.ok) for (const e of result.errors) details.push({ field: plainNames ? plainName(e.field) : (e.field ?? rootField), description: e.description });
  };
  run(route.validators.path, parts.path, null, true);
  run(route.validators.query, parts.query, null, true);
  run(route.validators.headers, parts.headers, null, true);
  if (route.body) {
    if (!parts.hasBody) {
      if (route.body.required) details.push({ field: null, description: 'a JSON request body is required' });
    } else run(route.validators.body, parts.body, null);
  }
  // x-exactly-one-of: both or neither of the listed properties is refused, naming them. Only an object body can
  // hold them (a missing body is undefined); with no such properties there is nothing to refuse.
  const one = route.body?.exactlyOneOf ?? [];
  if (parts.body !== null && typeof parts.body === 'object' && !Array.isArray(parts.body)) {
    const present = one.filter((k) => Object.prototype.hasOwnProperty.call(parts.body, k) && (parts.body as Record<string, unknown>)[k] !== null);
    if (present.length !== 1) {
      // One detail per field concerned: the fields given (both) or the fields expected (neither).
      for (const field of present.length === 0 ? one : present) details.push({ field, description: `exactly one of ${one.join(', ')} must be given` });
    }
  }
  return details;
}
