// The one row format of the facts tables (every other file of this folder is a table exporting `rows`): an
// operation of ../shared/reference/api-facts-shapes.md as the service's own client has it, written BY HAND from
// that file (nothing here is computed from spec/). The runner, test/spec/facts-shapes.test.ts, looks each row up
// in spec/ through the project's loader and model.
//
// A field name may reach into nested objects and array items: 'conditions[].metric_id', 'progress.total_metrics',
// 'target_condition.target_float'.

export interface FieldSpec {
  /** The JSON type; `number` also accepts an integer schema (the service's client has no integer type). Absent: presence only. */
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
  /** true: the holder requires the field; false: it must not. Absent: not checked. */
  required?: boolean;
  /** true: the field allows null; false: it must not. Absent: not checked. */
  nullable?: boolean;
  /** Every value listed must be allowed (by the field's enum, or its items' enum for an array field). */
  enum?: readonly string[];
  /** true: a plain string, no enumeration (the client has `str` where a sibling resource has an enum). */
  anyString?: boolean;
}

export type Fields = Record<string, FieldSpec>;

export interface FactRow {
  /** Where in api-facts-shapes.md (`AL1`, `PE7`, `SC6 canonical`); absent where the facts number nothing. */
  fact?: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path; parameter names are not compared (`/alerts/{id}` matches `/alerts/{alert_id}`). */
  path: string;
  /** The success status: the operation's first 2xx response must be it; the answer below is that response. */
  status?: number;
  /** Other statuses the operation must document (a 207 beside the 202). */
  alsoStatus?: number[];
  /**
   * The key of the answer that holds the resource (an object) or the list (an array: `response` then describes
   * an item); it must be required. Absent: `response` describes the answer itself.
   */
  wrapper?: string;
  /** Fields of the answer itself, beside the wrapper (`total_count`, `next_page_token`). */
  top?: Fields;
  /** Fields of the answer's resource (under `wrapper`, an item of its list, or the answer itself). */
  response?: Fields;
  /** Fields of the JSON request body. */
  body?: Fields;
  /** Query parameters the operation must declare. */
  query?: string[];
  /** Query parameters the operation must declare as required (the facts' `*`). */
  queryRequired?: string[];
  /** Header parameters the operation must declare (names compared without case). */
  headers?: string[];
  /** Values a query parameter must allow. */
  queryEnums?: Record<string, readonly string[]>;
  /** A row the seed overrides: what the seed says instead of the facts. */
  seed?: string;
}

/** `fields` with `enum` set on the named ones (a name not among them is added, checked for presence and values). */
export function withEnums(fields: Fields, enums: Record<string, readonly string[]>): Fields {
  const out: Fields = { ...fields };
  for (const [name, values] of Object.entries(enums)) out[name] = { ...out[name], enum: values };
  return out;
}

/**
 * A field in the facts' own notation, both flags asserted either way: `f('string*')` required and not nullable,
 * `f('array|null')` optional and nullable, `f('string*|null', E14)` required, nullable, with enumeration values.
 * For request bodies, where the service's client sends exactly what its notation says.
 */
export function f(notation: string, values?: readonly string[]): FieldSpec {
  const m = /^(string|number|integer|boolean|object|array)(\*?)(\|null)?$/.exec(notation);
  if (!m) throw new Error(`facts notation: ${notation}`);
  const out: FieldSpec = { type: m[1] as FieldSpec['type'], required: m[2] === '*', nullable: m[3] !== undefined };
  return values ? { ...out, enum: values } : out;
}
