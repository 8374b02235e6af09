// One row of a facts-shapes table: an operation of ../shared/reference/api-facts-shapes.md as the service's own
// client has it, written BY HAND from that file (nothing here is computed from spec/). The runner
// (test/spec/facts-shapes.test.ts) looks each row up in spec/ through the project's loader and model.
//
// A field is written `<type>[|null][*]`:
//   type  str | num (number or integer) | int | bool | arr | map (an object) | any (any type; presence only)
//   |null the field must also allow null
//   *     required (in a body: the body schema requires it; in an answer: the resource schema requires it)
// e.g. 'str*', 'num|null', 'arr', 'bool*'. A field name may reach into nested objects and array items:
// 'conditions[].metric_id', 'progress.total_metrics'.

export type Field = string;

export interface FactRow {
  /** Where in api-facts-shapes.md (`AL1`, `SC5`, `§3.7 condition`). */
  fact: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path; parameter names are not compared (`/alerts/{id}` matches `/alerts/{alert_id}`). */
  path: string;
  /** The success status the operation answers (the first 2xx of the spec must be it). */
  status?: number;
  /** The key the answer's resource sits under; null: the answer is the resource itself. Not checked when absent. */
  wrapper?: string | null;
  /** A list answer: the key of its items (`response` then describes an item). */
  list?: string;
  /** Fields of the answer beside the wrapper or list key (`total_count`, `next_page_token`). */
  top?: Record<string, Field>;
  /** Query parameters the operation must declare. */
  query?: string[];
  /** Fields of the JSON request body. */
  body?: Record<string, Field>;
  /** Fields of the answer's resource (under `wrapper`, an item of `list`, or the answer itself). */
  response?: Record<string, Field>;
  /** Values a field must allow, by `body.<field>`, `response.<field>` or `query.<name>`. */
  enums?: Record<string, string[]>;
}
