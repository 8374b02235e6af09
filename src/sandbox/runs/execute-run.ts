// One run executed by the instance that claimed it: PENDING -> IN QUEUE (its simulations created, one per selected
// test case and iteration) -> IN PROGRESS (the conversations, `concurrency` at once, progress and results updated as
// each ends, each completed conversation scored by the metric evaluator) -> COMPLETED (error_status
// EXECUTION_FAILURE when a conversation failed) or FAILED (when the run cannot execute at all: its agent, persona or
// test set is gone). A run resumed after another instance died goes on from its stored state: simulations that
// instance left IN PROGRESS are FAILED as interrupted (never executed twice), the queued ones run.
// Every write happens under the guard: this instance still holds the run's claim and the run is still executing,
// so a cancelled run, a run completed through the control plane or a run taken over is never written again here.
import type { RaisedEvent, Runtime } from '../engine/context.js';
import { setOwn } from '../engine/records.js';
import type { Json, StoredRecord } from '../storage/store.js';
import { isJsonObject } from '../storage/store.js';
import { finishRun, TERMINAL_RUN_STATUSES } from './complete.js';
import type { ScoredMetric, ScoreSimulation } from './contract.js';
import type { ResolvedExecutionOptions } from './execution-options.js';
import { executeSimulation } from './execute-simulation.js';
import { dequeueRun, holdsRun } from './run-queue.js';
import { selectCases } from './select-cases.js';
import { createSimulations, simulationsOf } from './simulations.js';

export interface RunExecutionDeps {
  runtime: Runtime;
  options: ResolvedExecutionOptions;
  owner: string;
  score: ScoreSimulation;
  /** Publishes the completion's event once its transaction committed. */
  publish(events: RaisedEvent[]): void;
}

interface Progress {
  total_test_cases: number;
  completed_test_cases: number;
  failed_test_cases: number;
  in_progress_test_cases: number;
}

interface MetricResult {
  metric_id: string;
  metric_name: string;
  output_type: string;
  values: { simulation_output_id: string; value: unknown }[];
}

interface Results {
  output_ids: string[];
  metrics: Record<string, MetricResult>;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(finish, ms);
    function finish(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      resolve();
    }
    signal.addEventListener('abort', finish, { once: true });
  });
}

/** The metrics a run scores: metric_ids and the persona metrics it pinned, once each. */
function metricsOf(run: Json): string[] {
  const pinned = isJsonObject(run.pinned_versions) && isJsonObject(run.pinned_versions.metrics) ? Object.keys(run.pinned_versions.metrics) : [];
  const named = Array.isArray(run.metric_ids) ? run.metric_ids.map(String) : [];
  return [...new Set([...named, ...pinned])];
}

function metricName(runtime: Runtime, id: string): string {
  const name = runtime.store.get('metric', id)?.data.metric_name;
  return typeof name === 'string' ? name : id;
}

