// The contract between the route-table emitter (src/emit/server) and the sandbox's generic engine (src/sandbox):
// the shape of every row of the generated route table. It is the one definition of these types: the emitter
// builds its rows typed by it, the engine reads them typed by it, and it is emitted verbatim into the generated
// package as `sandbox/route-table.ts`, which the generated `routes.ts` imports to type its data. Changing one side
// without the other fails the type check (test/emit/route-table-contract.test.ts shows it).
// Rules it keeps: nothing spec-derived and no imports (it is shipped as it is); explicit types on every export
// (`isolatedDeclarations`, the writer emits a `.d.ts` per file).

/** A JSON value, as the route table carries spec-derived data (defaults, constants, the values a state sets). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** How a success body is shaped around the resource, so the engine can answer any operation generically. */
export type ResponseShape =
  | { kind: 'none' }
  | { kind: 'empty' }
  /**
   * `envelope` (an inferred resource answered in a view of its own only, issue 27): the view's required fields the
   * record lacks, from a minimal valid answer; the record's values win.
   */
  | { kind: 'resource'; envelope?: Record<string, JsonValue> }
  | { kind: 'wrapped'; key: string }
  /**
   * `envelope` (an inferred list only): the answer's other required fields, from a minimal valid answer (redocly-cafe's
   * `object: list` and `page`), answered around the page.
   */
  | { kind: 'list'; items: string; total: string | null; envelope?: Record<string, JsonValue> }
  /** The list's records are the whole answer (a top-level JSON array): inferred lists of specs without our vocabulary. */
  | { kind: 'items' }
  | { kind: 'other'; schema?: string; keys: string[]; constants: Record<string, JsonValue> };

/** The sandbox's rules for one field (x-normalize, x-unique, x-replace, x-null, x-references). */
export interface FieldRule {
  normalize?: 'lowercase';
  unique?: { among: 'active' | 'all'; scope: 'organization' | 'workspace' };
  replace?: 'whole-set';
  null?: 'clear' | 'ignore' | 'rule';
  /** x-references: the resource a body field's id (or each id of its list) names; an unknown one is 404 on the field. */
  references?: string;
}

/**
 * One rewrite of a legacy alias (x-alias-renames): where `legacy` stands for `canonical`. Requests are rewritten
 * legacy -> canonical (path and query parameters, body properties), answers canonical -> legacy; `at` is the
 * parent path of the property (`[]` = every item of an array), from the alias's own body or answer schema.
 */
export interface RenameRow {
  legacy: string;
  canonical: string;
  values: Record<string, string> | null;
  in: 'path' | 'query' | 'body' | 'response';
  at: string[];
}

export interface ParamRow {
  name: string;
  required: boolean;
  /** Wire-to-value coercion for query and path strings: JSON type of the parameter (arrays: of their items). */
  type: string;
  array: boolean;
  explode: boolean;
  /** The schema's default, when it has one (the engine applies an order-by parameter's; the validators know the rest). */
  default?: JsonValue;
  /** What a list operation's query parameter asks (x-list-query); absent on every other parameter. */
  listQuery?: 'order-by' | 'filter' | 'tag-filter' | 'include-builtin';
  /**
   * An object-valued query parameter (issue 27): how its properties travel (OpenAPI `style`: `deepObject` is
   * `name[prop]=value`; `form` exploded is `prop=value`, not exploded `name=prop,value,...`) and its properties,
   * typed as parameters are, for the wire-to-value coercion. Absent on every other parameter.
   */
  object?: { style: 'deepObject' | 'form'; fields: ParamRow[] };
}

/**
 * The properties of a schema that play a role for the engine (x-field-role), by role: it stamps times and authors,
 * points at the newest version and reads built-in flags and tags through these, never through a property name.
 * A role no property plays is empty (or null).
 */
export interface FieldRoles {
  /** The record's resource name, `<collection>/<id>`: set on create when not given. */
  resourceName: string | null;
  /** Set to the time a record is created (a version: recorded). */
  createdAt: string[];
  /** Set to the time a record is created or changed. */
  updatedAt: string[];
  /** Set to the sandbox's user when a record is created (a version: recorded). */
  createdBy: string[];
  /** Set to the sandbox's user when a record is created or changed. */
  updatedBy: string[];
  /** Holds the reference to the record's newest version. */
  currentVersion: string | null;
  /** A boolean that, when true, marks a built-in record (like a platform record: no history, left out of lists on request). */
  builtinFlag: string | null;
  /** The list of tag names a list's tag filter matches. */
  tags: string | null;
  /** A version's own id (a version record's, or a version reference's): revert and pinning find versions by it. */
  versionId: string | null;
  /** A version's 1-based position in its record's history. */
  versionNumber: string | null;
  /** How the version came to be (one of x-versioned change-types: a save or a revert). */
  changeType: string | null;
  /** A revert's version record: the id of the version it re-applied. */
  revertedFrom: string | null;
}

