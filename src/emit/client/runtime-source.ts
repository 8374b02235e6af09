// The client runtime is real modules of the generator (`runtime-template.ts` and the modules of `runtime/` it
// imports, type-checked and tested with the rest of the code), emitted verbatim as `client/runtime.ts` and
// `client/runtime/*.ts`. They hold no spec-derived content.
import { readFileSync } from 'node:fs';

/**
 * Value exports of the runtime whose names an operation function could also take (camelCase ones; the
 * PascalCase classes cannot clash: operation function names always start lower case). `index.ts` uses this
 * list to resolve `export *` ambiguities in favour of the operation. A test keeps it in sync with the template.
 */
export const RUNTIME_CAMEL_CASE_EXPORTS: readonly string[] = ['createConfig', 'paginate', 'request'];

/** The modules of `runtime/`, one concern each, in the order they are emitted. */
const RUNTIME_PARTS: readonly string[] = ['types', 'errors', 'own', 'auth', 'build', 'retry', 'network', 'responses'];

let cached: string | undefined;

/** Source text of `client/runtime.ts`, the runtime's public module. */
export function runtimeSource(): string {
  cached ??= readFileSync(new URL('./runtime-template.ts', import.meta.url), 'utf8');
  return cached;
}

let cachedParts: { path: string; contents: string }[] | undefined;

/** The modules the public runtime module imports: their paths beside `runtime.ts` (`runtime/<part>.ts`) and source texts. */
export function runtimeParts(): readonly { path: string; contents: string }[] {
  cachedParts ??= RUNTIME_PARTS.map((part) => ({ path: `runtime/${part}.ts`, contents: readFileSync(new URL(`./runtime/${part}.ts`, import.meta.url), 'utf8') }));
  return cachedParts;
}
