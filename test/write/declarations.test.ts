// The shipped declarations, read with ts-morph: every value a generated module exports at run time (each
// validator, each operation function, createClient, the route and suite tables) has a declaration in the sibling
// .d.ts with a real type (not any), functions are declared callable, and the .d.ts files type-check under --strict.
// Declarations come from oxc's isolated-declarations emit, so this is what proves they describe the JavaScript.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ModuleKind, ModuleResolutionKind, Node, Project, ScriptTarget } from 'ts-morph';
import { describe, expect, it } from 'vitest';

const GENERATED = fileURLToPath(new URL('../../generated/', import.meta.url));
const PACKAGES = ['client', 'control-client', 'sandbox', 'conformance'];

function project(): Project {
  const p = new Project({
    compilerOptions: { strict: true, noEmit: true, target: ScriptTarget.ES2022, module: ModuleKind.NodeNext, moduleResolution: ModuleResolutionKind.NodeNext, types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] },
    skipAddingFilesFromTsConfig: true,
  });
  for (const pkg of PACKAGES) p.addSourceFilesAtPaths(join(GENERATED, pkg, '*.d.ts'));
  return p;
}

describe('generated declarations (ts-morph)', () => {
  const p = project();

  it('declare every run-time export of every module with a real type', async () => {
    const missing: string[] = [];
    let checked = 0;
    for (const pkg of PACKAGES) {
      // cli.js is a package's bin (it starts a server or a run when imported), with no exports to declare.
      for (const name of readdirSync(join(GENERATED, pkg)).filter((f) => f.endsWith('.js') && f !== 'cli.js').sort()) {
        const declarations = p.getSourceFileOrThrow(join(GENERATED, pkg, name.replace(/\.js$/, '.d.ts'))).getExportedDeclarations();
        const module = (await import(pathToFileURL(join(GENERATED, pkg, name)).href)) as Record<string, unknown>;
        for (const [exported, value] of Object.entries(module)) {
          checked += 1;
          const declared = declarations.get(exported)?.[0];
          if (!declared) {
            missing.push(`${pkg}/${name}: ${exported} has no declaration`);
            continue;
          }
          // `export * as types from './types.js'`: the declaration is the module itself, checked on its own.
          if (Node.isSourceFile(declared)) continue;
          if (typeof value === 'function' && Node.isClassDeclaration(declared)) continue; // a class is its own declared type
          const type = declared.getType();
          if (type.isAny()) missing.push(`${pkg}/${name}: ${exported} is declared any`);
          if (typeof value === 'function' && type.getCallSignatures().length === 0 && type.getConstructSignatures().length === 0) missing.push(`${pkg}/${name}: ${exported} is a function declared without a signature`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(500);
  });

  it('declare each validator as a Validator of its schema type and each operation with typed parameters', () => {
    const validators = p.getSourceFileOrThrow(join(GENERATED, 'client', 'validators.d.ts'));
    const tag = validators.getVariableDeclarationOrThrow('tagValidator');
    expect(tag.getTypeNodeOrThrow().getText()).toBe('Validator<Tag>');
    const operations = p.getSourceFileOrThrow(join(GENERATED, 'client', 'operations.d.ts'));
    const update = operations.getFunctionOrThrow('updateTag');
    expect(update.getParameters().map((x) => x.getTypeNodeOrThrow().getText())).toContain('UpdateTagBody');
    expect(update.getReturnTypeNodeOrThrow().getText()).toBe('Promise<UpdateTagResponse>');
  });

  it('type-check under --strict', () => {
    const problems = p.getPreEmitDiagnostics().map((d) => `${d.getSourceFile()?.getBaseName() ?? ''}:${d.getLineNumber() ?? ''}: ${String(d.getMessageText())}`);
    expect(problems).toEqual([]);
  }, 120_000);
});
