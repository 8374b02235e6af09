// POST /control/organizations/{id}/metric-answers: scripts the answer a metric gives on the conversations of one
// test case (or of every test case, test_case_id null), for tests that need a chosen outcome (a NO from a judge,
// a FAILED output). The evaluator (runs/metrics/score.ts) gives a scripted answer instead of computing or
// judging, in runs, re-runs and metric tests alike. A judged metric's value must be one its judge could give
// (YES/NO/UNKNOWN, one of its categories, a number in its range); any other metric takes a number, a string or
// a list of strings.
import { invalid, notFound } from '../errors.js';
import type { Runtime } from '../engine/context.js';
import { familyOf } from '../runs/metrics/families.js';
import { judgedValueProblem } from '../runs/metrics/judged.js';
import { putScriptedAnswer, type ScriptedAnswer } from '../runs/metrics/scripted.js';
import { isJsonObject, PLATFORM_ORG, type Json } from '../storage/store.js';

const MAX_ANSWERS = 500;

function readAnswer(runtime: Runtime, org: string, raw: unknown, at: string): ScriptedAnswer {
  if (!isJsonObject(raw)) throw invalid(at, 'must be an object');
  if (typeof raw.metric_id !== 'string') throw invalid(`${at}.metric_id`, 'must be a metric id');
  const metric = runtime.store.get('metric', raw.metric_id);
  if (!metric || (metric.org !== org && metric.org !== PLATFORM_ORG)) throw notFound(`${at}.metric_id`, 'metric');
  const testCase = raw.test_case_id ?? null;
  if (testCase !== null && (typeof testCase !== 'string' || testCase === '')) throw invalid(`${at}.test_case_id`, 'must be a test case id or null (every test case)');
  const status = raw.status ?? 'COMPLETED';
  if (status !== 'COMPLETED' && status !== 'FAILED') throw invalid(`${at}.status`, 'must be COMPLETED or FAILED');
  const explanation = raw.explanation ?? null;
  if (explanation !== null && typeof explanation !== 'string') throw invalid(`${at}.explanation`, 'must be a string');
  const value = raw.value ?? null;
  if (status === 'FAILED') {
    if (value !== null) throw invalid(`${at}.value`, 'a FAILED answer has no value');
  } else {
    const family = familyOf(metric.data.metric_type);
    const problem =
      family.kind === 'judged'
        ? judgedValueProblem(family.judge, metric.data, value)
        : typeof value === 'number' || typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))
          ? null
          : 'must be a number, a string or a list of strings';
    if (problem !== null) throw invalid(`${at}.value`, problem);
  }
  return { metric_id: raw.metric_id, test_case_id: testCase as string | null, status, value: value as ScriptedAnswer['value'], explanation: explanation as string | null };
}

export function scriptMetricAnswers(runtime: Runtime, org: string, body: Json): { answers: ScriptedAnswer[] } {
  if (!runtime.store.getOrganization(org)) throw notFound('organization_id', 'organization');
  if (!Array.isArray(body.answers) || body.answers.length === 0 || body.answers.length > MAX_ANSWERS) throw invalid('answers', `must be an array of 1-${MAX_ANSWERS} answers`);
  const list = body.answers as unknown[];
  return runtime.store.transaction(() => {
    const answers = list.map((raw, i) => readAnswer(runtime, org, raw, `answers[${i}]`));
    for (const answer of answers) putScriptedAnswer(runtime, org, answer);
    return { answers };
  });
}