export interface BodyRow {
  required: boolean;
  media: string[];
  /** Field rules of the body's properties (merged over the resource's own). */
  fields: Record<string, FieldRule>;
  /** x-exactly-one-of: exactly one of these properties must be given (not null). */
  exactlyOneOf: string[];
  /** `default` values of the body's top-level properties (a create applies them to absent fields). */
  defaults: Record<string, JsonValue>;
  /** The top-level properties the body declares, or null for a free-form object: only these are stored. */
  properties: string[] | null;
  /**
   * Present when the body may be sent as `application/x-www-form-urlencoded`: that media's top-level properties,
   * each with the JSON type its strings are read as (like a query parameter's; repeated names are a list's items).
   */
  form?: ParamRow[];
  /**
   * An inferred resource's create or update only: body properties stored under the resource property of the same
   * name in another case and spelling (twilio's form `FriendlyName` is the record's `friendly_name`). Absent for ours.
   */
  storedAs?: Record<string, string>;
  /**
   * An inferred resource's create or update only: body properties sent as numbers where the record holds text
   * (discord takes `permissions` as an integer or a string and answers a string): stored as their decimal text.
   */
  asText?: string[];
}

/**
 * One place a credential can be carried (an OpenAPI security scheme): `key`, the key itself (an apiKey scheme's
 * header, query parameter or cookie); `bearer`, `Authorization: Bearer <key>` (HTTP bearer, OAuth 2, OpenID
 * Connect); `basic`, `Authorization: Basic base64(<user>:<password>)`.
 */
export interface CredentialPlace {
  in: 'header' | 'query' | 'cookie';
  name: string;
  scheme: 'key' | 'bearer' | 'basic';
}

/** What the engine needs to know of one operation: route, authenticate, validate, act and answer. */
export interface RouteRow {
  id: string;
  spec: string;
  method: string;
  path: string;
  /**
   * What selects this operation among those sharing its method and path (issue 27, rule 36: AWS's
   * `/#X-Amz-Target=Svc.CreateX`): a header or query parameter with this fixed value, or without `value` one the
   * request must carry. Absent on an operation whose path key has no suffix.
   */
  select?: { in: 'header' | 'query'; name: string; value?: string }[];
  params: { path: ParamRow[]; query: ParamRow[]; header: ParamRow[] };
  body: BodyRow | null;
  /**
   * The names of the places in `credentials` (header, query parameter or cookie names, each once): the field a 401
   * names is the first; empty: no authentication.
   */
  auth: string[];
  /** Where and how this operation's credential is carried, in the order of the spec's security alternatives (issue 27). */
  credentials: CredentialPlace[];
  permissions: string[];
  resource: string | null;
  action: string | null;
  workspaceRequired: boolean;
  /**
   * A paged list: `style` says what `pageToken` holds (an opaque token the list issued, a record offset, a 1-based
   * page number); `nextPageToken` is the answer's property naming the next page (its token, or with `nextLink` its
   * URL), null when the answer has none.
   */
  pagination: { items: string; pageSize: string; pageToken: string; nextPageToken: string | null; style: 'token' | 'offset' | 'page'; nextLink: boolean } | null;
  softDelete: { respond: string; repeat: string } | null;
  restore: { noopWhenActive: boolean } | null;
  /** The rule modules (x-rules) that run for this operation, in order. */
  rules: string[];
  emits: string[];
  aliasOf: string | null;
  /** For a legacy alias: the renames between its names and the canonical operation's, shallow places first. */
  aliasRenames: RenameRow[];
  /** A custom action that moves its record to a state: the fields it sets (x-operation.sets). */
  sets: Record<string, JsonValue> | null;
  /**
   * A duplicate action (x-operation.renames): the properties whose copied value gets a " (copy)" suffix, with the
   * resource schema's maxLength of each (the copy's value is cut to fit it).
   */
  renames: { field: string; maxLength: number | null }[] | null;
  /** A duplicate action: properties not copied (x-operation.resets), and those copied only on request (copies-with). */
  resets: string[] | null;
  copiesWith: { flag: string; fields: string[] }[] | null;
  success: { status: number; shape: ResponseShape; media: string | null };
  /** Documented error statuses (so a rule may check it answers only what the spec lists). */
  errors: number[];
  /**
   * For a versions listing: the properties of a version item, and the object property (if any) that holds the
   * captured configuration instead of top-level fields (`metric_metadata`).
   */
  versionItem: { properties: string[]; snapshotInto: string | null } | null;
  /**
   * An operation with no state to act on (no resource and action, no rule): the schema-valid answer the sandbox gives,
   * the spec's example or else a generated one (issue 27); null for every other operation.
   */
  example: { value: JsonValue } | null;
}

