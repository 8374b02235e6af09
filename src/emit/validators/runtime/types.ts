// The public shape of a generated validator: the one definition shared by the run-time helper that builds it
// (`$validator` in helpers.ts) and the emitted `.d.ts` (dts.ts copies this file's text verbatim). Standard
// Schema v1 is typed inline, so the generated package imports nothing. Only type declarations belong here.

export interface ValidationError {
  /** Readable path of the offending value (`conditions[0].threshold_float`), null for the value itself. */
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
