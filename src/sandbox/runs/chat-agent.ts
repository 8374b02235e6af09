// One HTTP exchange with a chat agent (facts 2.16): a POST of JSON, answered by JSON, under a deadline and a size
// cap. Every failure is an AgentCallError whose message says which (refused, timeout, HTTP status, oversized,
// unreadable) and never carries a header value or the URL's query (where a token may sit).
import type { Json } from '../storage/store.js';
import { isJsonObject } from '../storage/store.js';
import { atPath } from './templates.js';
import { readBounded } from '../http/bounded-body.js';
import { outboundFetch } from '../http/outbound.js';

export interface CallLimits {
  timeoutMs: number;
  maxResponseBytes: number;
}

export class AgentCallError extends Error {}

/** The URL as an error message may show it: origin and path only. */
export function shownUrl(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause;
  const code = cause?.code ?? (error as { code?: string })?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed by the agent';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  return `network error${code ? ` (${code})` : ''}`;
}


/** POSTs `payload` as JSON and answers the parsed JSON reply. `what` names the call in error messages. */
export async function postJson(url: string, headers: Record<string, string>, payload: unknown, limits: CallLimits, what: string, signal?: AbortSignal): Promise<unknown> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const combined = signal ? AbortSignal.any([deadline, signal]) : deadline;
  let response: Response;
  try {
    response = await outboundFetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body: JSON.stringify(payload), redirect: 'manual', signal: combined });
  } catch (error) {
    if (deadline.aborted) throw new AgentCallError(`${what}: no answer within ${limits.timeoutMs} ms (timeout)`);
    if (signal?.aborted) throw new AgentCallError(`${what}: cancelled`);
    throw new AgentCallError(`${what}: ${networkReason(error)}`);
  }
  let text: string | null;
  try {
    text = await readBounded(response.body, limits.maxResponseBytes);
  } catch {
    if (deadline.aborted) throw new AgentCallError(`${what}: the answer did not finish within ${limits.timeoutMs} ms (timeout)`);
    throw new AgentCallError(`${what}: the answer could not be read`);
  }
  if (text === null) throw new AgentCallError(`${what}: the answer is larger than ${limits.maxResponseBytes} bytes`);
  if (response.status < 200 || response.status > 299) throw new AgentCallError(`${what}: HTTP ${response.status} from ${shownUrl(url)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AgentCallError(`${what}: the answer is not JSON`);
  }
}

/** The agent's reply message: content (text or null) and the tool calls it carried. */
export interface AgentReply {
  content: string | Json | null;
  toolCalls: Json[];
}

function fromMessage(message: unknown, what: string): AgentReply {
  if (typeof message === 'string') return { content: message, toolCalls: [] };
  if (!isJsonObject(message)) throw new AgentCallError(`${what}: the reply message is not an object or a string`);
  const content = message.content;
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isJsonObject) : [];
  if (typeof content === 'string' || content === null || content === undefined) return { content: content ?? null, toolCalls };
  if (Array.isArray(content)) {
    // Content parts ({type: text, text}): their text joined.
    return { content: content.map((p) => (isJsonObject(p) && typeof p.text === 'string' ? p.text : '')).join(''), toolCalls };
  }
  if (isJsonObject(content)) return { content, toolCalls };
  throw new AgentCallError(`${what}: the reply's content is not text`);
}

/** The Responses format: output items of type message (output_text parts) and function_call. */
function fromResponses(body: Json, what: string): AgentReply {
  if (typeof body.output_text === 'string' && !Array.isArray(body.output)) return { content: body.output_text, toolCalls: [] };
  if (!Array.isArray(body.output)) throw new AgentCallError(`${what}: the answer has no output (Responses format)`);
  let text = '';
  const toolCalls: Json[] = [];
  for (const item of body.output) {
    if (!isJsonObject(item)) continue;
    if (item.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content) if (isJsonObject(part) && typeof part.text === 'string') text += part.text;
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id ?? item.id ?? null, type: 'function', function: { name: item.name ?? null, arguments: typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}) } });
    }
  }
  return { content: text === '' && toolCalls.length > 0 ? null : text, toolCalls };
}

/** Finds the reply in the agent's answer: response_message_path, else the format's place. */
export function readReply(body: unknown, format: 'chat_completions' | 'responses', path: string | null, what: string): AgentReply {
  if (path) {
    const found = atPath(body, path);
    if (found === undefined) throw new AgentCallError(`${what}: nothing at response_message_path ${path}`);
    return fromMessage(found, what);
  }
  if (!isJsonObject(body)) throw new AgentCallError(`${what}: the answer is not a JSON object`);
  if (format === 'responses') return fromResponses(body, what);
  const first = Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (!isJsonObject(first) || first.message === undefined) throw new AgentCallError(`${what}: the answer has no choices[0].message`);
  return fromMessage(first.message, what);
}
