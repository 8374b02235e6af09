// SQL metrics (METRIC_SQL_FLOAT, facts 2.17): `sql_query` returns rows with `start_offset_milliseconds` and
// `value` (and, optionally, `end_offset_milliseconds`), aggregated by `aggregation_method` SUM | AVERAGE | MIN |
// MAX | COUNT (default AVERAGE). The same evaluation serves a metric on a conversation and POST /metrics/sql:test
// on the sample (rules/metric-sql-test.ts): an authoring error is a message, never an exception.
import type { TranscriptMessage } from '../contract.js';
import type { Json } from '../../storage/store.js';
import { framesOf } from './frames.js';
import { completed, failed, type MetricOutcome, type Subvalue } from './outcome.js';
import { runFrameQuery } from './sql-runner.js';

export const AGGREGATIONS = ['SUM', 'AVERAGE', 'MIN', 'MAX', 'COUNT'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export interface SqlRow {
  start_offset_milliseconds: number;
  end_offset_milliseconds: number;
  value: number;
}

export type SqlEvaluation = { ok: true; aggregation: Aggregation; value: number; rows: SqlRow[] } | { ok: false; error: string; rowCount: number };

/** The aggregation a metric or a test names (any case), AVERAGE when none; null for a name that is not one. */
export function aggregationOf(name: unknown): Aggregation | null {
  if (name === undefined || name === null || name === '') return 'AVERAGE';
  const upper = String(name).toUpperCase();
  return (AGGREGATIONS as readonly string[]).includes(upper) ? (upper as Aggregation) : null;
}

export function aggregate(values: readonly number[], method: Aggregation): number {
  switch (method) {
    case 'SUM':
      return values.reduce((a, b) => a + b, 0);
    case 'AVERAGE':
      return values.reduce((a, b) => a + b, 0) / values.length;
    case 'MIN':
      return Math.min(...values);
    case 'MAX':
      return Math.max(...values);
    case 'COUNT':
      return values.length;
  }
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Runs `sql` over the transcript's frames and aggregates it; an authoring error is `{ok: false, error}`. */
export async function evaluateSql(sql: unknown, aggregationName: unknown, transcript: readonly TranscriptMessage[]): Promise<SqlEvaluation> {
  if (typeof sql !== 'string' || sql.trim() === '') return { ok: false, error: 'the query is empty', rowCount: 0 };
  const aggregation = aggregationOf(aggregationName);
  if (aggregation === null) return { ok: false, error: `aggregation_method ${JSON.stringify(aggregationName)} is not one of ${AGGREGATIONS.join(', ')}`, rowCount: 0 };
  const answer = await runFrameQuery(sql, framesOf(transcript));
  if (!answer.ok) return { ok: false, error: answer.error, rowCount: 0 };
  for (const needed of ['start_offset_milliseconds', 'value']) {
    if (!answer.columns.includes(needed)) return { ok: false, error: `the query must return a ${needed} column (it returns ${answer.columns.join(', ') || 'none'})`, rowCount: answer.rows.length };
  }
  if (answer.rows.length === 0) return { ok: false, error: 'the query returned no rows', rowCount: 0 };
  const rows: SqlRow[] = [];
  for (const [i, row] of answer.rows.entries()) {
    if (row.value === null) continue; // a row without a value is not counted (SQL aggregates skip NULL alike)
    if (!isNumber(row.value)) return { ok: false, error: `row ${i}: value must be a number, got ${JSON.stringify(row.value)}`, rowCount: answer.rows.length };
    if (!isNumber(row.start_offset_milliseconds)) return { ok: false, error: `row ${i}: start_offset_milliseconds must be a number`, rowCount: answer.rows.length };
    const end = isNumber(row.end_offset_milliseconds) ? row.end_offset_milliseconds : row.start_offset_milliseconds;
    rows.push({ start_offset_milliseconds: row.start_offset_milliseconds, end_offset_milliseconds: end, value: row.value });
  }
  if (rows.length === 0) return { ok: false, error: 'every row of the query has a NULL value', rowCount: answer.rows.length };
  return { ok: true, aggregation, value: aggregate(rows.map((r) => r.value), aggregation), rows };
}

/** METRIC_SQL_FLOAT on one conversation. */
export async function evaluateSqlMetric(metric: Json, transcript: readonly TranscriptMessage[]): Promise<MetricOutcome> {
  const result = await evaluateSql(metric.sql_query, metric.aggregation_method, transcript);
  if (!result.ok) return failed(`sql_query: ${result.error}`);
  const subvalues: Subvalue[] = result.rows.map((r) => ({ start_offset: r.start_offset_milliseconds, end_offset: r.end_offset_milliseconds, output_type: 'float', float_value: r.value }));
  return completed(result.value, `${result.aggregation} of ${result.rows.length} row(s) of sql_query.`, { subvalues });
}
