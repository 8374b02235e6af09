// The sandbox's route table as plain data, computed from the model: for each operation, what the generic
// engine (src/sandbox) needs to route, authenticate, validate, act and answer. The rows' types are the contract
// with the engine (src/contracts/route-table.ts). Nothing here is specific to one API: resources, actions,
// lifecycles and rules all come from the model's semantics.
import type { ApiModel, FieldInfo, JsonValue, MediaContent, NamedSchema, Operation, Parameter, SchemaNode } from '../../model/ir.js';
import type { CredentialPlace, FieldRoles, FieldRule, IdFormat, ParamRow, RenameRow, ResourceRow, ResponseShape, RouteRow, WorkspaceRow } from '../../contracts/route-table.js';
import { setOwn } from '../../data/own-property.js';
import { namePlaces } from '../../model/alias-renames.js';
import { isJsonMedia, preferredMedia } from '../../model/media.js';
import { refNameOf, throughAnnotations } from '../../model/defs-ref.js';
import { versionItemSchema, versionReferenceSchema } from '../../model/version-schemas.js';
import { validValue } from '../../conformance/values/index.js';
import { defsOf, exampleAnswer } from './example-answer.js';
import { fixedTree, recordFill } from './record-fill.js';

/**
 * The sandbox's rules of each field (provenance is the documents' business, not the engine's; roles are gathered by
 * role, `rolesOf`); fields without any are left out.
 */
function fieldRules(fields: Record<string, FieldInfo>): Record<string, FieldRule> {
  const out: Record<string, FieldRule> = {};
  for (const [name, { provenance: _provenance, role: _role, ...rule }] of Object.entries(fields)) if (Object.keys(rule).length > 0) setOwn(out, name, rule);
  return out;
}

/** The properties playing each x-field-role, in schema order (the model allows one property for the single roles). */
export function rolesOf(fields: Record<string, FieldInfo>): FieldRoles {
  const playing = (role: FieldInfo['role']): string[] => Object.keys(fields).filter((name) => fields[name]!.role === role);
  return {
    resourceName: playing('resource-name')[0] ?? null,
    createdAt: playing('created-at'),
    updatedAt: playing('updated-at'),
    createdBy: playing('created-by'),
    updatedBy: playing('updated-by'),
    currentVersion: playing('current-version')[0] ?? null,
    builtinFlag: playing('builtin-flag')[0] ?? null,
    tags: playing('tags')[0] ?? null,
    versionId: playing('version-id')[0] ?? null,
    versionNumber: playing('version-number')[0] ?? null,
    changeType: playing('change-type')[0] ?? null,
    revertedFrom: playing('reverted-from')[0] ?? null,
  };
}

function refName(node: SchemaNode | undefined): string | undefined {
  return refNameOf(node);
}

function objectOf(node: SchemaNode | undefined): Record<string, JsonValue> | undefined {
  return node && typeof node === 'object' && !Array.isArray(node) ? node : undefined;
}

function propertiesOf(node: SchemaNode | undefined): Record<string, SchemaNode> {
  const props = objectOf(node)?.properties;
  return props && typeof props === 'object' && !Array.isArray(props) ? (props as Record<string, SchemaNode>) : {};
}

function deref(model: ApiModel, node: SchemaNode | undefined): SchemaNode | undefined {
  let current = node;
  for (let i = 0; i < 16; i++) {
    current = throughAnnotations(current) as SchemaNode | undefined;
    const name = refName(current);
    if (name === undefined) return current;
    current = model.schemas[name]?.schema;
  }
  return current;
}

function jsonType(model: ApiModel, node: SchemaNode | undefined): { type: string; array: boolean } {
  const schema = objectOf(deref(model, node));
  const typeOf = (s: Record<string, JsonValue> | undefined): string => {
    const t = s?.type;
    const list = Array.isArray(t) ? t.filter((x) => x !== 'null') : typeof t === 'string' ? [t] : [];
    return typeof list[0] === 'string' ? list[0] : 'string';
  };
  const type = typeOf(schema);
  if (type === 'array') return { type: typeOf(objectOf(deref(model, schema?.items as SchemaNode | undefined))), array: true };
  return { type, array: false };
}

