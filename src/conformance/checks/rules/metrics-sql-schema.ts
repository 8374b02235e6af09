// metric-sql-schema (docs/sandbox.md "Metrics", the sandbox's design where the facts give no shape): the tables
// a SQL metric reads are the two conversation sources, with a column per field of the conversation resources as
// the spec declares them (the id a non-null text column, timestamps as timestamp with time zone).
import { fail } from '../../result.js';
import type { Check } from '../context.js';
import { operationWithRule, show, succeed } from './records-support.js';

const RULE = 'metric-sql-schema';
const TABLES: Record<string, string> = { uploaded_conversations: 'conversation', simulated_conversations: 'simulation' };

interface Column {
  name: string;
  type: string;
  nullable: boolean;
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
      const created = table.columns.find((c) => c.name === 'create_time');
      if (created && created.type !== 'timestamp with time zone') fail(`${table.name}.create_time has type ${show(created.type)}, expected timestamp with time zone`);
    }
  },
};

export const checks: Check[] = [sqlSchema];
