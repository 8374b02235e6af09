// How the sandbox reaches an agent (facts 2.16): a MODEL_TYPE_CHAT agent whose metadata names a usable
// `chat_endpoint` is called over HTTP in the chat-completions format; any other agent (voice, phone, websocket, A2A,
// or a chat agent without a usable endpoint) gets a synthetic transcript and no network call.
// Deviation (docs/sandbox.md): the service requires HTTPS and refuses local addresses; the sandbox runs beside the
// agent, so it accepts http and loopback. It calls only the URLs the agent's own metadata names, and never follows a
// redirect elsewhere.
import type { Json } from '../storage/store.js';
import { isJsonObject } from '../storage/store.js';

export interface ChatConnection {
  endpoint: string;
  /** Sent as `Authorization` on every request; a secret: never logged, never in an error message. */
  authorization: string | null;
  /** Header name -> value template (custom_headers, a JSON object text). */
  customHeaders: Record<string, string>;
  /** custom_data parsed (agent level, in every chat request as `customData`). */
  customData: unknown;
  /** The agent-level custom_persona_data parsed; the persona's own wins (seed Persona). */
  customPersonaData: unknown;
  initializationEndpoint: string | null;
  initializationPayload: unknown;
  payloadWrapper: string | null;
  inputTemplate: unknown;
  responseMessagePath: string | null;
  responseFormat: 'chat_completions' | 'responses';
  /** The `model` of each request: metadata.model, else a fixed name (our decision). */
  model: string;
}

export type AgentConnection = { kind: 'chat'; connection: ChatConnection } | { kind: 'synthetic'; reason: string } | { kind: 'invalid'; reason: string };

export const DEFAULT_MODEL = 'evalplatform-sandbox-simulator';

/** An http(s) URL without credentials (query strings are allowed: a deviation the sandbox can afford). */
function usableUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.toString();
}

/** A JSON-object text (custom_data, custom_headers, custom_persona_data), an object as is, or absent. */
function jsonObjectField(metadata: Json, field: string): { ok: true; value: Json | undefined } | { ok: false } {
  const raw = metadata[field];
  if (raw === undefined || raw === null || raw === '') return { ok: true, value: undefined };
  if (isJsonObject(raw)) return { ok: true, value: raw };
  if (typeof raw !== 'string') return { ok: false };
  try {
    const parsed: unknown = JSON.parse(raw);
    return isJsonObject(parsed) ? { ok: true, value: parsed } : { ok: false };
  } catch {
    return { ok: false };
  }
}

function optionalString(metadata: Json, field: string): string | null {
  const v = metadata[field];
  return typeof v === 'string' && v !== '' ? v : null;
}

/** Reads the agent's connection from its model_type and metadata. */
export function agentConnection(agent: Json): AgentConnection {
  if (agent.model_type !== 'MODEL_TYPE_CHAT') return { kind: 'synthetic', reason: `agent of type ${String(agent.model_type)} (no chat endpoint)` };
  const metadata = isJsonObject(agent.metadata) ? agent.metadata : {};
  const endpoint = usableUrl(metadata.chat_endpoint);
  if (!endpoint) return { kind: 'synthetic', reason: metadata.chat_endpoint === undefined ? 'chat agent without metadata.chat_endpoint' : 'metadata.chat_endpoint is not an http(s) URL' };
  const fields: Record<string, Json | undefined> = {};
  for (const f of ['custom_headers', 'custom_data', 'custom_persona_data']) {
    const read = jsonObjectField(metadata, f);
    if (!read.ok) return { kind: 'invalid', reason: `metadata.${f} is not a JSON object` };
    fields[f] = read.value;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields.custom_headers ?? {})) {
    if (typeof value !== 'string') return { kind: 'invalid', reason: `metadata.custom_headers.${name} is not a string` };
    headers[name] = value;
  }
  const init = metadata.initialization_endpoint;
  const initializationEndpoint = init === undefined || init === null || init === '' ? null : usableUrl(init);
  if (init !== undefined && init !== null && init !== '' && !initializationEndpoint) return { kind: 'invalid', reason: 'metadata.initialization_endpoint is not an http(s) URL' };
  const format = metadata.response_format ?? 'chat_completions';
  if (format !== 'chat_completions' && format !== 'responses') return { kind: 'invalid', reason: 'metadata.response_format must be chat_completions or responses' };
  return {
    kind: 'chat',
    connection: {
      endpoint,
      authorization: optionalString(metadata, 'authorization_header'),
      customHeaders: headers,
      customData: fields.custom_data,
      customPersonaData: fields.custom_persona_data,
      initializationEndpoint,
      initializationPayload: metadata.initialization_payload ?? null,
      payloadWrapper: optionalString(metadata, 'payload_wrapper'),
      inputTemplate: metadata.input_template ?? null,
      responseMessagePath: optionalString(metadata, 'response_message_path'),
      responseFormat: format,
      model: optionalString(metadata, 'model') ?? DEFAULT_MODEL,
    },
  };
}
