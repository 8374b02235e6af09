// SQL metrics over a conversation's data frames: rows aggregated by each method, the columns a query must
// return, and every authoring error answered as a message (a write, a parse error, an unknown table, no rows, a
// runaway query), with the SQL process recovering after being stopped.
import { describe, expect, it } from 'vitest';
import { FRAME_TABLES, framesOf, SAMPLE_TRANSCRIPT } from '../../../../src/sandbox/runs/metrics/frames.js';
import { evaluateSql, evaluateSqlMetric } from '../../../../src/sandbox/runs/metrics/sql-metric.js';
import { CHAT } from './transcripts.js';

const LATENCY = 'SELECT start_offset_milliseconds, end_offset_milliseconds, latency_milliseconds AS value FROM agent_turns';

describe('data frames', () => {
  it('build every declared column of every table, and nothing else', () => {
    const frames = framesOf(CHAT);
    for (const table of FRAME_TABLES) {
      for (const row of frames[table.name]!) expect(Object.keys(row).sort()).toEqual(table.columns.map((c) => c.name).sort());
    }
    expect(frames.messages).toHaveLength(5);
    expect(frames.tool_calls).toEqual([{ message_index: 1, start_offset_milliseconds: 2500, end_offset_milliseconds: 4000, tool_name: 'track_parcel', arguments: '{"id":12}' }]);
    expect(frames.agent_turns!.map((r) => r.latency_milliseconds)).toEqual([500, 300]);
  });
});

describe('SQL over the frames', () => {
  it.each([
    ['AVERAGE', 400],
    ['SUM', 800],
    ['MIN', 300],
    ['MAX', 500],
    ['COUNT', 2],
    [undefined, 400],
    ['sum', 800],
  ])('aggregates the rows by %s', async (method, expected) => {
    const result = await evaluateSql(LATENCY, method, CHAT);
    expect(result).toMatchObject({ ok: true, value: expected });
  });

  it('keeps each row with its offsets (end defaults to start)', async () => {
    const result = await evaluateSql("SELECT start_offset_milliseconds, word_count AS value FROM messages WHERE role = 'user'", 'SUM', CHAT);
    expect(result).toEqual({
      ok: true,
      aggregation: 'SUM',
      value: 7,
      rows: [
        { start_offset_milliseconds: 0, end_offset_milliseconds: 0, value: 4 },
        { start_offset_milliseconds: 7000, end_offset_milliseconds: 7000, value: 3 },
      ],
    });
  });

  it.each([
    ['a write', "DELETE FROM messages WHERE role = 'user'", /writes/],
    ['a schema change', 'CREATE TABLE x (a INTEGER)', /writes/],
    ['SQL that does not parse', 'SELEC value FROM messages', /syntax error/],
    ['a table the schema does not describe', 'SELECT 1 AS value, 0 AS start_offset_milliseconds FROM conversations', /no such table/],
    ['a column the schema does not describe', 'SELECT sentiment AS value, start_offset_milliseconds FROM messages', /no such column/],
    ['no rows', "SELECT start_offset_milliseconds, 1 AS value FROM messages WHERE role = 'nobody'", /no rows/],
    ['no value column', 'SELECT start_offset_milliseconds FROM messages', /value column/],
    ['a text value', 'SELECT start_offset_milliseconds, content AS value FROM messages', /must be a number/],
    ['two statements', 'SELECT 1 AS value, 0 AS start_offset_milliseconds; SELECT 2', /more than one statement/],
    ['an empty query', '   ', /empty/],
  ])('answers %s as an error', async (_name, sql, error) => {
    const result = await evaluateSql(sql, 'AVERAGE', CHAT);
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.error).toMatch(error);
  });

  it('refuses an unknown aggregation', async () => {
    const result = await evaluateSql(LATENCY, 'MEDIAN', CHAT);
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/MEDIAN/) });
  });

  it('stops a query that never ends, and the next query still runs', async () => {
    const forever = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT 0 AS start_offset_milliseconds, count(*) AS value FROM c';
    const result = await evaluateSql(forever, 'SUM', CHAT);
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/ran longer than/) });
    expect(await evaluateSql(LATENCY, 'COUNT', CHAT)).toMatchObject({ ok: true, value: 2 });
  }, 30_000);

  it('refuses a result of too many rows', async () => {
    const many = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT x AS start_offset_milliseconds, 1 AS value FROM c';
    expect(await evaluateSql(many, 'SUM', CHAT)).toMatchObject({ ok: false, error: expect.stringMatching(/more than 10000 rows/) });
  }, 30_000);

  it('scores a SQL metric, FAILED with the reason on an authoring error', async () => {
    const ok = await evaluateSqlMetric({ sql_query: LATENCY, aggregation_method: 'MAX' }, CHAT);
    expect(ok).toMatchObject({ status: 'COMPLETED', value: 500 });
    expect(ok.subvalues).toEqual([
      { start_offset: 2500, end_offset: 4000, output_type: 'float', float_value: 500 },
      { start_offset: 8300, end_offset: 9000, output_type: 'float', float_value: 300 },
    ]);
    const bad = await evaluateSqlMetric({ sql_query: 'DROP TABLE messages' }, CHAT);
    expect(bad).toMatchObject({ status: 'FAILED', value: null, status_reason: expect.stringMatching(/^sql_query: /) });
  });

  it('runs over the shipped sample', async () => {
    const result = await evaluateSql("SELECT start_offset_milliseconds, 1 AS value FROM tool_calls WHERE tool_name = 'update_address'", 'COUNT', SAMPLE_TRANSCRIPT);
    expect(result).toMatchObject({ ok: true, value: 1 });
  });
});
