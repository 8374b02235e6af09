// Metrics computed from what the conversation carries besides its words' timing: metadata fields, the agent's
// tool calls, how the conversation ended, and metrics derived from other metrics' outputs. The facts give no
// output for metadata-field and tool-call metrics (facts 2.17: "not found"); ours are in docs/sandbox.md
// "Metrics at work (issue 25)".
import type { TranscriptMessage } from '../contract.js';
import { isJsonObject, type Json } from '../../storage/store.js';
import { completed, failed, type MetricOutcome } from './outcome.js';
import { toolName } from './transcript.js';

/** A value at a dotted path of an object (`customer.tier`), or undefined. */
function at(source: Json, path: string): unknown {
  if (Object.hasOwn(source, path)) return source[path];
  let node: unknown = source;
  for (const key of path.split('.')) {
    if (!isJsonObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * METRIC_METADATA_FIELD: the value at `metadata_field_key` (a key, or a dotted path) of the conversation's
 * metadata (the simulation's own `metadata`, else its run's), read as `metadata_field_type`: NUMBER a number
 * (numeric text accepted), BOOLEAN 1 or 0 (true/false, also as text), STRING the text. A missing key or a value
 * of another type is FAILED with the reason.
 */
export function evaluateMetadataField(metric: Json, sources: readonly Json[]): MetricOutcome {
  const key = metric.metadata_field_key;
  if (typeof key !== 'string' || key === '') return failed('the metric has no metadata_field_key');
  const holder = sources.find((s) => at(s, key) !== undefined && at(s, key) !== null);
  if (!holder) return failed(`the conversation's metadata has no ${JSON.stringify(key)}`);
  const value = at(holder, key);
  const type = metric.metadata_field_type ?? 'STRING';
  if (type === 'NUMBER') {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    return Number.isFinite(n) ? completed(n, `metadata ${key} = ${n}`) : failed(`metadata ${key} is not a number: ${JSON.stringify(value)}`);
  }
  if (type === 'BOOLEAN') {
    const b = value === true || value === 'true' ? 1 : value === false || value === 'false' ? 0 : null;
    return b === null ? failed(`metadata ${key} is not a boolean: ${JSON.stringify(value)}`) : completed(b, `metadata ${key} is ${b === 1 ? 'true' : 'false'}`);
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return completed(text, `metadata ${key} = ${text}`);
}

const calls = (transcript: readonly TranscriptMessage[]): string[] =>
  transcript.filter((m) => m.role === 'assistant').flatMap((m) => (m.tool_calls ?? []).map((c) => toolName(c) ?? '(unnamed)'));

/**
 * METRIC_TOOLCALL (a binary metric): YES when the agent called a tool during the conversation, else NO. When
 * the metric's prompt names one of the called tools' names, the explanation says which.
 */
export function evaluateToolCall(metric: Json, transcript: readonly TranscriptMessage[]): MetricOutcome {
  const called = calls(transcript);
  const prompt = typeof metric.prompt === 'string' ? metric.prompt : '';
  const named = [...new Set(called)].filter((name) => prompt.includes(name));
  if (called.length === 0) return completed('NO', 'The agent made no tool call.');
  return completed('YES', `The agent made ${called.length} tool call(s): ${[...new Set(called)].join(', ')}${named.length > 0 ? ` (named in the prompt: ${named.join(', ')})` : ''}.`);
}

/** METRIC_TOOL_CALL_RATE: tool calls per agent message. */
export function evaluateToolCallRate(_metric: Json, transcript: readonly TranscriptMessage[]): MetricOutcome {
  const agentMessages = transcript.filter((m) => m.role === 'assistant').length;
  if (agentMessages === 0) return failed('the agent sent no message');
  const rate = Math.round((calls(transcript).length / agentMessages) * 1000) / 1000;
  return completed(rate, `${calls(transcript).length} tool call(s) over ${agentMessages} agent message(s).`);
}

/** METRIC_CUSTOM_END_REASON: how the chat ended: the name of the final tool message (end_conversation), else `completed`. */
export function evaluateEndReason(_metric: Json, transcript: readonly TranscriptMessage[]): MetricOutcome {
  const last = transcript.at(-1);
  const reason = last?.role === 'tool' ? (last.name ?? (typeof last.content === 'string' ? last.content : 'tool')) : 'completed';
  return completed(reason, `The conversation ended with ${reason}.`);
}

/**
 * Derived metrics over the outputs of `dependency_metric_ids` on the same conversation (scored first):
 * METRIC_DERIVED_AGGREGATE the average of their numeric values (YES counts 1, NO 0); METRIC_DERIVED_STRICT_LOGIC
 * YES when every one passed (YES, or a number above 0), else NO.
 */
export function evaluateDerived(metric: Json, strict: boolean, valueOf: (metricId: string) => unknown): MetricOutcome {
  const ids = Array.isArray(metric.dependency_metric_ids) ? metric.dependency_metric_ids.map(String) : [];
  if (ids.length === 0) return failed('the metric has no dependency_metric_ids');
  const numbers: number[] = [];
  for (const id of ids) {
    const v = valueOf(id);
    const n = v === 'YES' ? 1 : v === 'NO' ? 0 : typeof v === 'number' ? v : null;
    if (n === null) return failed(`metric ${id} has no usable value on this conversation`);
    numbers.push(n);
  }
  if (strict) {
    const pass = numbers.every((n) => n > 0);
    return completed(pass ? 'YES' : 'NO', pass ? 'Every dependency metric passed.' : 'A dependency metric did not pass.');
  }
  const average = Math.round((numbers.reduce((a, b) => a + b, 0) / numbers.length) * 1000) / 1000;
  return completed(average, `Average of ${numbers.length} dependency metric value(s).`);
}
