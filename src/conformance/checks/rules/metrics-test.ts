// Metrics at work (issue 25):
// - metric-sql-test (POST /metrics/sql:test, MT29, facts 2.17): a query over a table of GET /metrics/sql-schema
//   returning start_offset_milliseconds and value is answered with a number, row_count and subvalues in
//   seconds (COUNT counts the rows, SUM adds the subvalues); authoring errors (a write, SQL that does not parse,
//   a table the schema does not describe) are 200 with `error` and no value; a body without sql_query is 400.
// - metric-test (POST /metrics/{metric_id}/test, MT30): 202 {metric_output_ulid} at once, and that output
//   appears on the simulated conversation's metrics and ends COMPLETED with a value of the metric's kind (a
//   transcript regex 1 or 0 as the transcript says; a binary judge YES or NO); an invalid regex_pattern ends
//   FAILED with a status_reason; an unknown simulation is 404 on simulation_output_id.
import { expectError, expectStatus, send } from '../../http.js';
import { fail, lacks } from '../../result.js';
import type { Route } from '../../suite-data.js';
import type { Check, CheckContext } from '../context.js';
import { onRule, ruleRoute, show, succeed, type Json } from './records-support.js';

const SQL_TEST = 'metric-sql-test';
const SCHEMA = 'metric-sql-schema';
const METRIC_TEST = 'metric-test';
const OUTPUTS = 'conversation-metric-outputs';

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A table of the SQL schema with start_offset_milliseconds and a numeric column to use as value. */
async function numericTable(ctx: CheckContext): Promise<{ table: string; value: string }> {
  const schemaRoute = ruleRoute(ctx.suite, SCHEMA);
  if (!schemaRoute) lacks('the spec has no SQL schema operation to build a query from');
  const schema = (await succeed(ctx, schemaRoute, {}, 'reading the SQL schema')).body as { tables: { name: string; columns: { name: string; sql_type: string }[] }[] };
  for (const table of schema.tables) {
    const hasOffset = table.columns.some((c) => c.name === 'start_offset_milliseconds');
    const numeric = table.columns.find((c) => c.name !== 'start_offset_milliseconds' && /INT|REAL|DOUBLE|FLOAT|NUMERIC|DECIMAL|BIGINT/i.test(c.sql_type));
    if (hasOffset && numeric) return { table: table.name, value: numeric.name };
  }
  fail(`no table of the SQL schema has start_offset_milliseconds and a numeric column: ${show(schema.tables.map((t) => t.name))}`);
}

interface SqlAnswer {
  value?: number | null;
  row_count?: number;
  aggregation_method?: string | null;
  subvalues?: { start_offset_seconds: number; end_offset_seconds: number; value: number }[];
  error?: string | null;
}

const sqlTestValues: Check = {
  name: `rule ${SQL_TEST}: a query over the schema's tables is aggregated (COUNT counts the rows, SUM adds the subvalues, seconds in subvalues); authoring errors are 200 with error; no sql_query is 400`,
  applies: onRule(SQL_TEST),
  async run(ctx) {
    const { table, value } = await numericTable(ctx);
    const sql = `SELECT start_offset_milliseconds, ${quote(value)} AS value FROM ${quote(table)} WHERE ${quote(value)} IS NOT NULL`;
    const counted = (await succeed(ctx, ctx.route, { body: { sql_query: sql, aggregation_method: 'COUNT' } }, 'a COUNT query')).body as SqlAnswer;
    if (counted.error) fail(`a COUNT query over ${table}: error ${show(counted.error)}`);
    const rows = counted.subvalues ?? [];
    if (typeof counted.row_count !== 'number' || counted.row_count < 1) fail(`a COUNT query over ${table}: row_count ${show(counted.row_count)}, expected at least 1 (the sample has rows)`);
    if (counted.value !== counted.row_count || rows.length !== counted.row_count) fail(`COUNT gave value ${show(counted.value)}, row_count ${show(counted.row_count)} and ${rows.length} subvalues: expected all equal`);
    for (const r of rows) {
      if (![r.start_offset_seconds, r.end_offset_seconds, r.value].every((n) => typeof n === 'number' && Number.isFinite(n))) fail(`a subvalue is not numbers: ${show(r)}`);
      if (r.end_offset_seconds < r.start_offset_seconds) fail(`a subvalue ends before it starts: ${show(r)}`);
    }
    const summed = (await succeed(ctx, ctx.route, { body: { sql_query: sql, aggregation_method: 'SUM' } }, 'a SUM query')).body as SqlAnswer;
    const total = rows.reduce((s, r) => s + r.value, 0);
    if (typeof summed.value !== 'number' || Math.abs(summed.value - total) > 1e-9 * Math.max(1, Math.abs(total))) fail(`SUM gave ${show(summed.value)}, the subvalues add up to ${total}`);
    for (const [what, bad] of [
      ['a write', `DELETE FROM ${quote(table)}`],
      ['SQL that does not parse', 'SELEC start_offset_milliseconds FROM'],
      ['a table the schema does not describe', 'SELECT 0 AS start_offset_milliseconds, 1 AS value FROM conformance_no_such_table'],
    ] as const) {
      const answer = await send(ctx.target, ctx.route, { body: { sql_query: bad } });
      expectStatus(answer, 200, what);
      const body = answer.body as SqlAnswer;
      if (typeof body.error !== 'string' || body.error === '' || (body.value ?? null) !== null) fail(`${what}: expected 200 with an error and no value, got ${show(body)}`);
    }
    expectError(await send(ctx.target, ctx.route, { body: { aggregation_method: 'SUM' } }), 400, 'INVALID_ARGUMENT', 'sql_query', 'a body without sql_query');
  },
};

