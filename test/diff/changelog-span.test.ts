// Spec-derived text in a CHANGELOG is a Markdown code span: shown literally, whatever it holds.
import { describe, expect, it } from 'vitest';
import { codeSpan } from '../../src/emit/package/changelog.js';

const cases: [string, { given: string; want: string }][] = [
  ['plain text', { given: '#/paths/~1tags/get', want: '`#/paths/~1tags/get`' }],
  ['quotes and markup stay as written', { given: '["a","null"] <script>', want: '`["a","null"] <script>`' }],
  ['a backtick inside takes a longer fence', { given: 'a`b', want: '``a`b``' }],
  ['a backtick at an edge is padded', { given: '`x', want: '`` `x ``' }],
  ['line breaks become spaces', { given: 'a\nb\r\nc', want: '`a b c`' }],
];

describe('codeSpan', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(codeSpan(given)).toBe(want);
  });
});
