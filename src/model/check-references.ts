// Cross-checks of the semantics once the whole catalog is known: an operation's resource must be
// declared, a history operation must exist, a pagination items property must be in the answer.
import { allPlaces, enumOf, namePlaces, occurs } from './alias-renames.js';
import { esc } from './vocabulary.js';
import { SINGLE_FIELD_ROLES, VERSION_REFERENCE_ROLES, type ApiModel, type FieldRole, type ListQueryRole, type NamedSchema, type Operation, type SchemaNode } from './ir.js';
import { versionItemSchema, versionReferenceSchema } from './version-schemas.js';
import type { DocumentView } from './document-view.js';

export function checkReferences(model: ApiModel, views: DocumentView[]): void {
  const reader = (spec: string) => views.find((v) => v.spec === spec)!.reader;
  const resources = new Set(Object.values(model.schemas).flatMap((s) => (s.semantics.resource ? [s.semantics.resource.name] : [])));
  // Operations by id (the first of an id, as a search would find it): looked up per alias, not searched per
  // operation, which was quadratic (most of the model stage on a spec of 11,000 operations).
  const byId = new Map<string, Operation>();
  for (const o of model.operations) if (!byId.has(o.id)) byId.set(o.id, o);
  for (const op of model.operations) {
    const r = reader(op.spec);
    if (op.semantics.resource !== undefined && resources.size > 0 && !resources.has(op.semantics.resource)) {
      r.fail(`${op.pointer}/x-operation/resource`, `names resource ${JSON.stringify(op.semantics.resource)}, but no schema declares it with x-resource`);
    }
    if (op.semantics.aliasOf !== undefined && !byId.has(op.semantics.aliasOf)) {
      r.fail(`${op.pointer}/x-deprecated-alias-of`, `names operation ${JSON.stringify(op.semantics.aliasOf)}, which does not exist`);
    }
    if (op.semantics.aliasOf !== undefined && !op.deprecated) r.fail(`${op.pointer}/x-deprecated-alias-of`, 'a legacy alias must also say deprecated: true');
    const canonical = op.semantics.aliasOf === undefined ? undefined : byId.get(op.semantics.aliasOf);
    if (canonical) checkRenames(model, op, canonical, (pointer, reason) => r.fail(pointer, reason));
    const sets = op.semantics.sets;
    const renames = op.semantics.renames;
    const copied = [...(op.semantics.resets ?? []).map((field) => ({ field, key: 'resets' })), ...(op.semantics.copiesWith ?? []).flatMap((c) => c.fields.map((field) => ({ field, key: `copies-with/${c.flag}` })))];
    for (const { flag } of op.semantics.copiesWith ?? []) {
      if (!op.requestBody || !(flag in op.requestBody.fields)) r.fail(`${op.pointer}/x-operation/copies-with/${flag}`, `names body field ${JSON.stringify(flag)}, which the operation's request body does not have`);
    }
    if ((sets !== undefined || renames !== undefined || copied.length > 0) && op.semantics.resource !== undefined) {
      const schema = Object.values(model.schemas).find((x) => x.semantics.resource?.name === op.semantics.resource);
      const props = schema && typeof schema.schema === 'object' ? (schema.schema.properties as Record<string, unknown> | undefined) : undefined;
      for (const field of Object.keys(sets ?? {})) {
        if (!props || !(field in props)) r.fail(`${op.pointer}/x-operation/sets`, `sets ${JSON.stringify(field)}, which resource ${JSON.stringify(op.semantics.resource)} does not have`);
      }
      for (const field of renames ?? []) {
        if (!props || !(field in props)) r.fail(`${op.pointer}/x-operation/renames`, `renames ${JSON.stringify(field)}, which resource ${JSON.stringify(op.semantics.resource)} does not have`);
      }
      for (const { field, key } of copied) {
        if (!props || !(field in props)) r.fail(`${op.pointer}/x-operation/${key}`, `names ${JSON.stringify(field)}, which resource ${JSON.stringify(op.semantics.resource)} does not have`);
      }
    }
    for (const [field, info] of Object.entries(op.requestBody?.fields ?? {})) {
      if (info.references !== undefined && resources.size > 0 && !resources.has(info.references)) {
        r.fail(`${op.pointer}/requestBody`, `field ${JSON.stringify(field)} says x-references ${JSON.stringify(info.references)}, but no schema declares that resource with x-resource`);
      }
    }
    checkListQuery(model, op, (pointer, reason) => r.fail(pointer, reason));
    const pagination = op.semantics.pagination;
    if (pagination) {
      const names = new Set(op.parameters.query.map((p) => p.name));
      for (const name of [pagination.pageSize, pagination.pageToken]) {
        if (!names.has(name)) r.fail(`${op.pointer}/x-pagination`, `names query parameter ${JSON.stringify(name)}, which the operation does not have`);
      }
      const total = pagination.total;
      if (total !== undefined && !namePlaces(model, op, total).response.some((p) => p.at.length === 0)) {
        r.fail(`${op.pointer}/x-pagination/total`, `names ${JSON.stringify(total)}, which is no top-level property of the operation's answer`);
      }
    }
  }
  const workspaces: string[] = [];
  for (const schema of Object.values(model.schemas)) {
    const played = new Map<FieldRole, string>();
    for (const [field, info] of Object.entries(schema.fields)) {
      if (info.role === undefined || !SINGLE_FIELD_ROLES.includes(info.role)) continue;
      const first = played.get(info.role);
      if (first !== undefined) reader(schema.specs[0]!).fail(`${schema.pointer}/properties/${esc(field)}/x-field-role`, `${JSON.stringify(first)} already plays ${info.role}; at most one property of a schema can`);
      played.set(info.role, field);
    }
    const lifecycle = schema.semantics.lifecycle;
    if (lifecycle?.initial !== undefined) {
      const at = `${schema.pointer}/x-lifecycle/initial`;
      const field = lifecycle.field ?? reader(schema.specs[0]!).fail(at, 'an initial state needs the field that holds the state');
      const props = typeof schema.schema === 'object' ? (schema.schema.properties as Record<string, SchemaNode> | undefined) : undefined;
      const allowed = enumOf(model, props?.[field]);
      if (allowed !== undefined && !allowed.includes(lifecycle.initial)) reader(schema.specs[0]!).fail(at, `${JSON.stringify(lifecycle.initial)} is not a value of ${field}`);
    }
    const history = schema.semantics.versioned?.history;
    if (history !== undefined && !byId.has(history)) reader(schema.specs[0]!).fail(`${schema.pointer}/x-versioned/history`, `names operation ${JSON.stringify(history)}, which does not exist`);
    checkVersionRoles(model, schema, (pointer, reason) => reader(schema.specs[0]!).fail(pointer, reason));
    const workspace = schema.semantics.workspace;
    if (workspace !== undefined) {
      const first = workspaces.find((w) => w !== schema.name);
      if (first !== undefined) reader(schema.specs[0]!).fail(`${schema.pointer}/x-workspace`, `schema ${JSON.stringify(first)} is the workspace already; only one resource can be`);
      workspaces.push(schema.name);
      const props = typeof schema.schema === 'object' ? (schema.schema.properties as Record<string, SchemaNode> | undefined) : undefined;
      const allowed = enumOf(model, props?.[schema.semantics.lifecycle?.field ?? '']);
      if (workspace.live !== undefined && allowed !== undefined && !allowed.includes(workspace.live)) {
        reader(schema.specs[0]!).fail(`${schema.pointer}/x-workspace/live`, `${JSON.stringify(workspace.live)} is not a value of ${schema.semantics.lifecycle!.field}`);
      }
    }
  }
}

