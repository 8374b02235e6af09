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

/**
 * The schema a `$ref` names, else the node itself. The served documents are bundled: every `$ref` is local
 * (`#/components/schemas/X`) and names a schema that is not a `$ref` itself, so one step resolves it.
 */
function resolve(doc: Node, node: Node): Node {
  if (typeof node.$ref !== 'string') return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((at, key) => at[key] as Node, doc);
}

/**
 * The JSON types a schema allows (through allOf, oneOf, anyOf), and whether one is a date-time string. (A null
 * in an enum needs 'null' among the types to validate, so the types say it.)
 */
function jsonTypes(doc: Node, node: Node, out = { types: new Set<string>(), dateTime: false }): { types: Set<string>; dateTime: boolean } {
  const s = resolve(doc, node);
  for (const t of [s.type ?? []].flat()) out.types.add(String(t));
  if (s.format === 'date-time') out.dateTime = true;
  for (const key of ['allOf', 'oneOf', 'anyOf']) for (const part of (s[key] as Node[] | undefined) ?? []) jsonTypes(doc, part, out);
  return out;
}

const SQL_TYPES: Record<string, string> = { string: 'text', integer: 'bigint', number: 'double precision', boolean: 'boolean' };

/** The SQL type of a JSON schema: its one scalar type's, else jsonb (objects, arrays, mixed or untyped). */
function sqlType(doc: Node, node: Node): { type: string; nullable: boolean } {
  const { types, dateTime } = jsonTypes(doc, node);
  const nullable = types.delete('null');
  // One type names itself; several join into a name SQL_TYPES does not have (jsonb), as does none.
  const only = [...types].join();
  if (only === 'string' && dateTime) return { type: 'timestamp with time zone', nullable };
  return { type: SQL_TYPES[only] ?? 'jsonb', nullable };
}

/**
 * A column per property of the resource's schema, in schema order. (No property of the two conversation schemas
 * is writeOnly; the conformance check leaves such a property out, so one added to the spec would be noticed.)
 */
function columns(ctx: RequestContext, resourceName: string): Json[] {
  const row = ctx.runtime.resource(resourceName);
  const ref = { $ref: `#/components/schemas/${row.schema}` };
  // The document that holds the resource's schema (the bundled documents hold what they refer to).
  const doc = ctx.runtime.tables.documents.map((d) => d.document as Node).find((d) => resolve(d, ref) !== undefined)!;
  const schema = resolve(doc, ref);
  const properties = schema.properties as Node;
  const required = new Set(schema.required as string[]);
  return row.properties.map((name) => {
    const own = properties[name] as Node;
    const { type, nullable } = sqlType(doc, own);
    // A property's own description wins over the one of the schema it refers to.
    const described = own.description ?? resolve(doc, own).description;
    return { name, type, nullable: nullable || !required.has(name), description: typeof described === 'string' ? described : null };
  });
}

export const metricSqlSchema: Rule = {
  handle(ctx) {
    return { body: { tables: SQL_TABLES.map((t) => ({ name: t.name, description: t.description, columns: columns(ctx, t.resource) })) } };
  },
};
