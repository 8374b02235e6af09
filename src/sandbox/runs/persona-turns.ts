// What the simulated user (the persona) says in one conversation (facts 2.17 "What the simulated user says").
// A SCRIPT test case: its simulation_metadata_input.script_turns word for word (a text turn is said as written, a
// DTMF turn's digits are said as text, a skip turn says nothing that turn). Any other test case: the service words
// the objective with a language model; the sandbox has none, so the persona says the test case's input_str itself
// (our documented stand-in), once. A silent persona (seed Persona silent_mode) says nothing at all.
import type { Json } from '../storage/store.js';
import { isJsonObject } from '../storage/store.js';

/** One persona turn: the text said, or null for a turn the script skips. */
export type PersonaTurn = string | null;

function scriptTurn(turn: unknown): PersonaTurn {
  if (typeof turn === 'string') return turn;
  if (!isJsonObject(turn)) return null;
  const type = typeof turn.type === 'string' ? turn.type.toLowerCase() : 'text';
  if (type === 'skip') return null;
  for (const field of ['text', 'content', 'value', 'digits', 'dtmf']) if (typeof turn[field] === 'string') return turn[field] as string;
  return null;
}

/** The script's turns when the test case is a SCRIPT with turns; else null. */
export function scriptTurns(testCase: Json): PersonaTurn[] | null {
  const input = isJsonObject(testCase.simulation_metadata_input) ? testCase.simulation_metadata_input : null;
  const turns = input?.script_turns;
  const isScript = testCase.input_type === 'SCRIPT' || (testCase.input_type === undefined || testCase.input_type === null ? Array.isArray(turns) : false);
  if (!isScript || !Array.isArray(turns)) return null;
  return turns.map(scriptTurn);
}

export function personaTurns(testCase: Json, persona: Json): PersonaTurn[] {
  if (persona.silent_mode === true) return [];
  return scriptTurns(testCase) ?? [typeof testCase.input_str === 'string' ? testCase.input_str : ''];
}

/** Whether the agent speaks first: the persona's conversation_initiation wait_for_user; for chat the persona speaks first otherwise (SK). */
export function agentSpeaksFirst(persona: Json): boolean {
  return persona.conversation_initiation === 'wait_for_user';
}
