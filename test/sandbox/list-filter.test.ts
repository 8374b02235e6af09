// The list filter's AIP-160 subset: comparisons, AND / OR (tighter) / NOT, parentheses, and 400 on `filter` for
// what it cannot read.
import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../src/sandbox/errors.js';
import { parseFilter } from '../../src/sandbox/engine/list-filter.js';

const fields = ['status', 'display_name', 'tags', 'n', 'create_time', 'metadata', 'note'];
const record = { status: 'ACTIVE', display_name: 'Ana Bot', tags: ['a', 'b'], n: 3, create_time: '2026-01-02T00:00:00Z', metadata: { k: 1 }, note: null };
const matches = (expression: string): boolean => parseFilter(expression, fields, 'the list', 'filter')(record);

describe('parseFilter', () => {
  it('compares fields with = != < <= > >= and :', () => {
    expect(matches('status = "ACTIVE"')).toBe(true);
    expect(matches("display_name = 'Ana Bot'")).toBe(true);
    expect(matches('status = ACTIVE')).toBe(true);
    expect(matches('status != "ACTIVE"')).toBe(false);
    expect(matches('n > 2')).toBe(true);
    expect(matches('n >= 3.0')).toBe(true);
    expect(matches('n < 3')).toBe(false);
    expect(matches('n <= 2')).toBe(false);
    expect(matches('create_time > "2026-01-01T00:00:00Z"')).toBe(true);
    expect(matches('tags:a')).toBe(true);
    expect(matches('tags:c')).toBe(false);
    expect(matches('metadata:k')).toBe(true);
    expect(matches('note = null')).toBe(true);
    expect(matches('status = null')).toBe(false);
    expect(matches('note > 1')).toBe(false);
  });

  it('joins with AND (or side by side), OR binding tighter, NOT and parentheses', () => {
    expect(matches('status = ACTIVE AND n = 2')).toBe(false);
    expect(matches('status = ACTIVE n = 3')).toBe(true);
    // AIP-160: a AND b OR c is a AND (b OR c).
    expect(matches('n = 1 AND n = 2 OR n = 3')).toBe(false);
    expect(matches('n = 3 AND n = 2 OR n = 3')).toBe(true);
    expect(matches('NOT status = "X"')).toBe(true);
    expect(matches('NOT (n = 3 OR n = 4)')).toBe(false);
    expect(matches('')).toBe(true);
  });

  it('refuses what it cannot read with 400 on filter, saying where', () => {
    const refusal = (expression: string): string => {
      try {
        parseFilter(expression, fields, 'the list', 'filter');
      } catch (error) {
        expect(error).toBeInstanceOf(ApiFailure);
        const failure = error as ApiFailure;
        expect(failure.status).toBe(400);
        expect(failure.details[0]!.field).toBe('filter');
        return failure.details[0]!.description;
      }
      throw new Error(`${expression} was accepted`);
    };
    expect(refusal('status =')).toMatch(/needs a value at the end/);
    expect(refusal('foo = 1')).toMatch(/"foo": not one of its fields/);
    expect(refusal('(n = 1')).toMatch(/not closed/);
    expect(refusal('n = 1)')).toMatch(/unexpected "\)" at character 6/);
    expect(refusal('status ~ 1')).toMatch(/cannot read the filter/);
    expect(refusal('n = 1 AND')).toMatch(/expected a field name at the end/);
    expect(refusal('"x" = 1')).toMatch(/expected a field name at character 1/);
  });
});
