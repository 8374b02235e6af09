// The simulation records of a run: created when its execution starts (one per selected test case and iteration,
// IN QUEUE), and closed when the run stops early (cancelled, or completed through the control plane).
import type { Runtime } from '../engine/context.js';
import { newRecordData, setOwn } from '../engine/records.js';
import type { Json, StoredRecord } from '../storage/store.js';

export const OPEN_SIMULATION_STATUSES: ReadonlySet<string> = new Set(['PENDING', 'IN QUEUE', 'IN PROGRESS']);

/** The run's simulations in creation order (deleted ones left out). */
export function simulationsOf(runtime: Runtime, run: StoredRecord): StoredRecord[] {
  return runtime.store
    .withField('simulation', run.org, 'run_id', run.id)
    .filter((s) => !s.deleted)
    .sort((a, b) => a.seq - b.seq);
}

/** One IN QUEUE simulation per case and iteration (inside the caller's transaction). */
export function createSimulations(runtime: Runtime, run: StoredRecord, caseIds: readonly string[], iterations: number, now: string): void {
  const resource = runtime.resource('simulation');
  for (let i = 0; i < iterations; i++) {
    for (const caseId of caseIds) {
      const body: Json = {
        status: 'IN QUEUE',
        has_audio: false,
        run_id: run.id,
        agent_id: run.data.agent_id ?? null,
        persona_id: run.data.persona_id ?? null,
        test_set_id: run.data.test_set_id ?? null,
        test_case_id: caseId,
        transcript: null,
        error_message: null,
        metric_values: {},
        is_public: false,
      };
      const data = newRecordData(runtime, resource, body, now);
      // Bookkeeping the scorer and a resumed execution read: which iteration this is.
      setOwn(data, 'iteration', i + 1);
      runtime.store.insert({ kind: 'simulation', id: String(data[resource.id]), org: run.org, workspace: run.workspace, deleted: false, data });
    }
  }
}

/** Marks the run's open simulations CANCELLED with a reason (inside the caller's transaction). */
export function closeOpenSimulations(runtime: Runtime, run: StoredRecord, reason: string): void {
  for (const sim of simulationsOf(runtime, run)) {
    if (!OPEN_SIMULATION_STATUSES.has(String(sim.data.status))) continue;
    setOwn(sim.data, 'status', 'CANCELLED');
    setOwn(sim.data, 'error_message', reason);
    runtime.store.update(sim);
  }
}
