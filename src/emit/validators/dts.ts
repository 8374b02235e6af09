// The .d.ts of a generated validator module: the validator's public types (runtime/types.ts; Standard Schema v1
// typed inline, no import of @standard-schema/spec) and one `Validator<T>` constant per entry.
import { readFileSync } from 'node:fs';
import { jsString } from '../../encode/index.js';

export interface DtsEntry {
  exportName: string;
  typeName?: string;
}

let helperTypes: string | undefined;

/**
 * The validator's public types: runtime/types.ts verbatim (the one definition the run-time helper `$validator`
 * is typed against), without its file comment.
 */
function helperTypesSource(): string {
  helperTypes ??= readFileSync(new URL('./runtime/types.ts', import.meta.url), 'utf8').replace(/^(?:\/\/.*\n)+\n/, '');
  return helperTypes;
}

export function emitDts(entries: DtsEntry[], header: string, typesImport: string | undefined): string {
  const typeNames = [...new Set(entries.map((e) => e.typeName).filter((t): t is string => t !== undefined))].sort();
  const out = [header];
  if (typesImport !== undefined && typeNames.length) out.push(`import type { ${typeNames.join(', ')} } from ${jsString(typesImport)};\n`);
  out.push(helperTypesSource());
  for (const e of entries) {
    const t = typesImport !== undefined && e.typeName !== undefined ? e.typeName : 'unknown';
    out.push(`export declare const ${e.exportName}: Validator<${t}>;`);
  }
  return `${out.join('\n')}\n`;
}
