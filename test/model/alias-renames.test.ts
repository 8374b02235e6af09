// x-alias-renames: the legacy names of a deprecated alias, parsed and checked against both operations, and the
// rewrite places the route table derives from them.
import { describe, expect, it } from 'vitest';
import { routeRow } from '../../src/emit/server/route-table.js';
import { SpecError } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import { doc, ok, openapi } from '../support/docs.js';

const thing = {
  'x-provenance': 'seed',
  'x-resource': { name: 'thing', id: 'id', scope: 'organization' },
  type: 'object',
  properties: { id: { type: 'string' }, source: { $ref: '#/components/schemas/Source' } },
};
const oldThing = { 'x-provenance': 'seed', type: 'object', properties: { id: { type: 'string' }, scope: { $ref: '#/components/schemas/Scope' } } };
const schemas = {
  Thing: thing,
  OldThing: oldThing,
  Source: { 'x-provenance': 'seed', type: 'string', enum: ['A', 'B'] },
  Scope: { 'x-provenance': 'seed', type: 'string', enum: ['OLD_A', 'OLD_B'] },
};
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

function paths(renames: unknown, alias: Record<string, unknown> = {}) {
  return {
    '/things/{thing_id}': {
      get: { operationId: 'getThing', 'x-provenance': 'seed', parameters: [param('thing_id')], 'x-operation': { resource: 'thing', action: 'get' }, responses: ok({ $ref: '#/components/schemas/Thing' }) },
    },
    '/olds/{old_id}': {
      get: {
        operationId: 'getOld',
        'x-provenance': 'seed',
        deprecated: true,
        'x-deprecated-alias-of': 'getThing',
        'x-alias-renames': renames,
        parameters: [param('old_id')],
        'x-operation': { resource: 'thing', action: 'get' },
        responses: ok({ type: 'object', properties: { old: { $ref: '#/components/schemas/OldThing' } } }),
        ...alias,
      },
    },
  };
}

function build(renames: unknown, alias: Record<string, unknown> = {}) {
  return buildModel([doc('things', openapi(paths(renames, alias), schemas))], { policy: 'strict' });
}

function refusal(renames: unknown, alias: Record<string, unknown> = {}): SpecError {
  try {
    build(renames, alias);
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return error as SpecError;
  }
  throw new Error('expected the model to refuse the document');
}

const GOOD = { old_id: 'thing_id', scope: { name: 'source', values: { OLD_A: 'A', OLD_B: 'B' } } };

describe('x-alias-renames', () => {
  it('parses renames and value mappings into the operation semantics', () => {
    const m = build(GOOD);
    expect(m.operations.find((o) => o.id === 'getOld')!.semantics.aliasRenames).toEqual([
      { legacy: 'old_id', canonical: 'thing_id' },
      { legacy: 'scope', canonical: 'source', values: { OLD_A: 'A', OLD_B: 'B' } },
    ]);
  });

  it('gives the route table each place to rewrite, found in the alias own schemas', () => {
    const m = build(GOOD);
    const row = routeRow(m, m.operations.find((o) => o.id === 'getOld')!);
    expect(row.aliasRenames).toEqual([
      { legacy: 'old_id', canonical: 'thing_id', values: null, in: 'path', at: [] },
      { legacy: 'scope', canonical: 'source', values: { OLD_A: 'A', OLD_B: 'B' }, in: 'response', at: ['old'] },
    ]);
    // The legacy view of the resource, wrapped under its own key.
    expect(row.success.shape).toEqual({ kind: 'wrapped', key: 'old' });
  });

  it.each([
    ['renames on an operation that is no alias', GOOD, { 'x-deprecated-alias-of': undefined, deprecated: undefined }, /only a legacy alias/, '#/paths/~1olds~1{old_id}/get/x-alias-renames'],
    ['an empty rename map', {}, {}, /at least one name/, '#/paths/~1olds~1{old_id}/get/x-alias-renames'],
    ['a legacy name the alias does not have', { nope: 'thing_id' }, {}, /names "nope", which is no parameter/, '#/paths/~1olds~1{old_id}/get/x-alias-renames/nope'],
    ['a canonical name the canonical operation does not have', { scope: 'nope' }, {}, /renames to "nope"/, '#/paths/~1olds~1{old_id}/get/x-alias-renames/scope'],
    ['a legacy value outside the legacy enum', { scope: { name: 'source', values: { OLD_C: 'A' } } }, {}, /"OLD_C" is not a value of scope/, '#/paths/~1olds~1{old_id}/get/x-alias-renames/scope/values/OLD_C'],
    ['a canonical value outside the canonical enum', { scope: { name: 'source', values: { OLD_A: 'C' } } }, {}, /"C" is not a value of source/, '#/paths/~1olds~1{old_id}/get/x-alias-renames/scope/values/OLD_A'],
    ['a mapping that is not one-to-one', { scope: { name: 'source', values: { OLD_A: 'A', OLD_B: 'A' } } }, {}, /one-to-one/, '#/paths/~1olds~1{old_id}/get/x-alias-renames/scope/values/OLD_B'],
    ['an unknown key in a rename', { scope: { name: 'source', value: {} } }, {}, /unknown key/, '#/paths/~1olds~1{old_id}/get/x-alias-renames/scope/value'],
    ['a name renamed to itself', { scope: 'scope' }, {}, /to itself/, '#/paths/~1olds~1{old_id}/get/x-alias-renames/scope'],
  ])('refuses %s with the spec name and JSON pointer', (_what, renames, alias, reason, pointer) => {
    const error = refusal(renames, alias);
    expect(error.spec).toBe('things');
    expect(error.message).toMatch(reason);
    expect(error.pointer).toBe(pointer);
  });
});