/** The canonical list of a simulated conversation's metric outputs. */
function outputsRoute(ctx: CheckContext): Route {
  const route = ruleRoute(ctx.suite, OUTPUTS, (r) => r.resource === 'simulation' && r.method === 'GET' && r.params.path.length === 1);
  if (!route) fail(`the spec has no list of a simulated conversation's metric outputs (rule ${OUTPUTS})`);
  return route;
}

/** Polls the simulation's outputs until the output is no longer queued or running (at most 20 s). */
async function finished(ctx: CheckContext, simulationId: string, outputId: string): Promise<Json> {
  const route = outputsRoute(ctx);
  const param = route.params.path[0]!.name;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const listed = (await succeed(ctx, route, { path: { [param]: simulationId }, query: { page_size: '100' } }, "listing the conversation's metric outputs")).body as { metrics: Json[] };
    const output = listed.metrics.find((o) => o.metric_output_id === outputId);
    if (output && output.status !== 'IN QUEUE' && output.status !== 'IN PROGRESS') return output;
    if (Date.now() > deadline) fail(`output ${outputId} is ${output ? `still ${String(output.status)}` : 'not listed on the conversation'} after 20 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const TRANSCRIPT = [
  { role: 'user', content: 'Can I return these shoes?', start_timestamp: '1800000000', end_timestamp: '1800000002', start_offset: 0, end_offset: 2000 },
  { role: 'assistant', content: 'Yes: returns are free within 30 days.', start_timestamp: '1800000003', end_timestamp: '1800000005', start_offset: 3000, end_offset: 5000 },
];

const metricTestFlow: Check = {
  name: `rule ${METRIC_TEST}: 202 {metric_output_ulid} at once; the output appears on the conversation and ends with a value of the metric's kind; an invalid regex ends FAILED with a reason; an unknown simulation is 404`,
  applies: onRule(METRIC_TEST),
  async run(ctx) {
    const simulation = (await ctx.world.loadRecord('simulation', { status: 'COMPLETED', transcript: TRANSCRIPT, metric_values: null })).id;
    const run = async (metric: Json): Promise<Json> => {
      const id = (await ctx.world.create('metric', metric)).id;
      const answer = await send(ctx.target, ctx.route, { path: { [ctx.route.params.path[0]!.name]: id }, body: { simulation_output_id: simulation } });
      expectStatus(answer, 202, `testing a ${String(metric.metric_type)} metric`);
      const ulid = (answer.body as Json).metric_output_ulid;
      if (typeof ulid !== 'string' || ulid === '') fail(`the answer has no metric_output_ulid: ${answer.text.slice(0, 200)}`);
      const output = await finished(ctx, simulation, ulid);
      if (output.metric_id !== id) fail(`the output names metric ${String(output.metric_id)}, expected ${id}`);
      return output;
    };
    const found = await run({ metric_type: 'METRIC_TRANSCRIPT_REGEX', regex_pattern: 'returns are free', role: 'agent', match_mode: 'presence', position: 'any' });
    if (found.status !== 'COMPLETED' || found.value !== 1) fail(`a regex the agent's message matches: expected COMPLETED with 1, got ${show(found)}`);
    const absent = await run({ metric_type: 'METRIC_TRANSCRIPT_REGEX', regex_pattern: 'refund', role: 'agent', match_mode: 'absence', position: 'any' });
    if (absent.status !== 'COMPLETED' || absent.value !== 1) fail(`absence of a pattern nobody said: expected COMPLETED with 1, got ${show(absent)}`);
    const judged = await run({ metric_type: 'METRIC_LLM_BINARY', prompt: 'Did the agent answer the question?' });
    if (judged.status !== 'COMPLETED' || (judged.value !== 'YES' && judged.value !== 'NO')) fail(`a binary judge: expected COMPLETED with YES or NO, got ${show(judged)}`);
    const invalid = await run({ metric_type: 'METRIC_TRANSCRIPT_REGEX', regex_pattern: '(unclosed' });
    if (invalid.status !== 'FAILED' || typeof invalid.status_reason !== 'string' || invalid.status_reason === '') fail(`an invalid regex_pattern: expected FAILED with a status_reason, got ${show(invalid)}`);
    const metric = (await ctx.world.ensure('metric')).id;
    expectError(
      await send(ctx.target, ctx.route, { path: { [ctx.route.params.path[0]!.name]: metric }, body: { simulation_output_id: 'NoSuchSimulationAAAAAA' } }),
      404,
      'NOT_FOUND',
      'simulation_output_id',
      'an unknown simulation',
    );
  },
};

export const checks: Check[] = [sqlTestValues, metricTestFlow];
