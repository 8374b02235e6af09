// Reading a stored simulation's transcript (data.transcript, written by the run executor in the contract's
// TranscriptMessage shape) for the metric evaluators: who said what, and when.
import type { TranscriptMessage } from '../contract.js';
import { isJsonObject, type Json } from '../../storage/store.js';

/** The transcript a simulation record carries, or null when it has none (fixtures loaded without one). */
export function transcriptOf(data: Json): TranscriptMessage[] | null {
  const raw = data.transcript;
  if (!Array.isArray(raw)) return null;
  return raw.filter(isJsonObject).map((m) => ({
    role: (['user', 'assistant', 'tool', 'system'].includes(String(m.role)) ? m.role : 'system') as TranscriptMessage['role'],
    content: (m.content ?? null) as TranscriptMessage['content'],
    start_timestamp: String(m.start_timestamp ?? ''),
    end_timestamp: String(m.end_timestamp ?? ''),
    start_offset: finite(m.start_offset),
    end_offset: finite(m.end_offset),
    ...(Array.isArray(m.tool_calls) ? { tool_calls: m.tool_calls.filter(isJsonObject) } : {}),
    ...(typeof m.name === 'string' ? { name: m.name } : {}),
  }));
}

function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * The transcript role a metric's `role` names: `agent` is the agent (`assistant`), `user` and `persona` (the
 * Terraform provider's spelling) the simulated user. Metrics default to the agent.
 */
export function transcriptRole(metricRole: unknown): 'assistant' | 'user' {
  return metricRole === 'user' || metricRole === 'persona' ? 'user' : 'assistant';
}

/** A message's text: its string content, or the JSON of structured content. */
export function textOf(message: TranscriptMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content === null ? '' : JSON.stringify(message.content);
}

/** The persona's and the agent's turns (tool and system messages left out), with their index in the transcript. */
export function spokenTurns(transcript: readonly TranscriptMessage[]): { message: TranscriptMessage; index: number }[] {
  return transcript.map((message, index) => ({ message, index })).filter(({ message }) => message.role === 'user' || message.role === 'assistant');
}

export function words(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/u).length;
}

/** The chat-completions name of a tool call (`function.name`), or null. */
export function toolName(call: unknown): string | null {
  if (!isJsonObject(call)) return null;
  const fn = call.function;
  if (isJsonObject(fn) && typeof fn.name === 'string') return fn.name;
  return typeof call.name === 'string' ? call.name : null;
}

/** The arguments of a tool call as text (chat-completions carries them as a JSON string). */
export function toolArguments(call: unknown): string {
  if (!isJsonObject(call)) return '';
  const fn = isJsonObject(call.function) ? call.function : call;
  const args = fn.arguments;
  return typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args);
}
