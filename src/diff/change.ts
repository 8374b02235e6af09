// One difference between two models, classified for a consumer of the generated client.

/** `breaking`: code written against the old packages can fail; `non-breaking`: additions; `description`: text only. */
export type Level = 'breaking' | 'non-breaking' | 'description';

export interface Change {
  level: Level;
  /** The kind of change, named like oasdiff's checks (`request-parameter-removed`, `response-enum-value-added`, ...). */
  kind: string;
  /** The operation id, or `schema <Name>` for a named schema itself. */
  subject: string;
  /** JSON pointer into the OpenAPI description (`#/paths/~1tags~1{tag_id}/patch/requestBody/...`). */
  pointer: string;
  /** Old and new values, when short. */
  detail?: string;
}
