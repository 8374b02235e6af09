// The metric evaluator (the contract's ScoreSimulation): scores a stored simulation's transcript with each
// metric, writing each output IN QUEUE first and then its outcome (each in its own transaction, so a reader sees
// outputs complete one by one), numeric values into metric_values. A metric's own failure (an invalid regex, a
// failing query, a transcript missing) is a FAILED output with a status_reason, never an exception.
import type { Runtime } from '../../engine/context.js';
import { isJsonObject, type Json, type StoredRecord } from '../../storage/store.js';
import type { ScoredMetric, ScoreSimulation } from '../contract.js';
import { evaluateMetric, isDerived, type ConversationInput } from './evaluate.js';
import { familyOf } from './families.js';
import { judgeOf } from './judge-endpoint.js';
import { failed, type MetricOutcome } from './outcome.js';
import { scriptedAnswer } from './scripted.js';
import { finishOutput, queueOutput, storedOutputs, versionOf } from './stored-outputs.js';
import { transcriptOf } from './transcript.js';

/** The metric's output_type in a run's results (facts 2.17): float, string or set, by value, else by family. */
function outputTypeOf(metric: Json | undefined, value: unknown): ScoredMetric['output_type'] {
  if (typeof value === 'number') return 'float';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'set';
  const family = familyOf(metric?.metric_type);
  if (family.kind === 'judged') return family.judge === 'binary' || family.judge === 'categorical' ? 'string' : 'float';
  if (family.kind === 'computed' && (family.by === 'tool-call' || family.by === 'end-reason' || family.by === 'derived-strict')) return 'string';
  return 'float';
}

function input(runtime: Runtime, record: StoredRecord): ConversationInput | null {
  const transcript = transcriptOf(record.data);
  if (transcript === null) return null;
  const run = typeof record.data.run_id === 'string' ? runtime.store.get('run', record.data.run_id) : undefined;
  const metadata = [record.data.metadata, run?.data.metadata].filter(isJsonObject);
  const judge = judgeOf(runtime);
  return {
    ...(judge ? { judge } : {}),
    transcript,
    testCaseId: typeof record.data.test_case_id === 'string' ? record.data.test_case_id : null,
    metadata,
    // Read at evaluation time, so a derived metric sees the outputs scored before it.
    valueOf(metricId) {
      const now = runtime.store.get('simulation', record.id);
      const output = storedOutputs(now?.data ?? {})?.find((o) => o.metric_id === metricId && o.status === 'COMPLETED' && !isJsonObject(o.runtime_metadata));
      return output?.value;
    },
  };
}

/** The outcome of one metric on the simulation: a scripted answer, else the evaluator's. */
export async function outcomeFor(runtime: Runtime, record: StoredRecord, metricId: string): Promise<MetricOutcome> {
  const metric = runtime.store.get('metric', metricId);
  if (!metric) return failed('the metric no longer exists');
  const conversation = input(runtime, record);
  const scripted = scriptedAnswer(runtime, record.org, metricId, conversation?.testCaseId ?? (typeof record.data.test_case_id === 'string' ? record.data.test_case_id : null));
  if (scripted) {
    return scripted.status === 'FAILED'
      ? failed(scripted.explanation ?? 'scripted as FAILED through the control plane')
      : { status: 'COMPLETED', value: scripted.value, explanation: scripted.explanation ?? 'Scripted answer set through the sandbox control plane.', status_reason: null, subvalues: null, result: null };
  }
  if (conversation === null) return failed('the simulated conversation has no transcript to score');
  try {
    return await evaluateMetric(metricId, metric.data, conversation);
  } catch (error) {
    return failed(`the sandbox could not evaluate this metric: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** Stores `outcome` into the output `outputId` of the simulation (read fresh, in its own transaction). */
export function storeOutcome(runtime: Runtime, simulationId: string, outputId: string, outcome: MetricOutcome): void {
  runtime.store.transaction(() => {
    const record = runtime.store.get('simulation', simulationId);
    if (!record) return;
    finishOutput(record, outputId, outcome);
    runtime.store.update(record);
  });
}

export const scoreSimulation: ScoreSimulation = async (runtime, simulationId, metricIds) => {
  const ids = [...new Set(metricIds)];
  const metrics = new Map(ids.map((id) => [id, runtime.store.get('metric', id)?.data]));
  const queued = runtime.store.transaction(() => {
    const record = runtime.store.get('simulation', simulationId);
    if (!record) return null;
    const outputIds = new Map(ids.map((id) => [id, queueOutput(record, id, versionOf(metrics.get(id)))]));
    runtime.store.update(record);
    return outputIds;
  });
  if (queued === null) throw new Error(`sandbox: no simulation ${simulationId} to score`);
  // Derived metrics read the others' outputs: they are scored last.
  const order = [...ids.filter((id) => !isDerived(metrics.get(id) ?? {})), ...ids.filter((id) => isDerived(metrics.get(id) ?? {}))];
  const outcomes = new Map<string, MetricOutcome>();
  for (const id of order) {
    const record = runtime.store.get('simulation', simulationId);
    const outcome = record ? await outcomeFor(runtime, record, id) : failed('the simulated conversation was removed while it was scored');
    storeOutcome(runtime, simulationId, queued.get(id)!, outcome);
    outcomes.set(id, outcome);
  }
  return metricIds.map((id) => {
    const outcome = outcomes.get(id)!;
    const metric = metrics.get(id);
    return {
      metric_id: id,
      metric_name: String(metric?.metric_name ?? id),
      output_type: outputTypeOf(metric, outcome.value),
      status: outcome.status,
      value: outcome.status === 'COMPLETED' ? outcome.value : null,
    };
  });
};
