// Shared helpers for the validator unit tests: compile a schema and import the generated module.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileValidatorModule, type CompileOptions, type SchemaNode, type ValidatorEntry } from '../../src/emit/validators/compile.js';

export interface Issue {
  message: string;
  path: (string | number)[];
}
export interface LoadedValidator {
  validate(v: unknown): { ok: true; value: unknown } | { ok: false; errors: { field: string | null; description: string }[] };
  is(v: unknown): boolean;
  '~standard': { version: 1; vendor: string; validate(v: unknown): { value: unknown } | { issues: Issue[] } };
}

const dir = mkdtempSync(join(tmpdir(), 'validators-test-'));
let n = 0;

export async function load(js: string): Promise<Record<string, LoadedValidator>> {
  const path = join(dir, `m${n++}.mjs`);
  writeFileSync(path, js);
  return (await import(pathToFileURL(path).href)) as Record<string, LoadedValidator>;
}

/** Compile `schema` with one entry `v` at '#' and load it. */
export async function compile(schema: SchemaNode, options?: CompileOptions, entries?: ValidatorEntry[]): Promise<LoadedValidator> {
  const { js } = compileValidatorModule(schema, entries ?? [{ exportName: 'v', pointer: '#' }], options);
  return (await load(js)).v!;
}

export function errorsOf(v: LoadedValidator, value: unknown): { field: string | null; description: string }[] {
  const r = v.validate(value);
  if (r.ok) throw new Error(`expected ${JSON.stringify(value)} to be invalid`);
  return r.errors;
}

/** A medium-sized object schema shaped like the platform's alert payloads. */
export const ALERT_SCHEMA = {
  $defs: {
    Condition: {
      type: 'object',
      required: ['metric', 'operator'],
      additionalProperties: false,
      properties: {
        metric: { type: 'string', minLength: 1, maxLength: 200 },
        operator: { enum: ['gt', 'lt', 'gte', 'lte'] },
        threshold_float: { type: 'number', minimum: 0, maximum: 1 },
        window: { type: 'integer', minimum: 1 },
      },
    },
  },
  type: 'object',
  required: ['name', 'status', 'conditions'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    status: { enum: ['ACTIVE', 'DELETED'] },
    color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
    tags: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 5 } },
    conditions: { type: 'array', minItems: 1, items: { $ref: '#/$defs/Condition' } },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;
