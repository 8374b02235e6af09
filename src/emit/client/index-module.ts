// `client/index.ts`: re-exports. When an operation function has the name of a runtime helper (an operation
// called `request`, say), `export *` would make the name ambiguous (a TypeScript error, and silently dropped
// in JavaScript), so such names are re-exported explicitly from `./operations.js`, where they win.
import { RUNTIME_CAMEL_CASE_EXPORTS } from './runtime-source.js';
import type { OperationSignature } from './signature.js';

export function indexModule(sigs: OperationSignature[]): string {
  const operationNames = new Set(sigs.flatMap((s) => (s.iterator !== undefined ? [s.fn, s.iterator] : [s.fn])));
  const clashes = RUNTIME_CAMEL_CASE_EXPORTS.filter((name) => operationNames.has(name));
  // Schema names come from the spec and can be anything (a schema called ErrorDetail or Client), so types and
  // validators are namespaces here; their flat names stay importable from the ./types and ./validators subpaths.
  const lines = [
    "export * as types from './types.js';",
    "export * as validators from './validators.js';",
    "export * from './client.js';",
    "export * from './operations.js';",
    "export * from './runtime.js';",
    ...(clashes.length > 0 ? [`export { ${clashes.join(', ')} } from './operations.js';`] : []),
  ];
  return `${lines.join('\n')}\n`;
}
