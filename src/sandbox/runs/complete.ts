// The one way a run finishes, whoever finishes it (the executor, or the control plane's run completion): the run
// is marked COMPLETED or FAILED with its completion time, metric means and outcome, leaves the run queue, and one
// run.completed event is built for it (alerts ON_RUN_COMPLETE, baselines, the job_complete webhook). Called inside a
// write transaction; the caller publishes the event after it commits.
import type { RaisedEvent, Runtime } from '../engine/context.js';
import { setOwn } from '../engine/records.js';
import type { StoredRecord } from '../storage/store.js';
import { eventOf, type RunCompleted } from '../rules/events/payloads.js';
import { dequeueRun } from './run-queue.js';

export interface RunOutcome {
  status: 'COMPLETED' | 'FAILED';
  completedAt: string;
  /** Each metric's numeric results (non-empty lists of finite numbers): metric_values holds their means. */
  metricValues: Record<string, number[]>;
  conversationSource: string;
  /** The agent the event names (null: none, as for the control plane's placeholder agent). */
  agentId: string | null;
  tags: string[];
  scheduledRunId: string | null;
  /** FAILED: why the run could not execute (facts 2.17 `error`). */
  error?: string | null;
  /** EXECUTION_FAILURE when a conversation failed in a completed run (facts 2.17). */
  errorStatus?: string | null;
}

export const TERMINAL_RUN_STATUSES: ReadonlySet<string> = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'DELETED']);

export function finishRun(runtime: Runtime, run: StoredRecord, outcome: RunOutcome): RaisedEvent {
  return runtime.store.transaction(() => {
    setOwn(run.data, 'status', outcome.status);
    setOwn(run.data, 'completed_at', outcome.completedAt);
    setOwn(run.data, 'complete_time', outcome.completedAt);
    setOwn(run.data, 'conversation_source', outcome.conversationSource);
    setOwn(run.data, 'metric_values', Object.fromEntries(Object.entries(outcome.metricValues).map(([k, v]) => [k, v.reduce((a, x) => a + x, 0) / v.length])));
    if (outcome.error !== undefined) setOwn(run.data, 'error', outcome.error);
    if (outcome.errorStatus !== undefined) setOwn(run.data, 'error_status', outcome.errorStatus);
    setOwn(run.data, 'update_time', outcome.completedAt);
    runtime.store.update(run);
    dequeueRun(runtime.store, run.id);
    const payload: RunCompleted = {
      run_id: run.id,
      status: outcome.status,
      agent_id: outcome.agentId,
      tags: outcome.tags,
      scheduled_run_id: outcome.scheduledRunId,
      conversation_source: outcome.conversationSource,
      metric_values: outcome.metricValues,
      completed_at: outcome.completedAt,
    };
    return eventOf({ name: 'run.completed', org: run.org, workspace: run.workspace, payload });
  }, 'write');
}