/** What the engine asks of a generated validator (the client's `Validator<T>` is one). */
export interface RouteValidator {
  validate(value: unknown): { ok: true } | { ok: false; errors: readonly { field: string | null; description: string }[] };
}

/** The generated validators of an operation's parts; a part without parameters or body has none. */
export interface RouteValidators {
  path?: RouteValidator;
  query?: RouteValidator;
  headers?: RouteValidator;
  body?: RouteValidator;
  response?: RouteValidator;
}

/** A row of the generated `routes` table: the operation's row and its validators. */
export interface Route extends RouteRow {
  validators: RouteValidators;
}

/**
 * `uuid`: an id property of `format: uuid`; `prefixed`: one whose pattern is a literal prefix and one character class
 * repeated (`^ord_[0-9a-z]{26}$`): the prefix, then `length` characters of `alphabet` (issue 27: ids generated in
 * their schema's format).
 */
/** `integer`: an id property of integer type (specs without our vocabulary, issue 27): minted as a positive 31-bit integer, stored as its decimal text. */
export type IdFormat = { kind: 'integer' } | { kind: 'ulid' } | { kind: 'alnum'; length: number } | { kind: 'token'; length: number } | { kind: 'uuid' } | { kind: 'prefixed'; prefix: string; alphabet: string; length: number };

/** What the engine needs to know of one resource (a schema with x-resource). */
export interface ResourceRow {
  name: string;
  schema: string;
  id: string;
  idFormat: IdFormat;
  /** Collection of the resource-name field (`tags` in `tags/<id>`, x-field-role), from its pattern when it has one. */
  namePrefix: string | null;
  /** Paths of writeOnly properties inside the resource (`[]` = every array item), never presented. */
  writeOnly: string[][];
  /** Top-level readOnly properties: server-set, so a duplicate does not copy them. */
  readOnly: string[];
  scope: string;
  properties: string[];
  defaults: Record<string, JsonValue>;
  /**
   * An inferred resource only (issue 27, record-fill.ts): values for the fields a create leaves out, so answers hold
   * what the response schema requires (a minimal valid record, and `const`/single-value `enum` properties). Absent
   * for ours.
   */
  fill?: Record<string, JsonValue>;
  /**
   * An inferred resource only: the `const`/single-value `enum` values inside its object properties, as a tree
   * (record-fill.ts fixedTree), filled into the objects a write sends (box's `user.type`). Absent for ours.
   */
  fixed?: Record<string, JsonValue>;
  /** `initial`: the state a new record without one gets (x-lifecycle initial). */
  lifecycle: { field: string | null; initial: string | null; deleted: string | null; hidden: string[]; frozen: { field: string; equals: JsonValue }[] } | null;
  /**
   * `versionRoles`: the roles of the version item's properties (its history listing's items), how a version is
   * stamped and found; `referenceRoles`: the roles of the version reference's properties (the schema of the
   * current-version property, else the version item's), how a reference to a version is built.
   */
  versioned: { tracked: string[]; history: string | null; changeTypes: string[]; versionRoles: FieldRoles; referenceRoles: FieldRoles } | null;
  /** Field rules of the resource's properties; a property without any is not listed. */
  fields: Record<string, FieldRule>;
  /** The resource's properties by the role they play for the engine. */
  roles: FieldRoles;
}

/** A document-level event handler (x-handlers): the rule module that handles an event. */
export interface EventHandlerRow {
  on: string;
  rule: string;
}

/**
 * The resource the workspace header selects (x-workspace): the engine resolves a request's workspace among its
 * records and creates each organization's default one.
 */
export interface WorkspaceRow {
  /** The resource's name (its x-resource name). */
  resource: string;
  /** The state (a value of its x-lifecycle field) the default workspace must be in to serve a call without the header; null: any state it is not hidden in. */
  live: string | null;
  /** The field values of the default workspace every organization starts with (the rest as a create gives them). */
  defaults: Record<string, JsonValue>;
}

/** Everything the generated `routes` module exports: the engine's whole view of the API. */
export interface RouteTable {
  /** Path prefix of the API (the path of the first server URL). */
  basePath: string;
  /** The header that selects the workspace, when the spec declares one. */
  workspaceHeader: string | null;
  /** The workspace resource, when a schema declares one (x-workspace). */
  workspace: WorkspaceRow | null;
  resources: readonly ResourceRow[];
  handlers: readonly EventHandlerRow[];
  routes: readonly Route[];
}
