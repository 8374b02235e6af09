// metric-sql-schema (GET /metrics/sql-schema): the tables a SQL metric's sql_query reads, derived from what the
// sandbox serves: one table per conversation source a metric scores (uploaded and simulated conversations, the
// `conversation_source` values of alerts), a column per top-level field of that resource's schema in the served
// documents, in schema order, with the SQL type of its JSON type. Nothing is fixed here but the two tables, so
// a field added to the spec shows up as a column.
//
// Decisions (the facts list the operation with no shape): docs/sandbox.md "Metrics"; the shape is
// MetricSqlSchemaResponse in spec/metrics.yaml.
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import type { Json } from '../storage/store.js';

export const SQL_TABLES = [
  { name: 'uploaded_conversations', resource: 'conversation', description: 'Uploaded conversations (conversation_source UPLOADED), one row per conversation.' },
  { name: 'simulated_conversations', resource: 'simulation', description: 'Simulated conversations (conversation_source SIMULATED), one row per simulation.' },
];

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Follows local `$ref`s (`#/components/schemas/X`) inside the document; a foreign or broken one ends at {}. */
function resolve(doc: Node, node: unknown): Node {
  let current = node;
  for (let i = 0; i < 16 && isNode(current) && typeof current.$ref === 'string'; i++) {
    const path = current.$ref.startsWith('#/') ? current.$ref.slice(2).split('/') : [];
    current = path.reduce<unknown>((at, key) => (isNode(at) ? at[key] : undefined), path.length > 0 ? doc : undefined);
  }
  return isNode(current) ? current : {};
}

/** The JSON types a schema allows (through allOf, oneOf, anyOf), and whether one is a date-time string. */
function jsonTypes(doc: Node, node: unknown, out = { types: new Set<string>(), dateTime: false }, depth = 0): { types: Set<string>; dateTime: boolean } {
  const s = resolve(doc, node);
  if (depth > 8) return out;
  const own = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : [];
  for (const t of own) out.types.add(String(t));
  if (Array.isArray(s.enum) && s.enum.includes(null)) out.types.add('null');
  if (s.format === 'date-time') out.dateTime = true;
  for (const key of ['allOf', 'oneOf', 'anyOf']) if (Array.isArray(s[key])) for (const part of s[key] as unknown[]) jsonTypes(doc, part, out, depth + 1);
  return out;
}

const SQL_TYPES: Record<string, string> = { string: 'text', integer: 'bigint', number: 'double precision', boolean: 'boolean' };

/** The SQL type of a JSON schema: its one scalar type's, else jsonb (objects, arrays, mixed or untyped). */
export function sqlType(doc: Node, node: unknown): { type: string; nullable: boolean } {
  const { types, dateTime } = jsonTypes(doc, node);
  const nullable = types.delete('null');
  if (types.size === 1) {
    const only = [...types][0]!;
    if (only === 'string' && dateTime) return { type: 'timestamp with time zone', nullable };
    if (SQL_TYPES[only] !== undefined) return { type: SQL_TYPES[only], nullable };
  }
  if (types.size === 2 && types.has('integer') && types.has('number')) return { type: 'double precision', nullable };
  return { type: 'jsonb', nullable };
}

function columns(ctx: RequestContext, resourceName: string): Json[] {
  const row = ctx.runtime.resource(resourceName);
  const doc = ctx.runtime.tables.documents
    .map((d) => d.document)
    .filter(isNode)
    .find((d) => {
      const schema = resolve(d, { $ref: `#/components/schemas/${row.schema}` });
      return isNode(schema['x-resource']) && schema['x-resource'].name === row.name;
    });
  if (!doc) return [];
  const schema = resolve(doc, { $ref: `#/components/schemas/${row.schema}` });
  const properties = isNode(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const hidden = new Set(row.writeOnly.filter((p) => p.length === 1).map((p) => p[0]));
  return row.properties
    .filter((name) => !hidden.has(name))
    .map((name) => {
      const own = properties[name];
      const { type, nullable } = sqlType(doc, own);
      // A property's own description wins over the one of the schema it refers to.
      const described = [own, resolve(doc, own)].find((n) => isNode(n) && typeof n.description === 'string');
      const description = isNode(described) ? String(described.description) : null;
      return { name, type, nullable: nullable || !required.has(name), description };
    });
}

export const metricSqlSchema: Rule = {
  handle(ctx) {
    return { body: { tables: SQL_TABLES.map((t) => ({ name: t.name, description: t.description, columns: columns(ctx, t.resource) })) } };
  },
};
