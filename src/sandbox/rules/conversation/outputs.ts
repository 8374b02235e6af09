// The metric results of a simulated or uploaded conversation as the API shows them: `metric_values` (a
// simulation's map; an uploaded conversation's list of {metric_id, value}) and metric outputs. A simulation's
// outputs are the ones the metric evaluator stored on it (runs/metrics/stored-outputs.ts), plus one derived from
// each value its record carries without a stored output (fixtures); an uploaded conversation's values are the
// ones stored with it (none, unless loaded), and each metric of its waves has an output whose status says
// whether its wave was evaluated.
import { isJsonObject, type Json, type StoredRecord } from '../../storage/store.js';
import { wavesOf } from '../audio/conversation.js';
import { storedOutputs } from '../../runs/metrics/stored-outputs.js';

/** Metric id -> value, from a map or a list of {metric_id, value}. */
export function valuesOf(data: Json): Map<string, unknown> {
  const raw = data.metric_values;
  const out = new Map<string, unknown>();
  if (Array.isArray(raw)) {
    for (const v of raw) if (isJsonObject(v)) out.set(String(v.metric_id), v.value ?? null);
  } else if (isJsonObject(raw)) {
    for (const [k, v] of Object.entries(raw)) out.set(k, v);
  }
  return out;
}

/** An uploaded conversation's metric_values as the list the service answers. */
export function valueList(data: Json): Json[] {
  return [...valuesOf(data)].map(([metric_id, value]) => ({ metric_id, value }));
}

/** The id of one metric output: the conversation's id and the metric's (stable, so it can be read back). */
export function outputId(record: StoredRecord, metricId: string): string {
  return `${record.id}_${metricId}`;
}

/**
 * The conversation ids a metric output id can belong to: outputId's inverse, kept beside it so the two change
 * together. Conversation ids may hold `_` themselves, so every cut before an `_` is a candidate, shortest first.
 */
export function conversationIdsOfOutput(id: string): string[] {
  const out: string[] = [];
  for (let i = id.indexOf('_'); i > 0; i = id.indexOf('_', i + 1)) out.push(id.slice(0, i));
  return out;
}

/** The fields of a metric output of each kind, as outputsOf builds them: what filter and order_by may name. */
export const OUTPUT_FIELDS: Record<string, readonly string[]> = {
  simulation: ['metric_output_id', 'metric_id', 'metric_version_ulid', 'value', 'status', 'status_reason', 'explanation', 'subvalues_by_timestamp', 'result', 'runtime_metadata'],
  conversation: ['metric_output_id', 'metric_id', 'metric_version_ulid', 'value', 'status', 'status_reason', 'explanation', 'result'],
};

/** The metric outputs of a conversation (kind `simulation` or `conversation`), in metric order. */
export function outputsOf(kind: string, record: StoredRecord): Json[] {
  const values = valuesOf(record.data);
  const base = (metricId: string): Json => ({ metric_output_id: outputId(record, metricId), metric_id: metricId, metric_version_ulid: null });
  if (kind === 'simulation') {
    const stored = storedOutputs(record.data) ?? [];
    const scored = new Set(stored.map((o) => o.metric_id));
    const fromValues = [...values]
      .filter(([metricId]) => !scored.has(metricId))
      .map(([metricId, value]) => ({ ...base(metricId), value, status: 'COMPLETED', status_reason: null, explanation: null, subvalues_by_timestamp: null, result: null, runtime_metadata: null }));
    return [...stored.map((o) => ({ ...o })), ...fromValues];
  }
  const waves = wavesOf(record.data);
  const ids = [...new Set([...waves.text.metric_ids, ...waves.audio.metric_ids, ...values.keys()])];
  return ids.map((metricId) => {
    const wave = waves.audio.metric_ids.includes(metricId) ? waves.audio : waves.text;
    const done = values.has(metricId) || wave.state === 'COMPLETED';
    return {
      ...base(metricId),
      value: values.get(metricId) ?? null,
      status: done ? 'COMPLETED' : 'IN QUEUE',
      status_reason: done ? null : 'waiting for the recording',
      explanation: null,
      result: null,
    };
  });
}
