// The TypeBox peer of the validators bench must accept exactly what JSON Schema 2020-12 accepts (Ajv is the
// reference here), for every keyword the spec uses, and refuse to convert what it cannot say.
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { toTypeBox } from '../../bench/json-schema-to-typebox.js';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => unknown;
type Node = boolean | { [k: string]: never };

function agree(schema: object, defs: Record<string, object>, values: unknown[]): void {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const check = ajv.compile({ $defs: defs, ...schema });
  const tb = TypeCompiler.Compile(toTypeBox(schema as Node, defs as Record<string, Node>));
  for (const v of values) expect({ value: v, typebox: tb.Check(v) }).toEqual({ value: v, typebox: check(v) });
}

describe('json-schema-to-typebox', () => {
  it('converts every named schema of spec/', async () => {
    const model = buildModel(await loadSpecs('spec'), { policy: 'strict' });
    const defs = Object.fromEntries(Object.entries(model.schemas).map(([k, v]) => [k, v.schema])) as Record<string, Node>;
    expect(Object.keys(defs).length).toBeGreaterThan(100);
    for (const name of Object.keys(defs)) expect(() => TypeCompiler.Compile(toTypeBox({ $ref: `#/$defs/${name}` } as never, defs)), name).not.toThrow();
  });

  it('oneOf is exactly one: a value matching two branches is refused', () => {
    agree({ oneOf: [{ type: 'integer' }, { type: 'number', minimum: 5 }] }, {}, [1, 7, 5.5, 2.5, 'x', null]);
  });

  it('anyOf, not, and type-specific keywords without a type constrain only their own kind', () => {
    const schema = { type: ['object'], anyOf: [{ required: ['a'] }, { required: ['b'] }], not: { required: ['a', 'b'] } };
    agree(schema, {}, [{}, { a: 1 }, { b: 1 }, { a: 1, b: 2 }, [], 'a']);
    agree({ minLength: 2, minimum: 3, required: ['x'] }, {}, ['a', 'ab', 1, 4, {}, { x: 1 }, [], null, true]);
  });

  it('if/then/else', () => {
    const schema = {
      type: ['object'],
      required: ['kind'],
      properties: { kind: { enum: ['A', 'B', 'C'] }, id: { type: ['string', 'null'], minLength: 1 } },
      if: { required: ['kind'], properties: { kind: { enum: ['A', 'B'] } } },
      then: { required: ['id'], properties: { id: { type: ['string'] } } },
      else: { properties: { id: { type: ['null'] } } },
    };
    agree(schema, {}, [{ kind: 'A' }, { kind: 'A', id: 'x' }, { kind: 'A', id: null }, { kind: 'A', id: '' }, { kind: 'C' }, { kind: 'C', id: 'x' }, { kind: 'C', id: null }, { kind: 'D' }]);
  });

  it('propertyNames, additionalProperties, formats and $defs references', () => {
    const defs = { Num: { type: ['number'] } };
    agree({ type: ['object', 'null'], propertyNames: { pattern: '^(upper|lower)_[0-9]+sigma$' }, additionalProperties: { $ref: '#/$defs/Num' } }, defs, [null, {}, { upper_1sigma: 1 }, { upper_1sigma: 'x' }, { other: 1 }]);
    agree({ type: ['string'], format: 'email' }, {}, ['a@b.co', 'not an email']);
    agree({ type: ['string'], format: 'date-time' }, {}, ['2026-12-06T23:00:00Z', '2026-13-06']);
  });

  it('refuses a keyword it does not convert instead of dropping it', () => {
    expect(() => toTypeBox({ type: 'object', dependentRequired: { a: ['b'] } } as never, {})).toThrow(/unsupported keyword "dependentRequired"/);
    expect(() => toTypeBox({ type: 'object', propertyNames: { maxLength: 3 } } as never, {})).toThrow(/propertyNames/);
  });
});
