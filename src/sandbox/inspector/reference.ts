// The API reference the inspector shows, read from what the sandbox already serves: the route table
// (generated/sandbox/routes: permissions, rules, events, pagination, soft delete, field rules) and the bundled
// documents (generated/sandbox/documents: summaries, parameters and schemas with their limits, enums, defaults
// and provenance). Nothing here is a second description of the API: it only reads and puts semantics in words.
import type { Tables } from '../engine/tables.js';

type Doc = Record<string, unknown>;

export interface Provenance {
  source: string;
  note: string | null;
}

export interface FieldDoc {
  name: string;
  /** `path`, `query`, `header` for parameters; `body` for request body fields. */
  in: string;
  required: boolean;
  type: string;
  description: string | null;
  /** Limits and formats in words: `1-200 characters`, `pattern ^[a-z]+$`, `format email`. */
  limits: string[];
  enum: unknown[] | null;
  default: unknown;
  hasDefault: boolean;
  readOnly: boolean;
  /** The field's x- semantics in words. */
  semantics: string[];
  provenance: Provenance | null;
}

export interface OperationDoc {
  id: string;
  family: string;
  method: string;
  path: string;
  summary: string | null;
  description: string | null;
  deprecated: boolean;
  provenance: Provenance | null;
  permissions: string[];
  /** The operation's x- semantics in words. */
  semantics: string[];
  params: FieldDoc[];
  body: FieldDoc[] | null;
  success: number;
  errors: number[];
}

