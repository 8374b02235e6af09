// A oneOf whose branches provably admit disjoint values is checked as "at least one" (stopping at the first
// match); any other oneOf still refuses a value matching two branches. Ajv is the reference for both.
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compileValidatorModule } from '../../src/emit/validators/compile.js';
import { compile } from './fixtures.js';

const cases: { name: string; schema: Record<string, unknown>; disjoint: boolean; values: unknown[] }[] = [
  {
    name: 'a referenced enum or null',
    schema: { $defs: { Dir: { type: 'string', enum: ['up', 'down'] } }, oneOf: [{ $ref: '#/$defs/Dir' }, { type: 'null' }] },
    disjoint: true,
    values: ['up', 'down', 'left', null, 0, {}],
  },
  {
    name: 'disjoint value lists and types',
    schema: { oneOf: [{ enum: [1, 2] }, { const: 'a' }, { type: ['boolean', 'array'] }] },
    disjoint: true,
    values: [1, 2, 3, 'a', 'b', true, [], null],
  },
  {
    name: 'integer and number overlap',
    schema: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 5 }] },
    disjoint: false,
    values: [1, 7, 5.5, 2.5, 'x'],
  },
  {
    name: 'a value in the enum of one branch and of the type of the other',
    schema: { oneOf: [{ enum: ['a', 1] }, { type: 'string', maxLength: 3 }] },
    disjoint: false,
    values: ['a', 'abc', 'abcd', 1, 2],
  },
  {
    name: 'a branch that says nothing about types',
    schema: { oneOf: [{ required: ['a'] }, { type: 'null' }] },
    disjoint: false,
    values: [{ a: 1 }, {}, null, 'x'],
  },
];

describe('oneOf with disjoint branches', () => {
  for (const c of cases) {
    it(`${c.name}: agrees with Ajv`, async () => {
      const ajv = new Ajv2020({ strict: false }).compile(c.schema);
      const v = await compile(c.schema);
      for (const value of c.values) expect({ value, is: v.is(value), validate: v.validate(value).ok }).toEqual({ value, is: ajv(value), validate: ajv(value) });
    });
    it(`${c.name}: ${c.disjoint ? 'stops at the first match' : 'counts the matches'}`, () => {
      const { js } = compileValidatorModule(c.schema, [{ exportName: 'v', pointer: '#' }]);
      // The match counter of a plain oneOf (`++n > 1`) is left out exactly when the branches are disjoint.
      expect(/\+\+n\d* > 1/.test(js)).toBe(!c.disjoint);
    });
  }
});
