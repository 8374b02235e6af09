// Answers the control plane scripts per metric and test case (POST /control/organizations/{id}/metric-answers),
// for tests that need a chosen outcome: when one exists for (metric, test case), or for the metric and every
// test case, the evaluator gives it instead of computing or judging. Stored as records of their own kind, so a
// reset removes them with everything else.
import type { Runtime } from '../../engine/context.js';
import { isJsonObject, type Json } from '../../storage/store.js';

const KIND = 'scripted_metric_answer';

export interface ScriptedAnswer {
  metric_id: string;
  /** null: every test case of the metric without an answer of its own. */
  test_case_id: string | null;
  status: 'COMPLETED' | 'FAILED';
  value: number | string | string[] | null;
  explanation: string | null;
}

const idOf = (org: string, metricId: string, testCaseId: string | null): string => `${org}/${metricId}/${testCaseId ?? '*'}`;

export function putScriptedAnswer(runtime: Runtime, org: string, answer: ScriptedAnswer): void {
  const id = idOf(org, answer.metric_id, answer.test_case_id);
  const existing = runtime.store.get(KIND, id);
  if (existing) {
    existing.data = { ...answer };
    runtime.store.update(existing);
  } else {
    runtime.store.insert({ kind: KIND, id, org, workspace: null, deleted: false, data: { ...answer } });
  }
}

/** The scripted answer for this metric and test case (its own first, then the metric's for every test case). */
export function scriptedAnswer(runtime: Runtime, org: string, metricId: string, testCaseId: string | null): ScriptedAnswer | null {
  for (const id of [...(testCaseId === null ? [] : [idOf(org, metricId, testCaseId)]), idOf(org, metricId, null)]) {
    const record = runtime.store.get(KIND, id);
    if (record && isJsonObject(record.data)) return record.data as Json as unknown as ScriptedAnswer;
  }
  return null;
}
