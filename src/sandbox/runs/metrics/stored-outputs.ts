// Metric outputs stored on a simulation record (data.metric_outputs, SimulationMetricOutput items) and the
// numeric ones mirrored into data.metric_values (only numbers there, facts 2.17). One output per metric from
// scoring (re-scoring keeps its metric_output_id and overwrites it), plus one per metric test
// (runtime_metadata.source = metric_test), which leaves metric_values alone: a test is not the run's result.
import { ulid } from '../../ids.js';
import { setOwn } from '../../engine/records.js';
import { isJsonObject, type Json, type StoredRecord } from '../../storage/store.js';
import type { MetricOutcome } from './outcome.js';

export const TEST_SOURCE = 'metric_test';

export function storedOutputs(data: Json): Json[] | null {
  return Array.isArray(data.metric_outputs) ? data.metric_outputs.filter(isJsonObject) : null;
}

const isTest = (o: Json): boolean => isJsonObject(o.runtime_metadata) && o.runtime_metadata.source === TEST_SOURCE;

/** The version a metric is live at (its current_version's ulid), as outputs name it. */
export function versionOf(metric: Json | undefined): string | null {
  const v = metric?.current_version;
  return isJsonObject(v) && typeof v.ulid === 'string' ? v.ulid : null;
}

function queuedOutput(id: string, metricId: string, version: string | null, runtimeMetadata: Json | null): Json {
  return { metric_output_id: id, metric_id: metricId, metric_version_ulid: version, value: null, status: 'IN QUEUE', status_reason: null, explanation: null, subvalues_by_timestamp: null, result: null, runtime_metadata: runtimeMetadata };
}

/**
 * Puts the metric's scoring output IN QUEUE on the record (keeping its id when it has one, else a new ULID) and
 * returns the id. The caller updates the record.
 */
export function queueOutput(record: StoredRecord, metricId: string, version: string | null): string {
  const outputs = storedOutputs(record.data) ?? [];
  const at = outputs.findIndex((o) => o.metric_id === metricId && !isTest(o));
  const id = at >= 0 ? String(outputs[at]!.metric_output_id) : ulid();
  const queued = queuedOutput(id, metricId, version, null);
  if (at >= 0) outputs[at] = queued;
  else outputs.push(queued);
  setOwn(record.data, 'metric_outputs', outputs);
  return id;
}

/** Adds a metric test's output IN QUEUE to the record and returns its id. */
export function queueTestOutput(record: StoredRecord, metricId: string, version: string | null, devId: string | null): string {
  const outputs = storedOutputs(record.data) ?? [];
  const id = ulid();
  outputs.push(queuedOutput(id, metricId, version, { source: TEST_SOURCE, dev_id: devId }));
  setOwn(record.data, 'metric_outputs', outputs);
  return id;
}

/** Writes an outcome into the output `outputId` of the record (and, for a scoring output, metric_values). */
export function finishOutput(record: StoredRecord, outputId: string, outcome: MetricOutcome): void {
  const outputs = storedOutputs(record.data) ?? [];
  const output = outputs.find((o) => o.metric_output_id === outputId);
  if (!output) return; // removed meanwhile (a re-scoring replaced it): nothing to write
  Object.assign(output, {
    value: outcome.value,
    status: outcome.status,
    status_reason: outcome.status_reason,
    explanation: outcome.explanation,
    subvalues_by_timestamp: outcome.subvalues ?? null,
    result: outcome.result ?? null,
  });
  setOwn(record.data, 'metric_outputs', outputs);
  if (isTest(output)) return;
  const values = isJsonObject(record.data.metric_values) ? { ...record.data.metric_values } : {};
  const metricId = String(output.metric_id);
  if (typeof outcome.value === 'number' && outcome.status === 'COMPLETED') setOwn(values, metricId, outcome.value);
  else delete values[metricId];
  setOwn(record.data, 'metric_values', values);
}
