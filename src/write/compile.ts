// A generated TypeScript module -> the `.js` and `.d.ts` a package ships. Per-file transpilation (no
// program, no type check) keeps generation fast and deterministic; the emitters write code that satisfies
// `isolatedDeclarations`, which is what makes per-file declaration emit possible.
import { createRequire } from 'node:module';
import type * as TypeScript from 'typescript';

// Loaded on first use (it takes about a second): a run served from the render cache never needs it.
let typescript: typeof TypeScript | undefined;
function loadTypeScript(): typeof TypeScript {
  typescript ??= createRequire(import.meta.url)('typescript') as typeof TypeScript;
  return typescript;
}

function compilerOptions(ts: typeof TypeScript): TypeScript.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    declaration: true,
    isolatedDeclarations: true,
    strict: true,
    removeComments: false,
    newLine: ts.NewLineKind.LineFeed,
  };
}

export function compileModule(fileName: string, source: string): { js: string; dts: string } {
  const ts = loadTypeScript();
  const OPTIONS = compilerOptions(ts);
  const { declaration: _d, isolatedDeclarations: _i, ...jsOptions } = OPTIONS;
  const js = ts.transpileModule(source, { fileName, compilerOptions: jsOptions, reportDiagnostics: true });
  const problems = js.diagnostics?.filter((d) => d.category === ts.DiagnosticCategory.Error) ?? [];
  const dts = ts.transpileDeclaration(source, { fileName, compilerOptions: OPTIONS, reportDiagnostics: true });
  problems.push(...(dts.diagnostics?.filter((d) => d.category === ts.DiagnosticCategory.Error) ?? []));
  if (problems.length > 0) {
    const text = problems.slice(0, 5).map((d) => `${d.start !== undefined && d.file ? `${fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    throw new Error(`generated module ${fileName} does not compile (a generator bug):\n${text.join('\n')}`);
  }
  return { js: js.outputText.replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'), dts: dts.outputText };
}