function paramRows(model: ApiModel, params: Parameter[]): ParamRow[] {
  return params.map((p) => {
    const fallback = objectOf(deref(model, p.schema))?.default;
    const type = jsonType(model, p.schema);
    const objectStyle = p.in === 'query' && type.type === 'object' && !type.array ? (p.style === 'deepObject' ? 'deepObject' : p.style === 'form' ? 'form' : undefined) : undefined;
    return {
      name: p.name,
      required: p.required,
      ...type,
      explode: p.explode,
      ...(fallback === undefined ? {} : { default: fallback }),
      ...(p.listQuery === undefined ? {} : { listQuery: p.listQuery }),
      ...(objectStyle === undefined ? {} : { object: { style: objectStyle, fields: fieldRows(model, deref(model, p.schema)) } }),
    };
  });
}

/**
 * The top-level properties of an object schema (its own and its allOf parts'), each typed like a query parameter:
 * the fields of a form body or of an object-valued query parameter, strings on the wire.
 */
function fieldRows(model: ApiModel, schema: SchemaNode | undefined): ParamRow[] {
  const props: [string, SchemaNode][] = Object.entries(propertiesOf(schema));
  const parts = objectOf(schema)?.allOf;
  if (Array.isArray(parts)) for (const part of parts) props.push(...Object.entries(propertiesOf(deref(model, part as SchemaNode))));
  const rows = new Map<string, ParamRow>();
  for (const [name, sub] of props) if (!rows.has(name)) rows.set(name, { name, required: false, ...jsonType(model, sub), explode: true });
  return [...rows.values()];
}

const FORM_MEDIA = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * A form-encoded body's fields, typed like query parameters (a form field is a string on the wire, as a query
 * parameter is): the sandbox reads `count=3` as the number its schema says. Only the top level: OpenAPI encodes a
 * nested object of a form as one field, which stays a string here, as it arrives.
 */
function formRows(model: ApiModel, content: MediaContent[]): ParamRow[] | undefined {
  const form = content.find((c) => FORM_MEDIA.test(c.mediaType));
  return form ? fieldRows(model, deref(model, form.schema)) : undefined;
}

function formOf(model: ApiModel, content: MediaContent[]): { form?: ParamRow[] } {
  const form = formRows(model, content);
  return form === undefined ? {} : { form };
}

/** Compared ignoring case, `_` and `-`: `FriendlyName`, `friendly_name` and `friendly-name` are one name. */
const spelling = (name: string): string => name.replace(/[_-]/g, '').toLowerCase();

/**
 * An inferred resource's create or update: each body property the resource does not have, which exactly one
 * resource property spells the same way (ignoring case, `_`, `-`), is stored under that property (BodyRow.storedAs).
 */
function storedAsOf(model: ApiModel, op: Operation, resourceSchema: string | undefined, sent: string[] | null): { storedAs?: Record<string, string> } {
  const named = resourceSchema === undefined ? undefined : model.schemas[resourceSchema];
  if (named?.semantics.resource?.inferred !== true || (op.semantics.action !== 'create' && op.semantics.action !== 'update') || sent === null) return {};
  const own = Object.keys(propertiesOf(named.schema));
  const storedAs: Record<string, string> = {};
  for (const name of sent) {
    if (own.includes(name) || sent.some((other) => other !== name && spelling(other) === spelling(name))) continue;
    const same = own.filter((p) => spelling(p) === spelling(name) && !sent.includes(p));
    if (same.length === 1) setOwn(storedAs, name, same[0]!);
  }
  return Object.keys(storedAs).length > 0 ? { storedAs } : {};
}

/** The JSON types a schema admits at its top level, through `anyOf`/`oneOf` branches and named schemas (bounded). */
function admittedTypes(model: ApiModel, node: SchemaNode | undefined, depth = 0): Set<string> {
  const out = new Set<string>();
  const schema = objectOf(deref(model, node));
  if (schema === undefined || depth > 4) return out;
  const t = schema.type;
  for (const one of Array.isArray(t) ? t : typeof t === 'string' ? [t] : []) if (typeof one === 'string') out.add(one === 'integer' ? 'number' : one);
  for (const kw of ['anyOf', 'oneOf'] as const) {
    const branches = schema[kw];
    if (Array.isArray(branches)) for (const b of branches) for (const one of admittedTypes(model, b as SchemaNode, depth + 1)) out.add(one);
  }
  return out;
}

/**
 * An inferred resource's create or update: body properties that may be sent as a number where the resource
 * property holds only text (and null), stored as their text (BodyRow.asText).
 */
