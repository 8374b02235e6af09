// Transcripts for the metric evaluator's tests, in the run executor's TranscriptMessage shape.
import type { TranscriptMessage } from '../../../../src/sandbox/runs/contract.js';

/** A message of `role` saying `content` from `start` to `end` (milliseconds from the start). */
export function msg(role: TranscriptMessage['role'], content: string, start: number, end: number, extra: Partial<TranscriptMessage> = {}): TranscriptMessage {
  return { role, content, start_timestamp: String(1_800_000_000 + start / 1000), end_timestamp: String(1_800_000_000 + end / 1000), start_offset: start, end_offset: end, ...extra };
}

/** user, agent, user, agent, end_conversation: the agent says "Order" first and "Goodbye" last. */
export const CHAT: TranscriptMessage[] = [
  msg('user', 'Where is my parcel?', 0, 2000),
  msg('assistant', 'Order 12 shipped yesterday.', 2500, 4000, { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'track_parcel', arguments: '{"id":12}' } }] }),
  msg('user', 'thanks, REFUND please', 7000, 8000),
  msg('assistant', 'Goodbye then.', 8300, 9000),
  msg('tool', 'end_conversation', 9500, 9500, { name: 'end_conversation' }),
];
