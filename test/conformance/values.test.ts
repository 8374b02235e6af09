// The value generator of the conformance suite (src/conformance/values/), checked against Ajv (draft
// 2020-12 with ajv-formats) as an independent oracle:
// - feature by feature on small schemas;
// - on our spec: every named schema gets a value Ajv accepts (minimal and maximal), and for every JSON request
//   body every `valid` variant validates and every `invalid` one fails with an error at the variant's path;
// - on the real-world specs in ../shared/specs or CORPUS_DIR (lenient policy): the same, asserting a high success ratio and
//   printing every failure and every schema without a value.
import { readFileSync, readdirSync } from 'node:fs';
import { extname, join, relative, sep, dirname } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { boundaryVariants, conforms, readablePath, validValue, type Defs } from '../../src/conformance/values/index.js';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import type { ApiModel, SchemaNode } from '../../src/model/index.js';
import { oracleDir } from '../support/oracles.js';

// ajv-formats is CommonJS (`module.exports = formatsPlugin`, plus `.default`); accept either shape.
const addFormats: (ajv: Ajv2020) => unknown =
  (addFormatsModule as unknown as { default?: (ajv: Ajv2020) => unknown }).default ?? (addFormatsModule as unknown as (ajv: Ajv2020) => unknown);

type Validate = ((v: unknown) => boolean) & { errors?: AjvError[] | null };
interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

const BASE = 'https://values.test/model';

function newAjv(): Ajv2020 {
  // inlineRefs off, no meta-schema validation, no code optimisation: large specs compile several times faster.
  // ownProperties: a property named `constructor` must not find Object.prototype.constructor.
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, inlineRefs: false, ownProperties: true, validateSchema: false, code: { optimize: false } });
  addFormats(ajv);
  return ajv;
}

