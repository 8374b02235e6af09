// What the consumer tests share: temporary folders, npm with its output, `npm pack`, and a strict type check of a
// consumer program against installed packages.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';

const tempDirs: string[] = [];

export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  tempDirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

// npm writes warnings (an unknown `nodedir` config, ...) to stderr: ignored; stdout is returned.
export function npm(args: string[], cwd: string, options: { cache?: string; scripts?: boolean; timeout?: number } = {}): string {
  const extra = [...(options.cache ? ['--cache', options.cache] : []), ...(options.scripts ? [] : ['--ignore-scripts'])];
  return execFileSync('npm', [...args, ...extra], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: options.timeout });
}

export interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/** `npm pack` of a package folder into `destination`. */
export function pack(packageDir: string, destination: string, cache?: string): Packed {
  const out = npm(['pack', '--json', '--pack-destination', destination], packageDir, cache ? { cache } : {});
  return (JSON.parse(out.slice(out.indexOf('['))) as Packed[])[0]!;
}

/** Diagnostics of a program under --strict (NodeNext resolution, no Node types), with the files it read. */
export function typeCheck(file: string): { diagnostics: { line: number; text: string }[]; sourceFiles: string[] } {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    skipLibCheck: false,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ({
    line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
    text: `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
  }));
  return { diagnostics, sourceFiles: program.getSourceFiles().map((f) => f.fileName) };
}

/** A TypeScript program as the JavaScript Node runs. */
export function transpile(source: string, fileName: string): string {
  return ts.transpileModule(source, { fileName, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
}
