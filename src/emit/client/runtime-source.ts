// The client runtime is a real module of the generator (`runtime-template.ts`, type-checked and tested with
// the rest of the code) that is emitted verbatim as `client/runtime.ts`. It holds no spec-derived content.
import { readFileSync } from 'node:fs';

/**
 * Value exports of the runtime whose names an operation function could also take (camelCase ones; the
 * PascalCase classes cannot clash: operation function names always start lower case). `index.ts` uses this
 * list to resolve `export *` ambiguities in favour of the operation. A test keeps it in sync with the template.
 */
export const RUNTIME_CAMEL_CASE_EXPORTS: readonly string[] = ['createConfig', 'paginate', 'request'];

let cached: string | undefined;

/** Source text of `client/runtime.ts`. */
export function runtimeSource(): string {
  cached ??= readFileSync(new URL('./runtime-template.ts', import.meta.url), 'utf8');
  return cached;
}
