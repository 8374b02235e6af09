// The optional judge endpoint (off by default; createSandbox's `judge` option): judged metrics are answered by a
// model the caller runs behind a chat-completions endpoint instead of the hash stand-ins (judged.ts). One POST
// per metric and conversation, `{model, messages}`: a system message with the metric's kind and the answers it
// may give, a user message with the metric's prompt and the transcript. The reply's `choices[0].message.content`
// must be JSON `{"value": ..., "explanation": "..."}` with a value the judge kind allows (judgedValueProblem);
// anything else (refused connection, timeout, non-2xx, an oversized or unreadable body, a value out of kind) makes
// that output FAILED with the reason: a configured judge that fails is not silently replaced by a stand-in.
// Calls go only to the configured URL, with a time limit and a size limit; headers (an Authorization) are never
// logged or stored.
import type { Runtime } from '../../engine/context.js';
import { isJsonObject, type Json } from '../../storage/store.js';
import type { TranscriptMessage } from '../contract.js';
import { judgedValueProblem, numericalRange, type JudgedKind } from './judged.js';
import { completed, failed, type MetricOutcome } from './outcome.js';
import { textOf } from './transcript.js';
import { readBounded } from '../../http/bounded-body.js';
import { outboundFetch } from '../../http/outbound.js';

export interface JudgeEndpointOptions {
  /** The chat-completions URL (`http://127.0.0.1:8080/v1/chat/completions`). */
  url: string;
  /** Sent on every request (an Authorization header); never logged. */
  headers?: Record<string, string>;
  /** The `model` of each request (default `sandbox-judge`). */
  model?: string;
  /** Per request (default 10 s). */
  timeoutMs?: number;
}

export const JUDGE_LIMITS = { timeoutMs: 10_000, responseBytes: 1024 * 1024 } as const;

const judges = new WeakMap<object, JudgeEndpointOptions>();

/** Sets (or with undefined, clears) the judge endpoint of a sandbox's runtime. */
export function configureJudge(runtime: Runtime, options: JudgeEndpointOptions | undefined): void {
  if (options === undefined) {
    judges.delete(runtime.store);
    return;
  }
  const url = new URL(options.url); // a malformed URL fails createSandbox, not a scoring
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`sandbox: the judge URL must be http or https, got ${url.protocol}`);
  judges.set(runtime.store, options);
}

/** The judge endpoint configured for this runtime's sandbox, if any (keyed by its store: a request's runtime is a copy). */
export function judgeOf(runtime: Runtime): JudgeEndpointOptions | undefined {
  return judges.get(runtime.store);
}

function allowedAnswers(kind: JudgedKind, metric: Json): string {
  switch (kind) {
    case 'binary':
      return 'the string "YES" or "NO"';
    case 'categorical':
      return `one of the strings ${JSON.stringify(Array.isArray(metric.categories) ? metric.categories : [])}`;
    case 'numerical': {
      const { min, max } = numericalRange(metric);
      return `a number from ${min} to ${max}`;
    }
    case 'composite':
      return metric.reporting_method === 'count_of_criteria_met' ? 'the number of criteria met' : 'the fraction (0 to 1) of the criteria met';
  }
}

/** The request body: the metric, the answers it allows, and the transcript. */
export function judgeRequest(model: string, kind: JudgedKind, metric: Json, transcript: readonly TranscriptMessage[]): Json {
  const criteria = Array.isArray(metric.criteria) && metric.criteria.length > 0 ? `\nCriteria:\n${metric.criteria.map((c) => `- ${String(c)}`).join('\n')}` : '';
  const conversation = transcript
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => `${m.role === 'user' ? 'User' : 'Agent'}: ${textOf(m)}`)
    .join('\n');
  return {
    model,
    messages: [
      {
        role: 'system',
        content: `You evaluate a conversation between a user and an AI agent for the metric "${String(metric.metric_name ?? '')}". Answer with JSON only: {"value": <${allowedAnswers(kind, metric)}>, "explanation": "<why>"}.`,
      },
      { role: 'user', content: `${typeof metric.prompt === 'string' && metric.prompt !== '' ? metric.prompt : String(metric.description ?? '')}${criteria}\n\nConversation:\n${conversation}` },
    ],
  };
}


/** The judge's answer parsed from a chat-completions reply text, or the reason it is unusable. */
export function parseJudgeReply(kind: JudgedKind, metric: Json, text: string): MetricOutcome {
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    return failed('the judge endpoint answered a body that is not JSON');
  }
  const choice = isJsonObject(reply) && Array.isArray(reply.choices) ? reply.choices[0] : undefined;
  const content = isJsonObject(choice) && isJsonObject(choice.message) ? choice.message.content : undefined;
  if (typeof content !== 'string') return failed('the judge endpoint answered no choices[0].message.content');
  let answer: unknown;
  try {
    // Models often fence JSON in a code block.
    answer = JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
  } catch {
    return failed('the judge answered content that is not JSON {"value", "explanation"}');
  }
  if (!isJsonObject(answer) || !Object.hasOwn(answer, 'value')) return failed('the judge answered no value');
  const problem = judgedValueProblem(kind, metric, answer.value);
  if (problem !== null) return failed(`the judge answered ${JSON.stringify(answer.value)}: ${problem}`);
  const explanation = typeof answer.explanation === 'string' ? answer.explanation : 'Answered by the configured judge endpoint.';
  return completed(answer.value as number | string, explanation, { result: { llm: explanation } });
}

/** Asks the configured judge endpoint; every failure is a FAILED outcome saying which. */
export async function askJudge(options: JudgeEndpointOptions, kind: JudgedKind, metric: Json, transcript: readonly TranscriptMessage[]): Promise<MetricOutcome> {
  const timeoutMs = options.timeoutMs ?? JUDGE_LIMITS.timeoutMs;
  let res: Response;
  try {
    res = await outboundFetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(judgeRequest(options.model ?? 'sandbox-judge', kind, metric, transcript)),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const name = (error as Error)?.name;
    return failed(name === 'TimeoutError' ? `the judge endpoint did not answer within ${timeoutMs} ms` : 'the judge endpoint could not be reached');
  }
  let text: string | null;
  try {
    text = await readBounded(res.body, JUDGE_LIMITS.responseBytes);
  } catch {
    return failed('the judge endpoint closed the connection while answering');
  }
  if (res.status < 200 || res.status > 299) return failed(`the judge endpoint answered HTTP ${res.status}`);
  if (text === null) return failed(`the judge endpoint answered more than ${JUDGE_LIMITS.responseBytes} bytes`);
  return parseJudgeReply(kind, metric, text);
}
