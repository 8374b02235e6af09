// metric-output-batch-get: POST /metrics/outputs:batchGet (facts-shapes 2.8 MT31). Each id is looked up among
// the metric outputs of the simulated conversations the caller can see, through outputsOf (the one definition of
// what a simulation's outputs are and how they are named), so the answer is exactly what the simulation's own
// metric list shows for that id. All or nothing: an id that names no visible output is 404 on its item
// (`metric_output_ids[i]`); the answer keeps the request's order and answers a repeated id again
// (docs/sandbox.md "Newer client (issue 30)").
import { notFound } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import type { RequestContext } from '../engine/context.js';
import { bodyOf } from '../engine/request-parts.js';
import { inScope, isHidden } from '../engine/records.js';
import type { Json } from '../storage/store.js';
import { conversationIdsOfOutput, outputsOf } from './conversation/outputs.js';

/** The output `id` names among the visible simulations' outputs, else undefined. */
function findOutput(ctx: RequestContext, id: string): Json | undefined {
  const resource = ctx.runtime.resource('simulation');
  for (const simulationId of conversationIdsOfOutput(id)) {
    const record = ctx.runtime.store.get('simulation', simulationId);
    if (!record || !inScope(ctx, resource, record) || isHidden(resource, record)) continue;
    const hit = outputsOf('simulation', record).find((o) => o.metric_output_id === id);
    if (hit) return hit;
  }
  return undefined;
}

export const metricOutputBatchGet: Rule = {
  handle(ctx) {
    const { metric_output_ids: ids } = bodyOf(ctx, 'batchGetMetricOutputs');
    const seen = new Map<string, Json>();
    const outputs = ids.map((id, i) => {
      const output = seen.get(id) ?? findOutput(ctx, id);
      if (!output) throw notFound(`metric_output_ids[${i}]`, 'metric output');
      seen.set(id, output);
      return output;
    });
    return { body: { metric_outputs: outputs } };
  },
};
