// Resimulate (facts 2.17, facts-shapes 2.14 SC7'): the same simulation re-queued in place and executed again with
// the latest agent, persona, test case and metrics; its transcript and metric outputs are replaced and its run's
// results, progress, metric_values and error_status follow. The run does not finish again (no second run.completed:
// completion fires once per run). The job sits in the run queue under `resimulate:<simulation_id>`, so on a shared
// store exactly one instance executes it and another resumes it if that one dies.
import type { Runtime } from '../engine/context.js';
import { setOwn } from '../engine/records.js';
import type { StoredRecord } from '../storage/store.js';
import { isJsonObject } from '../storage/store.js';
import type { ScoredMetric, ScoreSimulation } from './contract.js';
import type { ResolvedExecutionOptions } from './execution-options.js';
import { executeSimulation } from './execute-simulation.js';
import { dequeueRun, enqueueRun, holdsRun } from './run-queue.js';

export const RESIMULATE_PREFIX = 'resimulate:';

/** Resets the simulation to IN QUEUE and queues the job (inside the request's transaction). */
export function queueResimulation(runtime: Runtime, sim: StoredRecord): void {
  setOwn(sim.data, 'status', 'IN QUEUE');
  setOwn(sim.data, 'transcript', null);
  setOwn(sim.data, 'error_message', null);
  setOwn(sim.data, 'metric_values', {});
  // The conversation is replaced: the old recording does not belong to the new one.
  setOwn(sim.data, 'has_audio', false);
  setOwn(sim.data, 'synthetic_transcript', false);
  runtime.store.update(sim);
  enqueueRun(runtime.store, `${RESIMULATE_PREFIX}${sim.id}`, sim.org);
  runtime.runs?.wake();
}

interface Results {
  output_ids: string[];
  metrics: Record<string, { metric_id: string; metric_name: string; output_type: string; values: { simulation_output_id: string; value: unknown }[] }>;
}

/** The run's bookkeeping after the simulation's new outcome: its old values out, the new ones in. */
function replaceInRun(runtime: Runtime, sim: StoredRecord, previous: string, status: string, scored: ScoredMetric[]): void {
  const run = typeof sim.data.run_id === 'string' ? runtime.store.get('run', sim.data.run_id) : undefined;
  if (!run || run.deleted) return;
  const results = (isJsonObject(run.data.results) ? run.data.results : { output_ids: [], metrics: {} }) as unknown as Results;
  if (!results.output_ids.includes(sim.id)) results.output_ids.push(sim.id);
  for (const m of Object.values(results.metrics)) m.values = m.values.filter((v) => v.simulation_output_id !== sim.id);
  for (const s of scored) {
    const entry = (results.metrics[s.metric_id] ??= { metric_id: s.metric_id, metric_name: s.metric_name, output_type: s.output_type, values: [] });
    if (s.status === 'COMPLETED' && s.value !== null) entry.values.push({ simulation_output_id: sim.id, value: s.value });
  }
  setOwn(run.data, 'results', results);
  const progress = isJsonObject(run.data.progress) ? run.data.progress : null;
  if (progress && previous !== status) {
    const slot = (s: string): string | null => (s === 'COMPLETED' ? 'completed_test_cases' : s === 'FAILED' ? 'failed_test_cases' : null);
    const was = slot(previous);
    const now = slot(status);
    if (was && typeof progress[was] === 'number') progress[was] = (progress[was] as number) - 1;
    if (now && typeof progress[now] === 'number') progress[now] = (progress[now] as number) + 1;
  }
  const means: Record<string, number> = {};
  for (const [id, m] of Object.entries(results.metrics)) {
    const numbers = m.values.map((v) => v.value).filter((v): v is number => typeof v === 'number');
    if (numbers.length > 0) means[id] = numbers.reduce((a, x) => a + x, 0) / numbers.length;
  }
  if (['COMPLETED', 'FAILED'].includes(String(run.data.status))) {
    setOwn(run.data, 'metric_values', means);
    if (progress && run.data.status === 'COMPLETED') setOwn(run.data, 'error_status', Number(progress.failed_test_cases ?? 0) > 0 ? 'EXECUTION_FAILURE' : null);
  }
  setOwn(run.data, 'update_time', runtime.clock.now().toISOString());
  runtime.store.update(run);
}

export async function executeResimulation(runtime: Runtime, options: ResolvedExecutionOptions, owner: string, score: ScoreSimulation, key: string, signal: AbortSignal): Promise<void> {
  const simId = key.slice(RESIMULATE_PREFIX.length);
  const guard = (): boolean => !signal.aborted && holdsRun(runtime.store, owner, key);
  // What the run counted this simulation as before (its outcome before the reset was dropped; a resumed job finds it).
  const before = runtime.store.transaction(() => runtime.store.get('simulation', simId), 'read');
  if (!before || before.deleted) {
    dequeueRun(runtime.store, key);
    return;
  }
  const previous = typeof before.data.resimulated_from_status === 'string' ? before.data.resimulated_from_status : 'COMPLETED';
  if (before.data.status === 'IN PROGRESS') {
    // The instance that was executing it died: fail it rather than run the conversation twice.
    runtime.store.transaction(() => {
      const sim = runtime.store.get('simulation', simId);
      if (!sim || !guard()) return;
      setOwn(sim.data, 'status', 'FAILED');
      setOwn(sim.data, 'error_message', 'interrupted: the sandbox instance executing this conversation stopped');
      runtime.store.update(sim);
      replaceInRun(runtime, sim, previous, 'FAILED', []);
      dequeueRun(runtime.store, key);
    }, 'write');
    return;
  }
  const result = await executeSimulation(runtime, simId, options, signal, guard);
  if (result === 'STOPPED') return;
  const run = typeof before.data.run_id === 'string' ? runtime.store.get('run', before.data.run_id) : undefined;
  const metricIds = run && Array.isArray(run.data.metric_ids) ? run.data.metric_ids.map(String) : [];
  let scored: ScoredMetric[] = [];
  if (result === 'COMPLETED' && metricIds.length > 0) {
    try {
      scored = await score(runtime, simId, metricIds);
    } catch {
      scored = [];
    }
  }
  runtime.store.transaction(() => {
    const sim = runtime.store.get('simulation', simId);
    if (!sim || !guard()) return;
    replaceInRun(runtime, sim, previous, result, scored);
    dequeueRun(runtime.store, key);
  }, 'write');
}
