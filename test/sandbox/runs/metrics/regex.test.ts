// Transcript regex metrics, each role, match mode, position and case setting (facts 2.17), and the patterns
// that must give a FAILED output with a reason rather than an error: invalid, runaway, settings out of range.
import { describe, expect, it } from 'vitest';
import { evaluateRegex } from '../../../../src/sandbox/runs/metrics/regex.js';
import { CHAT } from './transcripts.js';

// CHAT: agent says "Order 12 shipped yesterday." then "Goodbye then."; the user says "Where is my parcel?" then
// "thanks, REFUND please".
const cases: { name: string; metric: Record<string, unknown>; value: 0 | 1 }[] = [
  { name: 'agent, presence, any: found in a later message', metric: { regex_pattern: 'Goodbye' }, value: 1 },
  { name: 'agent, presence, any: not found', metric: { regex_pattern: 'parcel' }, value: 0 },
  { name: 'agent, absence, any: not found gives 1', metric: { regex_pattern: 'parcel', match_mode: 'absence' }, value: 1 },
  { name: 'agent, absence, any: found gives 0', metric: { regex_pattern: 'Goodbye', match_mode: 'absence' }, value: 0 },
  { name: 'agent, presence, first: in the first agent message', metric: { regex_pattern: '^Order \\d+', position: 'first' }, value: 1 },
  { name: 'agent, presence, first: only in the last one', metric: { regex_pattern: 'Goodbye', position: 'first' }, value: 0 },
  { name: 'agent, presence, last: in the last agent message', metric: { regex_pattern: 'Goodbye', position: 'last' }, value: 1 },
  { name: 'agent, presence, last: only in the first one', metric: { regex_pattern: 'Order', position: 'last' }, value: 0 },
  { name: 'agent, absence, last', metric: { regex_pattern: 'Order', position: 'last', match_mode: 'absence' }, value: 1 },
  { name: 'agent, absence, first', metric: { regex_pattern: 'Order', position: 'first', match_mode: 'absence' }, value: 0 },
  { name: 'user, presence, any', metric: { regex_pattern: 'parcel', role: 'user' }, value: 1 },
  { name: 'persona spelling reads the user', metric: { regex_pattern: 'parcel', role: 'persona' }, value: 1 },
  { name: 'user, presence, any: agent text not searched', metric: { regex_pattern: 'Goodbye', role: 'user' }, value: 0 },
  { name: 'user, presence, first', metric: { regex_pattern: 'REFUND', role: 'user', position: 'first' }, value: 0 },
  { name: 'user, presence, last', metric: { regex_pattern: 'REFUND', role: 'user', position: 'last' }, value: 1 },
  { name: 'user, absence, any', metric: { regex_pattern: 'cancel', role: 'user', match_mode: 'absence' }, value: 1 },
  { name: 'case sensitive by default', metric: { regex_pattern: 'refund', role: 'user' }, value: 0 },
  { name: 'case_insensitive', metric: { regex_pattern: 'refund', role: 'user', case_insensitive: true }, value: 1 },
  { name: 'case_insensitive false', metric: { regex_pattern: 'goodbye', case_insensitive: false }, value: 0 },
];

describe('transcript regex metric', () => {
  it.each(cases)('$name -> $value', ({ metric, value }) => {
    const out = evaluateRegex(metric, CHAT);
    expect(out).toMatchObject({ status: 'COMPLETED', value, status_reason: null });
    expect(out.explanation).toEqual(expect.any(String));
  });

  it('gives 0 for presence and 1 for absence when the role has no message', () => {
    const onlyUser = CHAT.filter((m) => m.role === 'user');
    expect(evaluateRegex({ regex_pattern: '.' }, onlyUser).value).toBe(0);
    expect(evaluateRegex({ regex_pattern: '.', match_mode: 'absence' }, onlyUser).value).toBe(1);
  });

  it.each([
    { name: 'a pattern that does not compile', metric: { regex_pattern: '([a-z' }, reason: /invalid regex_pattern/ },
    { name: 'no pattern', metric: {}, reason: /no regex_pattern/ },
    { name: 'an unknown match_mode', metric: { regex_pattern: 'x', match_mode: 'sometimes' }, reason: /match_mode/ },
    { name: 'an unknown position', metric: { regex_pattern: 'x', position: 'middle' }, reason: /position/ },
  ])('$name is a FAILED output with a status_reason', ({ metric, reason }) => {
    const out = evaluateRegex(metric, CHAT);
    expect(out.status).toBe('FAILED');
    expect(out.value).toBeNull();
    expect(out.status_reason).toMatch(reason);
  });

  it('stops a catastrophically backtracking pattern and fails that output only', () => {
    const slow = [{ ...CHAT[1]!, content: `${'a'.repeat(40)}b` }];
    const out = evaluateRegex({ regex_pattern: '^(a+)+$' }, slow);
    expect(out.status).toBe('FAILED');
    expect(out.status_reason).toMatch(/catastrophic backtracking/);
    // The evaluator still works afterwards.
    expect(evaluateRegex({ regex_pattern: 'a+b' }, slow).value).toBe(1);
  });
});
