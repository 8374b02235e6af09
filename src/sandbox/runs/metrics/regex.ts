// METRIC_TRANSCRIPT_REGEX (facts 2.17): `regex_pattern` searched in the messages of `role` (agent | user), at
// `position` any (default) | first | last message of that role, `case_insensitive`; `match_mode` presence
// (default) gives 1 on a match, absence gives 1 when the pattern is not found; else 0.
//
// A pattern is the metric author's input: one that does not compile, or that runs away on a message
// (catastrophic backtracking), makes this output FAILED with a status_reason. Each test runs under a time limit
// in a vm context (V8 interrupts a running regular expression there), on at most MAX_MESSAGE_CHARS of a message.
import vm from 'node:vm';
import type { TranscriptMessage } from '../contract.js';
import type { Json } from '../../storage/store.js';
import { completed, failed, type MetricOutcome } from './outcome.js';
import { textOf, transcriptRole } from './transcript.js';

export const REGEX_LIMITS = { patternChars: 2000, messageChars: 100_000, timeMs: 250 } as const;

const context = vm.createContext({ re: /$^/, text: '' });
const test = new vm.Script('re.test(text)');

/** Whether `re` matches `text`, or 'timeout' when it ran over the time limit. */
function matches(re: RegExp, text: string): boolean | 'timeout' {
  context.re = re;
  context.text = text.slice(0, REGEX_LIMITS.messageChars);
  try {
    return test.runInContext(context, { timeout: REGEX_LIMITS.timeMs }) === true;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
    throw error;
  } finally {
    context.text = '';
  }
}

export function evaluateRegex(metric: Json, transcript: readonly TranscriptMessage[]): MetricOutcome {
  const pattern = metric.regex_pattern;
  if (typeof pattern !== 'string' || pattern === '') return failed('the metric has no regex_pattern');
  if (pattern.length > REGEX_LIMITS.patternChars) return failed(`regex_pattern is longer than ${REGEX_LIMITS.patternChars} characters`);
  const mode = metric.match_mode ?? 'presence';
  if (mode !== 'presence' && mode !== 'absence') return failed(`match_mode ${JSON.stringify(mode)} is not presence or absence`);
  const position = metric.position ?? 'any';
  if (position !== 'any' && position !== 'first' && position !== 'last') return failed(`position ${JSON.stringify(position)} is not any, first or last`);
  let re: RegExp;
  try {
    re = new RegExp(pattern, metric.case_insensitive === true ? 'iu' : 'u');
  } catch (error) {
    return failed(`invalid regex_pattern: ${(error as Error).message}`);
  }
  const role = transcriptRole(metric.role);
  const ofRole = transcript.map((m, index) => ({ m, index })).filter(({ m }) => m.role === role);
  const searched = position === 'any' ? ofRole : position === 'first' ? ofRole.slice(0, 1) : ofRole.slice(-1);
  let foundAt: number | null = null;
  for (const { m, index } of searched) {
    const hit = matches(re, textOf(m));
    if (hit === 'timeout') return failed(`regex_pattern ran longer than ${REGEX_LIMITS.timeMs} ms on message ${index} (catastrophic backtracking)`);
    if (hit) {
      foundAt = index;
      break;
    }
  }
  const who = role === 'assistant' ? 'agent' : 'user';
  const where = position === 'any' ? `any ${who} message` : `the ${position} ${who} message`;
  const found = foundAt !== null;
  const value = (mode === 'presence') === found ? 1 : 0;
  return completed(value, found ? `The pattern was found in ${where} (message ${foundAt}).` : `The pattern was not found in ${where}.`);
}