function asTextOf(model: ApiModel, op: Operation, resourceSchema: string | undefined, bodySchema: SchemaNode | undefined): { asText?: string[] } {
  const named = resourceSchema === undefined ? undefined : model.schemas[resourceSchema];
  if (named?.semantics.resource?.inferred !== true || (op.semantics.action !== 'create' && op.semantics.action !== 'update')) return {};
  const own = propertiesOf(named.schema);
  const asText: string[] = [];
  for (const [name, node] of Object.entries(propertiesOf(deref(model, bodySchema)))) {
    if (!Object.prototype.hasOwnProperty.call(own, name)) continue;
    const held = admittedTypes(model, own[name]);
    held.delete('null');
    if (held.size === 1 && held.has('string') && admittedTypes(model, node).has('number')) asText.push(name);
  }
  return asText.length > 0 ? { asText } : {};
}

/**
 * What an inferred resource's answer requires beyond what the sandbox builds (a minimal valid answer's fields,
 * `const` values included), answered around it so the answer validates (issue 27):
 * - a list: the fields beside its items, total and next token (redocly-cafe's `object: list` and `page`);
 * - a view of the record (a create answering a schema of its own, rule 18): the view's fields the record lacks
 *   (iotsitewise's portal create answers `ssoApplicationId`, which its get does not); the record's values win;
 * - another answer of a generic action (a delete answering `{ assetStatus }`): the whole minimal answer, as its
 *   constants.
 */
function withEnvelope(model: ApiModel, op: Operation, status: string, resourceSchema: string | undefined, shape: ResponseShape): ResponseShape {
  if (resourceSchema === undefined || model.schemas[resourceSchema]?.semantics.resource?.inferred !== true) return shape;
  if (shape.kind !== 'list' && shape.kind !== 'resource' && !(shape.kind === 'other' && op.semantics.action !== undefined)) return shape;
  const media = preferredMedia(op.responses.find((r) => r.status === status)?.content ?? []);
  if (media === undefined || (shape.kind === 'resource' && deref(model, media.schema) === model.schemas[resourceSchema]!.schema)) return shape;
  const minimal = objectOf(validValue(media.schema as never, defsOf(model)) as SchemaNode | undefined);
  if (minimal === undefined) return shape;
  if (shape.kind === 'other') {
    const constants: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries({ ...minimal, ...shape.constants })) setOwn(constants, k, v);
    return { ...shape, constants };
  }
  const envelope: Record<string, JsonValue> = {};
  const paging = op.semantics.pagination;
  const own = shape.kind === 'list' ? [shape.items, shape.total, paging?.nextPageToken] : [model.schemas[resourceSchema]!.semantics.resource!.id];
  for (const [k, v] of Object.entries(minimal)) if (!own.includes(k)) setOwn(envelope, k, v);
  return Object.keys(envelope).length > 0 ? { ...shape, envelope } : shape;
}

/** Whether a schema's `type` (a string or, after normalisation, a list) includes `type`. */
function hasType(node: SchemaNode | undefined, type: string): boolean {
  const t = objectOf(node)?.type;
  return t === type || (Array.isArray(t) && t.includes(type));
}

/** Per model (a built model is not changed afterwards): routeRow asks once per operation, and on a large spec the
 * walk over every schema for every operation was half a second (elasticsearch-serverless: 452 x 1870). */
const resourceSchemasOf = new WeakMap<ApiModel, Map<string, NamedSchema>>();

function resourceSchemas(model: ApiModel): Map<string, NamedSchema> {
  const known = resourceSchemasOf.get(model);
  if (known !== undefined) return known;
  const byName = new Map<string, NamedSchema>();
  for (const schema of Object.values(model.schemas)) {
    const resource = schema.semantics.resource;
    if (resource && !byName.has(resource.name)) byName.set(resource.name, schema);
  }
  resourceSchemasOf.set(model, byName);
  return byName;
}

