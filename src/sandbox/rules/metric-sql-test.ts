// metric-sql-test (POST /metrics/sql:test, facts-shapes MT29, facts 2.17): runs `sql_query` read-only over the
// fixed sample conversation's data frames (runs/metrics/frames.ts: SAMPLE_TRANSCRIPT, not the organization's
// data) and aggregates its rows by `aggregation_method` (default AVERAGE). An authoring error (SQL that does not
// parse, writes, names a table or column the schema does not describe, returns no rows or no usable columns, an
// unknown aggregation) is 200 with `error`; only a malformed body is 400 (the validators). The query runs in
// the SQL child process, outside any store transaction (it reads no record).
import type { Rule } from '../engine/hooks.js';
import { bodyOf } from '../engine/request-parts.js';
import { SAMPLE_TRANSCRIPT } from '../runs/metrics/frames.js';
import { aggregationOf, evaluateSql } from '../runs/metrics/sql-metric.js';

const seconds = (ms: number): number => ms / 1000;

export const metricSqlTest: Rule = {
  async handleUnlocked(ctx) {
    const body = bodyOf(ctx, 'testMetricSql');
    const unit = body.unit ?? null;
    const result = await evaluateSql(body.sql_query, body.aggregation_method, SAMPLE_TRANSCRIPT);
    if (!result.ok) {
      return { body: { value: null, unit, aggregation_method: aggregationOf(body.aggregation_method), row_count: result.rowCount, subvalues: [], error: result.error } };
    }
    return {
      body: {
        value: result.value,
        unit,
        aggregation_method: result.aggregation,
        row_count: result.rows.length,
        subvalues: result.rows.map((r) => ({ start_offset_seconds: seconds(r.start_offset_milliseconds), end_offset_seconds: seconds(r.end_offset_milliseconds), value: r.value })),
        error: null,
      },
    };
  },
};
