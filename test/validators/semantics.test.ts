// What the fast paths must not change: property presence, the `\S` pattern helper, functions shared between
// locations, inlined references (recursion included), and is() agreeing with validate() (which is one pass of
// the error collector) on every validator generated from spec/.
import { describe, expect, it } from 'vitest';
import { compileValidatorModule } from '../../src/emit/validators/compile.js';
import { emitValidators } from '../../src/emit/validators/emit-validators.js';
import { buildNames } from '../../src/emit/naming.js';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import { compile, errorsOf, load, type LoadedValidator } from './fixtures.js';

/** is(), validate() and Standard Schema must give the same answer. */
function agree(v: LoadedValidator, value: unknown): boolean {
  const is = v.is(value);
  const ok = v.validate(value).ok;
  const std = !('issues' in v['~standard'].validate(value));
  if (is !== ok || is !== std) throw new Error(`is() ${is}, validate().ok ${ok}, ~standard ${std} for ${JSON.stringify(value)}`);
  return is;
}

describe('property presence', () => {
  const schema = {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string' }, note: { type: 'string' }, hasOwnProperty: { type: 'string' }, valueOf: { type: 'integer' } },
    additionalProperties: false,
  };

  it('treats a key set to undefined as absent, as JSON.stringify does', async () => {
    const v = await compile(schema);
    expect(agree(v, { id: 'a', note: undefined })).toBe(true);
    expect(agree(v, { id: undefined })).toBe(false);
    expect(errorsOf(v, { id: undefined })).toEqual([{ field: 'id', description: 'is required' }]);
  });

  it('never takes an Object.prototype member for a property', async () => {
    const v = await compile(schema);
    // `hasOwnProperty` and `valueOf` are inherited functions here, not properties of the value.
    expect(agree(v, { id: 'a' })).toBe(true);
    expect(agree(v, JSON.parse('{"id": "a", "valueOf": 1, "hasOwnProperty": "x"}'))).toBe(true);
    expect(errorsOf(v, JSON.parse('{"id": "a", "valueOf": "1"}'))).toEqual([{ field: 'valueOf', description: 'must be an integer' }]);
    expect(agree(v, Object.defineProperty({ id: 'a' }, 'valueOf', { value: undefined, enumerable: true }))).toBe(true);
  });

  it('validates null-prototype objects and ignores inherited enumerable keys for additionalProperties', async () => {
    const v = await compile(schema);
    const bare = Object.assign(Object.create(null) as object, { id: 'a' });
    expect(agree(v, bare)).toBe(true);
    expect(agree(v, Object.assign(Object.create(null) as object, { id: 'a', extra: 1 }))).toBe(false);
    const inherited = Object.assign(Object.create({ extra: 1 }) as object, { id: 'a' });
    expect(agree(v, inherited)).toBe(true);
  });
});

describe('the \\S pattern', () => {
  it('matches exactly what /\\S/u matches', async () => {
    const v = await compile({ type: 'string', pattern: '\\S' });
    const re = /\S/u;
    for (let c = 0; c <= 0xffff; c++) {
      const s = String.fromCharCode(c);
      if (v.is(s) !== re.test(s)) throw new Error(`U+${c.toString(16)}: is() ${v.is(s)}, /\\S/u ${re.test(s)}`);
    }
    for (const s of ['', ' ', ' \t\n\u00a0\u2028\ufeff', '  x ', '\u{1F600}', '\ud800', ' \udc00 ']) expect(v.is(s), JSON.stringify(s)).toBe(re.test(s));
    expect(errorsOf(v, '  ')).toEqual([{ field: null, description: 'must match pattern \\S' }]);
  });
});

