// Placeholder until the metric evaluator lands (issue 25, branch h25b replaces this file): every output SKIPPED.
import type { ScoreSimulation } from '../contract.js';

export const scoreSimulation: ScoreSimulation = async (runtime, _simulationId, metricIds) =>
  metricIds.map((id) => {
    const metric = runtime.store.get('metric', id);
    return { metric_id: id, metric_name: String(metric?.data.metric_name ?? id), output_type: 'float', status: 'SKIPPED', value: null };
  });
