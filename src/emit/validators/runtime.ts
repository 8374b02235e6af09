// The run-time helpers a generated validator module carries (it has no dependencies): the exported functions
// of runtime/helpers.ts, a real typed module, copied as JavaScript. Only the helpers the generated code uses
// (and those they call) are emitted, always in that file's order, so the output is deterministic.
import { HelperLibrary } from './runtime/library.js';

let library: HelperLibrary | undefined;

/** `$vendor` is declared by the generated module itself (compile.ts), from the vendor option. */
function helpers(): HelperLibrary {
  library ??= HelperLibrary.read(new URL('./runtime/helpers.ts', import.meta.url), ['$vendor']);
  return library;
}

/** Source of the requested helpers and their dependencies, in a fixed order. */
export function runtimeSource(used: ReadonlySet<string>): string {
  return used.size === 0 ? '' : helpers().source(used);
}
