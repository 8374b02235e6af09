// Schema text is data: hostile property names, enum values and patterns must round-trip exactly and never
// run; property names that exist on Object.prototype are ordinary keys.
import { describe, expect, it } from 'vitest';
import { compileValidatorModule } from '../../src/emit/validators/compile.js';
import { compile, errorsOf, load } from './fixtures.js';

const HOSTILE = [
  `"); globalThis.pwned = 1; ("`,
  "'; globalThis.pwned = 1; '",
  '`${globalThis.pwned = 1}`',
  '*/ globalThis.pwned = 1; /*',
  '</script><script>globalThis.pwned = 1</script>',
  'line\u2028sep\u2029para',
  '\\"; globalThis.pwned = 1; //',
];

describe('hostile schema values', () => {
  it('round-trips hostile property names, enum values and error text without executing anything', async () => {
    const schema = {
      type: 'object',
      required: HOSTILE,
      additionalProperties: false,
      properties: Object.fromEntries(HOSTILE.map((h) => [h, { enum: [h] }])),
    };
    const { js } = compileValidatorModule(schema, [{ exportName: 'v', pointer: '#' }]);
    expect(js).not.toContain('</script>');
    expect(js).not.toContain('\u2028');
    const v = (await load(js)).v!;
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
    const value = Object.fromEntries(HOSTILE.map((h) => [h, h]));
    expect(v.is(value)).toBe(true);
    const bad = { ...value, [HOSTILE[0]!]: 'other' };
    const errors = errorsOf(v, bad);
    expect(errors).toEqual([{ field: `[${JSON.stringify(HOSTILE[0])}]`, description: `must be ${HOSTILE[0]}` }]);
    expect(errorsOf(v, {}).map((e) => e.field)).toEqual(HOSTILE.map((h) => `[${JSON.stringify(h)}]`));
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
  });

  it('compiles hostile patterns from strings, never as regex literals', async () => {
    // Regex-escaped `${x}` and `*`, so the pattern matches the hostile text literally.
    const pattern = '^a/b`\\$\\{x\\}\\*/\u2028</script>\'"$';
    const { js } = compileValidatorModule({ type: 'string', pattern }, [{ exportName: 'v', pointer: '#' }]);
    expect(js).not.toMatch(/\/\^a/); // no regex literal with the schema text
    const v = (await load(js)).v!;
    expect(v.is('a/b`${x}*/\u2028</script>\'"')).toBe(true);
    expect(v.is('a/b')).toBe(false);
    expect(errorsOf(v, 'nope')).toEqual([{ field: null, description: `must match pattern ${pattern}` }]);
  });

  it('treats __proto__, constructor and toString as plain data keys', async () => {
    // JSON.parse: in an object literal `__proto__:` would set the prototype instead of a key.
    const v = await compile(
      JSON.parse(`{
        "type": "object",
        "required": ["constructor", "toString"],
        "properties": { "__proto__": { "type": "string" }, "constructor": { "type": "integer" }, "toString": { "const": "x" } },
        "additionalProperties": false
      }`),
    );
    // Inherited members do not count as present.
    expect(errorsOf(v, {})).toEqual([
      { field: 'constructor', description: 'is required' },
      { field: 'toString', description: 'is required' },
    ]);
    const parsed = JSON.parse('{"__proto__": "p", "constructor": 1, "toString": "x"}') as unknown;
    expect(v.is(parsed)).toBe(true);
    const bad = JSON.parse('{"__proto__": 5, "constructor": 1, "toString": "x"}') as unknown;
    expect(errorsOf(v, bad)).toEqual([{ field: '__proto__', description: 'must be a string' }]);
    expect(v.is(JSON.parse('{"constructor": 1, "toString": "x", "hasOwnProperty": 1}'))).toBe(false);
  });

  it('uses own-property lookups for enum sets and declared names', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const v = await compile({
      properties: Object.fromEntries(names.map((n) => [n, true])),
      additionalProperties: false,
      propertyNames: { enum: [...names, 'x', 'y'] },
    });
    expect(v.is({ a: 1, j: 2 })).toBe(true);
    expect(v.is(JSON.parse('{"constructor": 1}'))).toBe(false);
    expect(v.is(JSON.parse('{"__proto__": 1}'))).toBe(false);
  });

  it('refuses export names that are not plain identifiers', () => {
    expect(() => compileValidatorModule(true, [{ exportName: 'a;b', pointer: '#' }])).toThrow(/plain identifier/);
    expect(() => compileValidatorModule(true, [{ exportName: 'default', pointer: '#' }])).toThrow(/plain identifier/);
    expect(() => compileValidatorModule(true, [{ exportName: 'v', pointer: '#', typeName: 'X<Y>' }])).toThrow(/plain identifier/);
  });
});
