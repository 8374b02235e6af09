// Metric work that outlives the instance that accepted it (issue 25, round 2): a metric test
// (POST /metrics/{metric_id}/test) and a re-scoring (rerunMetrics on a stored transcript) put outputs IN QUEUE and
// are then scored in the background. Each is also a job in the run queue (run-queue.ts), queued in the request's
// transaction already claimed by the accepting instance, which does it at once (its event handler, through
// RunControl.execute, so its lease is renewed while it works). Should that instance die, its lease runs out and
// another instance's sweep claims the job and does it from what the store holds: the output still IN QUEUE is
// scored, never left there. A job whose outputs are no longer IN QUEUE (done, replaced) only leaves the queue.
import type { Runtime } from '../../engine/context.js';
import { setOwn } from '../../engine/records.js';
import { isJsonObject, type Json } from '../../storage/store.js';
import { valuesOf } from '../../rules/conversation/outputs.js';
import { raiseEvent } from '../../rules/events/payloads.js';
import { dequeueRun, enqueueRun, holdsRun } from '../run-queue.js';
import { isDerived } from './evaluate.js';
import { outcomeFor } from './score.js';
import { finishOutput, storedOutputs, TEST_SOURCE } from './stored-outputs.js';

export const METRIC_TEST_PREFIX = 'metric-test:';
export const METRIC_RESCORE_PREFIX = 'metric-rescore:';

/** Whether a run-queue key names a metric job rather than a run. */
export function isMetricJob(key: string): boolean {
  return key.startsWith(METRIC_TEST_PREFIX) || key.startsWith(METRIC_RESCORE_PREFIX);
}

// Ids are written as JSON so no character of an id can be mistaken for a separator.
export const metricTestKey = (simulationId: string, outputId: string): string => `${METRIC_TEST_PREFIX}${JSON.stringify([simulationId, outputId])}`;
/** One key per request (the job's own id beside the simulation's), so two re-scorings of one conversation never share an entry. */
export const rescoreKey = (simulationId: string, jobId: string): string => `${METRIC_RESCORE_PREFIX}${JSON.stringify([simulationId, jobId])}`;

function idsOf(key: string, prefix: string): string[] | null {
  try {
    const ids: unknown = JSON.parse(key.slice(prefix.length));
    return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? (ids as string[]) : null;
  } catch {
    return null;
  }
}

/** Queues the job in the request's transaction, claimed by this instance when it executes jobs (else left for any). */
export function queueMetricJob(runtime: Runtime, key: string, org: string): void {
  enqueueRun(runtime.store, key, org, runtime.runs?.claim());
}

/** The simulation's numeric values of the re-run metrics, as the re-run delivery carries them. */
export function rerunValues(data: Json, metricIds: readonly string[]): Record<string, number[]> {
  const values = valuesOf(data);
  const rerun: Record<string, number[]> = {};
  for (const m of metricIds) {
    const value = values.get(m);
    if (typeof value === 'number') setOwn(rerun, m, [value]);
  }
  return rerun;
}

const isTest = (o: Json): boolean => isJsonObject(o.runtime_metadata) && o.runtime_metadata.source === TEST_SOURCE;

async function metricTest(runtime: Runtime, owner: string | null, key: string, signal: AbortSignal): Promise<void> {
  const [simulationId, outputId] = idsOf(key, METRIC_TEST_PREFIX) ?? [];
  const record = simulationId === undefined ? undefined : runtime.store.get('simulation', simulationId);
  const output = record ? storedOutputs(record.data)?.find((o) => o.metric_output_id === outputId) : undefined;
  if (!record || !output || output.status !== 'IN QUEUE') {
    dequeueRun(runtime.store, key);
    return;
  }
  const outcome = await outcomeFor(runtime, record, String(output.metric_id));
  if (signal.aborted) return;
  runtime.store.transaction(() => {
    // Lost meanwhile to another instance (this one stalled past its lease): that one writes the outcome.
    if (owner !== null && !holdsRun(runtime.store, owner, key)) return;
    const fresh = runtime.store.get('simulation', record.id);
    if (fresh) {
      finishOutput(fresh, String(outputId), outcome);
      runtime.store.update(fresh);
    }
    dequeueRun(runtime.store, key);
  }, 'write');
}

