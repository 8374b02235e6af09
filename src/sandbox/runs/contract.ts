// The contract between the run executor (src/sandbox/runs/execute*.ts: conversations with the agent) and the metric
// evaluator (src/sandbox/runs/metrics/: a metric's output on one conversation). One definition each side types.
import type { Json } from '../storage/store.js';

/**
 * One message of a simulated conversation's transcript as the service shows it (facts 2.17, TranscriptMessage):
 * `user` is the persona, `assistant` the agent, `tool` the persona's end_conversation call (or a tool result).
 * Timestamps are seconds since the epoch as strings; offsets are milliseconds from the conversation's start.
 */
export interface TranscriptMessage {
  role: 'user' | 'assistant' | 'tool' | 'system';
  content: string | Json | null;
  start_timestamp: string;
  end_timestamp: string;
  start_offset: number;
  end_offset: number;
  /** Tool calls the agent's reply carried (chat-completions shape: {id, type: 'function', function: {name, arguments}}). */
  tool_calls?: Json[];
  /** For a tool message: the tool's name (end_conversation for the persona's end of the chat). */
  name?: string;
}

/** What one metric gave on one conversation, as the run's results and metric_values need it. */
export interface ScoredMetric {
  metric_id: string;
  metric_name: string;
  /** results.metrics[id].output_type (facts 2.17): float for numbers, string for strings, set for string lists. */
  output_type: 'float' | 'string' | 'set';
  status: 'COMPLETED' | 'FAILED' | 'SKIPPED' | 'CANCELLED';
  value: number | string | string[] | null;
}

/**
 * Scores a stored simulation (its data carries `transcript`, and the executor's bookkeeping) with each metric:
 * writes the metric outputs onto the simulation (IN QUEUE first, then their outcome; numeric values into
 * metric_values) and answers them in `metricIds` order. Never throws for a metric's own failure (an invalid regex,
 * a failing SQL query): that output is FAILED with a status_reason.
 */
export type ScoreSimulation = (runtime: import('../engine/context.js').Runtime, simulationId: string, metricIds: readonly string[]) => Promise<ScoredMetric[]>;
