// One row of the hand-written facts tables (personas.ts, metrics.ts, test-sets.ts): an operation of
// ../shared/reference/api-facts-shapes.md section 2 with what the service's own client has for it.
// - path: as the facts write it (parameter names are not compared, only the position of parameters).
// - wrapper: the key of the success body that holds the resource (an object) or the list (an array); absent
//   when the body itself is the resource (unwrapped) or has no body. `response` describes the resource, a list
//   item, or (without wrapper) the body itself.
// - body: request body fields; `query`: query parameters the operation must declare.
export interface FieldSpec {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
  required?: boolean;
  nullable?: boolean;
  enum?: string[];
}

export interface FactRow {
  /** The facts' row id (PE7, MT13, ...) for messages. */
  id: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  status?: number;
  wrapper?: string;
  body?: Record<string, FieldSpec>;
  response?: Record<string, FieldSpec>;
  query?: string[];
}