/**
 * The versions of a versioned resource are found by their id (revert, pinning), so the item schema of its history
 * names the property holding it; a current-version property's schema, from which the engine builds references to
 * versions, names the properties of all three reference roles.
 */
function checkVersionRoles(model: ApiModel, schema: NamedSchema, fail: (pointer: string, reason: string) => never): void {
  const versioned = schema.semantics.versioned;
  if (versioned === undefined) return;
  const item = versionItemSchema(model, versioned.history);
  if (item !== undefined && !Object.values(item.fields).some((f) => f.role === 'version-id')) {
    fail(`${schema.pointer}/x-versioned/history`, `the items of ${versioned.history} (schema ${JSON.stringify(item.name)}) have no property with x-field-role version-id; revert and pinning find versions by it`);
  }
  const reference = versionReferenceSchema(model, schema);
  if (reference === undefined) return;
  const missing = VERSION_REFERENCE_ROLES.filter((role) => !Object.values(reference.fields).some((f) => f.role === role));
  if (missing.length > 0) {
    const field = Object.keys(schema.fields).find((name) => schema.fields[name]!.role === 'current-version')!;
    fail(`${schema.pointer}/properties/${esc(field)}/x-field-role`, `the version reference ${JSON.stringify(reference.name)} has no property with x-field-role ${missing.join(', ')}; the engine builds references from them`);
  }
}

