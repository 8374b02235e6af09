// Error reporting: readable field paths, every violation reported, messages naming the limit. A table per
// question: [name, { given: { schema, value }, want }].
import { describe, expect, it } from 'vitest';
import type { SchemaNode } from '../../src/emit/validators/compile.js';
import { ALERT_SCHEMA, compile, errorsOf } from './fixtures.js';

const valid = {
  name: 'latency',
  status: 'ACTIVE',
  tags: ['a', 'b', 'c', 'd'],
  conditions: [{ metric: 'p95', operator: 'gt', threshold_float: 0.5 }],
  metadata: { 'a.b': 'x' },
};

type Case<W> = [string, { given: { schema: SchemaNode; value: unknown }; want: W }];

const ERRORS: Case<{ field: string | null; description: string }[]>[] = [
  [
    'readable paths into arrays, nested objects and non-identifier keys',
    {
      given: { schema: ALERT_SCHEMA, value: { ...valid, tags: ['a', 'b', 'c', 'toolong'], conditions: [{ metric: 'p95', operator: 'gt', threshold_float: 2 }], metadata: { 'a.b': 7 } } },
      want: [
        { field: 'tags[3]', description: 'must be at most 5 characters' },
        { field: 'conditions[0].threshold_float', description: 'must be less than or equal to 1' },
        { field: 'metadata["a.b"]', description: 'must be a string' },
      ],
    },
  ],
  [
    'every violation, not only the first',
    {
      given: { schema: ALERT_SCHEMA, value: { status: 'GONE', color: 'red', conditions: [], surprise: true } },
      want: [
        { field: 'name', description: 'is required' },
        { field: 'status', description: 'must be one of: ACTIVE, DELETED' },
        { field: 'color', description: 'must match pattern ^#[0-9a-fA-F]{6}$' },
        { field: 'conditions', description: 'must contain at least 1 item' },
        { field: 'surprise', description: 'is not allowed' },
      ],
    },
  ],
  ['null for the root', { given: { schema: { type: 'object', properties: { 'a.b': { type: 'integer' } } }, value: 'x' }, want: [{ field: null, description: 'must be an object' }] }],
  [
    'a bracket-quoted non-identifier key at the root',
    { given: { schema: { type: 'object', properties: { 'a.b': { type: 'integer' } } }, value: { 'a.b': 1.5 } }, want: [{ field: '["a.b"]', description: 'must be an integer' }] },
  ],
  [
    'one error for a failed anyOf at its own path, plus the closest branch',
    {
      given: { schema: { properties: { name: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] } } }, value: { name: 'abcdef' } },
      want: [
        { field: 'name', description: 'must match at least one of the allowed schemas' },
        { field: 'name', description: 'must be at most 3 characters' },
      ],
    },
  ],
  [
    'a oneOf matched more than once',
    { given: { schema: { oneOf: [{ type: 'integer' }, { minimum: 2 }] }, value: 3 }, want: [{ field: null, description: 'must match exactly one of the allowed schemas, but matches more than one' }] },
  ],
  ['a string length in code points (an emoji is one character)', { given: { schema: { type: 'string', minLength: 2, maxLength: 2 }, value: '😀' }, want: [{ field: null, description: 'must be at least 2 characters' }] }],
  [
    'dependentRequired at the property path',
    { given: { schema: { dependentRequired: { card: ['billing'] }, propertyNames: { maxLength: 4 } }, value: { card: 1 } }, want: [{ field: 'billing', description: 'is required when "card" is present' }] },
  ],
  [
    'propertyNames at the property path',
    {
      given: { schema: { dependentRequired: { card: ['billing'] }, propertyNames: { maxLength: 4 } }, value: { toolong: 1 } },
      want: [{ field: 'toolong', description: 'is not an allowed property name: must be at most 4 characters' }],
    },
  ],
];

const VERDICTS: Case<boolean>[] = [
  ['two emoji are two characters (4 UTF-16 units)', { given: { schema: { type: 'string', minLength: 2, maxLength: 2 }, value: '😀😀' }, want: true }],
  ['one emoji is one character', { given: { schema: { type: 'string', minLength: 2, maxLength: 2 }, value: '😀' }, want: false }],
  ['three emoji are three characters', { given: { schema: { type: 'string', minLength: 2, maxLength: 2 }, value: '😀😀😀' }, want: false }],
  ['0.0075 is a multiple of 0.0001 (exact decimal arithmetic)', { given: { schema: { multipleOf: 0.0001 }, value: 0.0075 }, want: true }],
  ['0.00751 is not a multiple of 0.0001', { given: { schema: { multipleOf: 0.0001 }, value: 0.00751 }, want: false }],
  ['19.99 is a multiple of 0.01', { given: { schema: { multipleOf: 0.01 }, value: 19.99 }, want: true }],
];

describe('validator errors', () => {
  it('accepts a valid payload and returns the value', async () => {
    const v = await compile(ALERT_SCHEMA);
    expect(v.validate(valid)).toEqual({ ok: true, value: valid });
    expect(v.is(valid)).toBe(true);
  });

  it.each(ERRORS)('reports %s', async (_name, { given, want }) => {
    expect(errorsOf(await compile(given.schema), given.value)).toEqual(want);
  });

  it.each(VERDICTS)('is(): %s', async (_name, { given, want }) => {
    expect((await compile(given.schema)).is(given.value)).toBe(want);
  });
});
