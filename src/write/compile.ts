// A generated TypeScript module -> the `.js` and `.d.ts` a package ships, in one native pass of oxc-transform
// (type stripping and isolated declarations from one parse; no program, no type check), run on a native thread so
// the main thread goes on emitting meanwhile. The emitters write code
// that satisfies `isolatedDeclarations` (explicit types on every export), which is what makes per-file
// declaration emit possible; a module that does not is a generator bug and fails the run.
import { createRequire } from 'node:module';
import type * as Oxc from 'oxc-transform';

// Loaded on first use, so a run that renders nothing (an unchanged spec) never loads the native binding.
let oxc: typeof Oxc | undefined;
function loadOxc(): typeof Oxc {
  oxc ??= createRequire(import.meta.url)('oxc-transform') as typeof Oxc;
  return oxc;
}

const OPTIONS: Oxc.TransformOptions = {
  lang: 'ts',
  sourceType: 'module',
  // ES2022 is what the packages promise (Node 20, current browsers): nothing is lowered below it.
  target: 'es2022',
  typescript: { declaration: { stripInternal: false } },
  sourcemap: false,
};

export async function compileModule(fileName: string, source: string): Promise<{ js: string; dts: string }> {
  return checked(fileName, source, await loadOxc().transform(fileName, source, OPTIONS));
}

/** The same pass on the calling thread, for the generator's own small modules read once (validator helpers). */
export function compileModuleSync(fileName: string, source: string): { js: string; dts: string } {
  return checked(fileName, source, loadOxc().transformSync(fileName, source, OPTIONS));
}

function checked(fileName: string, source: string, result: Oxc.TransformResult): { js: string; dts: string } {
  const errors = result.errors.filter((e) => e.severity === 'Error');
  if (errors.length > 0 || result.declaration === undefined) {
    const text = errors.slice(0, 5).map((e) => `${fileName}:${lineAt(source, e.labels[0]?.start)}${e.message}`);
    throw new Error(`generated module ${fileName} does not compile (a generator bug):\n${text.join('\n') || 'no declaration emitted'}`);
  }
  return { js: result.code, dts: result.declaration };
}

function lineAt(source: string, offset: number | undefined): string {
  if (offset === undefined) return ' ';
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) line++;
  return `${line}: `;
}
