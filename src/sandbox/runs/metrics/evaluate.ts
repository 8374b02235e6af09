// One metric on one conversation: the metric type's family (families.ts) picks the evaluator. Pure apart from
// the SQL process: storing the outcome and scripted answers are score.ts's.
import type { TranscriptMessage } from '../contract.js';
import type { Json } from '../../storage/store.js';
import { evaluateDerived, evaluateEndReason, evaluateMetadataField, evaluateToolCall, evaluateToolCallRate } from './context-metrics.js';
import { familyOf } from './families.js';
import { evaluateJudged, judgeDraw } from './judged.js';
import { askJudge, type JudgeEndpointOptions } from './judge-endpoint.js';
import { skipped, type MetricOutcome } from './outcome.js';
import { evaluateRegex } from './regex.js';
import { evaluateSqlMetric } from './sql-metric.js';
import { evaluateLatency, evaluateLoops, evaluatePauses, evaluateSpeakingTime, evaluateWordsPerMessage } from './timing.js';

export interface ConversationInput {
  transcript: readonly TranscriptMessage[];
  testCaseId: string | null;
  /** Where metadata-field metrics look, in order (the simulation's metadata, its run's). */
  metadata: readonly Json[];
  /** The current value of another metric's output on this conversation (derived metrics). */
  valueOf(metricId: string): unknown;
  /** The judge endpoint judged metrics ask instead of the stand-ins (createSandbox's `judge` option), if any. */
  judge?: JudgeEndpointOptions;
}

export async function evaluateMetric(metricId: string, metric: Json, input: ConversationInput): Promise<MetricOutcome> {
  const family = familyOf(metric.metric_type);
  const t = input.transcript;
  switch (family.kind) {
    case 'judged':
      if (input.judge) return askJudge(input.judge, family.judge, metric, t);
      return evaluateJudged(family.judge, metric, judgeDraw(metricId, input.testCaseId, t));
    case 'unavailable':
      return skipped(family.needs === 'audio' ? 'this metric analyses audio; a simulated chat conversation has no recording' : 'this metric reads traces; the sandbox records none for simulated conversations');
    case 'computed':
      switch (family.by) {
        case 'regex':
          return evaluateRegex(metric, t);
        case 'sql':
          return evaluateSqlMetric(metric, t);
        case 'pause':
          return evaluatePauses(metric, t);
        case 'latency':
          return evaluateLatency(metric, t);
        case 'speaking-time':
          return evaluateSpeakingTime(metric, t);
        case 'words-per-message':
          return evaluateWordsPerMessage(metric, t);
        case 'loops':
          return evaluateLoops(metric, t);
        case 'metadata-field':
          return evaluateMetadataField(metric, input.metadata);
        case 'tool-call':
          return evaluateToolCall(metric, t);
        case 'tool-call-rate':
          return evaluateToolCallRate(metric, t);
        case 'end-reason':
          return evaluateEndReason(metric, t);
        case 'derived-aggregate':
          return evaluateDerived(metric, false, input.valueOf);
        case 'derived-strict':
          return evaluateDerived(metric, true, input.valueOf);
      }
  }
}

/** Whether a metric reads other metrics' outputs, so it is scored after them. */
export function isDerived(metric: Json): boolean {
  const family = familyOf(metric.metric_type);
  return family.kind === 'computed' && (family.by === 'derived-aggregate' || family.by === 'derived-strict');
}
