// The .d.ts of a generated validator module: shared helper types (Standard Schema v1 typed inline, no
// import of @standard-schema/spec) and one `Validator<T>` constant per entry.
import { jsString } from '../../encode/index.js';

export interface DtsEntry {
  exportName: string;
  typeName?: string;
}

const HELPER_TYPES = `export interface ValidationError {
  /** Readable path of the offending value (\`conditions[0].threshold_float\`), null for the value itself. */
  field: string | null;
  description: string;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationError[] };

export interface StandardSchemaIssue {
  message: string;
  path: (string | number)[];
}

export type StandardSchemaResult<T> = { value: T; issues?: undefined } | { issues: StandardSchemaIssue[] };

/** Standard Schema v1 (https://standardschema.dev). */
export interface StandardSchemaProps<T> {
  readonly version: 1;
  readonly vendor: string;
  validate(value: unknown): StandardSchemaResult<T>;
  readonly types?: { readonly input: unknown; readonly output: T } | undefined;
}

export interface Validator<T> {
  validate(value: unknown): ValidationResult<T>;
  is(value: unknown): value is T;
  readonly '~standard': StandardSchemaProps<T>;
}
`;

export function emitDts(entries: DtsEntry[], header: string, typesImport: string | undefined): string {
  const typeNames = [...new Set(entries.map((e) => e.typeName).filter((t): t is string => t !== undefined))].sort();
  const out = [header];
  if (typesImport !== undefined && typeNames.length) out.push(`import type { ${typeNames.join(', ')} } from ${jsString(typesImport)};\n`);
  out.push(HELPER_TYPES);
  for (const e of entries) {
    const t = typesImport !== undefined && e.typeName !== undefined ? e.typeName : 'unknown';
    out.push(`export declare const ${e.exportName}: Validator<${t}>;`);
  }
  return `${out.join('\n')}\n`;
}
