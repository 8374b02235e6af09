// The intermediate model: the only thing emitters read. It is generic (nothing here is specific to the
// Evaluation Platform API) and plain data (JSON-serialisable, so it can be snapshotted and hashed).
//
// Schemas are JSON Schema draft 2020-12 objects with these normalisations done once, here, so no emitter
// repeats them:
// - OpenAPI 3.0 `nullable: true` and 3.1 `type: [..., "null"]` both become a `type` array containing "null"
//   (and `null` is added to an `enum` that lacks it);
// - 3.0 boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric 2020-12 form;
// - 3.0 `example` becomes `examples: [example]`;
// - every reference to a named schema is `{ "$ref": "#/$defs/<name>" }`, where <name> is a key of
//   `ApiModel.schemas` (so `{ $defs: model.schemas }` is itself a valid JSON Schema document);
// - `x-` keys of our own vocabulary are removed from schemas and kept, parsed, in `semantics` / `fields`.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema 2020-12 node (see the normalisations above). */
export type SchemaNode = boolean | { [keyword: string]: JsonValue };

export type ProvenanceSource = 'seed' | 'inferred' | 'assumed' | 'unspecified';

export interface Provenance {
  source: ProvenanceSource;
  /** One line: why (for `assumed`) or which fact (for `inferred`). */
  note?: string;
}

export type HttpMethod = 'get' | 'put' | 'post' | 'patch' | 'delete' | 'head' | 'options' | 'trace';

export interface ApiModel {
  /** Title of the catalog (first document's title when loading one file). */
  title: string;
  /** sha256 (hex) of the canonical JSON of every loaded document, in catalog order. */
  specHash: string;
  catalog: CatalogEntry[];
  /** Named schemas by IR name, sorted by name. */
  schemas: Record<string, NamedSchema>;
  /** Operations sorted by (path, method). */
  operations: Operation[];
  securitySchemes: Record<string, SecurityScheme>;
  /** Document-level event handlers (`x-handlers`) of every document. */
  handlers: EventHandler[];
  /** Names of the workspace-selecting header, when any document declares one (`x-scope: workspace`). */
  scopeHeaders: { workspace?: string };
  /**
   * A spec without our sandbox vocabulary gets it inferred (infer-semantics.ts); one note per operation left without
   * state (answered with its example). Absent when nothing was inferred (our spec).
   */
  inferenceNotes?: { spec: string; pointer: string; reason: string }[];
}

export interface CatalogEntry {
  /** Spec name (file name without extension, or the catalog entry's name). */
  name: string;
  title: string;
  version: string;
  openapi: string;
  /** sha256 (hex) of this document's canonical JSON. */
  hash: string;
  /** Operation ids of this document, in document order. */
  operationIds: string[];
  servers: string[];
  description?: string;
}

export interface NamedSchema {
  /** IR name: the component name, or `<Spec><Name>` when two documents define different schemas with one name. */
  name: string;
  /** The spec names whose documents define this schema (several when deduplicated). */
  specs: string[];
  /** JSON pointer of the definition in the first document, for error messages. */
  pointer: string;
  schema: SchemaNode;
  provenance: Provenance;
  /** Semantics declared on the schema (`x-resource`, `x-lifecycle`, `x-versioned`). */
  semantics: SchemaSemantics;
  /** Per-property semantics and provenance, by property name (top-level properties only). */
  fields: Record<string, FieldInfo>;
}

export interface FieldInfo {
  provenance: Provenance;
  normalize?: 'lowercase';
  unique?: { among: 'active' | 'all'; scope: 'organization' | 'workspace' };
  replace?: 'whole-set';
  null?: 'clear' | 'ignore' | 'rule';
  /** x-references: the resource a body field's id (or each id of its list) names; an unknown one is 404 on the field. */
  references?: string;
  /** x-field-role: what the sandbox does with the property by role (stamps a time or an author, points at a version, ...). */
  role?: FieldRole;
}

