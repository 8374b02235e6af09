// The one writer and reader of references to named schemas, and the one data-safe key writer.
import { describe, expect, it } from 'vitest';
import { setOwn } from '../../src/data/own-property.js';
import { defsName, defsRef, refNameOf } from '../../src/model/defs-ref.js';

const cases: [string, { given: string; want: string }][] = [
  ['a plain name', { given: 'Tag', want: '#/$defs/Tag' }],
  ['a slash (pointer-escaped as ~1)', { given: 'a/b', want: '#/$defs/a~1b' }],
  ['a tilde (pointer-escaped as ~0)', { given: 'a~b', want: '#/$defs/a~0b' }],
  ['a space, quote and percent (fragment-encoded)', { given: 'a b"%', want: '#/$defs/a%20b%22%25' }],
  ['a spec-qualified name', { given: 'alerts.Alert', want: '#/$defs/alerts.Alert' }],
  ['a NUL-separated internal key', { given: '\u0001request\u0000Tag', want: '#/$defs/%01request%00Tag' }],
];

describe('defsRef / defsName', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(defsRef(given)).toBe(want);
    expect(defsName(want)).toBe(given);
    expect(refNameOf({ $ref: want })).toBe(given);
  });

  it('reads only references to one named schema', () => {
    expect(defsName('#/components/schemas/Tag')).toBeUndefined();
    expect(defsName('#/$defs/Tag/properties/x')).toBeUndefined();
    expect(defsName('#/$defs/%E0%A4%A')).toBeUndefined();
    expect(refNameOf({ $ref: 7 })).toBeUndefined();
    expect(refNameOf(['#/$defs/Tag'])).toBeUndefined();
  });
});

describe('setOwn', () => {
  it('stores __proto__ as data and leaves the prototype alone', () => {
    const o: Record<string, unknown> = {};
    setOwn(o, '__proto__', { polluted: true });
    setOwn(o, 'constructor', 1);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(o)).toBe('{"__proto__":{"polluted":true},"constructor":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
