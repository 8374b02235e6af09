// simulation-resimulate (POST …/resimulate, both paths): the same simulation re-queued in place (facts 2.17,
// facts-shapes 2.14 SC7': "requeue a single existing simulation to run again in place"; the answer names that same
// simulation). Its transcript, error and metric values are cleared, it goes back to IN QUEUE, and the executor runs
// it again with the latest agent, persona, test case and metrics (runs/resimulate.ts). A simulation still queued or
// in progress is answered queued without a second job. A simulation without a run cannot be simulated again (it is
// a fixture the sandbox did not produce): 400 on simulation_id.
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, firstPathParam, setOwn } from '../engine/records.js';
import { queueResimulation } from '../runs/resimulate.js';

export const simulationResimulate: Rule = {
  handle(ctx) {
    const param = firstPathParam(ctx.route)!;
    const sim = findRecord(ctx, 'simulation', ctx.path[param], { field: param });
    const runId = sim.data.run_id;
    if (typeof runId !== 'string' || runId === '') throw invalid(param, 'the simulated conversation belongs to no run');
    const status = String(sim.data.status);
    if (status !== 'IN QUEUE' && status !== 'IN PROGRESS' && status !== 'PENDING') {
      // What the run counted it as, so its progress moves it rather than counting it twice.
      setOwn(sim.data, 'resimulated_from_status', status);
      queueResimulation(ctx.runtime, sim);
    }
    return { body: { simulation_id: sim.id, run_id: runId, queued: true, message: `Simulation ${sim.id} queued again in run ${runId}.` } };
  },
};