/** Ajv over one document holding the named schemas and any extra (body) schemas, compiled per entry on demand. */
class Oracle {
  private readonly ajv = newAjv();
  constructor(defs: Defs, extra: Record<string, SchemaNode> = {}) {
    const all: Record<string, SchemaNode> = {};
    for (const source of [defs, extra]) for (const k of Object.keys(source)) Object.defineProperty(all, k, { value: source[k], enumerable: true });
    this.ajv.addSchema({ $id: BASE, $defs: all });
  }
  validator(name: string): Validate {
    const pointer = name.replace(/~/g, '~0').replace(/\//g, '~1');
    return this.ajv.getSchema(`${BASE}#/$defs/${encodeURIComponent(pointer).replace(/%7E/gi, '~')}`) as unknown as Validate;
  }
}

function check(schema: SchemaNode, value: unknown, defs: Defs = {}): boolean {
  const validate = new Oracle(defs, { __root: schema }).validator('__root');
  return validate(value);
}

/** An Ajv error as the readable path of the field it names (required / additionalProperties name the property). */
function errorPath(e: AjvError, value: unknown): string {
  const segs: (string | number)[] = [];
  let node: unknown = value;
  const raw = e.instancePath === '' ? [] : e.instancePath.slice(1).split('/');
  for (const r of raw) {
    const s = r.replace(/~1/g, '/').replace(/~0/g, '~');
    const seg = Array.isArray(node) && /^\d+$/.test(s) ? Number(s) : s;
    segs.push(seg);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[seg as string] : undefined;
  }
  const named = e.params.missingProperty ?? e.params.additionalProperty ?? e.params.propertyName;
  if (typeof named === 'string') segs.push(named);
  return readablePath(segs);
}

const COMBINATORS = new Set(['anyOf', 'oneOf', 'if']);
const under = (p: string, root: string): boolean => root === '' || p === root || p.startsWith(`${root}.`) || p.startsWith(`${root}[`);

/**
 * Why Ajv's verdict on an invalid variant does not name its path, or undefined when it does: some error must be
 * at the path, and errors elsewhere may only come from anyOf/oneOf branches the value was not meant for (Ajv
 * reports a failing branch's errors next to the anyOf/oneOf error; inside a $ref its schemaPath no longer shows
 * the branch, so an error counts as a branch error when an anyOf/oneOf failed at its instance or an ancestor).
 */
function invalidProblem(validate: Validate, value: unknown, path: string): string | undefined {
  if (validate(value)) return 'accepted';
  const all = validate.errors ?? [];
  const unions = all.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => errorPath(e, value));
  const errors = all.filter((e) => !COMBINATORS.has(e.keyword));
  const paths = errors.map((e) => errorPath(e, value));
  if (!paths.some((p) => under(p, path))) return `errors elsewhere: ${JSON.stringify(paths.slice(0, 4))}`;
  const stray = errors.filter((e, i) => !under(paths[i]!, path) && !/\/(anyOf|oneOf)\//.test(e.schemaPath) && !unions.some((u) => under(paths[i]!, u)));
  if (stray.length > 0) return `also errors at ${JSON.stringify(stray.map((e) => errorPath(e, value)).slice(0, 4))}`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Running a whole model

interface ModelReport {
  schemas: number;
  /** Values Ajv accepted (two per schema: minimal and maximal). */
  accepted: number;
  tried: number;
  /** Schemas for which validValue gave undefined (minimal or maximal). */
  noValue: string[];
  rejected: string[];
  uncompilable: string[];
  bodies: number;
  valid: { ok: number; total: number };
  invalid: { ok: number; total: number };
  variantFailures: string[];
  ms: number;
}

function defsOf(model: ApiModel): Defs {
  const defs: Defs = {};
  for (const name of Object.keys(model.schemas)) Object.defineProperty(defs, name, { value: model.schemas[name]!.schema, enumerable: true });
  return defs;
}

function jsonBodies(model: ApiModel): { id: string; schema: SchemaNode }[] {
  const out: { id: string; schema: SchemaNode }[] = [];
  for (const op of model.operations) {
    const media = op.requestBody?.content.find((c) => c.mediaType === 'application/json');
    if (media) out.push({ id: op.id, schema: media.schema });
  }
  return out;
}

function runModel(model: ApiModel): ModelReport {
  const started = performance.now();
  const defs = defsOf(model);
  const bodies = jsonBodies(model);
  const extra: Record<string, SchemaNode> = {};
  bodies.forEach((b, i) => (extra[`__body${i}`] = b.schema));
  const oracle = new Oracle(defs, extra);
  const r: ModelReport = { schemas: 0, accepted: 0, tried: 0, noValue: [], rejected: [], uncompilable: [], bodies: bodies.length, valid: { ok: 0, total: 0 }, invalid: { ok: 0, total: 0 }, variantFailures: [], ms: 0 };
  for (const name of Object.keys(defs)) {
    r.schemas++;
    let validate: Validate;
    try {
      validate = oracle.validator(name);
    } catch (e) {
      r.uncompilable.push(`${name}: ${(e as Error).message}`);
      continue;
    }
    for (const maximal of [false, true]) {
      r.tried++;
      const value = validValue(defs[name]!, defs, { maximal });
      const label = `${name}${maximal ? ' (maximal)' : ''}`;
      if (value === undefined) r.noValue.push(label);
      else if (validate(value)) r.accepted++;
      else r.rejected.push(`${label}: ${JSON.stringify(validate.errors?.slice(0, 3).map((e) => `${e.instancePath} ${e.message}`))} in ${JSON.stringify(value).slice(0, 300)}`);
    }
  }
  bodies.forEach((body, i) => {
    let validate: Validate;
    try {
      validate = oracle.validator(`__body${i}`);
    } catch (e) {
      r.uncompilable.push(`body of ${body.id}: ${(e as Error).message}`);
      return;
    }
    const { valid, invalid } = boundaryVariants(body.schema, defs);
    for (const v of valid) {
      r.valid.total++;
      if (validate(v.value)) r.valid.ok++;
      else r.variantFailures.push(`${body.id} valid "${v.label}": ${JSON.stringify(validate.errors?.slice(0, 3).map((e) => `${e.instancePath} ${e.message}`))}`);
    }
    for (const v of invalid) {
      r.invalid.total++;
      const problem = invalidProblem(validate, v.value, v.path);
      if (problem === undefined) r.invalid.ok++;
      else r.variantFailures.push(`${body.id} invalid "${v.label}" (${v.path}): ${problem}`);
    }
  });
  r.ms = Math.round(performance.now() - started);
  return r;
}

function summary(name: string, r: ModelReport): string {
  const lines = [
    `${name}: schemas ${r.accepted}/${r.tried} values accepted (${r.schemas} schemas, ${r.noValue.length} without a value), bodies ${r.bodies}, valid variants ${r.valid.ok}/${r.valid.total}, invalid variants ${r.invalid.ok}/${r.invalid.total}, ${r.ms} ms`,
  ];
  for (const [title, list] of [
    ['no value', r.noValue],
    ['rejected by Ajv', r.rejected],
    ['Ajv cannot compile', r.uncompilable],
    ['variant failures', r.variantFailures],
  ] as const)
    if (list.length > 0) lines.push(`  ${title} (${list.length}):`, ...list.slice(0, 30).map((l) => `    ${l.slice(0, 400)}`));
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------
// Feature by feature

describe('validValue', () => {
  const valid = (schema: SchemaNode, defs: Defs = {}, options: { maximal?: boolean; seed?: number } = {}): unknown => {
    const value = validValue(schema, defs, options);
    expect(value, JSON.stringify(schema)).not.toBeUndefined();
    expect(check(schema, value, defs), `${JSON.stringify(value)} for ${JSON.stringify(schema)}`).toBe(true);
    expect(conforms(schema, defs, value)).toBe(true);
    return value;
  };

  it('handles scalars, const, enum, type arrays and boolean schemas', () => {
    expect(valid({ type: ['string', 'null'] })).toBeTypeOf('string');
    expect(valid({ type: ['null', 'integer'] })).toBeTypeOf('number');
    expect(valid({ type: ['null'] })).toBeNull();
    expect(valid({ const: { a: [1] } })).toEqual({ a: [1] });
    expect(valid({ type: ['string', 'null'], enum: [null, 'B', 'C'] })).toBe('B');
    expect(valid(true)).not.toBeUndefined();
    expect(validValue(false, {})).toBeUndefined();
    expect(valid({ type: ['boolean'] })).toBe(true);
  });

  it('prefers valid examples and defaults, and ignores invalid ones', () => {
    expect(valid({ type: ['string'], examples: ['hello'] })).toBe('hello');
    expect(valid({ type: ['string'], maxLength: 3, examples: ['too long'], default: 'ok' })).toBe('ok');
    expect(valid({ type: ['integer'], minimum: 10, examples: [1, 2] })).toBe(10);
  });

  it('counts string lengths in code points', () => {
    const s = valid({ type: ['string'], pattern: '^\\u{1F600}+$', minLength: 3, maxLength: 3 }) as string;
    expect([...s]).toHaveLength(3);
    expect(s.length).toBe(6);
    expect([...(valid({ type: ['string'], minLength: 30 }) as string)].length).toBeGreaterThanOrEqual(30);
    expect((valid({ type: ['string'], maxLength: 2 }) as string).length).toBeLessThanOrEqual(2);
  });

  it('generates strings for the regex subset OpenAPI documents use', () => {
    for (const pattern of [
      '^[A-Za-z0-9]{22}$',
      '^\\+[1-9][0-9]{1,14}$',
      '^metrics/[a-zA-Z0-9]{22}/versions/[0-9A-HJKMNP-TV-Z]{26}$',
      '^(upper|lower)_[0-9]+(\\.[0-9]+)?sigma$',
      '^#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$',
      '^[^:]+:.+$',
      '^[1-9][0-9]{0,3} (minute|minutes|hour|hours|day|days|week|weeks)$',
      '^\\d{3}-\\w{2}\\s\\.$',
      '^[^\\s/]{4,}$',
      '^(ab|cd)*x?$',
      '^(\\w+)-\\1$',
      '^(?!admin)[a-z]{5}$',
      '^[\\p{L}]{3}$',
      '(\\{user_question\\}[\\s\\S]*?\\{content\\}|\\{content\\}[\\s\\S]*?\\{user_question\\})',
      '^([01]\\d|2[0-3]):?([0-5]\\d)$',
    ]) {
      const s = valid({ type: ['string'], pattern }) as string;
      expect(new RegExp(pattern, 'u').test(s), `${pattern} -> ${s}`).toBe(true);
    }
    // With length limits on top of the pattern.
    const slug = valid({ type: ['string'], pattern: '^[a-z][a-z0-9-]{0,62}$', minLength: 10, maxLength: 12 }) as string;
    expect(slug.length).toBeGreaterThanOrEqual(10);
    // Unanchored: padded to the minimum length.
    expect((valid({ type: ['string'], pattern: '\\S', minLength: 40 }) as string).length).toBeGreaterThanOrEqual(40);
    // Unsatisfiable pattern: nothing, rather than a wrong value.
    expect(validValue({ type: ['string'], pattern: '.^' }, {})).toBeUndefined();
    expect(validValue({ type: ['string'], pattern: '^[a-z]{5}$', maxLength: 3 }, {})).toBeUndefined();
    // A pattern the generator cannot follow falls back to the schema's example.
    expect(valid({ type: ['string'], pattern: '^(?=.*[0-9])(?=.*[A-Z]).{8}$', examples: ['Passw0rd'] })).toBe('Passw0rd');
  });

  it('produces canonical values of formats', () => {
    const expected: Record<string, string> = {
      'date-time': '2024-01-01T00:00:00Z',
      date: '2024-01-01',
      time: '12:00:00Z',
      email: 'user@example.com',
      uri: 'https://example.com',
      'uri-reference': 'https://example.com',
      uuid: '00000000-0000-4000-8000-000000000001',
      ipv4: '192.0.2.1',
      ipv6: '2001:db8::1',
      hostname: 'example.com',
    };
    for (const [format, value] of Object.entries(expected)) expect(valid({ type: ['string'], format })).toBe(value);
    expect((valid({ type: ['string'], format: 'uri', minLength: 40 }) as string).length).toBeGreaterThanOrEqual(40);
    expect(valid({ type: ['string'], format: 'email', minLength: 25 })).toMatch(/@example\.com$/);
  });

  it('satisfies numeric bounds, exclusive bounds and multipleOf', () => {
    expect(valid({ type: ['integer'], minimum: 5, maximum: 9 })).toBe(5);
    expect(valid({ type: ['integer'], exclusiveMinimum: 5 })).toBe(6);
    expect(valid({ type: ['number'], exclusiveMinimum: 0, exclusiveMaximum: 1 })).toBeGreaterThan(0);
    expect(valid({ type: ['integer'], maximum: -3 })).toBe(-3);
    expect(valid({ type: ['integer'], minimum: 1, multipleOf: 7 })).toBe(7);
    valid({ type: ['number'], minimum: 0.05, multipleOf: 0.01 });
    valid({ type: ['integer'], minimum: 3, maximum: 4, multipleOf: 2 });
    expect(valid({ type: ['integer'], format: 'int32', minimum: 2 ** 31 - 2 })).toBe(2 ** 31 - 2);
    expect(validValue({ type: ['integer'], format: 'int32', minimum: 2 ** 31 }, {})).toBeUndefined();
    expect(validValue({ type: ['integer'], minimum: 3, maximum: 3.5, multipleOf: 2 }, {})).toBeUndefined();
  });

  it('builds arrays: minItems, maxItems, items, prefixItems, uniqueItems, contains', () => {
    expect(valid({ type: ['array'], items: { type: ['string'] }, minItems: 3, uniqueItems: true })).toHaveLength(3);
    expect(valid({ type: ['array'], items: { enum: ['a', 'b', 'c'] }, minItems: 3, uniqueItems: true })).toEqual(['a', 'b', 'c']);
    expect(valid({ type: ['array'], prefixItems: [{ type: ['integer'] }, { type: ['string'] }], items: false, minItems: 2 })).toHaveLength(2);
    const withContains = valid({ type: ['array'], items: { type: ['integer'] }, contains: { minimum: 100 }, minContains: 2 }) as number[];
    expect(withContains.filter((n) => n >= 100).length).toBeGreaterThanOrEqual(2);
    expect(validValue({ type: ['array'], items: { enum: ['a'] }, minItems: 2, uniqueItems: true }, {})).toBeUndefined();
    expect(valid({ type: ['array'], items: { type: ['string'] } }, {}, { maximal: true })).toHaveLength(1);
  });

  it('builds objects: required, maximal, additional/pattern properties, propertyNames, min/max properties, dependentRequired', () => {
    const schema: SchemaNode = {
      type: ['object'],
      required: ['a'],
      properties: { a: { type: ['string'] }, b: { type: ['integer'] }, constructor: { type: ['boolean'] } },
      additionalProperties: false,
    };
    expect(Object.keys(valid(schema) as object)).toEqual(['a']);
    expect(Object.keys(valid(schema, {}, { maximal: true }) as object)).toEqual(['a', 'b', 'constructor']);
    // `__proto__` stays a data key (Ajv itself mishandles it, so only our interpreter judges this one).
    const properties: Record<string, SchemaNode> = { a: { type: ['string'] } };
    Object.defineProperty(properties, '__proto__', { value: { type: ['boolean'] }, enumerable: true });
    const proto: SchemaNode = { type: ['object'], required: ['__proto__'], properties: properties as never, additionalProperties: false };
    const protoValue = validValue(proto, {}, { maximal: true }) as Record<string, unknown>;
    expect(Object.keys(protoValue)).toEqual(['a', '__proto__']);
    expect(Object.getPrototypeOf(protoValue)).toBe(Object.prototype);
    expect(conforms(proto, {}, protoValue)).toBe(true);
    const map = valid({ type: ['object'], patternProperties: { '^x-[a-z]+$': { type: ['integer'] } }, additionalProperties: false, minProperties: 2 }) as object;
    expect(Object.keys(map)).toHaveLength(2);
    valid({ type: ['object'], propertyNames: { pattern: '^[A-Z]{3}$' }, minProperties: 1, additionalProperties: { type: ['string'] } });
    expect(valid({ type: ['object'], properties: { card: { type: ['string'] }, billing: { type: ['string'] } }, required: ['card'], dependentRequired: { card: ['billing'] } })).toHaveProperty('billing');
    expect(validValue({ type: ['object'], required: ['x'], additionalProperties: false }, {})).toBeUndefined();
    valid({ type: ['object'], maxProperties: 1, properties: { a: { type: ['string'] }, b: { type: ['string'] } } }, {}, { maximal: true });
  });

  it('combines allOf, anyOf, oneOf, not and if/then/else', () => {
    const defs: Defs = {
      Base: { type: ['object'], required: ['id'], properties: { id: { type: ['string'], pattern: '^[0-9]{4}$' } } },
      Cat: { allOf: [{ $ref: '#/$defs/Base' }, { type: ['object'], required: ['kind', 'meow'], properties: { kind: { const: 'cat' }, meow: { type: ['boolean'] } } }] },
      Dog: { allOf: [{ $ref: '#/$defs/Base' }, { type: ['object'], required: ['kind'], properties: { kind: { const: 'dog' }, bark: { type: ['integer'], minimum: 3 } } }] },
    };
    expect(valid({ allOf: [{ $ref: '#/$defs/Base' }, { properties: { id: { maxLength: 4 } } }] }, defs)).toHaveProperty('id');
    valid({ anyOf: [{ type: ['string'], minLength: 5, maxLength: 2 }, { type: ['integer'] }] });
    // oneOf whose branches overlap: the value must match exactly one.
    valid({ oneOf: [{ type: ['integer'] }, { type: ['number'] }] });
    valid({ oneOf: [{ type: ['object'], properties: { a: { type: ['string'] } } }, { type: ['object'], properties: { b: { type: ['string'] } }, additionalProperties: false }] });
    valid({ type: ['object'], oneOf: [{ properties: { type: { enum: ['taxonomy'] }, namespace: { type: ['string'] } } }, { properties: { type: { enum: ['file'] }, id: { type: ['string'] } } }] });
    // Discriminator: the property is set to the mapping key of the branch.
    const pet = valid({ oneOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }], discriminator: { propertyName: 'kind', mapping: { dog: '#/$defs/Dog', cat: '#/$defs/Cat' } } }, defs) as Record<string, unknown>;
    expect(pet.kind).toBe('cat');
    // not
    expect(valid({ type: ['integer'], not: { enum: [1, 2] } })).not.toBe(1);
    valid({ type: ['object'], properties: { a: { type: ['string'] } }, not: { required: ['a'] } }, {}, { maximal: true });
    // if/then/else: the value satisfying `if` also satisfies `then`.
    const metric: SchemaNode = {
      type: ['object'],
      required: ['metric_type'],
      properties: { metric_type: { enum: ['METRIC_LLM_BINARY', 'METRIC_SQL'] }, prompt: { type: ['string'], minLength: 1 }, sql: { type: ['string'] } },
      allOf: [
        { if: { required: ['metric_type'], properties: { metric_type: { const: 'METRIC_LLM_BINARY' } } }, then: { required: ['prompt'] } },
        { if: { properties: { metric_type: { const: 'METRIC_SQL' } } }, then: { required: ['sql'] }, else: { not: { required: ['sql'] } } },
      ],
    };
    expect(valid(metric)).toEqual({ metric_type: 'METRIC_LLM_BINARY', prompt: 'string' });
    valid(metric, {}, { maximal: true });
  });

  it('respects unevaluatedProperties and unevaluatedItems', () => {
    const defs: Defs = { Base: { type: ['object'], properties: { id: { type: ['string'] } } } };
    const schema: SchemaNode = {
      allOf: [{ $ref: '#/$defs/Base' }],
      anyOf: [{ properties: { a: { type: ['integer'] } }, required: ['a'] }, { properties: { b: { type: ['string'] } } }],
      properties: { extra: { type: ['boolean'] } },
      unevaluatedProperties: false,
    };
    valid(schema, defs);
    expect(Object.keys(valid(schema, defs, { maximal: true }) as object).sort()).toEqual(['a', 'extra', 'id']);
    expect(conforms(schema, defs, { a: 1, b: 'x' })).toBe(true);
    expect(conforms(schema, defs, { a: 1, c: 'x' })).toBe(false);
    expect(check(schema, { a: 1, c: 'x' }, defs)).toBe(false);
    valid({ type: ['array'], prefixItems: [{ type: ['string'] }], minItems: 1, unevaluatedItems: false }, {}, { maximal: true });
  });

  it('stops at recursion and leaves optional recursive properties out', () => {
    const defs: Defs = {
      Node: { type: ['object'], required: ['name'], properties: { name: { type: ['string'] }, parent: { $ref: '#/$defs/Node' }, children: { type: ['array'], items: { $ref: '#/$defs/Node' } } } },
      Chain: { type: ['object'], required: ['next'], properties: { next: { anyOf: [{ $ref: '#/$defs/Chain' }, { type: ['null'] }] } } },
      Loop: { type: ['object'], required: ['next'], properties: { next: { $ref: '#/$defs/Loop' } } },
    };
    valid({ $ref: '#/$defs/Node' }, defs);
    const max = valid({ $ref: '#/$defs/Node' }, defs, { maximal: true });
    expect(JSON.stringify(max).length).toBeLessThan(5000);
    valid({ $ref: '#/$defs/Chain' }, defs, { maximal: true });
    // A required recursion with no way out has no finite value.
    expect(validValue({ $ref: '#/$defs/Loop' }, defs)).toBeUndefined();
  });

  it('is deterministic, and the seed changes the choices', () => {
    const schema: SchemaNode = { type: ['array'], minItems: 3, items: { type: ['string'], pattern: '^[A-Za-z0-9]{12}$' } };
    expect(validValue(schema, {})).toEqual(validValue(schema, {}));
    expect(validValue(schema, {}, { seed: 7 })).toEqual(validValue(schema, {}, { seed: 7 }));
    expect(validValue(schema, {}, { seed: 7 })).not.toEqual(validValue(schema, {}, { seed: 8 }));
  });
});

describe('boundaryVariants', () => {
  it('gives valid and just-invalid bodies, each about one property', () => {
    const schema: SchemaNode = {
      type: ['object'],
      required: ['name', 'color'],
      additionalProperties: false,
      properties: {
        name: { type: ['string'], minLength: 2, maxLength: 5 },
        color: { type: ['string'], pattern: '^#[0-9A-F]{6}$' },
        size: { type: ['integer'], minimum: 1, maximum: 10 },
        ratio: { type: ['number'], exclusiveMinimum: 0, exclusiveMaximum: 1 },
        mode: { enum: ['on', 'off'] },
        tags: { type: ['array'], items: { type: ['string'] }, minItems: 1, maxItems: 3, uniqueItems: true },
        id: { type: ['string'], readOnly: true },
      },
    };
    const { valid, invalid } = boundaryVariants(schema, {});
    const validate = new Oracle({}, { body: schema }).validator('body');
    for (const v of valid) expect(validate(v.value), v.label).toBe(true);
    for (const v of invalid) expect(invalidProblem(validate, v.value, v.path), v.label).toBeUndefined();
    const labels = invalid.map((v) => v.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        'name: missing (required)',
        'name: length 1 (below minLength 2)',
        'name: length 6 (above maxLength 5)',
        'color: violates pattern "^#[0-9A-F]{6}$"',
        'size: 0 (below minimum 1)',
        'size: 11 (above maximum 10)',
        'ratio: 0 (at exclusiveMinimum)',
        'ratio: 1 (at exclusiveMaximum)',
        'mode: not in enum',
        'tags: 0 items (below minItems 1)',
        'tags: 4 items (above maxItems 3)',
        'size: wrong type (string)',
        'unknown property',
      ]),
    );
    expect(valid.map((v) => v.label)).toEqual(expect.arrayContaining(['minimal body', 'maximal body', 'name: length 2 (minLength)', 'name: length 5 (maxLength)', 'mode: enum "on"', 'mode: enum "off"', 'size: 10 (maximum)']));
    expect(invalid.some((v) => v.path === 'id')).toBe(false);
    expect(boundaryVariants(schema, {})).toEqual(boundaryVariants(schema, {}));
  });