function shapeOf(model: ApiModel, op: Operation, status: string, resourceSchema: string | undefined, canonical?: ResponseShape): ResponseShape {
  const response = op.responses.find((r) => r.status === status);
  const media = response && preferredMedia(response.content);
  if (!media) return { kind: 'none' };
  const top = refName(media.schema);
  const schema = deref(model, media.schema);
  const props = propertiesOf(schema);
  const keys = Object.keys(props);
  // A paged list's total is the property x-pagination names; an unpaged one answers its items alone.
  if (op.semantics.pagination) return { kind: 'list', items: op.semantics.pagination.items, total: op.semantics.pagination.total ?? null };
  // A legacy alias may answer the resource in a schema of its own (a legacy view with renamed fields,
  // x-alias-renames), where its canonical operation answers the resource itself or wrapped.
  const isView = (name: string | undefined, ...kinds: ResponseShape['kind'][]): boolean =>
    name !== undefined && (name === resourceSchema || (resourceSchema !== undefined && canonical !== undefined && kinds.includes(canonical.kind)));
  if (isView(top, 'resource')) return { kind: 'resource' };
  // A top-level array of the resource (an inferred list: `GET /pets` answering `Pet[]`).
  if (resourceSchema !== undefined && hasType(schema, 'array') && deref(model, objectOf(schema)?.items as SchemaNode | undefined) === model.schemas[resourceSchema]?.schema) return { kind: 'items' };
  if (keys.length === 0 && objectOf(schema)?.additionalProperties === false) return { kind: 'empty' };
  // An inferred resource answered in a schema of its own that holds its id (twilio's key create answers `new_key`,
  // the key with its secret): the record, as that view of it (issue 27).
  const named = resourceSchema === undefined ? undefined : model.schemas[resourceSchema];
  const inferredId = named?.semantics.resource?.inferred === true ? named.semantics.resource.id : undefined;
  if (inferredId !== undefined && (op.semantics.action === 'create' || op.semantics.action === 'get' || op.semantics.action === 'update') && keys.includes(inferredId)) return { kind: 'resource' };
  // An inferred list whose answer holds, among other things (box's marker-paging part, an `allOf`), exactly one
  // array of the resource: that array is the list.
  if (inferredId !== undefined && op.semantics.action === 'list') {
    const merged = { ...props };
    const parts = objectOf(schema)?.allOf;
    if (Array.isArray(parts)) for (const part of parts) Object.assign(merged, propertiesOf(deref(model, part as SchemaNode)));
    const arrays = Object.keys(merged).filter((k) => {
      const node = deref(model, merged[k]);
      return hasType(node, 'array') && deref(model, objectOf(node)?.items as SchemaNode | undefined) === named!.schema;
    });
    if (arrays.length === 1) return { kind: 'list', items: arrays[0]!, total: null };
  }
  if (resourceSchema !== undefined && keys.length === 1) {
    const only = deref(model, props[keys[0]!]);
    if (only === model.schemas[resourceSchema]?.schema || isView(refName(throughAnnotations(props[keys[0]!]) as SchemaNode | undefined), 'wrapped', 'resource')) return { kind: 'wrapped', key: keys[0]! };
    const items = objectOf(only)?.items as SchemaNode | undefined;
    if (hasType(only, 'array') && deref(model, items) === model.schemas[resourceSchema]?.schema) return { kind: 'list', items: keys[0]!, total: null };
  }
  // Properties with a `const` value (`{ success: true }`) are answered as that value.
  const constants: Record<string, JsonValue> = {};
  for (const [k, node] of Object.entries(props)) {
    const value = objectOf(deref(model, node))?.const;
    if (value !== undefined) Object.defineProperty(constants, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return top === undefined ? { kind: 'other', keys, constants } : { kind: 'other', schema: top, keys, constants };
}

function idFormat(model: ApiModel, schema: NamedSchema, idField: string): IdFormat {
  const node = objectOf(deref(model, propertiesOf(schema.schema)[idField]));
  if (node?.format === 'uuid') return { kind: 'uuid' };
  if (hasType(node, 'integer')) return { kind: 'integer' };
  const pattern = typeof node?.pattern === 'string' ? node.pattern : '';
  const prefixed = prefixedIdFormat(pattern) ?? decimalIdFormat(pattern) ?? uuidPatternIdFormat(pattern);
  if (prefixed !== undefined) return prefixed;
  const exact = /\{(\d+)\}\$?$/.exec(pattern);
  const length = exact ? Number(exact[1]) : typeof node?.minLength === 'number' ? Math.max(node.minLength, 8) : 22;
  if (length === 26 && /0-9A-[HZ]/.test(pattern)) return { kind: 'ulid' };
  if (pattern === '' && typeof node?.maxLength === 'number' && node.maxLength === 26 && typeof node.minLength === 'number' && node.minLength <= 1) return { kind: 'token', length: 22 };
  return { kind: 'alnum', length };
}

/** An id pattern compiled to test sample ids against (the formats found by testing); undefined: none or invalid. */
function testablePattern(pattern: string): RegExp | undefined {
  if (pattern === '') return undefined;
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/**
 * A pattern that takes decimal digit strings only (discord's snowflakes, `^(0|[1-9][0-9]*)$`: issue 27): ids are 18
 * digits with a leading 1, minted as the prefixed format `1` + 17 digits. Found by testing the pattern: it must accept
 * such strings (lowest and highest) and refuse the same length with a letter in it, so a pattern that also takes
 * letters keeps the other formats (ours never takes digits only).
 */
export function decimalIdFormat(pattern: string): IdFormat | undefined {
  const re = testablePattern(pattern);
  if (re === undefined) return undefined;
  const digits = ['1' + '0'.repeat(17), '1' + '9'.repeat(17)];
  if (!digits.every((d) => re.test(d)) || re.test(`1a${'0'.repeat(16)}`) || re.test(`1${'0'.repeat(16)}A`)) return undefined;
  return { kind: 'prefixed', prefix: '1', alphabet: '0123456789', length: 17 };
}

/**
 * A pattern that takes lower-case UUIDs and refuses the same text with a letter that is no hex digit (AWS's
 * `^[0-9a-f]{8}-[0-9a-f]{4}-...$` without `format: uuid`: issue 27): ids are random UUIDs, as for `format: uuid`.
 * Found by testing the pattern, as for decimal ids, so a pattern that takes any letters keeps the other formats.
 */
export function uuidPatternIdFormat(pattern: string): IdFormat | undefined {
  const re = testablePattern(pattern);
  if (re === undefined) return undefined;
  const uuids = ['00000000-0000-4000-8000-000000000000', 'ffffffff-ffff-4fff-bfff-ffffffffffff', '3f2a9c1e-7b4d-4e8a-9c6f-0d1e2f3a4b5c'];
  if (!uuids.every((u) => re.test(u)) || re.test('3f2a9c1e-7b4d-4e8a-9c6f-0d1e2f3a4b5g')) return undefined;
  return { kind: 'uuid' };
}

/**
 * `^<literal prefix>[<class>]{N}$` (a prefix of letters, digits, `_` or `-`; a class of single characters and ranges):
 * the prefixed id format; a prefix given as alternatives, `^(SM|MM)[...]{N}$` (twilio's messages), mints with the
 * first. Anything else is left to the other formats.
 */
function prefixedIdFormat(pattern: string): IdFormat | undefined {
  const m = /^\^(?:([A-Za-z0-9_-]+)|\(([A-Za-z0-9_-]+)(?:\|[A-Za-z0-9_-]+)*\))\[([A-Za-z0-9_-]+)\]\{(\d+)\}\$$/.exec(pattern);
  if (!m) return undefined;
  const prefix = m[1] ?? m[2]!;
  let alphabet = '';
  const cls = m[3]!;
  for (let i = 0; i < cls.length; i++) {
    if (cls[i + 1] === '-' && i + 2 < cls.length) {
      for (let c = cls.charCodeAt(i); c <= cls.charCodeAt(i + 2); c++) alphabet += String.fromCharCode(c);
      i += 2;
    } else alphabet += cls[i];
  }
  const length = Number(m[4]);
  return alphabet === '' || length < 1 || length > 256 ? undefined : { kind: 'prefixed', prefix, alphabet: [...new Set(alphabet)].join(''), length };
}

/**
 * The top-level property names a body schema declares (including those of `allOf` parts), or null when it
 * declares none (a free-form object): the sandbox stores only declared fields.
 */
function declaredProperties(model: ApiModel, node: SchemaNode | undefined): string[] | null {
  const schema = deref(model, node);
  const names = new Set(Object.keys(propertiesOf(schema)));
  const parts = objectOf(schema)?.allOf;
  if (Array.isArray(parts)) for (const part of parts) for (const name of Object.keys(propertiesOf(deref(model, part as SchemaNode)))) names.add(name);
  return names.size === 0 ? null : [...names];
}

/** `default` values of an object schema's top-level properties (a create applies them to absent fields). */
function defaultsOf(model: ApiModel, node: SchemaNode | undefined): Record<string, JsonValue> {
  const defaults: Record<string, JsonValue> = {};
  for (const [prop, sub] of Object.entries(propertiesOf(deref(model, node)))) {
    const value = objectOf(sub)?.default;
    if (value !== undefined) Object.defineProperty(defaults, prop, { value, enumerable: true, writable: true, configurable: true });
  }
  return defaults;
}

/** Every writeOnly property reachable from a schema through properties and array items (bounded depth). */
function writeOnlyPaths(model: ApiModel, root: SchemaNode): string[][] {
  const out: string[][] = [];
  const walk = (node: SchemaNode | undefined, path: string[], depth: number): void => {
    const schema = objectOf(deref(model, node));
    if (!schema || depth > 8) return;
    for (const [name, sub] of Object.entries(propertiesOf(schema))) {
      const resolved = objectOf(deref(model, sub));
      if (objectOf(sub)?.writeOnly === true || resolved?.writeOnly === true) out.push([...path, name]);
      else walk(sub, [...path, name], depth + 1);
    }
    if (hasType(schema, 'array') && schema.items !== undefined) walk(schema.items as SchemaNode, [...path, '[]'], depth + 1);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const parts = schema[key];
      if (Array.isArray(parts)) for (const part of parts) walk(part as SchemaNode, path, depth + 1);
    }
  };
  walk(root, [], 0);
  return [...new Map(out.map((p) => [p.join('.'), p])).values()];
}

/** The collection of a resource's names, from the pattern of its resource-name property (x-field-role). */
function namePrefixOf(model: ApiModel, schema: NamedSchema): string | null {
  const field = rolesOf(schema.fields).resourceName;
  const pattern = field === null ? undefined : objectOf(deref(model, propertiesOf(schema.schema)[field]))?.pattern;
  // Only a two-segment name (`^tags/<id pattern>$`) is `<collection>/<id>`; longer ones (`metrics/<id>/threshold`)
  // are set by a rule.
  const m = typeof pattern === 'string' ? /^\^([a-z][a-z0-9-]*)\/(.*)$/.exec(pattern) : null;
  // Slashes inside character classes (`[^/]`) do not separate segments.
  return m && !m[2]!.replace(/\[(?:\\.|[^\]])*\]/g, '').includes('/') ? m[1]! : null;
}

export function resourceRows(model: ApiModel): ResourceRow[] {
  const rows: ResourceRow[] = [];
  for (const [name, schema] of resourceSchemas(model)) {
    const sem = schema.semantics;
    const props = propertiesOf(schema.schema);
    const defaults = defaultsOf(model, schema.schema);
    rows.push({
      name,
      schema: schema.name,
      id: sem.resource!.id,
      idFormat: idFormat(model, schema, sem.resource!.id),
      namePrefix: namePrefixOf(model, schema),
      writeOnly: writeOnlyPaths(model, schema.schema),
      readOnly: Object.entries(props)
        .filter(([, sub]) => objectOf(sub)?.readOnly === true || objectOf(deref(model, sub))?.readOnly === true)
        .map(([prop]) => prop),
      scope: sem.resource!.scope,
      properties: Object.keys(props),
      defaults,
      lifecycle: sem.lifecycle ? { field: sem.lifecycle.field ?? null, initial: sem.lifecycle.initial ?? null, deleted: sem.lifecycle.deleted ?? null, hidden: sem.lifecycle.hidden, frozen: sem.lifecycle.frozen } : null,
      versioned: sem.versioned ? versionedRow(model, schema, sem.versioned) : null,
      fields: fieldRules(schema.fields),
      roles: rolesOf(schema.fields),
    });
    // Only inferred resources (a spec without our vocabulary) are filled: ours sets every server field by its rules.
    const fill = sem.resource!.inferred === true ? recordFill(model, schema, sem.resource!.id) : undefined;
    if (fill !== undefined) rows.at(-1)!.fill = fill;
    const fixed = sem.resource!.inferred === true ? fixedTree(model, schema.schema) : undefined;
    if (fixed !== undefined) rows.at(-1)!.fixed = fixed;
  }
  return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Where the operation's credential may be carried, by its security schemes (none when an alternative needs
 * nothing). An apiKey scheme's place is its own; HTTP bearer and basic, OAuth 2 and OpenID Connect use
 * Authorization (OAuth 2 and OpenID Connect access tokens are bearer tokens; the sandbox's key is one: issue 27).
 * Other schemes (mutual TLS, other HTTP schemes) carry nothing the sandbox can read.
 */
function credentialPlaces(model: ApiModel, op: Operation): CredentialPlace[] {
  if (op.security.some((alt) => alt.length === 0)) return [];
  const places: CredentialPlace[] = [];
  const add = (place: CredentialPlace): void => {
    if (!places.some((p) => p.in === place.in && p.name === place.name && p.scheme === place.scheme)) places.push(place);
  };
  for (const alternative of op.security) {
    for (const name of alternative) {
      const scheme = model.securitySchemes[name];
      if (scheme?.type === 'apiKey') add({ in: scheme.in, name: scheme.name, scheme: 'key' });
      else if (scheme?.type === 'http' && /^basic$/i.test(scheme.scheme)) add({ in: 'header', name: 'Authorization', scheme: 'basic' });
      else if ((scheme?.type === 'http' && /^bearer$/i.test(scheme.scheme)) || scheme?.type === 'oauth2' || scheme?.type === 'openIdConnect') add({ in: 'header', name: 'Authorization', scheme: 'bearer' });
    }
  }
  return places;
}

/** Whether `op` is the list action of an inferred resource (issue 27). */
function isInferredList(model: ApiModel, resourceSchema: string | undefined, op: Operation): boolean {
  return op.semantics.action === 'list' && resourceSchema !== undefined && model.schemas[resourceSchema]?.semantics.resource?.inferred === true;
}

export function routeRow(model: ApiModel, op: Operation): RouteRow {
  const schemas = resourceSchemas(model);
  const resourceSchema = op.semantics.resource ? schemas.get(op.semantics.resource)?.name : undefined;
  const statuses = op.responses.map((r) => r.status);
  const success = statuses.find((s) => /^2\d\d$/.test(s)) ?? '200';
  const successMedia = op.responses.find((r) => r.status === success)?.content;
  const credentials = credentialPlaces(model, op);
  const body = op.requestBody;
  const shape = withEnvelope(model, op, success, resourceSchema, shapeOf(model, op, success, resourceSchema, canonicalShape(model, op, resourceSchema)));
  // An inferred list whose answer holds no array of the records (iotsitewise's `assetSummaries`, items of another
  // schema with other field names) could only ever answer an empty page: it answers its example instead (rule 5).
  const unlisted = isInferredList(model, resourceSchema, op) && shape.kind === 'other';
  const s = unlisted ? { ...op.semantics, resource: undefined, action: undefined, pagination: undefined } : op.semantics;
  return {
    id: op.id,
    spec: op.spec,
    method: op.method.toUpperCase(),
    path: op.path,
    ...(op.discriminators ? { select: op.discriminators } : {}),
    params: { path: paramRows(model, op.parameters.path), query: paramRows(model, op.parameters.query), header: paramRows(model, op.parameters.header) },
    body: body
      ? {
          required: body.required,
          media: body.content.map((c) => c.mediaType),
          fields: fieldRules(body.fields),
          exactlyOneOf: body.semantics.exactlyOneOf ?? [],
          defaults: defaultsOf(model, preferredMedia(body.content)?.schema),
          properties: declaredProperties(model, preferredMedia(body.content)?.schema),
          ...formOf(model, body.content),
          ...storedAsOf(model, op, resourceSchema, declaredProperties(model, preferredMedia(body.content)?.schema)),
          ...asTextOf(model, op, resourceSchema, preferredMedia(body.content)?.schema),
        }
      : null,
    auth: [...new Set(credentials.map((c) => c.name))],
    credentials,
    permissions: s.permissions,
    resource: s.resource ?? null,
    action: s.action ?? null,
    workspaceRequired: s.workspaceRequired,
    pagination: s.pagination
      ? { items: s.pagination.items, pageSize: s.pagination.pageSize, pageToken: s.pagination.pageToken, nextPageToken: s.pagination.nextPageToken, style: s.pagination.style ?? 'token', nextLink: s.pagination.nextLink === true }
      : null,
    softDelete: s.softDelete ?? null,
    restore: s.restore ?? null,
    rules: s.rules,
    emits: s.emits,
    aliasOf: s.aliasOf ?? null,
    aliasRenames: renameRows(model, op),
    sets: s.sets ?? null,
    renames: s.renames ? s.renames.map((field) => ({ field, maxLength: maxLengthOf(model, resourceSchema, field) })) : null,
    resets: s.resets ?? null,
    copiesWith: s.copiesWith ?? null,
    success: {
      status: Number(success),
      shape: unlisted ? shapeOf(model, op, success, undefined) : shape,
      media: successMedia && successMedia.length > 0 ? (successMedia.find((c) => isJsonMedia(c.mediaType)) ?? successMedia[0]!).mediaType : null,
    },
    errors: statuses.filter((st) => /^[45]\d\d$/.test(st)).map(Number),
    versionItem: s.action === 'versions' ? versionItemOf(model, op, success, resourceSchema) : null,
    example: s.action === undefined && s.rules.length === 0 ? exampleAnswer(model, op, success) : null,
  };
}

/** The maxLength of a resource property, when its schema gives one. */
function maxLengthOf(model: ApiModel, resourceSchema: string | undefined, field: string): number | null {
  const schema = resourceSchema === undefined ? undefined : model.schemas[resourceSchema]?.schema;
  const max = objectOf(deref(model, propertiesOf(schema)[field]))?.maxLength;
  return typeof max === 'number' ? max : null;
}

/**
 * A versioned resource's history: a version record is stamped and found by its item schema's roles, and a reference
 * to a version is built by the roles of the current-version property's schema (else, without one, the item's).
 */
function versionedRow(model: ApiModel, schema: NamedSchema, versioned: NonNullable<NamedSchema['semantics']['versioned']>): NonNullable<ResourceRow['versioned']> {
  const versionRoles = rolesOf(versionItemSchema(model, versioned.history)?.fields ?? {});
  const reference = versionReferenceSchema(model, schema);
  return {
    tracked: versioned.tracked,
    history: versioned.history ?? null,
    changeTypes: versioned.changeTypes,
    versionRoles,
    referenceRoles: reference === undefined ? versionRoles : rolesOf(reference.fields),
  };
}

/** The workspace resource (x-workspace), when a resource schema declares one (the model allows one at most). */
export function workspaceRow(model: ApiModel): WorkspaceRow | null {
  for (const [name, schema] of resourceSchemas(model)) {
    const ws = schema.semantics.workspace;
    if (ws) return { resource: name, live: ws.live ?? null, defaults: ws.defaults };
  }
  return null;
}

function versionItemOf(model: ApiModel, op: Operation, status: string, resourceSchema: string | undefined): RouteRow['versionItem'] {
  const media = preferredMedia(op.responses.find((r) => r.status === status)?.content ?? []);
  const list = Object.values(propertiesOf(deref(model, media?.schema)))[0];
  const item = deref(model, objectOf(deref(model, list))?.items as SchemaNode | undefined);
  const props = propertiesOf(item);
  const tracked = new Set(resourceSchema === undefined ? [] : (model.schemas[resourceSchema]?.semantics.versioned?.tracked ?? []));
  const required = objectOf(item)?.required;
  const snapshotInto =
    (Array.isArray(required) ? required : []).find(
      (name) => typeof name === 'string' && !tracked.has(name) && hasType(deref(model, props[name]), 'object'),
    ) ?? null;
  return { properties: Object.keys(props), snapshotInto: typeof snapshotInto === 'string' ? snapshotInto : null };
}

/** The success shape of the operation a legacy alias stands for (undefined for any other operation). */
function canonicalShape(model: ApiModel, op: Operation, resourceSchema: string | undefined): ResponseShape | undefined {
  const canonical = op.semantics.aliasOf === undefined ? undefined : model.operations.find((o) => o.id === op.semantics.aliasOf);
  if (!canonical) return undefined;
  const status = canonical.responses.map((r) => r.status).find((st) => /^2\d\d$/.test(st)) ?? '200';
  return shapeOf(model, canonical, status, resourceSchema);
}

function renameRows(model: ApiModel, op: Operation): RenameRow[] {
  const rows: RenameRow[] = [];
  for (const r of op.semantics.aliasRenames ?? []) {
    const base = { legacy: r.legacy, canonical: r.canonical, values: r.values ?? null };
    const places = namePlaces(model, op, r.legacy);
    if (places.path !== undefined) rows.push({ ...base, in: 'path', at: [] });
    if (places.query !== undefined) rows.push({ ...base, in: 'query', at: [] });
    for (const p of places.body) rows.push({ ...base, in: 'body', at: p.at });
    for (const p of places.response) rows.push({ ...base, in: 'response', at: p.at });
  }
  // Wrapper keys before the fields inside them: a deeper place is reached through the renamed parent.
  return rows.sort((a, b) => a.at.length - b.at.length);
}
