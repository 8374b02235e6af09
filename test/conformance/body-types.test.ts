// The wrong-kind body probes send what the body schema really refuses (issue 27: a JSON Patch body is an array,
// discord takes nullable array bodies; `[]` sent to them is valid, not a 400 the spec gives).
import { describe, expect, it } from 'vitest';
import { refusesNullBody, takesJsonBody, topLevelTypes, wrongKindOfBody } from '../../src/conformance/body-types.js';
import type { Route } from '../../src/conformance/suite-data.js';

const defs = { Patch: { type: 'array', items: { type: 'object' } }, Thing: { type: 'object', properties: { a: { type: 'string' } } } };
const sorted = (s: Set<string> | undefined) => (s === undefined ? undefined : [...s].sort());

describe('topLevelTypes', () => {
  it.each([
    ['an object', { type: 'object' }, ['object']],
    ['a reference to an array', { $ref: '#/$defs/Patch' }, ['array']],
    ['integer counts as number', { type: 'integer' }, ['number']],
    ['a type list', { type: ['array', 'null'] }, ['array', 'null']],
    ["OpenAPI 3.0's nullable", { type: 'object', nullable: true }, ['null', 'object']],
    ['anyOf unites', { anyOf: [{ type: 'string' }, { $ref: '#/$defs/Thing' }] }, ['object', 'string']],
    ['allOf intersects', { allOf: [{ type: ['object', 'null'] }, { type: 'object' }] }, ['object']],
    ['enum gives its values\u2019 types', { enum: ['a', 1] }, ['number', 'string']],
    ['const', { const: null }, ['null']],
    ['no type: anything', { properties: { a: { type: 'string' } } }, undefined],
    ['a branch that admits anything', { oneOf: [{ type: 'string' }, {}] }, undefined],
    ['not: cannot tell', { type: 'object', not: { required: ['a'] } }, undefined],
  ])('%s', (_name, schema, expected) => {
    expect(sorted(topLevelTypes(schema, defs))).toEqual(expected);
  });
});

const route = (media: string[]): Route => ({ id: 'op', body: { required: true, media, fields: {}, exactlyOneOf: [], defaults: {}, properties: null } }) as unknown as Route;

describe('the probes a check sends', () => {
  it('an array to an object body, an object to an array body, nothing to a body that takes both', () => {
    expect(wrongKindOfBody(route(['application/json']), { op: { body: { type: 'object' } } }, defs)).toEqual({ body: [], what: 'a JSON array where the body is object' });
    expect(wrongKindOfBody(route(['application/json-patch+json']), { op: { body: { $ref: '#/$defs/Patch' } } }, defs)).toEqual({ body: {}, what: 'a JSON object where the body is array' });
    expect(wrongKindOfBody(route(['application/json']), { op: { body: { type: ['object', 'array'] } } }, defs)).toBeUndefined();
    expect(wrongKindOfBody(route(['application/json']), { op: { body: {} } }, defs)).toBeUndefined();
  });

  it('null only where the schema refuses it', () => {
    expect(refusesNullBody(route(['application/json']), { op: { body: { type: 'object' } } }, defs)).toBe(true);
    expect(refusesNullBody(route(['application/json']), { op: { body: { type: 'array', nullable: true } } }, defs)).toBe(false);
    expect(refusesNullBody(route(['application/json']), { op: { body: {} } }, defs)).toBe(false);
  });

  it('JSON probes only for JSON media types', () => {
    expect(takesJsonBody(route(['application/json']))).toBe(true);
    expect(takesJsonBody(route(['application/merge-patch+json']))).toBe(true);
    expect(takesJsonBody(route(['application/octet-stream']))).toBe(false);
    expect(takesJsonBody({ id: 'x', body: null } as unknown as Route)).toBe(false);
  });
});
