// The run executor of one sandbox instance: finds queued runs nobody executes (on launch, woken at once; otherwise
// every sweepMs, which is also how an instance takes over the runs of one that died), claims them in the store
// with a lease it renews while it works, and executes each (execute-run.ts). A run cancelled, completed elsewhere
// or lost to another instance is stopped here. Closing the instance stops its runs without finishing them: their
// claims run out and another instance (or this one restarted on the same database) resumes them.
import { randomUUID } from 'node:crypto';
import type { RaisedEvent, RunControl, Runtime } from '../engine/context.js';
import type { ScoreSimulation } from './contract.js';
import { executeRun } from './execute-run.js';
import type { ResolvedExecutionOptions } from './execution-options.js';
import { executeMetricJob, isMetricJob } from './metrics/metric-jobs.js';
import { executeResimulation, RESIMULATE_PREFIX } from './resimulate.js';
import { anyClaimable, claimRuns, renewRuns } from './run-queue.js';

/** Runs one instance executes at once; more wait IN QUEUE ("queued for capacity", facts 2.17). */
const RUNS_PER_INSTANCE = 8;

export interface RunExecutor extends RunControl {
  close(): Promise<void>;
}

export interface ExecutorDeps {
  runtime: Runtime;
  options: ResolvedExecutionOptions;
  score: ScoreSimulation;
  publish(events: RaisedEvent[]): void;
  log(line: string): void;
}

export function createRunExecutor(deps: ExecutorDeps): RunExecutor {
  const { runtime, options } = deps;
  const owner = randomUUID();
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let closed = false;
  let woken = false;
  /** Whether the last sweep failed: an outage is logged once, not every sweep. */
  let failing = false;

  /** Runs a claimed job, keeping it among `running` (renewed by the heartbeat, aborted on close) until it ends. */
  const track = (runId: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> => {
    const controller = new AbortController();
    const done = work(controller.signal)
      .catch((error: unknown) => {
        // A store that went away (the instance closing, the database unreachable): the claim runs out and the run
        // is resumed. The message names the run only, never an agent's configuration.
        if (!closed) deps.log(`sandbox: run ${runId} stopped on this instance: ${(error as Error)?.message ?? String(error)}`);
      })
      .finally(() => {
        running.delete(runId);
        if (!closed) wake();
      });
    running.set(runId, { controller, done });
    return done;
  };

  const start = (runId: string): void => {
    void track(runId, (signal) =>
      runId.startsWith(RESIMULATE_PREFIX)
        ? executeResimulation(runtime, options, owner, deps.score, runId, signal)
        : isMetricJob(runId)
          ? executeMetricJob(runtime, owner, runId, signal)
          : executeRun({ runtime, options, owner, score: deps.score, publish: deps.publish }, runId, signal),
    );
  };

  const sweep = (): void => {
    woken = false;
    if (closed || running.size >= RUNS_PER_INSTANCE) return;
    try {
      const now = Date.now();
      const claimable = runtime.store.transaction(() => anyClaimable(runtime.store, now), 'read');
      failing = false;
      if (!claimable) return;
      for (const claim of claimRuns(runtime.store, owner, options.leaseMs, RUNS_PER_INSTANCE - running.size, now)) {
        if (!running.has(claim.runId)) start(claim.runId);
      }
    } catch (error) {
      if (!closed && !failing) deps.log(`sandbox: looking for runs to execute failed (retrying every ${options.sweepMs} ms): ${(error as Error)?.message ?? String(error)}`);
      failing = true;
    }
  };

  const renew = (): void => {
    if (closed || running.size === 0) return;
    try {
      const ids = [...running.keys()];
      const held = renewRuns(runtime.store, owner, ids, options.leaseMs, Date.now());
      for (const id of ids) if (!held.has(id)) running.get(id)?.controller.abort();
    } catch {
      // The database is unreachable: the claims may run out and another instance resume the runs; the guard of
      // each write stops this one then.
    }
  };

  function wake(): void {
    if (woken || closed) return;
    woken = true;
    setImmediate(sweep);
  }

  const sweeper = setInterval(sweep, options.sweepMs);
  sweeper.unref();
  const heartbeat = setInterval(renew, Math.max(10, Math.floor(options.leaseMs / 3)));
  heartbeat.unref();
  wake();

  return {
    wake,
    stop(runId) {
      running.get(runId)?.controller.abort();
    },
    claim: () => ({ owner, lease_until: Date.now() + options.leaseMs }),
    // A job the sweep already started here (the event came later than the claim's lease) is not done twice.
    execute: (key, job) => (closed ? Promise.resolve() : (running.get(key)?.done ?? track(key, job))),
    async close() {
      closed = true;
      clearInterval(sweeper);
      clearInterval(heartbeat);
      const all = [...running.values()];
      for (const r of all) r.controller.abort();
      await Promise.all(all.map((r) => r.done));
    },
  };
}
