// simulation-resimulate (POST …/resimulate, both paths): queues the simulation again in its run. Decisions
// (docs/sandbox.md): a new simulated conversation is created in the same run and workspace with the same agent,
// persona, test set, test case and endpoints, status "IN QUEUE", no audio, no transcript and no metric values;
// the original is unchanged; the answer names the new one. A simulation without a run cannot be simulated
// again (it is a fixture the sandbox did not produce): 400 on simulation_id.
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, firstPathParam, newRecordData } from '../engine/records.js';
import type { Json } from '../storage/store.js';

const COPIED = ['run_id', 'agent_id', 'persona_id', 'test_set_id', 'test_case_id', 'source', 'destination', 'mutation_id', 'mutation_name'] as const;

export const simulationResimulate: Rule = {
  handle(ctx) {
    const param = firstPathParam(ctx.route)!;
    const original = findRecord(ctx, 'simulation', ctx.path[param], { field: param });
    const runId = original.data.run_id;
    if (typeof runId !== 'string' || runId === '') throw invalid(param, 'the simulated conversation belongs to no run');
    const resource = ctx.runtime.resource('simulation');
    const body: Json = { status: 'IN QUEUE', has_audio: false };
    for (const f of COPIED) if (original.data[f] !== undefined) body[f] = original.data[f];
    const data = newRecordData(ctx.runtime, resource, body, ctx.now);
    const copy = ctx.runtime.store.insert({ kind: 'simulation', id: String(data[resource.id]), org: ctx.org, workspace: original.workspace, deleted: false, data });
    return { body: { simulation_id: copy.id, run_id: runId, queued: true, message: `Simulation ${copy.id} queued again in run ${runId}.` } };
  },
};
