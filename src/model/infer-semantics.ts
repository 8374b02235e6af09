// The sandbox vocabulary inferred for a spec that declares none of it (no x-resource anywhere): any public spec.
// Rule by rule (docs/x-vocabulary.md, "Inferred vocabulary (issue 27)"):
//   1. a collection path `/pets` with an item path `/pets/{petId}` (the collection path plus one template segment)
//      is one resource, named after the collection's last segment;
//   2. its schema is the named schema the item's GET answers (2xx, JSON), else the one the collection's POST
//      answers, else the one it takes; without a named object schema there is no resource;
//   2b. where that schema has no id (rule 3) and only one property, whose schema (through an `allOf` that only
//      annotates it, as AWS writes every property) is a named object schema, that schema is the resource's: the
//      answer wraps it (AWS: `{ studio: Studio }`), and the operations answer it wrapped under that property;
//   3. its id is the schema's scalar property named like the item's path parameter, else `id`, else the parameter
//      without an `Id`/`_id` suffix (an object or array property is never an id), each first as written, then in
//      any case when one property alone matches (`{Sid}` and `sid`); without one there is no resource;
//   3b. records are made by the collection's POST: a pair without one, or whose POST answers an object without the
//      id (nor wrapping the resource, 2b), is no resource (its operations keep their example answers);
//   4. actions from methods: collection GET list, collection POST create, item GET get, item PUT/PATCH update (else item POST, as twilio updates), item DELETE delete; every resource belongs to the caller's organization (no workspaces);
//   4b. a readOnly date-time property named created... / updated... (or ...modified...) is stamped by the sandbox
//      as the creation / last update time (x-field-role created-at / updated-at);
//   4c. a list with recognisable paging parameters and answer pages its records (infer-paging.ts);
//   5. anything else (an operation on no such pair, or a pair the rules cannot complete) has no action: the
//      sandbox answers it with its response example, and the reason is returned as a warning line.
// The explicit vocabulary always wins: a spec with any x-resource is left as it is.
import { setOwn } from '../data/own-property.js';
import { lastTemplate } from '../data/path-template.js';
import { refNameOf, throughAnnotations } from './defs-ref.js';
import { inferPaging } from './infer-paging.js';
import type { ApiModel, JsonValue, NamedSchema, Operation, OperationSemantics, SchemaNode } from './ir.js';
import { isJsonMedia } from './media.js';

export interface InferenceNote {
  spec: string;
  pointer: string;
  reason: string;
}

const objectOf = (node: unknown): Record<string, JsonValue> | undefined => (node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, JsonValue>) : undefined);

/** Whether the spec declares any of our sandbox vocabulary (then nothing is inferred). */
export function declaresVocabulary(model: ApiModel): boolean {
  return Object.values(model.schemas).some((s) => s.semantics.resource !== undefined) || model.operations.some((o) => o.semantics.resource !== undefined || o.semantics.rules.length > 0);
}

/** The named schema of a JSON content (a `$ref`, or an `allOf` of one around it with annotations only). */
function namedSchemaOf(model: ApiModel, node: SchemaNode | undefined): string | undefined {
  let current: unknown = node;
  for (let i = 0; i < 4; i++) {
    current = throughAnnotations(current);
    const name = refNameOf(current);
    if (name === undefined) return undefined;
    const target = model.schemas[name]?.schema;
    if (refNameOf(target) === undefined && !Array.isArray(objectOf(target)?.allOf)) return name;
    current = target;
  }
  return undefined;
}

function jsonSchemaOf(op: Operation | undefined, where: 'response' | 'body'): SchemaNode | undefined {
  if (!op) return undefined;
  const contents = where === 'body' ? (op.requestBody?.content ?? []) : (op.responses.find((r) => /^2\d\d$/.test(r.status))?.content ?? []);
  return contents.find((c) => isJsonMedia(c.mediaType))?.schema;
}

/** A schema through its reference to a named schema (one step), else itself. */
function deref(model: ApiModel, node: SchemaNode | undefined): SchemaNode | undefined {
  const name = refNameOf(node);
  return name === undefined ? node : model.schemas[name]?.schema;
}

const lastSegment = (path: string): string => path.split('/').filter((s) => s !== '').at(-1) ?? '';

/** The named object schema of a wrapper's one property (rule 2b), or undefined when `wrapper` is not one. */
function wrappedSchemaOf(model: ApiModel, wrapper: SchemaNode | undefined): NamedSchema | undefined {
  const properties = objectOf(objectOf(wrapper)?.properties) ?? {};
  const keys = Object.keys(properties);
  if (keys.length !== 1) return undefined;
  const name = namedSchemaOf(model, properties[keys[0]!] as SchemaNode);
  const inner = name === undefined ? undefined : model.schemas[name];
  return inner && objectOf(objectOf(inner.schema)?.properties) ? inner : undefined;
}

/** The id property of a resource schema for the item path parameter `param` (rule 3). */
function idProperty(model: ApiModel, properties: Record<string, JsonValue>, param: string): string | undefined {
  const stripped = param.replace(/(?:_id|Id|ID)$/, '');
  // An id is a scalar: discord's member has `user` (an object) for `{user_id}`, which cannot hold a minted id.
  const scalar = (name: string): boolean => {
    const node = objectOf(throughAnnotations(properties[name]));
    const ref = refNameOf(node);
    const type = objectOf(ref === undefined ? node : model.schemas[ref]?.schema)?.type;
    return type !== 'object' && type !== 'array' && !(Array.isArray(type) && (type.includes('object') || type.includes('array')));
  };
  const candidates = [param, 'id', stripped].filter((name) => name !== '');
  const exact = candidates.find((name) => Object.prototype.hasOwnProperty.call(properties, name) && scalar(name));
  if (exact !== undefined) return exact;
  // twilio's `{Sid}` names the property `sid`: the same name in another case, when exactly one property has it.
  for (const name of candidates) {
    const same = Object.keys(properties).filter((p) => p.toLowerCase() === name.toLowerCase() && scalar(p));
    if (same.length === 1) return same[0];
  }
  return undefined;
}