  it('calls a value the wrong type only when every branch of a union refuses it by type', () => {
    // box's retention_length: a string, or a number of format int32. 12345.5 fails the number branch by its format,
    // not its type, so it is no "wrong type" probe (the sandbox rightly took it); a boolean fails both by type.
    const schema: SchemaNode = {
      type: ['object'],
      properties: { retention_length: { oneOf: [{ type: ['string', 'null'], format: 'int32' }, { type: ['number'], format: 'int32' }] } },
    };
    const labels = boundaryVariants(schema, {}).invalid.map((v) => v.label);
    expect(labels).toContain('retention_length: wrong type (boolean)');
    expect(labels).not.toContain('retention_length: wrong type (number)');
  });

  it('probes the properties of a union body through the branch its minimal body is an instance of', () => {
    const defs: Defs = {
      Keyword: { type: ['object'], required: ['kind', 'words'], properties: { kind: { const: 'keyword' }, words: { type: ['array'], items: { type: ['string'] }, minItems: 1 }, name: { type: ['string'], maxLength: 10 } } },
      Spam: { type: ['object'], required: ['kind'], properties: { kind: { const: 'spam' }, name: { type: ['string'], maxLength: 10 } } },
    };
    const body: SchemaNode = { oneOf: [{ $ref: '#/$defs/Keyword' }, { $ref: '#/$defs/Spam' }], discriminator: { propertyName: 'kind' } };
    const { valid, invalid } = boundaryVariants(body, defs);
    const validate = new Oracle(defs, { body }).validator('body');
    for (const v of valid) expect(validate(v.value), v.label).toBe(true);
    for (const v of invalid) expect(invalidProblem(validate, v.value, v.path), v.label).toBeUndefined();
    expect(invalid.map((v) => v.label)).toEqual(expect.arrayContaining(['words: 0 items (below minItems 1)', 'name: length 11 (above maxLength 10)', 'words: missing (required)']));
  });

