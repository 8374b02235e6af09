// Error reporting: readable field paths, every violation reported, messages naming the limit.
import { describe, expect, it } from 'vitest';
import { ALERT_SCHEMA, compile, errorsOf } from './fixtures.js';

const valid = {
  name: 'latency',
  status: 'ACTIVE',
  tags: ['a', 'b', 'c', 'd'],
  conditions: [{ metric: 'p95', operator: 'gt', threshold_float: 0.5 }],
  metadata: { 'a.b': 'x' },
};

describe('validator errors', () => {
  it('accepts a valid payload and returns the value', async () => {
    const v = await compile(ALERT_SCHEMA);
    expect(v.validate(valid)).toEqual({ ok: true, value: valid });
    expect(v.is(valid)).toBe(true);
  });

  it('reports readable paths into arrays, nested objects and non-identifier keys', async () => {
    const v = await compile(ALERT_SCHEMA);
    const bad = {
      ...valid,
      tags: ['a', 'b', 'c', 'toolong'],
      conditions: [{ metric: 'p95', operator: 'gt', threshold_float: 2 }],
      metadata: { 'a.b': 7 },
    };
    expect(errorsOf(v, bad)).toEqual([
      { field: 'tags[3]', description: 'must be at most 5 characters' },
      { field: 'conditions[0].threshold_float', description: 'must be less than or equal to 1' },
      { field: 'metadata["a.b"]', description: 'must be a string' },
    ]);
  });

  it('reports every violation, not only the first', async () => {
    const v = await compile(ALERT_SCHEMA);
    const errors = errorsOf(v, { status: 'GONE', color: 'red', conditions: [], surprise: true });
    expect(errors).toEqual([
      { field: 'name', description: 'is required' },
      { field: 'status', description: 'must be one of: ACTIVE, DELETED' },
      { field: 'color', description: 'must match pattern ^#[0-9a-fA-F]{6}$' },
      { field: 'conditions', description: 'must contain at least 1 item' },
      { field: 'surprise', description: 'is not allowed' },
    ]);
  });

  it('uses null for the root and bracket-quotes non-identifier keys at the root', async () => {
    const v = await compile({ type: 'object', properties: { 'a.b': { type: 'integer' } } });
    expect(errorsOf(v, 'x')).toEqual([{ field: null, description: 'must be an object' }]);
    expect(errorsOf(v, { 'a.b': 1.5 })).toEqual([{ field: '["a.b"]', description: 'must be an integer' }]);
  });

  it('reports one error for a failed anyOf/oneOf at its own path, plus the closest branch', async () => {
    const v = await compile({
      properties: { name: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] } },
    });
    expect(errorsOf(v, { name: 'abcdef' })).toEqual([
      { field: 'name', description: 'must match at least one of the allowed schemas' },
      { field: 'name', description: 'must be at most 3 characters' },
    ]);
    const w = await compile({ oneOf: [{ type: 'integer' }, { minimum: 2 }] });
    expect(errorsOf(w, 3)).toEqual([{ field: null, description: 'must match exactly one of the allowed schemas, but matches more than one' }]);
  });

  it('counts string length in code points (an emoji is one character)', async () => {
    const v = await compile({ type: 'string', minLength: 2, maxLength: 2 });
    expect(v.is('😀😀')).toBe(true); // 4 UTF-16 units, 2 code points
    expect(v.is('😀')).toBe(false);
    expect(v.is('😀😀😀')).toBe(false);
    expect(errorsOf(v, '😀')).toEqual([{ field: null, description: 'must be at least 2 characters' }]);
  });

  it('handles floating-point multipleOf exactly', async () => {
    const v = await compile({ multipleOf: 0.0001 });
    expect(v.is(0.0075)).toBe(true);
    expect(v.is(0.00751)).toBe(false);
    expect((await compile({ multipleOf: 0.01 })).is(19.99)).toBe(true);
  });

  it('reports dependentRequired and propertyNames problems at the property path', async () => {
    const v = await compile({ dependentRequired: { card: ['billing'] }, propertyNames: { maxLength: 4 } });
    expect(errorsOf(v, { card: 1 })).toEqual([{ field: 'billing', description: 'is required when "card" is present' }]);
    expect(errorsOf(v, { toolong: 1 })).toEqual([
      { field: 'toolong', description: 'is not an allowed property name: must be at most 4 characters' },
    ]);
  });
});
