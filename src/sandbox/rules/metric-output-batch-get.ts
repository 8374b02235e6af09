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
import type { Json, StoredRecord } from '../storage/store.js';
import { conversationIdsOfOutput, outputsOf } from './conversation/outputs.js';

/**
 * Finds outputs by id. The fast path reads only the simulations the id can name (outputId's inverse); an id it
 * misses is looked up among every visible simulation's outputs, indexed once per request, so the batch keeps
 * answering whatever form outputId gives ids (the facts call them ULIDs; ours name the simulation and metric).
 */
function outputFinder(ctx: RequestContext): (id: string) => Json | undefined {
  const resource = ctx.runtime.resource('simulation');
  const visible = (record: StoredRecord | undefined): record is StoredRecord => record !== undefined && inScope(ctx, resource, record) && !isHidden(resource, record);
  let index: Map<string, Json> | undefined;
  return (id) => {
    for (const simulationId of conversationIdsOfOutput(id)) {
      const record = ctx.runtime.store.get('simulation', simulationId);
      const hit = visible(record) ? outputsOf('simulation', record).find((o) => o.metric_output_id === id) : undefined;
      if (hit) return hit;
    }
    if (!index) {
      index = new Map();
      for (const record of ctx.runtime.store.list('simulation', { org: ctx.org })) {
        if (visible(record)) for (const o of outputsOf('simulation', record)) index.set(String(o.metric_output_id), o);
      }
    }
    return index.get(id);
  };
}

export const metricOutputBatchGet: Rule = {
  handle(ctx) {
    const { metric_output_ids: ids } = bodyOf(ctx, 'batchGetMetricOutputs');
    const find = outputFinder(ctx);
    const seen = new Map<string, Json>();
    const outputs = ids.map((id, i) => {
      const output = seen.get(id) ?? find(id);
      if (!output) throw notFound(`metric_output_ids[${i}]`, 'metric output');
      seen.set(id, output);
      return output;
    });
    return { body: { metric_outputs: outputs } };
  },
};
