// The generated module as a product: formats on/off, Standard Schema, determinism, refs, discriminator, .d.ts.
import { describe, expect, it } from 'vitest';
import { compileValidatorModule } from '../../src/emit/validators/compile.js';
import { ALERT_SCHEMA, compile, errorsOf, load } from './fixtures.js';

describe('generated validator module', () => {
  it('asserts formats only when assertFormats is on', async () => {
    const schema = { type: 'object', properties: { at: { format: 'date-time' }, id: { format: 'uuid' }, x: { format: 'made-up' } } };
    const off = await compile(schema);
    const on = await compile(schema, { assertFormats: true });
    const bad = { at: '2024-02-30T00:00:00Z', id: 'nope', x: 'anything' };
    expect(off.is(bad)).toBe(true);
    expect(on.is(bad)).toBe(false);
    expect(errorsOf(on, bad)).toEqual([
      { field: 'at', description: 'must be a valid date-time' },
      { field: 'id', description: 'must be a valid uuid' },
    ]);
    expect(on.is({ at: '2024-02-29T23:59:60Z', id: '3fa85f64-5717-4562-b3fc-2c963f66afa6', x: '' })).toBe(true);
  });

  it('implements Standard Schema v1 with the same messages and path arrays', async () => {
    const v = await compile(ALERT_SCHEMA, { vendor: 'acme' });
    const std = v['~standard'];
    expect(std.version).toBe(1);
    expect(std.vendor).toBe('acme');
    const value = { name: 'n', status: 'ACTIVE', conditions: [{ metric: 'm', operator: 'gt' }] };
    expect(std.validate(value)).toEqual({ value });
    const bad = { ...value, conditions: [{ metric: 'm', operator: 'gt', threshold_float: -1 }] };
    expect(std.validate(bad)).toEqual({ issues: [{ message: 'must be greater than or equal to 0', path: ['conditions', 0, 'threshold_float'] }] });
  });

  it('is deterministic: compiling twice gives identical text', () => {
    const entries = [
      { exportName: 'alert', pointer: '#', typeName: 'Alert' },
      { exportName: 'condition', pointer: '#/$defs/Condition', typeName: 'Condition' },
    ];
    const a = compileValidatorModule(ALERT_SCHEMA, entries, { typesImport: './types.js', assertFormats: true });
    const b = compileValidatorModule(structuredClone(ALERT_SCHEMA), entries, { typesImport: './types.js', assertFormats: true });
    expect(a.js).toBe(b.js);
    expect(a.dts).toBe(b.dts);
    expect(a.js).not.toMatch(/\beval\b|new Function/);
  });

  it('compiles recursive refs to recursive functions', async () => {
    const v = await compile({
      $defs: { Node: { type: 'object', properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
      $ref: '#/$defs/Node',
    });
    const tree = { value: 1, children: [{ value: 2, children: [{ value: 3, children: [] }] }] };
    expect(v.is(tree)).toBe(true);
    const bad = { value: 1, children: [{ value: 2, children: [{ value: 'three' }] }] };
    expect(errorsOf(v, bad)).toEqual([{ field: 'children[0].children[0].value', description: 'must be an integer' }]);
  });

  it('uses the discriminator for a focused error while keeping oneOf semantics', async () => {
    const schema = {
      components: {
        schemas: {
          Cat: { type: 'object', required: ['kind', 'lives'], properties: { kind: { const: 'cat' }, lives: { type: 'integer' } } },
          Dog: { type: 'object', required: ['kind'], properties: { kind: { const: 'dog' }, bark: { type: 'boolean' } } },
        },
      },
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
      discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } },
    };
    const v = await compile(schema);
    expect(v.is({ kind: 'cat', lives: 9 })).toBe(true);
    expect(v.is({ kind: 'dog' })).toBe(true);
    expect(v.is({ kind: 'cat' })).toBe(false);
    expect(v.is({ kind: 'cow' })).toBe(false);
    expect(errorsOf(v, { kind: 'cat', lives: 'nine' })).toEqual([{ field: 'lives', description: 'must be an integer' }]);
    expect(errorsOf(v, { kind: 'cow' })).toEqual([{ field: 'kind', description: 'must be one of: cat, dog' }]);
    expect(errorsOf(v, {})).toEqual([{ field: 'kind', description: 'is required' }]);
  });

  it('exports one validator per entry and a matching .d.ts', async () => {
    const { js, dts } = compileValidatorModule(
      ALERT_SCHEMA,
      [
        { exportName: 'alertValidator', pointer: '#', typeName: 'Alert' },
        { exportName: 'conditionValidator', pointer: '#/$defs/Condition', typeName: 'Condition' },
      ],
      { typesImport: './types.js' },
    );
    const mod = await load(js);
    expect(mod.conditionValidator!.is({ metric: 'm', operator: 'lt' })).toBe(true);
    expect(mod.alertValidator!.is({ metric: 'm', operator: 'lt' })).toBe(false);
    expect(dts).toContain('import type { Alert, Condition } from "./types.js";');
    expect(dts).toContain('export declare const alertValidator: Validator<Alert>;');
    expect(dts).toContain("readonly '~standard': StandardSchemaProps<T>;");
    expect(dts).not.toContain('@standard-schema');
  });
});