  it('builds each enum variant so that conditions hold (if/then)', () => {
    const schema: SchemaNode = {
      type: ['object'],
      required: ['metric_type'],
      properties: { metric_type: { enum: ['A', 'B'] }, prompt: { type: ['string'] } },
      allOf: [{ if: { properties: { metric_type: { const: 'B' } } }, then: { required: ['prompt'] } }],
    };
    const { valid } = boundaryVariants(schema, {});
    expect(valid.find((v) => v.label === 'metric_type: enum "B"')?.value).toEqual({ metric_type: 'B', prompt: 'string' });
  });

  it('formats paths readably', () => {
    expect(readablePath(['conditions', 0, 'metric_id'])).toBe('conditions[0].metric_id');
    expect(readablePath(['a b', 'c'])).toBe('["a b"].c');
    expect(readablePath([])).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------------------
// Whole specs

describe('our spec', () => {
  it('every named schema has a value Ajv accepts, and every body variant behaves', async () => {
    const model = buildModel(await loadSpecs('spec'), { policy: 'strict' });
    const r = runModel(model);
    console.log(summary('spec/', r));
    expect(r.uncompilable).toEqual([]);
    expect(r.noValue).toEqual([]);
    expect(r.rejected).toEqual([]);
    expect(r.accepted).toBe(2 * Object.keys(model.schemas).length);
    expect(r.bodies).toBeGreaterThan(0);
    expect(r.variantFailures).toEqual([]);
    expect(r.invalid.total).toBeGreaterThan(r.bodies);
    // Deterministic: a second run gives the same values and variants.
    const defs = defsOf(model);
    for (const name of Object.keys(defs)) expect(JSON.stringify(validValue(defs[name]!, defs, { maximal: true })), name).toBe(JSON.stringify(validValue(defs[name]!, defs, { maximal: true })));
    for (const body of jsonBodies(model)) expect(JSON.stringify(boundaryVariants(body.schema, defs)), body.id).toBe(JSON.stringify(boundaryVariants(body.schema, defs)));
  });
});

// The corpus (CORPUS_DIR, else ../shared/specs): required under CI, skipped loudly elsewhere.
const CORPUS = oracleDir('corpus');

/** Each corpus folder's entry: its shallowest OpenAPI document, or their folder when there are several. */
function corpusEntries(): { name: string; entry: string }[] {
  if (CORPUS === undefined) return [];
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : ['.yaml', '.yml', '.json'].includes(extname(e.name)) ? [join(dir, e.name)] : []));
  const isRoot = (f: string): boolean => {
    const text = readFileSync(f, 'utf8');
    if (extname(f) !== '.json') return /^["']?openapi["']?\s*:/m.test(text);
    try {
      const value = JSON.parse(text) as unknown;
      return value !== null && typeof value === 'object' && 'openapi' in value;
    } catch {
      return false;
    }
  };
  const out: { name: string; entry: string }[] = [];
  for (const e of readdirSync(CORPUS, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(CORPUS, e.name);
    if (e.isFile() && ['.yaml', '.yml', '.json'].includes(extname(e.name))) out.push({ name: e.name, entry: full });
    if (!e.isDirectory()) continue;
    const roots = files(full).filter(isRoot);
    if (roots.length === 0) continue;
    const depth = (f: string): number => relative(full, f).split(sep).length;
    const top = roots.filter((f) => depth(f) === Math.min(...roots.map(depth)));
    out.push({ name: e.name, entry: top.length === 1 ? top[0]! : dirname(top[0]!) });
  }
  return out;
}

describe('real-world specs', () => {
  const entries = corpusEntries();
  it.skipIf(entries.length === 0)('values and variants Ajv agrees with (lenient policy)', async () => {
    const reports: [string, ModelReport][] = [];
    for (const { name, entry } of entries) {
      // These public documents are known valid (npm run corpus validates them); skipping swagger-parser here
      // keeps the test fast.
      const model = buildModel(await loadSpecs(entry, { skipValidation: true }), { policy: 'lenient' });
      const r = runModel(model);
      reports.push([name, r]);
      console.log(summary(name, r));
    }
    for (const [name, r] of reports) {
      // Ajv values must never be wrong; a few schemas may have no value (oneOf branches that always overlap).
      expect(r.rejected, name).toEqual([]);
      expect(r.noValue.length, `${name}: ${r.noValue.join(', ')}`).toBeLessThanOrEqual(Math.max(2, r.tried * 0.01));
      expect(r.valid.ok, name).toBe(r.valid.total);
      expect(r.invalid.ok, name).toBeGreaterThanOrEqual(r.invalid.total * 0.99);
    }
  });
});
