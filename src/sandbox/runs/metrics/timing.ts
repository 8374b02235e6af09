// Metrics computed from the transcript's timings and words (offsets in milliseconds, results in seconds where
// the facts say so: pause and latency, facts 2.17). Decisions where the facts are silent: docs/sandbox.md
// "Metrics at work (issue 25)".
import type { TranscriptMessage } from '../contract.js';
import type { Json } from '../../storage/store.js';
import { completed, skipped, type MetricOutcome, type Subvalue } from './outcome.js';
import { spokenTurns, textOf, words } from './transcript.js';

const seconds = (ms: number): number => Math.round(ms) / 1000;

/**
 * METRIC_PAUSE_ANALYSIS: the silences between consecutive turns (one turn's end to the next one's start) of at
 * least min_pause_duration_seconds (default 1); the value is the longest of them in seconds (0 when none), each
 * one a subvalue.
 */
export function evaluatePauses(metric: Json, transcript: readonly TranscriptMessage[]): MetricOutcome {
  const min = typeof metric.min_pause_duration_seconds === 'number' ? metric.min_pause_duration_seconds : 1;
  const turns = spokenTurns(transcript);
  const pauses: Subvalue[] = [];
  for (let i = 1; i < turns.length; i++) {
    const gap = turns[i]!.message.start_offset - turns[i - 1]!.message.end_offset;
    if (gap >= min * 1000) {
      pauses.push({ start_offset: turns[i - 1]!.message.end_offset, end_offset: turns[i]!.message.start_offset, output_type: 'float', float_value: seconds(gap), role: null, message_index: turns[i]!.index });
    }
  }
  const longest = pauses.reduce((max, p) => Math.max(max, p.float_value!), 0);
  return completed(longest, `${pauses.length} pause(s) of at least ${min} s between turns; the longest lasted ${longest} s.`, { subvalues: pauses });
}

/**
 * METRIC_LLM_TTFB (the agent's response latency in a chat): for each agent turn that answers a user turn, the
 * time from the end of the user's message to the start of the agent's; the value is their average in seconds.
 */
export function evaluateLatency(_metric: Json, transcript: readonly TranscriptMessage[]): MetricOutcome {
  const turns = spokenTurns(transcript);
  const latencies: Subvalue[] = [];
  for (let i = 1; i < turns.length; i++) {
    const before = turns[i - 1]!.message;
    const reply = turns[i]!.message;
    if (reply.role !== 'assistant' || before.role !== 'user') continue;
    const ms = Math.max(0, reply.start_offset - before.end_offset);
    latencies.push({ start_offset: before.end_offset, end_offset: reply.start_offset, output_type: 'float', float_value: seconds(ms), role: 'assistant', message_index: turns[i]!.index });
  }
  if (latencies.length === 0) return skipped('no agent reply follows a user turn in this conversation');
  const average = Math.round((latencies.reduce((sum, l) => sum + l.float_value!, 0) / latencies.length) * 1000) / 1000;
  return completed(average, `Average agent response latency over ${latencies.length} repl${latencies.length === 1 ? 'y' : 'ies'}: ${average} s.`, { subvalues: latencies });
}

/** METRIC_SPEAKING_TIME_PERCENTAGE: the agent's share (0-100) of the time either side was speaking. */
export function evaluateSpeakingTime(_metric: Json, transcript: readonly TranscriptMessage[]): MetricOutcome {
  let agent = 0;
  let all = 0;
  for (const { message } of spokenTurns(transcript)) {
    const span = Math.max(0, message.end_offset - message.start_offset);
    all += span;
    if (message.role === 'assistant') agent += span;
  }
  if (all === 0) return skipped('the conversation has no timed turns');
  const share = Math.round((agent / all) * 10000) / 100;
  return completed(share, `The agent spoke for ${share}% of the conversation's speaking time.`);
}

/** METRIC_WORDS_PER_MESSAGE_WITH_THRESHOLD: the average number of words per agent message. */
export function evaluateWordsPerMessage(_metric: Json, transcript: readonly TranscriptMessage[]): MetricOutcome {
  const counts = transcript.filter((m) => m.role === 'assistant').map((m) => words(textOf(m)));
  if (counts.length === 0) return skipped('the agent sent no message');
  const average = Math.round((counts.reduce((a, b) => a + b, 0) / counts.length) * 100) / 100;
  return completed(average, `The agent's ${counts.length} message(s) average ${average} words.`);
}

/** METRIC_LOOP_DETECTION: how many agent messages repeat an earlier agent message (same words, case and spacing ignored). */
export function evaluateLoops(_metric: Json, transcript: readonly TranscriptMessage[]): MetricOutcome {
  const seen = new Set<string>();
  let repeats = 0;
  for (const m of transcript) {
    if (m.role !== 'assistant') continue;
    const key = textOf(m).toLowerCase().replace(/\s+/gu, ' ').trim();
    if (key === '') continue;
    if (seen.has(key)) repeats++;
    seen.add(key);
  }
  return completed(repeats, repeats === 0 ? 'The agent never repeated a message.' : `The agent repeated an earlier message ${repeats} time(s).`);
}
