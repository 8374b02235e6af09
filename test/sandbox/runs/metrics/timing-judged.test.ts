// Pause and latency from the transcript's timings (seconds), the other computed metrics, and the judge
// stand-ins: deterministic from (metric, test case, transcript), always of the judge's kind and range.
import { describe, expect, it } from 'vitest';
import { evaluateDerived, evaluateMetadataField, evaluateToolCall } from '../../../../src/sandbox/runs/metrics/context-metrics.js';
import { evaluateMetric, type ConversationInput } from '../../../../src/sandbox/runs/metrics/evaluate.js';
import { METRIC_FAMILIES } from '../../../../src/sandbox/runs/metrics/families.js';
import { evaluateJudged, judgeDraw, judgedValueProblem, STAND_IN_EXPLANATION } from '../../../../src/sandbox/runs/metrics/judged.js';
import { evaluateLatency, evaluatePauses } from '../../../../src/sandbox/runs/metrics/timing.js';
import { CHAT, msg } from './transcripts.js';

describe('pause and latency', () => {
  it('measures the longest pause between turns of at least min_pause_duration_seconds, in seconds', () => {
    // Gaps in CHAT: 0.5 s, 3 s, 0.3 s (the tool message is not a turn).
    expect(evaluatePauses({ min_pause_duration_seconds: 0.5 }, CHAT)).toMatchObject({ status: 'COMPLETED', value: 3 });
    const out = evaluatePauses({ min_pause_duration_seconds: 0.5 }, CHAT);
    expect(out.subvalues!.map((s) => s.float_value)).toEqual([0.5, 3]);
    expect(evaluatePauses({ min_pause_duration_seconds: 5 }, CHAT)).toMatchObject({ value: 0, subvalues: [] });
  });

  it("averages the agent's response latency over the replies to user turns, in seconds", () => {
    expect(evaluateLatency({}, CHAT)).toMatchObject({ status: 'COMPLETED', value: 0.4 });
    const agentFirst = [msg('assistant', 'Hello', 0, 500), msg('user', 'Hi', 1500, 2000), msg('assistant', 'How can I help?', 3250, 4000)];
    expect(evaluateLatency({}, agentFirst).value).toBe(1.25);
    expect(evaluateLatency({}, [msg('user', 'Hello?', 0, 500)])).toMatchObject({ status: 'SKIPPED', value: null });
  });
});

describe('metadata field, tool call, derived', () => {
  it('reads a metadata field as its declared type', () => {
    const sources = [{ tier: 'gold', score: '7.5', vip: true, nested: { region: 'EU' } }];
    expect(evaluateMetadataField({ metadata_field_key: 'score', metadata_field_type: 'NUMBER' }, sources)).toMatchObject({ status: 'COMPLETED', value: 7.5 });
    expect(evaluateMetadataField({ metadata_field_key: 'vip', metadata_field_type: 'BOOLEAN' }, sources)).toMatchObject({ value: 1 });
    expect(evaluateMetadataField({ metadata_field_key: 'nested.region', metadata_field_type: 'STRING' }, sources)).toMatchObject({ value: 'EU' });
    expect(evaluateMetadataField({ metadata_field_key: 'tier', metadata_field_type: 'NUMBER' }, sources)).toMatchObject({ status: 'FAILED' });
    expect(evaluateMetadataField({ metadata_field_key: 'missing', metadata_field_type: 'STRING' }, sources)).toMatchObject({ status: 'FAILED', status_reason: expect.stringMatching(/missing/) });
  });

  it('answers YES when the agent called a tool, NO otherwise', () => {
    expect(evaluateToolCall({}, CHAT)).toMatchObject({ value: 'YES', explanation: expect.stringMatching(/track_parcel/) });
    expect(evaluateToolCall({}, CHAT.filter((m) => !m.tool_calls))).toMatchObject({ value: 'NO' });
  });

  it('derives from the other outputs', () => {
    const values: Record<string, unknown> = { a: 'YES', b: 0.5, c: 'NO' };
    expect(evaluateDerived({ dependency_metric_ids: ['a', 'b'] }, false, (id) => values[id])).toMatchObject({ value: 0.75 });
    expect(evaluateDerived({ dependency_metric_ids: ['a', 'b'] }, true, (id) => values[id])).toMatchObject({ value: 'YES' });
    expect(evaluateDerived({ dependency_metric_ids: ['a', 'c'] }, true, (id) => values[id])).toMatchObject({ value: 'NO' });
    expect(evaluateDerived({ dependency_metric_ids: ['z'] }, false, (id) => values[id])).toMatchObject({ status: 'FAILED' });
  });
});

