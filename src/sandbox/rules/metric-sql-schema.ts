// metric-sql-schema (GET /metrics/sql-schema): the tables a SQL metric's sql_query reads, in the shape of
// facts-shapes MT28: `{tables: [{name, columns: [{name, sql_type, enum}], sample_rows}]}` (plus a description of
// each table and column). They are exactly the data frames the queries run over (runs/metrics/frames.ts, the one
// definition): the sample rows are the first rows of the fixed sample POST /metrics/sql:test runs over.
import type { Rule } from '../engine/hooks.js';
import { FRAME_TABLES, framesOf, SAMPLE_ROWS_SHOWN, SAMPLE_TRANSCRIPT } from '../runs/metrics/frames.js';

export const metricSqlSchema: Rule = {
  handle() {
    const sample = framesOf(SAMPLE_TRANSCRIPT);
    return {
      body: {
        tables: FRAME_TABLES.map((t) => ({
          name: t.name,
          description: t.description,
          columns: t.columns.map((c) => ({ name: c.name, sql_type: c.sql_type, enum: c.enum, description: c.description })),
          sample_rows: (sample[t.name] ?? []).slice(0, SAMPLE_ROWS_SHOWN),
        })),
      },
    };
  },
};
