// The validators' run-time helpers as a typed module (src/emit/validators/runtime/), tested directly, and the
// way they reach generated code: exported declarations only, types stripped, with the helpers they call.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatFunction, formatSource } from '../../src/emit/validators/formats.js';
import { runtimeSource } from '../../src/emit/validators/runtime.js';
import * as checks from '../../src/emit/validators/runtime/format-checks.js';
import * as h from '../../src/emit/validators/runtime/helpers.js';
import type { ErrorRecord } from '../../src/emit/validators/runtime/helpers.js';
import { HelperLibrary } from '../../src/emit/validators/runtime/library.js';
import { cpLength } from '../../src/conformance/values/text.js';

describe('helpers', () => {
  it.each([
    ['ASCII', { given: 'abc', want: 3 }],
    ['a surrogate pair counts once', { given: 'a\u{1F600}b', want: 3 }],
    ['a lone high surrogate counts once', { given: '\uD83D', want: 1 }],
    ['a high surrogate before a non-low one', { given: '\uD83Dx', want: 2 }],
    ['empty', { given: '', want: 0 }],
  ])('$cpLen: %s', (_name, { given, want }) => {
    expect(h.$cpLen(given)).toBe(want);
    // The conformance value generator counts with the very same function.
    expect(cpLength).toBe(h.$cpLen);
  });

  it.each([
    ['numbers 1 and 1.0', { given: [1, 1.0], want: true }],
    ['key order ignored', { given: [{ a: 1, b: [2] }, { b: [2], a: 1 }], want: true }],
    ['array against object', { given: [[], {}], want: false }],
    ['missing key', { given: [{ a: undefined }, { b: undefined }], want: false }],
    ['different lengths', { given: [[1], [1, 1]], want: false }],
    ['null against object', { given: [null, {}], want: false }],
  ])('$eq: %s', (_name, { given: [a, b], want }) => {
    expect(h.$eq(a, b)).toBe(want);
  });

  it.each([
    ['small, distinct objects', { given: [{ a: 1 }, { a: 2 }], want: true }],
    ['small, equal objects', { given: [{ a: 1 }, { a: 1 }], want: false }],
    ['large primitives (the Set path)', { given: [...Array(40).keys()], want: true }],
    ['large primitives with a repeat', { given: [...Array(40).keys(), 3], want: false }],
    ['large with objects (canonical texts)', { given: [...Array(40).keys(), [1], [1]], want: false }],
    ['large: key order ignored', { given: [...Array(40).keys(), { a: 1, b: [2] }, { b: [2], a: 1 }], want: false }],
    ['large: 1 and 1.0, -0 and 0 are equal', { given: [...Array(40).keys(), [1.0], [1], { x: -0 }, { x: 0 }].slice(1), want: false }],
    ['large: a string is not the number it spells', { given: [...Array(40).keys(), ['1'], [1], { '"a"': 1 }, { a: 1 }], want: true }],
    ['large: 10,000 distinct objects', { given: Array.from({ length: 10_000 }, (_, i) => ({ metric_id: `m${i}`, aggregation: 'SINGLE' })), want: true }],
    ['large: 10,000 objects, the last a repeat', { given: [...Array.from({ length: 10_000 }, (_, i) => ({ metric_id: `m${i}` })), { metric_id: 'm0' }], want: false }],
  ])('$uniq: %s', (_name, { given, want }) => {
    expect(h.$uniq(given)).toBe(want);
  });

  it.each([
    ['0.0075 of 0.0001 (floating point says no)', { given: [0.0075, 0.0001], want: true }],
    ['0.0075 of 0.002', { given: [0.0075, 0.002], want: false }],
    ['integers', { given: [10, 5], want: true }],
    ['a fraction of an integer', { given: [10.5, 5], want: false }],
    ['exponent forms', { given: [1e-7, 1e-8], want: true }],
    ['infinity', { given: [Infinity, 0.5], want: false }],
  ])('$multipleOf: %s', (_name, { given: [x, m], want }) => {
    expect(h.$multipleOf(x!, m!)).toBe(want);
  });

  it.each([
    ['spaces and tabs', { given: ' \t\n', want: false }],
    ['Unicode spaces', { given: '\u00a0\u2028\u3000\ufeff', want: false }],
    ['a letter among spaces', { given: '  x ', want: true }],
    ['a lone surrogate', { given: '\uD800', want: true }],
  ])('$nonBlank: %s', (_name, { given, want }) => {
    expect(h.$nonBlank(given)).toBe(want);
    expect(h.$nonBlank(given)).toBe(/\S/u.test(given));
  });

  it.each([
    ['the root', { given: [], want: null }],
    ['identifiers and indexes', { given: ['conditions', 0, 'threshold_float'], want: 'conditions[0].threshold_float' }],
    ['a key that is not an identifier', { given: ['metadata', 'a.b'], want: 'metadata["a.b"]' }],
    ['a key starting with a digit', { given: ['1a'], want: '["1a"]' }],
    ['an empty key', { given: [''], want: '[""]' }],
  ])('$field: %s', (_name, { given, want }) => {
    expect(h.$field(given)).toBe(want);
  });

  it('$re compiles with the u flag, and without it when only that works', () => {
    expect(h.$re('\\p{L}').test('é')).toBe(true);
    expect(h.$re('\\-').flags).toBe('');
    expect(() => h.$re('(')).toThrow();
  });

  it('$E, $E1, $E2 and $EN copy the path, so later changes of the stack do not reach recorded errors', () => {
    const E: ErrorRecord[] = [];
    const p = ['a'];
    h.$E(E, p, 'm0', true);
    h.$E1(E, p, 'b', 'm1');
    h.$E1(E, [], 'top', 'm1b');
    h.$E2(E, p, 'b', 0, 'm2');
    h.$EN(E, p, ['b', 1, 'c'], 'mN');
    p.push('changed');
    expect(E).toEqual([
      { path: ['a'], message: 'm0', type: true },
      { path: ['a', 'b'], message: 'm1', type: false },
      { path: ['top'], message: 'm1b', type: false },
      { path: ['a', 'b', 0], message: 'm2', type: false },
      { path: ['a', 'b', 1, 'c'], message: 'mN', type: false },
    ]);
  });

  it('$best keeps the branch with the fewest errors and none when every branch rejects the type here', () => {
    const typeHere = (_x: unknown, p: h.PathSegment[], e: ErrorRecord[]) => h.$E(e, p, 'must be string', true);
    const twoBelow = (_x: unknown, p: h.PathSegment[], e: ErrorRecord[]) => (h.$E1(e, p, 'a', 'x'), h.$E1(e, p, 'b', 'y'));
    const oneBelow = (_x: unknown, p: h.PathSegment[], e: ErrorRecord[]) => h.$E1(e, p, 'c', 'z');
    expect(h.$best({}, [], [typeHere, twoBelow, oneBelow])).toEqual([{ path: ['c'], message: 'z', type: false }]);
    expect(h.$best({}, [], [typeHere, typeHere])).toEqual([]);
  });

  it('$addAll, $merge and $countKeys see own properties only', () => {
    const ev: h.Evaluated = new Set();
    h.$addAll(ev, Object.assign(Object.create({ inherited: 1 }), { own: 1 }));
    h.$addAll(ev, ['x', 'y']);
    const into: h.Evaluated = new Set(['z']);
    h.$merge(into, ev);
    expect([...into]).toEqual(['z', 'own', 0, 1]);
    expect(h.$countKeys(Object.assign(Object.create({ inherited: 1 }), { a: 1, b: 2 }))).toBe(2);
  });

  it('$validator builds validate(), is() and Standard Schema from one check and one collector', () => {
    const v = h.$validator(
      (x) => typeof x === 'string',
      (x, p, e) => {
        if (typeof x !== 'string') h.$E1(e, p, 'name', 'must be string', true);
      },
    );
    expect(v.is('a')).toBe(true);
    expect(v.validate('a')).toEqual({ ok: true, value: 'a' });
    expect(v.validate(1)).toEqual({ ok: false, errors: [{ field: 'name', description: 'must be string' }] });
    expect(v['~standard'].validate(1)).toEqual({ issues: [{ message: 'must be string', path: ['name'] }] });
    expect(v['~standard'].vendor).toBe('evalplatform');
    expect(Object.isFrozen(v)).toBe(true);
  });
});