async function rescore(runtime: Runtime, owner: string | null, key: string, signal: AbortSignal, metricIds: readonly string[] | null): Promise<void> {
  const [simulationId] = idsOf(key, METRIC_RESCORE_PREFIX) ?? [];
  const record = simulationId === undefined ? undefined : runtime.store.get('simulation', simulationId);
  // Taken over: the metrics to score are the scoring outputs the dead instance left IN QUEUE.
  const ids = metricIds ?? (record ? (storedOutputs(record.data) ?? []).filter((o) => !isTest(o) && o.status === 'IN QUEUE').map((o) => String(o.metric_id)) : []);
  if (!record || ids.length === 0) {
    dequeueRun(runtime.store, key);
    return;
  }
  // Scored here rather than by scoreSimulation: each write checks the claim, so an instance that stalled past its
  // lease (or is closing) never overwrites what the instance that took the job over wrote. Derived metrics last.
  const held = (): boolean => !signal.aborted && (owner === null || holdsRun(runtime.store, owner, key));
  const metrics = new Map(ids.map((id) => [id, runtime.store.get('metric', id)?.data ?? {}]));
  const order = [...ids.filter((id) => !isDerived(metrics.get(id)!)), ...ids.filter((id) => isDerived(metrics.get(id)!))];
  for (const metricId of order) {
    const current = runtime.store.get('simulation', record.id);
    const outputId = current ? storedOutputs(current.data)?.find((o) => !isTest(o) && o.metric_id === metricId)?.metric_output_id : undefined;
    if (!current || typeof outputId !== 'string') continue;
    const outcome = await outcomeFor(runtime, current, metricId);
    const written = runtime.store.transaction(() => {
      if (!held()) return false;
      const fresh = runtime.store.get('simulation', record.id);
      if (fresh) {
        finishOutput(fresh, outputId, outcome);
        runtime.store.update(fresh);
      }
      return true;
    }, 'write');
    if (!written) return;
  }
  const done = runtime.store.transaction(() => {
    if (!held()) return null;
    dequeueRun(runtime.store, key);
    return runtime.store.get('simulation', record.id) ?? null;
  }, 'write');
  if (!done) return;
  raiseEvent(runtime, {
    name: 'simulation.metrics-rerun',
    org: done.org,
    workspace: done.workspace,
    payload: { run_id: typeof done.data.run_id === 'string' ? done.data.run_id : null, simulation_id: done.id, completed_at: runtime.clock.now().toISOString(), metric_ids: [...ids], metric_values: rerunValues(done.data, ids) },
  });
}

/**
 * Does a metric job as `owner` (the instance holding it; null for a sandbox that executes no jobs). `metricIds` are
 * the re-scoring's metrics when the accepting instance knows them; a takeover reads them from the store.
 */
export async function executeMetricJob(runtime: Runtime, owner: string | null, key: string, signal: AbortSignal, metricIds: readonly string[] | null = null): Promise<void> {
  if (key.startsWith(METRIC_TEST_PREFIX)) return metricTest(runtime, owner, key, signal);
  return rescore(runtime, owner, key, signal, metricIds);
}

/** The accepting instance's fast path (the event handler): the job done here, under this instance's claim. */
export async function runMetricJobHere(runtime: Runtime, key: string, metricIds: readonly string[] | null = null): Promise<void> {
  const control = runtime.runs;
  if (!control) return executeMetricJob(runtime, null, key, new AbortController().signal, metricIds);
  return control.execute(key, (signal) => executeMetricJob(runtime, control.claim().owner, key, signal, metricIds));
}
