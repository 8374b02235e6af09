// Fresh values for client-supplied identifiers (issue 27): each is valid for the field's schema (format, pattern,
// bounds), never the schema's example, and never one the same generator handed out before.
import { describe, expect, it } from 'vitest';
import { FreshValues } from '../../src/conformance/fresh-values.js';
import { conforms } from '../../src/conformance/values/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const defs = { EventId: { type: 'string', format: 'uuid', examples: ['3be6453c-03eb-4357-ae5a-984a0e574a54'] } };

function draw(fresh: FreshValues, schema: object, n: number): unknown[] {
  return Array.from({ length: n }, () => fresh.next(schema as never, defs as never));
}

describe('FreshValues', () => {
  it('a uuid field (through a $ref with an example) gets distinct uuids, none of them the example', () => {
    const values = draw(new FreshValues(7), { $ref: '#/$defs/EventId' }, 50);
    expect(new Set(values).size).toBe(50);
    for (const v of values) {
      expect(v).toMatch(UUID);
      expect(v).not.toBe('3be6453c-03eb-4357-ae5a-984a0e574a54');
    }
  });

  it('a pattern and its length bounds hold for every value', () => {
    const schema = { type: 'string', pattern: '^ev_[a-z0-9]{6,10}$', examples: ['ev_abcdef'] };
    const values = draw(new FreshValues(3), schema, 30);
    expect(new Set(values).size).toBe(30);
    for (const v of values) expect(conforms(schema as never, defs as never, v)).toBe(true);
  });

  it('integers stay within their bounds', () => {
    const schema = { type: 'integer', minimum: 1, maximum: 1000 };
    const values = draw(new FreshValues(11), schema, 20);
    expect(new Set(values).size).toBe(20);
    for (const v of values) expect(Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 1000).toBe(true);
  });

  it('a schema with fewer distinct values than asked runs out instead of repeating', () => {
    const values = draw(new FreshValues(5), { type: 'string', enum: ['a', 'b'] }, 4);
    expect(values.filter((v) => v !== undefined).sort()).toEqual(['a', 'b']);
    expect(values.filter((v) => v === undefined).length).toBe(2);
  });

  it('two generators with different seeds do not meet', () => {
    const a = draw(new FreshValues(1), { type: 'string', format: 'uuid' }, 20);
    const b = draw(new FreshValues(2), { type: 'string', format: 'uuid' }, 20);
    expect(a.filter((v) => b.includes(v))).toEqual([]);
  });
});
