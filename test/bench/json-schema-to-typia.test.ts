// The typia peer of the validators bench: the TypeScript types written for typia must accept exactly what JSON
// Schema 2020-12 accepts (Ajv is the reference), and the writer must refuse what typia's types cannot say.
// One `typia generate` run (cached under node_modules/.cache) builds every root below.
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { toTypiaModule, type Node } from '../../bench/json-schema-to-typia.js';
import { typiaValidators } from '../../bench/typia-peer.js';

const defs: Record<string, Node> = {
  Kind: { type: ['string'], enum: ['A', 'B', 'C'] },
  Mode: { type: ['string'], enum: ['x', 'y'] },
  Conditional: {
    type: ['object'],
    required: ['kind'],
    properties: { kind: { $ref: '#/$defs/Kind' }, id: { type: ['string', 'null'], minLength: 1 }, mode: { oneOf: [{ $ref: '#/$defs/Mode' }, { type: ['null'] }] } },
    if: { required: ['kind'], properties: { kind: { enum: ['A', 'B'] } } },
    then: { required: ['id'], properties: { id: { type: ['string'] } } },
  },
};

const roots: Record<string, Node> = {
  bounds: {
    type: ['object'],
    properties: {
      name: { type: ['string', 'null'], minLength: 1, maxLength: 3, pattern: '\\S' },
      n: { type: ['integer'], minimum: 0, maximum: 10 },
      ratio: { type: ['number'], exclusiveMinimum: 0 },
      list: { type: ['array'], minItems: 1, maxItems: 2, items: { type: ['string'] } },
      meta: { type: ['object'], additionalProperties: { anyOf: [{ type: ['string'] }, { type: ['array'], items: { type: ['string'] } }] } },
    },
  },
  conditional: { $ref: '#/$defs/Conditional' },
};

const samples: Record<string, unknown[]> = {
  bounds: [{}, [], null, 'x', { name: null }, { name: '' }, { name: ' ' }, { name: 'abcd' }, { name: 'ab' }, { n: 1.5 }, { n: 11 }, { n: -1 }, { n: 10 }, { ratio: 0 }, { ratio: 0.1 }, { list: [] }, { list: ['a', 'b', 'c'] }, { list: [1] }, { list: ['a'] }, { meta: { a: 'x', b: ['y'] } }, { meta: { a: 1 } }, { meta: [] }, { extra: true }],
  conditional: [{ kind: 'A' }, { kind: 'A', id: 'x' }, { kind: 'A', id: null }, { kind: 'A', id: '' }, { kind: 'C' }, { kind: 'C', id: null }, { kind: 'C', id: 'x' }, { kind: 'D' }, {}, { kind: 'C', mode: 'x' }, { kind: 'C', mode: null }, { kind: 'C', mode: 'z' }],
};

describe('json-schema-to-typia', () => {
  it('typia validators built from the written types agree with Ajv, in `is` and `validate`', async () => {
    const typia = await typiaValidators(roots, defs);
    for (const [key, schema] of Object.entries(roots)) {
      const ajv = new Ajv2020({ strict: false }).compile({ $defs: defs, ...(schema as object) });
      for (const value of samples[key]!) {
        const expected = ajv(value);
        expect({ key, value, is: typia[key]!.is(value), validate: typia[key]!.validate(value).success }).toEqual({ key, value, is: expected, validate: expected });
      }
    }
  });

  it('refuses what typia types cannot say instead of dropping it', () => {
    expect(() => toTypiaModule({ r: { oneOf: [{ type: ['integer'] }, { type: ['number'] }] } }, {})).toThrow(/oneOf whose branches may overlap/);
    expect(() => toTypiaModule({ r: { type: ['object'], additionalProperties: false } }, {})).toThrow(/additionalProperties: false/);
    expect(() => toTypiaModule({ r: { type: ['object'], not: { required: ['a'] } } }, {})).toThrow(/unsupported keyword "not"/);
    expect(() => toTypiaModule({ r: { type: ['object'], if: { required: ['a'] }, then: {} } }, {})).toThrow(/if other than/);
  });
});
