// The two schemas a versioned resource's history is read through (x-versioned, x-field-role): the item schema of
// its versions listing (a version record) and the schema its current-version property refers to (a reference to a
// version). The model checks their roles with these, and the route table reads their roles from them.
import { refNameOf } from './defs-ref.js';
import type { ApiModel, JsonValue, NamedSchema, SchemaNode } from './ir.js';
import { preferredMedia } from './media.js';

type Obj = Record<string, JsonValue>;

function objectOf(node: unknown): Obj | undefined {
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Obj) : undefined;
}

/** A schema with `$ref`s and one-member `allOf` wrappers followed (bounded). */
function deref(model: ApiModel, node: SchemaNode | undefined): SchemaNode | undefined {
  let current = node;
  for (let i = 0; i < 16; i++) {
    const all = objectOf(current)?.allOf;
    if (Array.isArray(all) && all.length === 1) current = all[0] as SchemaNode;
    const name = refNameOf(current);
    if (name === undefined) return current;
    current = model.schemas[name]?.schema;
  }
  return current;
}

function propertiesOf(node: SchemaNode | undefined): Record<string, SchemaNode> {
  const props = objectOf(node)?.properties;
  return objectOf(props) ? (props as Record<string, SchemaNode>) : {};
}

/** The named schema a property refers to: itself a `$ref` (through `allOf: [X]`), or the one named member of a nullable `oneOf`/`anyOf`. */
export function referencedSchema(model: ApiModel, node: SchemaNode | undefined): NamedSchema | undefined {
  let current = node;
  for (let i = 0; i < 16; i++) {
    const o = objectOf(current);
    const name = refNameOf(current);
    if (name !== undefined) return model.schemas[name];
    const all = o?.allOf;
    const alternatives = [o?.oneOf, o?.anyOf].find(Array.isArray) as SchemaNode[] | undefined;
    if (Array.isArray(all) && all.length === 1) current = all[0] as SchemaNode;
    else if (alternatives) {
      const named = alternatives.filter((a) => refNameOf(a) !== undefined);
      if (named.length !== 1) return undefined;
      current = named[0];
    } else return undefined;
  }
  return undefined;
}

/** The named item schema of a versions listing (the items of its answer's first property), when the listing exists and names one. */
export function versionItemSchema(model: ApiModel, history: string | undefined): NamedSchema | undefined {
  const op = history === undefined ? undefined : model.operations.find((o) => o.id === history);
  if (!op) return undefined;
  const status = op.responses.map((r) => r.status).find((st) => /^2\d\d$/.test(st)) ?? '200';
  const media = preferredMedia(op.responses.find((r) => r.status === status)?.content ?? []);
  const list = Object.values(propertiesOf(deref(model, media?.schema)))[0];
  return referencedSchema(model, objectOf(deref(model, list))?.items as SchemaNode | undefined);
}

/** The named schema of a version reference: what the resource's current-version property refers to. */
export function versionReferenceSchema(model: ApiModel, resource: NamedSchema): NamedSchema | undefined {
  const field = Object.keys(resource.fields).find((name) => resource.fields[name]!.role === 'current-version');
  return field === undefined ? undefined : referencedSchema(model, propertiesOf(resource.schema)[field]);
}