/**
 * x-list-query: only a list operation's parameters play list roles, each role at most once, and a tag filter needs
 * the listed resource to say which property holds its tags.
 */
function checkListQuery(model: ApiModel, op: Operation, fail: (pointer: string, reason: string) => never): void {
  const seen = new Map<ListQueryRole, string>();
  for (const param of op.parameters.query) {
    const role = param.listQuery;
    if (role === undefined) continue;
    const at = `${op.pointer}/parameters`;
    if (op.semantics.action !== 'list') fail(at, `parameter ${JSON.stringify(param.name)} says x-list-query ${role}, but only a list operation (x-operation action list) has list-query parameters`);
    const first = seen.get(role);
    if (first !== undefined) fail(at, `parameters ${JSON.stringify(first)} and ${JSON.stringify(param.name)} both say x-list-query ${role}`);
    seen.set(role, param.name);
    if (role === 'tag-filter') {
      const schema = Object.values(model.schemas).find((x) => x.semantics.resource?.name === op.semantics.resource);
      if (!schema || !Object.values(schema.fields).some((f) => f.role === 'tags')) {
        fail(at, `parameter ${JSON.stringify(param.name)} says x-list-query tag-filter, but no property of resource ${JSON.stringify(op.semantics.resource)} says x-field-role tags`);
      }
    }
  }
}

/**
 * Each legacy name of `x-alias-renames` must occur in the alias (parameter, body or answer) and its canonical
 * name in the canonical operation; a value mapping must map values of the legacy enum to values of the
 * canonical one wherever the names are enums.
 */
function checkRenames(model: ApiModel, alias: Operation, canonical: Operation, fail: (pointer: string, reason: string) => never): void {
  for (const rename of alias.semantics.aliasRenames ?? []) {
    const p = `${alias.pointer}/x-alias-renames/${esc(rename.legacy)}`;
    const legacy = namePlaces(model, alias, rename.legacy);
    if (!occurs(legacy)) fail(p, `names ${JSON.stringify(rename.legacy)}, which is no parameter, body property or answer property of ${alias.id}`);
    const target = namePlaces(model, canonical, rename.canonical);
    if (!occurs(target)) fail(p, `renames to ${JSON.stringify(rename.canonical)}, which is no parameter, body property or answer property of ${canonical.id}`);
    if (!rename.values) continue;
    for (const node of allPlaces(legacy)) {
      const allowed = enumOf(model, node);
      const bad = allowed === undefined ? undefined : Object.keys(rename.values).find((v) => !allowed.includes(v));
      if (bad !== undefined) fail(`${p}/values/${esc(bad)}`, `${JSON.stringify(bad)} is not a value of ${rename.legacy} in ${alias.id}`);
    }
    for (const node of allPlaces(target)) {
      const allowed = enumOf(model, node);
      const bad = allowed === undefined ? undefined : Object.entries(rename.values).find(([, v]) => !allowed.includes(v));
      if (bad) fail(`${p}/values/${esc(bad[0])}`, `${JSON.stringify(bad[1])} is not a value of ${rename.canonical} in ${canonical.id}`);
    }
  }
}