function isObj(v: unknown): v is Doc {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Follows local `$ref`s (the bundled documents only have those) and merges a single-`allOf` wrapper's siblings. */
function resolve(doc: Doc, value: unknown, depth = 0): Doc {
  if (!isObj(value) || depth > 20) return {};
  if (typeof value.$ref === 'string' && value.$ref.startsWith('#/')) {
    let target: unknown = doc;
    for (const part of value.$ref.slice(2).split('/')) target = isObj(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    const { $ref: _ref, ...rest } = value;
    return { ...resolve(doc, target, depth + 1), ...rest };
  }
  if (Array.isArray(value.allOf) && value.allOf.length === 1) {
    const { allOf, ...rest } = value;
    return { ...resolve(doc, allOf[0], depth + 1), ...rest };
  }
  return value;
}

function provenanceOf(node: Doc): Provenance | null {
  return typeof node['x-provenance'] === 'string' ? { source: node['x-provenance'], note: typeof node['x-provenance-note'] === 'string' ? node['x-provenance-note'] : null } : null;
}

function typeOf(doc: Doc, schema: Doc): string {
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array') return `array of ${typeOf(doc, resolve(doc, schema.items))}`;
  if (typeof schema.type === 'string') return schema.type;
  for (const key of ['oneOf', 'anyOf'] as const) if (Array.isArray(schema[key])) return (schema[key] as unknown[]).map((s) => typeOf(doc, resolve(doc, s))).join(' | ');
  if (schema.properties) return 'object';
  return 'any';
}

function range(lo: unknown, hi: unknown, unit: string): string | null {
  if (typeof lo === 'number' && typeof hi === 'number') return `${lo}-${hi}${unit}`;
  if (typeof lo === 'number') return `at least ${lo}${unit}`;
  if (typeof hi === 'number') return `at most ${hi}${unit}`;
  return null;
}

function limitsOf(schema: Doc): string[] {
  const out = [
    range(schema.minLength, schema.maxLength, ' characters'),
    range(schema.minimum, schema.maximum, ''),
    range(schema.minItems, schema.maxItems, ' items'),
    range(schema.minProperties, schema.maxProperties, ' properties'),
    typeof schema.exclusiveMinimum === 'number' ? `above ${schema.exclusiveMinimum}` : null,
    typeof schema.exclusiveMaximum === 'number' ? `below ${schema.exclusiveMaximum}` : null,
    typeof schema.pattern === 'string' ? `pattern ${schema.pattern}` : null,
    typeof schema.format === 'string' ? `format ${schema.format}` : null,
    schema.uniqueItems === true ? 'items unique' : null,
    schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null')) ? 'nullable' : null,
  ];
  return out.filter((s): s is string => s !== null);
}

const NULL_WORDS: Record<string, string> = { clear: 'null clears the stored value', ignore: 'null leaves the stored value unchanged', rule: 'null is handled by a rule module' };

function fieldSemantics(schema: Doc): string[] {
  const out: string[] = [];
  if (schema['x-normalize'] === 'lowercase') out.push('stored lower case');
  const unique = schema['x-unique'];
  if (isObj(unique)) out.push(`unique among the ${unique.among === 'active' ? 'active (not deleted)' : 'all'} records of the ${String(unique.scope)}; a clash is 409 ALREADY_EXISTS`);
  if (schema['x-replace'] === 'whole-set') out.push('a write replaces the whole set (items get new ids)');
  if (typeof schema['x-null'] === 'string') out.push(NULL_WORDS[schema['x-null']] ?? `null: ${schema['x-null']}`);
  if (schema.readOnly === true) out.push('read-only (set by the server)');
  if (schema.writeOnly === true) out.push('write-only (never returned)');
  if (schema.deprecated === true) out.push('deprecated');
  return out;
}

/** `inherited`: the provenance of what encloses the field (its schema or operation), when it states none of its own. */
function field(doc: Doc, name: string, where: string, required: boolean, raw: Doc, outer: Doc, inherited: Provenance | null): FieldDoc {
  const schema = resolve(doc, raw);
  const description = (outer.description ?? raw.description ?? schema.description) as string | undefined;
  return {
    name,
    in: where,
    required,
    type: typeOf(doc, schema),
    description: typeof description === 'string' ? description : null,
    limits: limitsOf(schema),
    enum: Array.isArray(schema.enum) ? schema.enum : null,
    default: schema.default,
    hasDefault: 'default' in schema,
    readOnly: schema.readOnly === true,
    semantics: fieldSemantics(schema),
    provenance: provenanceOf(outer) ?? provenanceOf(raw) ?? provenanceOf(schema) ?? inherited,
  };
}

function bodyFields(doc: Doc, op: Doc): FieldDoc[] | null {
  const body = resolve(doc, op.requestBody);
  const content = isObj(body.content) ? body.content : null;
  if (!content) return null;
  const media = (content['application/json'] ?? Object.values(content)[0]) as Doc | undefined;
  const schema = resolve(doc, media?.schema);
  const props = isObj(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(props).map(([name, raw]) => field(doc, name, 'body', required.has(name), raw as Doc, {}, provenanceOf(schema)));
}

function operationSemantics(route: Tables['routes'][number], tables: Tables): string[] {
  const out: string[] = [];
  if (route.resource && route.action) out.push(`${route.action} of ${route.resource}`);
  const resource = tables.resources.find((r) => r.name === route.resource);
  if (resource) out.push(resource.scope === 'workspace' ? 'scoped to a workspace (X-Service-Workspace-Id, else the default workspace)' : 'scoped to the organization');
  if (route.workspaceRequired) out.push('404 when no workspace resolves');
  if (route.pagination) out.push(`paginated: ${route.pagination.pageSize} and ${route.pagination.pageToken}${route.pagination.style === 'token' ? '' : ` (${route.pagination.style === 'offset' ? 'an offset' : 'a page number'})`} in, ${[route.pagination.items, route.pagination.nextPageToken].filter((k) => k !== null).join(' and ')} out`);
  if (route.softDelete) out.push(`soft delete: answers ${route.softDelete.respond === 'empty' ? '{}' : 'the record in its deleted state'}; deleting again is ${route.softDelete.repeat === 'ok' ? 'fine' : '404'}`);
  if (route.restore) out.push(route.restore.noopWhenActive ? 'restore: restoring an active record changes nothing' : 'restore');
  if (route.sets) out.push(`sets ${Object.entries(route.sets).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ')} (idempotent; 409 in a frozen state)`);
  if (resource?.lifecycle) {
    const lc = resource.lifecycle;
    if (lc.field && (route.action === 'get' || route.action === 'list')) out.push(`records whose ${lc.field} is ${lc.hidden.join(' or ')} are not shown`);
    if (lc.frozen.length > 0 && (route.action === 'update' || route.action === 'delete')) out.push(`refused (409) while ${lc.frozen.map((f) => `${f.field} is ${JSON.stringify(f.equals)}`).join(' or ')}`);
  }
  if (resource?.versioned && (route.action === 'update' || route.action === 'create')) out.push(`records a version when any of ${resource.versioned.tracked.join(', ')} changes`);
  if (route.versionItem) out.push('version history, newest first');
  if (route.body?.exactlyOneOf && route.body.exactlyOneOf.length > 0) out.push(`exactly one of ${route.body.exactlyOneOf.join(', ')}`);
  if (route.aliasOf) out.push(`deprecated alias of ${route.aliasOf}`);
  for (const rule of route.rules) out.push(`rule module ${rule} (src/sandbox/rules/${rule}.ts)`);
  for (const event of route.emits) {
    const handlers = tables.handlers.filter((h) => h.on === event).map((h) => h.rule);
    out.push(`raises ${event}${handlers.length > 0 ? `, handled by ${handlers.join(', ')}` : ''}`);
  }
  return out;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** Every operation of the route table, by family (the spec document it comes from), in route-table order. */
export function reference(tables: Tables): { basePath: string; operations: OperationDoc[] } {
  const docs = new Map(tables.documents.map((d) => [d.name, d.document as Doc]));
  const operations = tables.routes.map((route): OperationDoc => {
    const doc = docs.get(route.spec) ?? {};
    const paths = isObj(doc.paths) ? doc.paths : {};
    const item = resolve(doc, paths[route.path]);
    const op = METHODS.includes(route.method.toLowerCase()) ? resolve(doc, item[route.method.toLowerCase()]) : {};
    const params = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])].map((p) => resolve(doc, p));
    const byName = new Map(params.map((p) => [`${String(p.in)}:${String(p.name)}`, p]));
    return {
      id: route.id,
      family: route.spec,
      method: route.method,
      path: `${tables.basePath}${route.path}`,
      summary: typeof op.summary === 'string' ? op.summary : null,
      description: typeof op.description === 'string' ? op.description : null,
      deprecated: op.deprecated === true,
      provenance: provenanceOf(op),
      permissions: route.permissions,
      semantics: operationSemantics(route, tables),
      params: [...byName.values()].map((p) => field(doc, String(p.name), String(p.in), p.required === true, isObj(p.schema) ? p.schema : {}, p, provenanceOf(op))),
      body: bodyFields(doc, op),
      success: route.success.status,
      errors: route.errors,
    };
  });
  return { basePath: tables.basePath, operations };
}
