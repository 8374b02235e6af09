// metric-sql-schema (GET /metrics/sql-schema, facts-shapes MT28): every table has a name and columns, each
// column a name and a sql_type, an enum null or {name, values}; sample rows carry only the table's columns, and
// an enumerated column's sample values are among its values. The schema describes what SQL metrics read: every
// column of every table can be selected by POST /metrics/sql:test (the rule metric-sql-test) without an error.
import { fail } from '../../result.js';
import type { Check } from '../context.js';
import { operationWithRule, ruleRoute, show, succeed } from './records-support.js';

const RULE = 'metric-sql-schema';
const SQL_TEST = 'metric-sql-test';

interface Column {
  name: string;
  sql_type: string;
  enum?: { name: string; values: string[] } | null;
}
interface Table {
  name: string;
  columns: Column[];
  sample_rows?: Record<string, unknown>[];
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export const sqlSchema: Check = {
  name: `rule ${RULE}: tables with typed columns (sql_type, enum), sample rows of those columns; every column can be queried by sql:test`,
  applies: operationWithRule('metric', 'custom', RULE),
  async run(ctx) {
    const body = (await succeed(ctx, ctx.route, {}, 'reading the SQL schema')).body as { tables: Table[] };
    if (body.tables.length === 0) fail('the schema names no table');
    for (const table of body.tables) {
      if (table.columns.length === 0) fail(`table ${table.name} has no column`);
      const names = new Set(table.columns.map((c) => c.name));
      if (names.size !== table.columns.length) fail(`table ${table.name} names a column twice: ${show(table.columns.map((c) => c.name))}`);
      for (const column of table.columns) {
        if (column.sql_type.trim() === '') fail(`${table.name}.${column.name} has an empty sql_type`);
        if (column.enum && column.enum.values.length === 0) fail(`${table.name}.${column.name} has an enum without values`);
      }
      for (const [i, row] of (table.sample_rows ?? []).entries()) {
        const extra = Object.keys(row).filter((k) => !names.has(k));
        if (extra.length > 0) fail(`${table.name}.sample_rows[${i}] has fields the table does not declare: ${show(extra)}`);
        for (const column of table.columns) {
          const value = row[column.name];
          if (column.enum && value !== undefined && value !== null && !column.enum.values.includes(String(value))) fail(`${table.name}.sample_rows[${i}].${column.name} is ${show(value)}, not one of its enum ${show(column.enum.values)}`);
        }
      }
    }
    const test = ruleRoute(ctx.suite, SQL_TEST);
    if (!test) return;
    for (const table of body.tables) {
      const sql = `SELECT ${table.columns.map((c) => quote(c.name)).join(', ')}, 0 AS start_offset_milliseconds, 1 AS value FROM ${quote(table.name)}`;
      const answer = (await succeed(ctx, test, { body: { sql_query: sql, aggregation_method: 'COUNT' } }, `selecting every column of ${table.name}`)).body as { error?: string | null; row_count?: number };
      // A table the sample leaves empty answers "no rows": the query itself was accepted.
      if (answer.error && !/no rows/i.test(answer.error)) fail(`selecting every column of ${table.name} the schema describes: ${answer.error}`);
    }
  },
};

export const checks: Check[] = [sqlSchema];