export async function executeRun(deps: RunExecutionDeps, runId: string, signal: AbortSignal): Promise<void> {
  const { runtime, options, owner } = deps;
  const store = runtime.store;
  /** The run, when this instance may still write it (inside a transaction). */
  const current = (): StoredRecord | undefined => {
    if (signal.aborted) return undefined;
    // The run first, then the queue: the order every writer takes them in (a launch, a cancel and a completion
    // write the run, then the queue), so on a store with a lock per organization and one for meta no two
    // transactions wait for each other in a circle.
    const run = store.get('run', runId);
    if (!holdsRun(store, owner, runId)) return undefined;
    if (!run || run.deleted || TERMINAL_RUN_STATUSES.has(String(run.data.status))) {
      dequeueRun(store, runId);
      return undefined;
    }
    return run;
  };
  const change = (fn: (run: StoredRecord) => void): boolean =>
    store.transaction(() => {
      const run = current();
      if (!run) return false;
      fn(run);
      setOwn(run.data, 'update_time', runtime.clock.now().toISOString());
      store.update(run);
      return true;
    }, 'write');
  const fail = (reason: string): void => {
    const event = store.transaction(() => {
      const run = current();
      if (!run) return undefined;
      return finishRun(runtime, run, { status: 'FAILED', completedAt: runtime.clock.now().toISOString(), metricValues: {}, conversationSource: 'SIMULATED', agentId: (run.data.agent_id as string | undefined) ?? null, tags: (run.data.tags as string[] | undefined) ?? [], scheduledRunId: (run.data.scheduled_run_id as string | undefined) ?? null, error: reason, errorStatus: null });
    }, 'write');
    if (event) deps.publish([event]);
  };

  // A write transaction: current() may take a finished run out of the queue (a read-modify-write under the lock).
  const first = store.transaction(() => current(), 'write');
  if (!first) return;
  if (first.data.status === 'PENDING') {
    await sleep(options.paceMs, signal);
    if (!change((run) => setOwn(run.data, 'status', 'IN QUEUE'))) return;
  }

  // Create the simulations once (a resumed run finds them).
  let problem: string | null = null;
  const prepared = store.transaction(() => {
    const run = current();
    if (!run) return false;
    if (run.data.simulations_created === true) return true;
    for (const [kind, field] of [['agent', 'agent_id'], ['persona', 'persona_id'], ['test_set', 'test_set_id']] as const) {
      const id = run.data[field];
      const record = typeof id === 'string' ? store.get(kind, id) : undefined;
      if (!record || record.deleted) {
        problem = `the run's ${kind.replace('_', ' ')} no longer exists`;
        return false;
      }
    }
    let caseIds = Array.isArray(run.data.selected_test_case_ids) ? run.data.selected_test_case_ids.map(String) : null;
    let iterations = typeof run.data.iterations === 'number' ? run.data.iterations : 1;
    if (!caseIds) {
      try {
        const selection = selectCases(store, run.org, run.data.test_set_id, isJsonObject(run.data.options) ? run.data.options : {});
        caseIds = selection.caseIds;
        iterations = selection.iterations;
      } catch {
        problem = 'the test cases the launch selected no longer exist';
        return false;
      }
    }
    createSimulations(runtime, run, caseIds, iterations, runtime.clock.now().toISOString());
    const metrics: Record<string, MetricResult> = {};
    for (const id of metricsOf(run.data)) metrics[id] = { metric_id: id, metric_name: metricName(runtime, id), output_type: 'float', values: [] };
    setOwn(run.data, 'simulations_created', true);
    setOwn(run.data, 'progress', { total_test_cases: caseIds.length * iterations, completed_test_cases: 0, failed_test_cases: 0, in_progress_test_cases: 0 });
    setOwn(run.data, 'results', { output_ids: [], metrics });
    setOwn(run.data, 'update_time', runtime.clock.now().toISOString());
    store.update(run);
    return true;
  }, 'write');
  if (!prepared) {
    if (problem) fail(problem);
    return;
  }

  await sleep(options.paceMs, signal);
  // In progress; a resumed run fails what the previous attempt left IN PROGRESS and recounts its progress.
  const queued: string[] = [];
  const started = change((run) => {
    setOwn(run.data, 'status', 'IN PROGRESS');
    const progress: Progress = { total_test_cases: 0, completed_test_cases: 0, failed_test_cases: 0, in_progress_test_cases: 0 };
    const results = run.data.results as unknown as Results;
    for (const sim of simulationsOf(runtime, run)) {
      progress.total_test_cases += 1;
      if (sim.data.status === 'IN PROGRESS') {
        setOwn(sim.data, 'status', 'FAILED');
        setOwn(sim.data, 'error_message', 'interrupted: the sandbox instance executing this conversation stopped');
        store.update(sim);
        if (!results.output_ids.includes(sim.id)) results.output_ids.push(sim.id);
      }
      if (sim.data.status === 'IN QUEUE') queued.push(sim.id);
      else if (sim.data.status === 'COMPLETED') progress.completed_test_cases += 1;
      else if (sim.data.status === 'FAILED') progress.failed_test_cases += 1;
    }
    setOwn(run.data, 'progress', progress);
  });
  if (!started) return;

  const metricIds = metricsOf(first.data);
  const requested = isJsonObject(first.data.options) && typeof first.data.options.concurrency === 'number' ? first.data.options.concurrency : options.defaultConcurrency;
  const concurrency = Math.max(1, Math.min(requested, options.maxConcurrency));
  const guard = (): boolean => current() !== undefined;
  const bump = (fn: (p: Progress, results: Results) => void): void => {
    const run = current();
    if (!run) return;
    fn(run.data.progress as unknown as Progress, run.data.results as unknown as Results);
    store.update(run);
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!signal.aborted && next < queued.length) {
      const simId = queued[next++]!;
      const result = await executeSimulation(runtime, simId, options, signal, guard, {
        onStart: () => bump((p) => void (p.in_progress_test_cases += 1)),
        onEnd: (status) =>
          bump((p, results) => {
            p.in_progress_test_cases -= 1;
            if (status === 'COMPLETED') p.completed_test_cases += 1;
            else p.failed_test_cases += 1;
            results.output_ids.push(simId);
          }),
      });
      if (result !== 'COMPLETED' || metricIds.length === 0) continue;
      let scored: ScoredMetric[];
      try {
        scored = await deps.score(runtime, simId, metricIds);
      } catch {
        continue; // The evaluator's own failure leaves this conversation without values; the run goes on.
      }
      change((run) => {
        const results = run.data.results as unknown as Results;
        for (const s of scored) {
          const entry = (results.metrics[s.metric_id] ??= { metric_id: s.metric_id, metric_name: s.metric_name, output_type: s.output_type, values: [] });
          entry.output_type = s.output_type;
          if (s.status === 'COMPLETED' && s.value !== null) entry.values.push({ simulation_output_id: simId, value: s.value });
        }
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, queued.length)) }, () => worker()));
  if (signal.aborted) return;

  const event = store.transaction(() => {
    const run = current();
    if (!run) return undefined;
    const results = run.data.results as unknown as Results;
    const progress = run.data.progress as unknown as Progress;
    const metricValues: Record<string, number[]> = {};
    for (const [id, m] of Object.entries(results.metrics)) {
      const numbers = m.values.map((v) => v.value).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
      if (numbers.length > 0) metricValues[id] = numbers;
    }
    return finishRun(runtime, run, {
      status: 'COMPLETED',
      completedAt: runtime.clock.now().toISOString(),
      metricValues,
      conversationSource: 'SIMULATED',
      agentId: (run.data.agent_id as string | undefined) ?? null,
      tags: (run.data.tags as string[] | undefined) ?? [],
      scheduledRunId: (run.data.scheduled_run_id as string | undefined) ?? null,
      error: null,
      errorStatus: progress.failed_test_cases > 0 ? 'EXECUTION_FAILURE' : null,
    });
  }, 'write');
  if (event) deps.publish([event]);
}