/** The roles a property can play (`x-field-role`, docs/x-vocabulary.md "Field roles"). */
export const FIELD_ROLES = [
  'resource-name',
  'created-at',
  'updated-at',
  'created-by',
  'updated-by',
  'current-version',
  'builtin-flag',
  'tags',
  'version-id',
  'version-number',
  'change-type',
  'reverted-from',
] as const;
export type FieldRole = (typeof FIELD_ROLES)[number];
/** Roles at most one property of a schema may play. */
export const SINGLE_FIELD_ROLES: readonly FieldRole[] = ['resource-name', 'current-version', 'builtin-flag', 'tags', 'version-id', 'version-number', 'change-type', 'reverted-from'];
/** The roles of a version reference's properties (the schema of a current-version property): the engine builds one from them. */
export const VERSION_REFERENCE_ROLES: readonly FieldRole[] = ['version-id', 'version-number', 'change-type'];

/** The roles a list operation's query parameter can play (`x-list-query`). */
export const LIST_QUERY_ROLES = ['order-by', 'filter', 'tag-filter', 'include-builtin'] as const;
export type ListQueryRole = (typeof LIST_QUERY_ROLES)[number];

export interface SchemaSemantics {
  /** `inferred`: set by infer-semantics.ts for a spec without our vocabulary (issue 27), never declared. */
  resource?: { name: string; id: string; scope: 'organization' | 'workspace'; inferred?: true };
  lifecycle?: { field?: string; initial?: string; deleted?: string; hidden: string[]; frozen: { field: string; equals: JsonValue }[] };
  versioned?: { tracked: string[]; history?: string; changeTypes: string[] };
  exactlyOneOf?: string[];
  /** x-workspace: this resource is the workspace the workspace header selects; `live` its serving state, `defaults` the default workspace's values. */
  workspace?: { live?: string; defaults: Record<string, JsonValue> };
}

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface Parameter {
  /** Wire name, exactly as in the spec. */
  name: string;
  in: ParameterLocation;
  required: boolean;
  description?: string;
  deprecated: boolean;
  schema: SchemaNode;
  /** OpenAPI serialisation: style and explode, with the OpenAPI defaults filled in. */
  style: string;
  explode: boolean;
  provenance: Provenance;
  /** `workspace` when this header selects the workspace (`x-scope`). */
  scope?: 'workspace';
  /** What a list operation's query parameter asks (`x-list-query`): ordering, a filter expression, tags, built-ins. */
  listQuery?: ListQueryRole;
}

export interface MediaContent {
  mediaType: string;
  schema: SchemaNode;
  examples: JsonValue[];
}

export interface RequestBody {
  required: boolean;
  description?: string;
  content: MediaContent[];
  provenance: Provenance;
  /** Semantics and provenance of the JSON body's top-level properties (`x-null`, `x-replace`, ...). */
  fields: Record<string, FieldInfo>;
  /** Whole-body semantics of the JSON body (`x-exactly-one-of`). */
  semantics: SchemaSemantics;
}

export interface ResponseHeader {
  name: string;
  required: boolean;
  schema: SchemaNode;
  description?: string;
}

export interface OperationResponse {
  /** `200`, `4XX`, `default`, ... */
  status: string;
  description: string;
  content: MediaContent[];
  headers: ResponseHeader[];
}

/**
 * A paged list: `pageSize` and `pageToken` are query parameters, `items`, `nextPageToken` and `total` properties of
 * the answer. x-pagination gives the opaque-token form; a spec without our vocabulary may page by offset or page
 * number, and name the next page by a link (inferred, issue 27: infer-paging.ts).
 */