describe('format checks', () => {
  it.each([
    ['date', { given: ['2024-02-29', '2023-02-29'] }],
    ['time', { given: ['23:59:60Z', '23:59:60+01:00'] }],
    ['date-time', { given: ['2024-01-01T00:00:00Z', '2024-01-01 00:00:00Z'] }],
    ['hostname', { given: ['xn--a.example', 'ab--c.example'] }],
    ['ipv4', { given: ['192.0.2.1', '256.0.0.1'] }],
    ['ipv6', { given: ['::ffff:192.0.2.1', '1::2::3'] }],
    ['email', { given: ['a@[IPv6:::1]', 'a@'] }],
    ['uri-reference', { given: ['//host:80/p?q#f', 'a:b:[c]'] }],
    ['uri', { given: ['https://[::1]:8080/', '/relative'] }],
    ['uuid', { given: ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-00000000000'] }],
    ['duration', { given: ['P1Y2M3DT4H', 'P1Y3D'] }],
    ['regex', { given: ['^a+$', '('] }],
    ['json-pointer', { given: ['/a~0b/~1', '/a~2'] }],
  ])('%s: accepts the first value and refuses the second', (format, { given: [good, bad] }) => {
    const fn = (checks as unknown as Record<string, (s: string) => boolean>)[formatFunction(format)!]!;
    expect([fn(good!), fn(bad!)]).toEqual([true, false]);
  });

  it('knows no format it has no checker for', () => {
    expect(formatFunction('int32')).toBeUndefined();
    expect(formatFunction('toString')).toBeUndefined();
  });
});

describe('emitted source', () => {
  /** Evaluates emitted helper source and returns the named functions. */
  function evaluate(source: string, names: string[]): Record<string, (...args: unknown[]) => unknown> {
    return new Function(`const $vendor = "v";\n${source}\nreturn { ${names.join(', ')} };`)() as Record<string, (...args: unknown[]) => unknown>;
  }

  it('emits a helper with the helpers it calls, without types or comments, in the module order', () => {
    const source = runtimeSource(new Set(['$validator', '$uniq']));
    const declared = [...source.matchAll(/^(?:function|const) (\$\w+)/gm)].map((m) => m[1]);
    expect(declared).toEqual(['$hasOwn', '$eq', '$uniq', '$field', '$validator']);
    expect(source).not.toMatch(/: (string|number|boolean|unknown)\b|\/\/|\/\*|^export /m);
    const f = evaluate(source, ['$uniq', '$validator']);
    expect(f.$uniq!([{ a: 1 }, { a: 1 }])).toBe(false);
  });

  it('emits code that behaves as the typed module does', () => {
    const names = ['$cpLen', '$multipleOf', '$nonBlank', '$field', '$eq'];
    const f = evaluate(runtimeSource(new Set(names)), names);
    expect(f.$cpLen!('a\u{1F600}')).toBe(h.$cpLen('a\u{1F600}'));
    expect(f.$multipleOf!(0.0075, 0.0001)).toBe(true);
    expect(f.$nonBlank!('\u3000')).toBe(false);
    expect(f.$field!(['a', 0, 'b c'])).toBe(h.$field(['a', 0, 'b c']));
    expect(f.$eq!({ a: [1] }, { a: [1.0] })).toBe(true);
    const fmt = evaluate(formatSource(new Set(['email'])), ['$fmtEmail']);
    expect([fmt.$fmtEmail!('a@[IPv6:::1]'), fmt.$fmtEmail!('a@-b')]).toEqual([true, false]);
  });

  it('emits nothing for no helpers and refuses a name it does not have', () => {
    expect(runtimeSource(new Set())).toBe('');
    expect(() => runtimeSource(new Set(['$nope']))).toThrow(/no helper \$nope/);
  });

  const dir = mkdtempSync(join(tmpdir(), 'helper-library-'));
  it.each([
    ['an import', { given: "import { x } from './x.js';\nexport function $a(): number { return x; }\n", want: /unexpected top-level statement/ }],
    ['a name without $', { given: 'export function a(): number { return 1; }\n', want: /unexpected top-level statement/ }],
    ['an unexported helper used by an exported one', { given: 'function $b(): number { return 1; }\nexport function $a(): number { return $b(); }\n', want: /\$a uses \$b/ }],
  ])('refuses a helper module with %s', (name, { given, want }) => {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.ts`);
    writeFileSync(file, given);
    expect(() => HelperLibrary.read(pathToFileURL(file))).toThrow(want);
  });
});