describe('shared and inlined code', () => {
  it('gives equal schemas and bare references one function', async () => {
    const item = { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 0 } } };
    const root = { $defs: { A: item, B: structuredClone(item), C: { $ref: '#/$defs/A', description: 'an alias' } } };
    const entries = ['A', 'B', 'C'].map((n) => ({ exportName: n, pointer: `#/$defs/${n}` }));
    const { js } = compileValidatorModule(root, entries);
    expect(js.match(/^function \$c\d+\(/gm)).toHaveLength(1);
    expect(js.match(/^function \$e\d+\(/gm)).toHaveLength(1);
    const mod = await load(js);
    for (const n of ['A', 'B', 'C']) {
      expect(agree(mod[n]!, { n: 1 })).toBe(true);
      expect(errorsOf(mod[n]!, { n: -1 })).toEqual([{ field: 'n', description: 'must be greater than or equal to 0' }]);
    }
  });

  it('inlines small references without looping on recursion, and keeps the paths', async () => {
    const v = await compile({
      $defs: {
        A: { type: 'object', properties: { b: { $ref: '#/$defs/B' }, n: { type: 'integer' } } },
        B: { type: 'object', properties: { a: { $ref: '#/$defs/A' }, list: { type: 'array', items: { $ref: '#/$defs/A' } } } },
      },
      $ref: '#/$defs/A',
    });
    const deep = { b: { a: { b: { a: { n: 1 }, list: [{ n: 2 }, { b: {} }] } } } };
    expect(agree(v, deep)).toBe(true);
    const bad = { b: { a: { b: { a: { n: 'x' }, list: [{ n: 2 }, { b: { a: 5 } }] } } } };
    expect(agree(v, bad)).toBe(false);
    expect(errorsOf(v, bad)).toEqual([
      { field: 'b.a.b.a.n', description: 'must be an integer' },
      { field: 'b.a.b.list[1].b.a', description: 'must be an object' },
    ]);
    expect(v['~standard'].validate(bad)).toEqual({
      issues: [
        { message: 'must be an integer', path: ['b', 'a', 'b', 'a', 'n'] },
        { message: 'must be an object', path: ['b', 'a', 'b', 'list', 1, 'b', 'a'] },
      ],
    });
  });
});

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A value shaped by the schema (often valid; patterns are not honoured), to reach the deep parts of a validator. */
function sample(node: unknown, defs: Record<string, unknown>, depth = 0): Json {
  if (typeof node !== 'object' || node === null || depth > 6) return null;
  const s = node as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    const name = decodeURIComponent(s.$ref.replace('#/$defs/', '')).replace(/~1/g, '/').replace(/~0/g, '~');
    return sample(defs[name], defs, depth + 1);
  }
  if ('const' in s) return s.const as Json;
  if (Array.isArray(s.enum)) return (s.enum.find((e) => e !== null) ?? null) as Json;
  for (const k of ['allOf', 'oneOf', 'anyOf']) if (Array.isArray(s[k])) return sample((s[k] as unknown[])[0], defs, depth + 1);
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : ['object'];
  const t = types.find((x) => x !== 'null') ?? 'null';
  const num = (k: string): number | undefined => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  switch (t) {
    case 'string':
      if (Array.isArray(s.examples) && typeof s.examples[0] === 'string') return s.examples[0];
      if (s.format === 'date-time') return '2024-01-02T03:04:05Z';
      if (s.format === 'date') return '2024-01-02';
      if (s.format === 'email') return 'a@example.com';
      if (s.format === 'uuid') return '3fa85f64-5717-4562-b3fc-2c963f66afa6';
      if (s.format === 'uri') return 'https://example.com/x';
      return 'x'.repeat(Math.max(num('minLength') ?? 1, 1));
    case 'integer':
    case 'number':
      return num('minimum') ?? (num('exclusiveMinimum') !== undefined ? num('exclusiveMinimum')! + 1 : 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(num('minItems') ?? 1, 1) }, () => sample(s.items, defs, depth + 1));
    case 'object': {
      const out: { [k: string]: Json } = {};
      const props = (s.properties ?? {}) as Record<string, unknown>;
      for (const k of Object.keys(props)) Object.defineProperty(out, k, { value: sample(props[k], defs, depth + 1), enumerable: true, writable: true, configurable: true });
      return out;
    }
    default:
      return null;
  }
}

describe('validators generated from spec/', () => {
  it('answer is() and validate() alike on sample values and on single-field changes of them', async () => {
    const model = buildModel(await loadSpecs('spec'), { policy: 'strict' });
    const names = buildNames(model);
    const js = emitValidators(model, names).find((f) => f.path.endsWith('validators.js'))!.contents;
    const mod = await load(js);
    const defs = Object.fromEntries(Object.entries(model.schemas).map(([k, v]) => [k, v.schema]));
    const wrong: unknown[] = [undefined, null, 0, -1, 1.5, 1e9, '', ' ', 'x'.repeat(300), true, [], [1], {}, { x: 1 }];
    const subjects: Array<[LoadedValidator | undefined, unknown]> = Object.entries(model.schemas).map(([k, v]) => [mod[names.schemaValidator(k)], v.schema]);
    for (const op of model.operations) {
      for (const c of op.requestBody?.content ?? []) subjects.push([mod[names.operationValidator(op.id, 'Body')], c.schema]);
      for (const r of op.responses) for (const c of r.content) subjects.push([mod[names.operationValidator(op.id, 'Response', r.status)], c.schema]);
    }
    let checked = 0;
    let valid = 0;
    for (const [v, schema] of subjects) {
      if (!v) continue;
      const value = sample(schema, defs);
      if (agree(v, value)) valid++;
      checked++;
      for (const w of wrong) {
        agree(v, w);
        checked++;
      }
      if (typeof value !== 'object' || value === null) continue;
      const target = Array.isArray(value) ? value[0] : value;
      if (typeof target !== 'object' || target === null || Array.isArray(target)) continue;
      for (const key of Object.keys(target)) {
        for (const w of wrong) {
          const changed = { ...target, [key]: w };
          agree(v, Array.isArray(value) ? [changed] : changed);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5000);
    expect(valid).toBeGreaterThan(50);
  }, 60_000);
});
