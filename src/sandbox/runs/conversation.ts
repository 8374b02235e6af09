// One simulated conversation with a chat agent (facts 2.16, 2.17): the persona plays the user; each agent turn is
// one POST {model, messages} carrying the conversation so far (persona turns as user, agent turns as assistant);
// the persona ends the chat with an end_conversation tool message once the agent has answered its last turn.
// Every message is recorded with the real exchange's timestamps (seconds, as text) and offsets (ms from the start):
// a persona message spans the moment it was written (after the pace and the persona's wait_seconds) to its send, an
// agent message the moment its reply arrived.
import type { Json } from '../storage/store.js';
import { isJsonObject } from '../storage/store.js';
import type { ChatConnection } from './agent-connection.js';
import { AgentCallError, postJson, readReply, type CallLimits } from './chat-agent.js';
import type { TranscriptMessage } from './contract.js';
import { agentSpeaksFirst, type PersonaTurn } from './persona-turns.js';
import { fillJson, fillText, type Variables } from './templates.js';

export interface ConversationInput {
  connection: ChatConnection;
  persona: Json;
  turns: readonly PersonaTurn[];
  simulationId: string;
  limits: CallLimits;
  /** Milliseconds the persona takes before each of its turns (the sandbox's pace). */
  paceMs: number;
  signal: AbortSignal;
}

export type ConversationOutcome = { ok: true; transcript: TranscriptMessage[] } | { ok: false; transcript: TranscriptMessage[]; error: string };

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal.removeEventListener('abort', abort);
      resolve();
    }
    function abort(): void {
      clearTimeout(timer);
      reject(new AgentCallError('cancelled'));
    }
    signal.addEventListener('abort', abort, { once: true });
  });
}

/** The persona's custom data (its own custom_persona_data wins over the agent's: seed Persona). */
function personaData(persona: Json, connection: ChatConnection): unknown {
  if (typeof persona.custom_persona_data === 'string' && persona.custom_persona_data !== '') {
    try {
      const parsed: unknown = JSON.parse(persona.custom_persona_data);
      if (isJsonObject(parsed)) return parsed;
    } catch {
      // A stored persona's value was checked when written; an unreadable one falls back to the agent's.
    }
  }
  return connection.customPersonaData;
}

export async function converse(input: ConversationInput): Promise<ConversationOutcome> {
  const { connection, persona, limits, signal } = input;
  const started = Date.now();
  const transcript: TranscriptMessage[] = [];
  const at = (ms: number): { stamp: string; offset: number } => ({ stamp: (ms / 1000).toFixed(3), offset: ms - started });
  const vars: Variables = { simulation_output_id: input.simulationId, persona: isJsonObject(persona.initialization_parameters) ? persona.initialization_parameters : {} };
  const headers = (): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(connection.customHeaders)) out[name] = fillText(value, vars);
    if (connection.authorization) out.authorization = connection.authorization;
    return out;
  };
  const waitMs = input.paceMs + (typeof persona.wait_seconds === 'number' ? Math.round(persona.wait_seconds * 1000) : 0);
  try {
    if (connection.initializationEndpoint) {
      const payload = connection.initializationPayload === null || connection.initializationPayload === '' ? {} : fillJsonChecked(connection.initializationPayload, vars, 'initialization_payload');
      const answer = await postJson(connection.initializationEndpoint, headers(), payload, limits, 'initialization endpoint', signal);
      vars.init_response = answer;
      const session = isJsonObject(answer) ? (answer.sessionId ?? answer.session_id) : undefined;
      if (typeof session === 'string' || typeof session === 'number') vars.sessionId = String(session);
    }
    const customPersonaData = personaData(persona, connection);
    const askAgent = async (): Promise<void> => {
      const messages = transcript.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => (m.role === 'assistant' && m.tool_calls ? { role: m.role, content: m.content, tool_calls: m.tool_calls } : { role: m.role, content: m.content }));
      const lastUser = [...transcript].reverse().find((m) => m.role === 'user');
      let payload: unknown;
      if (connection.inputTemplate !== null && connection.inputTemplate !== '') {
        payload = fillJsonChecked(connection.inputTemplate, { ...vars, messages, last_user_message: lastUser?.content ?? '', model: connection.model }, 'input_template');
      } else {
        const body: Json = { model: connection.model, messages };
        if (connection.customData !== undefined) body.customData = connection.customData;
        // seed Persona: customPersonaData is included only when the agent has no input_template.
        if (customPersonaData !== undefined) body.customPersonaData = customPersonaData;
        if (typeof vars.sessionId === 'string') body.sessionId = vars.sessionId;
        payload = body;
      }
      if (connection.payloadWrapper) payload = { [connection.payloadWrapper]: payload };
      const answer = await postJson(connection.endpoint, headers(), payload, limits, 'chat endpoint', signal);
      const reply = readReply(answer, connection.responseFormat, connection.responseMessagePath, 'chat endpoint');
      const now = at(Date.now());
      const message: TranscriptMessage = { role: 'assistant', content: reply.content, start_timestamp: now.stamp, end_timestamp: now.stamp, start_offset: now.offset, end_offset: now.offset };
      if (reply.toolCalls.length > 0) message.tool_calls = reply.toolCalls;
      transcript.push(message);
    };
    if (agentSpeaksFirst(persona) || input.turns.length === 0) {
      await askAgent();
    }
    for (const turn of input.turns) {
      const begin = at(Date.now());
      await sleep(waitMs, signal);
      if (turn !== null) {
        const sent = at(Date.now());
        transcript.push({ role: 'user', content: turn, start_timestamp: begin.stamp, end_timestamp: sent.stamp, start_offset: begin.offset, end_offset: sent.offset });
      }
      await askAgent();
    }
    const end = at(Date.now());
    transcript.push({ role: 'tool', name: 'end_conversation', content: 'end_conversation', start_timestamp: end.stamp, end_timestamp: end.stamp, start_offset: end.offset, end_offset: end.offset });
    return { ok: true, transcript };
  } catch (error) {
    if (error instanceof AgentCallError) return { ok: false, transcript, error: error.message };
    return { ok: false, transcript, error: `the conversation could not run: ${(error as Error)?.message ?? String(error)}` };
  }
}

/** A JSON template filled; a template that does not give JSON is the agent configuration's fault, named. */
function fillJsonChecked(template: unknown, vars: Variables, field: string): unknown {
  try {
    return fillJson(template, vars);
  } catch {
    throw new AgentCallError(`metadata.${field} does not give valid JSON once filled`);
  }
}