export interface Pagination {
  items: string;
  pageSize: string;
  pageToken: string;
  /** The answer's property naming the next page (its token, or with `nextLink` its URL); null when it has none (an offset or page-number list with a total). */
  nextPageToken: string | null;
  /** The answer's property that counts the whole list (x-pagination total), when it has one. */
  total?: string;
  /** What `pageToken` holds: absent, an opaque token the list issued; `offset`, the index of the page's first record; `page`, a 1-based page number. */
  style?: 'offset' | 'page';
  /** `nextPageToken` holds the next page's URL (with its page parameter), not a token. */
  nextLink?: boolean;
}

export interface OperationSemantics {
  resource?: string;
  action?: 'list' | 'create' | 'get' | 'update' | 'delete' | 'versions' | 'revert' | 'restore' | 'duplicate' | 'custom';
  permissions: string[];
  workspaceRequired: boolean;
  pagination?: Pagination;
  softDelete?: { respond: 'resource' | 'empty'; repeat: 'ok' | 'not-found' };
  restore?: { noopWhenActive: boolean };
  rules: string[];
  emits: string[];
  aliasOf?: string;
  /** Legacy names of a deprecated alias and their canonical ones (`x-alias-renames`), in spec order. */
  aliasRenames?: AliasRename[];
  /** For a custom action that moves a record to a state (`x-operation.sets`): the fields and values it sets. */
  sets?: Record<string, JsonValue>;
  /** For a duplicate action (`x-operation.renames`): the properties whose copied value gets a " (copy)" suffix. */
  renames?: string[];
  /** For a duplicate action (`x-operation.resets`): properties not copied; the copy gets them as a create would. */
  resets?: string[];
  /**
   * For a duplicate action (`x-operation.copies-with`): properties copied only when the request body's boolean
   * field (the key) is true, in spec order.
   */
  copiesWith?: { flag: string; fields: string[] }[];
}

/** One legacy name of an alias operation and the canonical name it stands for, with its enum value mapping. */
export interface AliasRename {
  legacy: string;
  canonical: string;
  /** Legacy enum value -> canonical value (a one-to-one mapping; values not listed pass unchanged). */
  values?: Record<string, string>;
}

/**
 * How a request selects an operation among those sharing its path and method (rule 36): a header or query parameter
 * with a fixed value (`X-Amz-Target: Svc.CreateX`, `Action=CreateX`), or, without `value`, a declared parameter the
 * request must carry. Read from the path key's suffix (`/#X-Amz-Target=Svc.CreateX`) by `path-key.ts`.
 */
export interface Discriminator {
  in: 'header' | 'query';
  name: string;
  value?: string;
}

export interface Operation {
  /** operationId as in the spec, or a derived one (`get /a/{b}` -> `getAB`) when absent. Unique. */
  id: string;
  spec: string;
  method: HttpMethod;
  /** The path a request goes to: the spec's path key without a discriminator suffix (`/#X-Amz-Target=...` is `/`). */
  path: string;
  /**
   * What selects this operation beside its path and method, from the path key's suffix (rule 36); a fixed-value
   * parameter is sent by the client and the suite, never asked of the caller, so it is no longer among `parameters`.
   * Absent when the key has no suffix.
   */
  discriminators?: Discriminator[];
  /** Group the client files the operation under (first OpenAPI tag, else the first path segment). */
  group: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  parameters: Record<ParameterLocation, Parameter[]>;
  requestBody?: RequestBody;
  responses: OperationResponse[];
  /** Alternatives; each is a list of scheme names that must all be satisfied. `[]` = no auth needed. */
  security: string[][];
  provenance: Provenance;
  semantics: OperationSemantics;
  /** JSON pointer of the operation in its document. */
  pointer: string;
}

export type SecurityScheme =
  | { type: 'apiKey'; name: string; in: 'header' | 'query' | 'cookie'; description?: string }
  | { type: 'http'; scheme: string; bearerFormat?: string; description?: string }
  | { type: 'oauth2' | 'openIdConnect' | 'mutualTLS'; description?: string };

export interface EventHandler {
  spec: string;
  on: string;
  rule: string;
}
