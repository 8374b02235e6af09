// One row of the hand-written facts tables (test/spec/facts-shapes/*.ts): an operation of
// ../shared/reference/api-facts-shapes.md as the service's own client has it. Transcribed by hand; the runner
// (test/spec/facts-shapes-c.test.ts) looks each row up in spec/ through the project's loader and model.
export interface FieldSpec {
  /** JSON type; `number` also accepts an integer schema (the service's client has no integer type). */
  type: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
  required?: boolean;
  nullable?: boolean;
  /** Every value listed must be accepted. */
  enum?: string[];
}

export interface FactRow {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The path as the facts give it; parameter names are not compared. */
  path: string;
  /** Success status; absent: any 2xx. */
  status?: number;
  /** The key of the response object holding the resource or list; absent: the fields are at the top level. */
  wrapper?: string;
  body?: Record<string, FieldSpec>;
  /** Fields of the resource (list items when the wrapper holds an array). */
  response?: Record<string, FieldSpec>;
  query?: string[];
  /** A row the seed overrides: what the seed says instead of the facts. */
  seed?: string;
}