/** Infers resources and actions in place; returns a note per operation left without state (rule 5). */
export function inferSemantics(model: ApiModel): InferenceNote[] {
  if (declaresVocabulary(model)) return [];
  const byPath = new Map<string, Operation[]>();
  for (const op of model.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const taken = new Map<string, string>(); // schema -> resource name
  const names = new Set<string>();
  const inferred = new Set<Operation>();
  for (const [itemPath, itemOps] of byPath) {
    // `/pets/{petId}` pairs with `/pets`; `/Calls/{Sid}.json` with `/Calls.json` (a suffix after the template).
    const template = lastTemplate(itemPath);
    if (template === undefined) continue;
    const param = template.name;
    const collectionPath = itemPath.slice(0, itemPath.lastIndexOf('/')) + template.suffix;
    const collectionOps = byPath.get(collectionPath) ?? [];
    if (collectionOps.length === 0) continue;
    const find = (ops: Operation[], method: string): Operation | undefined => ops.find((o) => o.method === method);
    const schemaName =
      namedSchemaOf(model, jsonSchemaOf(find(itemOps, 'get'), 'response')) ??
      namedSchemaOf(model, jsonSchemaOf(find(collectionOps, 'post'), 'response')) ??
      namedSchemaOf(model, jsonSchemaOf(find(collectionOps, 'post'), 'body'));
    const found = schemaName === undefined ? undefined : model.schemas[schemaName];
    // Rule 2b: an answer wrapping the resource in its one property (AWS: `{ studio: Studio }`) names the resource
    // by that property's schema, when the wrapper itself has no id; its operations then answer it wrapped.
    const wrapped = found && idProperty(model, objectOf(objectOf(found.schema)?.properties) ?? {}, param) === undefined ? wrappedSchemaOf(model, found.schema) : undefined;
    const named = wrapped ?? found;
    const properties = objectOf(objectOf(named?.schema)?.properties);
    if (!named || !properties || named.semantics.resource !== undefined || taken.has(named.name)) continue;
    const id = idProperty(model, properties, param);
    const base = lastSegment(collectionPath).slice(0, lastSegment(collectionPath).length - template.suffix.length).replace(/[^A-Za-z0-9_-]/g, '') || named.name;
    if (id === undefined || base === '') continue;
    // Records are made by the collection's POST; one that answers something without the resource's id (twilio's
    // outgoing caller id POST starts a validation request) makes none. Without such a create the sandbox could
    // never hold a record, and its get, update and delete would only ever be 404 (twilio's conferences and
    // recordings, made by calls): the pair keeps its example answers instead.
    const post = find(collectionOps, 'post');
    const answered = objectOf(deref(model, jsonSchemaOf(post, 'response')));
    const answersIt = answered === undefined || answered === named.schema || Object.prototype.hasOwnProperty.call(objectOf(answered.properties) ?? {}, id) || wrappedSchemaOf(model, answered) === named;
    if (post === undefined || !answersIt) continue;
    let name = base;
    for (let n = 2; names.has(name); n++) name = `${base}${n}`;
    names.add(name);
    taken.set(named.name, name);
    named.semantics.resource = { name, id, scope: 'organization', inferred: true };
    inferTimestamps(named, properties);
    const act = (op: Operation | undefined, action: NonNullable<OperationSemantics['action']>): void => {
      if (!op) return;
      op.semantics.resource = name;
      op.semantics.action = action;
      inferred.add(op);
    };
    act(find(collectionOps, 'get'), 'list');
    const list = find(collectionOps, 'get');
    const paging = list && inferPaging(model, list, named.name);
    if (list && paging) list.semantics.pagination = paging;
    act(post, 'create');
    act(find(itemOps, 'get'), 'get');
    // twilio updates by POST to the item path; a PUT or PATCH is preferred where there is one.
    act(find(itemOps, 'put') ?? find(itemOps, 'patch') ?? find(itemOps, 'post'), 'update');
    act(find(itemOps, 'delete'), 'delete');
  }
  return model.operations
    .filter((op) => !inferred.has(op))
    .map((op) => ({ spec: op.spec, pointer: op.pointer, reason: `no resource inferred for ${op.method.toUpperCase()} ${op.path} (no collection/item path pair with a named schema and an id property): the sandbox answers its response example` }));
}

/** Rule 4b: readOnly date-time properties named for creation or update are server timestamps. */
function inferTimestamps(named: NamedSchema, properties: Record<string, JsonValue>): void {
  for (const [prop, node] of Object.entries(properties)) {
    const schema = objectOf(node);
    if (schema?.readOnly !== true || schema.format !== 'date-time') continue;
    const role = /^created/i.test(prop) ? 'created-at' : /^(updated|modified|last_?modified)/i.test(prop) ? 'updated-at' : undefined;
    if (role === undefined || named.fields[prop]?.role !== undefined) continue;
    setOwn(named.fields, prop, { ...(named.fields[prop] ?? { provenance: named.provenance }), role });
  }
}