describe('judge stand-ins', () => {
  const draws = Array.from({ length: 200 }, (_, i) => judgeDraw('metric', `case${i}`, CHAT));

  it('are deterministic from metric, test case and transcript, and vary with each', () => {
    expect(judgeDraw('metric', 'case1', CHAT)).toBe(judgeDraw('metric', 'case1', structuredClone(CHAT)));
    expect(judgeDraw('metric', 'case1', CHAT)).not.toBe(judgeDraw('other', 'case1', CHAT));
    expect(judgeDraw('metric', 'case1', CHAT)).not.toBe(judgeDraw('metric', 'case1', CHAT.slice(1)));
    expect(new Set(draws).size).toBe(200);
  });

  it('answer binary judges YES or NO, both occurring', () => {
    const values = draws.map((d) => evaluateJudged('binary', {}, d).value);
    expect(new Set(values)).toEqual(new Set(['YES', 'NO']));
  });

  it('answer categorical judges with one of the categories, each occurring', () => {
    const metric = { categories: ['polite', 'neutral', 'rude'] };
    expect(new Set(draws.map((d) => evaluateJudged('categorical', metric, d).value))).toEqual(new Set(metric.categories));
    expect(evaluateJudged('categorical', {}, 0.3)).toMatchObject({ status: 'FAILED' });
  });

  it('answer numerical judges within min_value..max_value, reaching both ends', () => {
    const values = draws.map((d) => evaluateJudged('numerical', { min_value: 1, max_value: 10 }, d).value as number);
    expect(Math.min(...values)).toBe(1);
    expect(Math.max(...values)).toBe(10);
    expect(values.every(Number.isInteger)).toBe(true);
    const fractional = draws.map((d) => evaluateJudged('numerical', { min_value: 0.5, max_value: 0.75 }, d).value as number);
    expect(fractional.every((v) => v >= 0.5 && v <= 0.75)).toBe(true);
  });

  it('answer composite evaluations with a fraction 0-1 of the criteria', () => {
    const values = draws.map((d) => evaluateJudged('composite', { criteria: ['a', 'b', 'c', 'd'] }, d).value as number);
    expect(new Set(values)).toEqual(new Set([0, 0.25, 0.5, 0.75, 1]));
  });

  it('say they are stand-ins', () => {
    expect(evaluateJudged('binary', {}, 0.1).explanation).toBe(STAND_IN_EXPLANATION);
    expect(STAND_IN_EXPLANATION).toMatch(/stand-in/);
  });

  it('check scripted values against the judge kind', () => {
    expect(judgedValueProblem('binary', {}, 'YES')).toBeNull();
    expect(judgedValueProblem('binary', {}, 'yes')).not.toBeNull();
    expect(judgedValueProblem('numerical', { min_value: 1, max_value: 5 }, 6)).not.toBeNull();
    expect(judgedValueProblem('categorical', { categories: ['a', 'b'] }, 'b')).toBeNull();
  });
});

describe('every metric type of the spec', () => {
  const input: ConversationInput = { transcript: CHAT, testCaseId: 'tc', metadata: [{ k: 1 }], valueOf: () => 1 };
  it.each(Object.keys(METRIC_FAMILIES))('%s gives an outcome of its family, never an exception', async (type) => {
    const metric = { metric_type: type, regex_pattern: 'Order', sql_query: 'SELECT start_offset_milliseconds, word_count AS value FROM messages', categories: ['x', 'y'], metadata_field_key: 'k', metadata_field_type: 'NUMBER', dependency_metric_ids: ['m'], min_pause_duration_seconds: 1 };
    const out = await evaluateMetric('metric', metric, input);
    const family = METRIC_FAMILIES[type as keyof typeof METRIC_FAMILIES];
    if (family.kind === 'unavailable') expect(out).toMatchObject({ status: 'SKIPPED', value: null, status_reason: expect.any(String) });
    else expect(out.status).toBe('COMPLETED');
    if (family.kind === 'judged' && family.judge === 'binary') expect(['YES', 'NO']).toContain(out.value);
  });
});
