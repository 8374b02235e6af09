// Stand-ins for the service's LLM judges (the sandbox has no language model): an answer of the judge's kind
// (facts 2.17: binary YES | NO strings, categorical one of `categories`, numerical a number within
// min_value..max_value, composite the fraction of criteria met), deterministic from a hash of the metric, the
// test case and the transcript, so the same conversation always gets the same answer and a changed transcript
// may get another. The explanation says it is a stand-in. Answers for chosen outcomes: scripted.ts.
import { createHash } from 'node:crypto';
import type { TranscriptMessage } from '../contract.js';
import type { Json } from '../../storage/store.js';
import { completed, failed, type MetricOutcome } from './outcome.js';

export type JudgedKind = 'binary' | 'categorical' | 'numerical' | 'composite';

/** The scale of a numerical judge without min_value / max_value (our choice: the common 1-5 rating scale). */
export const DEFAULT_NUMERICAL_RANGE = { min: 1, max: 5 } as const;

export const STAND_IN_EXPLANATION =
  'Sandbox stand-in for an LLM judge: no model was called; the answer is derived deterministically from a hash of the metric, the test case and the transcript.';

/** 32 bits of the hash of (metric, test case, transcript), as a fraction in [0, 1). */
export function judgeDraw(metricId: string, testCaseId: string | null, transcript: readonly TranscriptMessage[]): number {
  const digest = createHash('sha256').update(JSON.stringify([metricId, testCaseId, transcript.map((m) => [m.role, m.content, m.tool_calls ?? null])])).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** The range of a numerical judge: its min_value..max_value, defaults where one is missing. */
export function numericalRange(metric: Json): { min: number; max: number } {
  const min = typeof metric.min_value === 'number' ? metric.min_value : DEFAULT_NUMERICAL_RANGE.min;
  const max = typeof metric.max_value === 'number' ? metric.max_value : Math.max(min, DEFAULT_NUMERICAL_RANGE.max);
  return { min, max };
}

function categoriesOf(metric: Json): string[] {
  return Array.isArray(metric.categories) ? metric.categories.filter((c): c is string => typeof c === 'string') : [];
}

/** The value a composite evaluation reports for `met` of `total` criteria, by its reporting_method. */
function compositeValue(metric: Json, met: number, total: number): number {
  if (metric.reporting_method === 'count_of_criteria_met') return met;
  if (metric.reporting_method === 'all_criteria_met') return met === total ? 1 : 0;
  return round2(met / total);
}

export function evaluateJudged(kind: JudgedKind, metric: Json, draw: number): MetricOutcome {
  const result = { llm: STAND_IN_EXPLANATION, sandbox_stand_in: true };
  switch (kind) {
    case 'binary':
      return completed(draw < 0.5 ? 'YES' : 'NO', STAND_IN_EXPLANATION, { result });
    case 'categorical': {
      const categories = categoriesOf(metric);
      if (categories.length === 0) return failed('the metric has no categories to answer with');
      return completed(categories[Math.floor(draw * categories.length)]!, STAND_IN_EXPLANATION, { result });
    }
    case 'numerical': {
      const { min, max } = numericalRange(metric);
      if (max < min) return failed(`max_value ${max} is below min_value ${min}`);
      // Whole steps when the scale's ends are whole (a 1-5 rating), else two decimals; always inside the range.
      const whole = Number.isInteger(min) && Number.isInteger(max);
      const value = whole ? min + Math.floor(draw * (max - min + 1)) : Math.min(max, Math.max(min, round2(min + draw * (max - min))));
      return completed(value, STAND_IN_EXPLANATION, { result });
    }
    case 'composite': {
      const total = Math.max(1, Array.isArray(metric.criteria) ? metric.criteria.length : 0);
      const met = Math.floor(draw * (total + 1));
      return completed(compositeValue(metric, met, total), `${STAND_IN_EXPLANATION} ${met} of ${total} criteria counted as met.`, { result });
    }
  }
}

/** Why `value` is not an answer a judge of this kind could give (for scripted answers), or null when it is. */
export function judgedValueProblem(kind: JudgedKind, metric: Json, value: unknown): string | null {
  switch (kind) {
    case 'binary':
      return value === 'YES' || value === 'NO' || value === 'UNKNOWN' ? null : 'a binary judge answers YES, NO or UNKNOWN';
    case 'categorical': {
      const categories = categoriesOf(metric);
      return typeof value === 'string' && categories.includes(value) ? null : `must be one of the metric's categories (${categories.join(', ')})`;
    }
    case 'numerical': {
      const { min, max } = numericalRange(metric);
      return typeof value === 'number' && value >= min && value <= max ? null : `must be a number within ${min}..${max}`;
    }
    case 'composite':
      if (metric.reporting_method === 'count_of_criteria_met') return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? null : 'must be a count of criteria met';
      return typeof value === 'number' && value >= 0 && value <= 1 ? null : 'must be a fraction within 0..1';
  }
}
