// How the inspector words counts, rounds numbers for reading and renders backticks in descriptions.
import { describe, expect, it } from 'vitest';
import { count, DescriptionText, displayNumber } from '../../src/inspector/format.js';

describe('count', () => {
  it('is singular for one and plural otherwise', () => {
    expect(count(1, 'record', 'records')).toBe('1 record');
    expect(count(0, 'family', 'families')).toBe('0 families');
    expect(count(2, 'family', 'families')).toBe('2 families');
  });
});

describe('displayNumber', () => {
  it('rounds to at most 4 significant decimals, keeps integers and non-numbers as they are', () => {
    expect(displayNumber(4.666666666666667)).toBe('4.6667');
    expect(displayNumber(0.00012345678)).toBe('0.0001235');
    expect(displayNumber(0.5)).toBe('0.5');
    expect(displayNumber(42)).toBe('42');
    expect(displayNumber(-1234.56789)).toBe('-1234.5679');
    expect(displayNumber('n/a')).toBe('n/a');
    expect(displayNumber(Number.NaN)).toBe('NaN');
  });
});

describe('DescriptionText', () => {
  it('turns backticked spans into code elements and leaves the rest as text', () => {
    const parts = DescriptionText({ text: 'Sort by `create_time` or `name`; plain text stays.' }) as unknown[];
    expect(parts[0]).toBe('Sort by ');
    expect(parts[1]).toMatchObject({ type: 'code', props: { children: 'create_time' } });
    expect(parts[2]).toBe(' or ');
    expect(parts[3]).toMatchObject({ type: 'code', props: { children: 'name' } });
    expect(parts[4]).toBe('; plain text stays.');
  });

  it('leaves a lone backtick alone and never parses HTML', () => {
    expect(DescriptionText({ text: 'a ` b <script>' })).toEqual(['a ` b <script>']);
  });
});
