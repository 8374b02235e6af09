// metric-sql-schema (docs/sandbox.md "Metrics", the sandbox's design where the facts give no shape): the tables
// a SQL metric reads are the two conversation sources, with a column per field of the conversation resources as
// the spec declares them: its SQL type from the field's JSON type (string text, date-time timestamp with time
// zone, integer bigint, number double precision, boolean boolean, anything else jsonb), nullable when the field
// is optional or may be null, and the field's description (its own, else the one of the schema it refers to).
import { fail } from '../../result.js';
import { deref } from '../../world.js';
import type { Check } from '../context.js';
import { operationWithRule, show, succeed } from './records-support.js';

const RULE = 'metric-sql-schema';
const TABLES: Record<string, string> = { uploaded_conversations: 'conversation', simulated_conversations: 'simulation' };

interface Column {
  name: string;
  type: string;
  nullable: boolean;
  description: string | null;
}

type Node = Record<string, unknown>;

/** The JSON types a field's schema allows (through $ref, oneOf, anyOf, allOf), and whether it is a date-time. */
function typesOf(node: unknown, defs: Record<string, unknown>, out = { types: new Set<string>(), dateTime: false }): typeof out {
  const s = deref(node, defs);
  for (const t of Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : []) out.types.add(String(t));
  if (Array.isArray(s.enum) && s.enum.includes(null)) out.types.add('null');
  if (s.format === 'date-time') out.dateTime = true;
  for (const key of ['oneOf', 'anyOf', 'allOf']) for (const part of Array.isArray(s[key]) ? (s[key] as unknown[]) : []) typesOf(part, defs, out);
  return out;
}

const SCALARS: Record<string, string> = { string: 'text', integer: 'bigint', number: 'double precision', boolean: 'boolean' };

/** The column docs/sandbox.md describes for a field of the resource's schema. */
function expectedColumn(schema: Node, name: string, defs: Record<string, unknown>): Column {
  const own = (schema.properties as Node)[name];
  const { types, dateTime } = typesOf(own, defs);
  const mayBeNull = types.delete('null');
  const only = types.size === 1 ? [...types][0]! : undefined;
  const type = only === 'string' && dateTime ? 'timestamp with time zone' : only !== undefined && SCALARS[only] ? SCALARS[only] : 'jsonb';
  const required = Array.isArray(schema.required) && schema.required.includes(name);
  const described = [own as Node, deref(own, defs)].find((n) => typeof n?.description === 'string');
  return { name, type, nullable: mayBeNull || !required, description: described ? String(described.description) : null };
}

export const sqlSchema: Check = {
  name: `rule ${RULE}: a table per conversation source, a column per field of its resource with the SQL type of the field`,
  applies: operationWithRule('metric', 'custom', RULE),
  async run(ctx) {
    const body = (await succeed(ctx, ctx.route, {}, 'reading the SQL schema')).body as { tables: { name: string; columns: Column[] }[] };
    const names = body.tables.map((t) => t.name);
    if (show(names) !== show(Object.keys(TABLES))) fail(`the tables are ${show(names)}, expected ${show(Object.keys(TABLES))}`);
    for (const table of body.tables) {
      const resource = ctx.world.resource(TABLES[table.name]!);
      const hidden = new Set(resource.writeOnly.filter((p) => p.length === 1).map((p) => p[0]));
      const expected = resource.properties.filter((p) => !hidden.has(p));
      const columns = table.columns.map((c) => c.name);
      if (show(columns) !== show(expected)) fail(`${table.name} has the columns ${show(columns)}, expected the ${resource.name} fields ${show(expected)}`);
      const id = table.columns.find((c) => c.name === resource.id);
      if (id?.type !== 'text' || id.nullable) fail(`${table.name}.${resource.id} is ${show(id)}, expected a text column that is never NULL`);
      const schema = deref({ $ref: `#/$defs/${resource.schema}` }, ctx.world.defs);
      const wrong = table.columns.filter((c) => show(c) !== show(expectedColumn(schema, c.name, ctx.world.defs)));
      if (wrong.length > 0) fail(`${table.name}: ${wrong.map((c) => `${show(c)}, expected ${show(expectedColumn(schema, c.name, ctx.world.defs))}`).join('; ')}`);
    }
  },
};

export const checks: Check[] = [sqlSchema];
