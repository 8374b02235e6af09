// The transcript of an agent the sandbox cannot talk to (voice, phone, websocket, A2A, or a chat agent without a
// usable chat endpoint): built from the test case alone, with no network call, the same words every time (the
// persona's turns, each answered by a fixed acknowledgement of it) and fixed offsets; the simulation is marked
// synthetic (data.synthetic_transcript) so nobody mistakes it for a real exchange.
import type { TranscriptMessage } from './contract.js';
import type { PersonaTurn } from './persona-turns.js';

const TURN_MS = 1_000;
const GAP_MS = 500;

function stamp(startMs: number, offsetMs: number): string {
  return ((startMs + offsetMs) / 1000).toFixed(3);
}

export function syntheticTranscript(turns: readonly PersonaTurn[], startMs: number): TranscriptMessage[] {
  const out: TranscriptMessage[] = [];
  let offset = 0;
  const say = (role: 'user' | 'assistant', content: string): void => {
    out.push({ role, content, start_timestamp: stamp(startMs, offset), end_timestamp: stamp(startMs, offset + TURN_MS), start_offset: offset, end_offset: offset + TURN_MS });
    offset += TURN_MS + GAP_MS;
  };
  for (const turn of turns) {
    if (turn === null) continue;
    say('user', turn);
    say('assistant', `[synthetic reply] Understood: ${turn}`);
  }
  if (out.length === 0) say('assistant', '[synthetic reply] Hello.');
  out.push({ role: 'tool', name: 'end_conversation', content: 'end_conversation', start_timestamp: stamp(startMs, offset), end_timestamp: stamp(startMs, offset), start_offset: offset, end_offset: offset });
  return out;
}
