// run-cancel (DELETE /runs/{run_id}): DELETE cancels or deletes depending on the run's status (facts 2.17). A run
// the sandbox is executing (queued for execution, IN QUEUE or IN PROGRESS) becomes CANCELLED, stays readable, and
// its execution stops: its open simulations become CANCELLED and nothing fires (no run.completed). Any other run
// (finished, or PENDING in an organization in manual mode, waiting for the control plane) is deleted as before.
import type { Rule } from '../engine/hooks.js';
import { deleteAction } from '../engine/actions.js';
import { findRecord, firstPathParam, setOwn, stampUpdated } from '../engine/records.js';
import { dequeueRun, isQueued } from '../runs/run-queue.js';
import { closeOpenSimulations } from '../runs/simulations.js';

const EXECUTING = new Set(['PENDING', 'IN QUEUE', 'IN PROGRESS']);

export const runCancel: Rule = {
  handle(ctx) {
    const param = firstPathParam(ctx.route)!;
    const run = findRecord(ctx, 'run', ctx.path[param], { field: param });
    if (!EXECUTING.has(String(run.data.status)) || !isQueued(ctx.runtime.store, run.id)) return deleteAction(ctx);
    setOwn(run.data, 'status', 'CANCELLED');
    setOwn(run.data, 'error', null);
    stampUpdated(ctx.runtime.resource('run'), run.data, ctx.now);
    ctx.runtime.store.update(run);
    dequeueRun(ctx.runtime.store, run.id);
    closeOpenSimulations(ctx.runtime, run, 'cancelled: the run was deleted while it was executing');
    ctx.runtime.runs?.stop(run.id);
    return { record: run };
  },
};
