// What evaluating one metric on one conversation gives, before it is stored as a metric output (stored-outputs.ts).
import type { Json } from '../../storage/store.js';

/** One timed piece of a result (SimulationMetricOutput.subvalues_by_timestamp): offsets in milliseconds. */
export interface Subvalue {
  start_offset: number;
  end_offset: number;
  output_type: 'float' | 'string';
  float_value?: number;
  string_value?: string;
  role?: string | null;
  message_index?: number | null;
}

export interface MetricOutcome {
  status: 'COMPLETED' | 'FAILED' | 'SKIPPED';
  value: number | string | string[] | null;
  explanation: string | null;
  status_reason: string | null;
  subvalues?: Subvalue[] | null;
  result?: Json | null;
}

export function completed(value: number | string | string[], explanation: string, extra: Partial<MetricOutcome> = {}): MetricOutcome {
  return { status: 'COMPLETED', value, explanation, status_reason: null, ...extra };
}

/** A metric that could not be evaluated on this conversation because of its own settings or data: never an API error. */
export function failed(reason: string): MetricOutcome {
  return { status: 'FAILED', value: null, explanation: null, status_reason: reason };
}

/** A metric whose inputs a simulated chat conversation does not have (audio, traces). */
export function skipped(reason: string): MetricOutcome {
  return { status: 'SKIPPED', value: null, explanation: null, status_reason: reason };
}
