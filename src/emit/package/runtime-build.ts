// The hand-written runtime of a generated package (the sandbox's engine, the conformance runner), built from its
// one source in src/ into the package folder: an ES module bundle per entry (esbuild; npm packages stay imports
// and become the package's dependencies) and the declaration files of the main entry (a TypeScript program
// emitting .d.ts only, under `types/`). Nothing is copied by hand, and the files join the generated output, so
// `npm run generate -- --check` fails when a package no longer matches src/.
//
// The generated data the runtime imports (route table, documents, validators, ...) is read from the freshly
// rendered output, not from disk, so a run never bundles stale data and --check needs no earlier write.
// Both builds are cached (BuildCache) by the content of every input the previous build read, so a run with
// unchanged src/ and spec reads two cache entries instead of building; a spec change rebuilds only the bundle
// (esbuild, a fraction of a second), since declarations of src/ do not depend on the generated data's content.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type * as TypeScript from 'typescript';
import { fileURLToPath } from 'node:url';
import type { BuildCache } from '../../write/build-cache.js';

export interface RuntimeSpec {
  /** Package folder under the output root (`sandbox`). */
  dir: string;
  /** Main module, repo-relative (`src/sandbox/index.ts`): becomes `index.js` and the declarations. */
  index: string;
  /** The bin's module (`src/sandbox/cli.ts`): becomes `cli.js`; its imports of `index` stay `./index.js`. */
  cli: string;
  /** Repo-relative modules provided by another package (`src/sandbox/index.ts` -> `@evalplatform/sandbox`). */
  provided?: Record<string, string>;
  /**
   * Folders of the generated output that are packages of their own (`client` -> `@evalplatform/client`): the
   * runtime and its declarations import them by name (`@evalplatform/client/validators`), never a copy.
   */
  generatedPackages?: Record<string, string>;
}

export interface BuiltRuntime {
  /** Files by path under the output root (without the do-not-edit header). */
  files: Map<string, string>;
  /** npm packages the JavaScript imports (other packages' names from `provided` excluded). */
  imports: string[];
  /** npm packages the declarations import. */
  typeImports: string[];
  /** Generated packages (`generatedPackages`) the runtime or its declarations import. */
  generatedImports: string[];
  /** npm packages the runtime requires on first use only (`createRequire(import.meta.url)('libpq')`). */
  loadedOnUse: string[];
}

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const GENERATED = join(REPO, 'generated');
const require = createRequire(import.meta.url);
const BUILD_CODE = readFileSync(new URL(import.meta.url));
/** Key of the cached declarations' list of the generated declarations they import. */
const GENERATED_LIST = '\u0000generated';

/** The package name of a bare import (`yaml`, `@scope/name/sub` -> `@scope/name`); undefined for node: builtins. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const toPosix = (path: string): string => path.split(sep).join('/');

/**
 * The import of a generated package that a repo-relative module path names (`generated/client/validators.js` ->
 * `@evalplatform/client/validators`, `generated/client/index.js` -> `@evalplatform/client`), or undefined.
 */
function generatedPackageImport(spec: RuntimeSpec, repoPath: string): string | undefined {
  for (const [dir, name] of Object.entries(spec.generatedPackages ?? {})) {
    const prefix = `generated/${dir}/`;
    if (!repoPath.startsWith(prefix)) continue;
    const module = repoPath.slice(prefix.length).replace(/\.(d\.ts|js|ts)$/, '');
    return module === 'index' ? name : `${name}/${module}`;
  }
  return undefined;
}

/** Relative module specifiers in declaration text (`from './x.js'`, `import('./x.js')`). */
const RELATIVE_SPECIFIER = /(\bfrom\s*|\bimport\(\s*)(['"])(\.[^'"]*)\2/g;

/**
 * The declaration files (by path in the package) with imports of generated packages by name, and only those
 * reachable from `main` through relative imports: what the package's public API exposes, nothing more.
 */
function publicDeclarations(spec: RuntimeSpec, files: Record<string, string>, main: string): Record<string, string> {
  const out: Record<string, string> = {};
  const queue = [main];
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (out[path] !== undefined || files[path] === undefined) continue;
    // types/<repo path>: the repo path of the module this declares, to resolve its relative imports from.
    const repoDir = dirname(path.slice('types/'.length));
    out[path] = files[path].replace(RELATIVE_SPECIFIER, (whole, lead: string, quote: string, specifier: string) => {
      const target = toPosix(join(repoDir, specifier));
      const named = generatedPackageImport(spec, target);
      if (named !== undefined) return `${lead}${quote}${named}${quote}`;
      queue.push(`types/${target.replace(/\.js$/, '.d.ts')}`);
      return whole;
    });
  }
  return out;
}
const sha = (text: string | Uint8Array): string => createHash('sha256').update(text).digest('hex');

/** Generated files (under the repo's generated/, by path below it) come from the rendered output. */
function generatedText(rendered: ReadonlyMap<string, string>, absolute: string): string | undefined {
  const below = relative(GENERATED, absolute);
  if (below.startsWith('..')) return undefined;
  return rendered.get(toPosix(below));
}

/** An input's text as the build sees it: generated files from this run's output, the rest from disk. */
function inputText(rendered: ReadonlyMap<string, string>, repoPath: string): string | undefined {
  const absolute = join(REPO, repoPath);
  const generated = generatedText(rendered, absolute);
  if (generated !== undefined) return generated;
  try {
    return readFileSync(absolute, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * A cached build: the manifest entry lists the inputs the last build read; when each still has the content it
 * had then, the outputs are served from the entry keyed by those contents.
 */
function cached<T extends Record<string, string>>(
  cache: BuildCache | undefined,
  name: string,
  rendered: ReadonlyMap<string, string>,
): { hit: T | undefined; store(inputs: string[], value: T): void } {
  const manifestKey = cache?.key(`runtime-manifest:${name}`, sha(BUILD_CODE));
  const contentKey = (inputs: string[]): string | undefined => {
    const parts: string[] = [];
    for (const input of inputs) {
      const text = inputText(rendered, input);
      if (text === undefined) return undefined;
      parts.push(`${input}\u0000${sha(text)}`);
    }
    return cache!.key(`runtime:${name}`, `${sha(BUILD_CODE)}\u0000${parts.join('\u0000')}`);
  };
  let hit: T | undefined;
  if (cache && manifestKey) {
    const manifest = cache.get(manifestKey);
    const inputs = manifest?.inputs === undefined ? undefined : (JSON.parse(manifest.inputs) as string[]);
    const key = inputs && contentKey(inputs);
    if (key) hit = cache.get(key) as T | undefined;
  }
  return {
    hit,
    store(inputs, value) {
      if (!cache || !manifestKey) return;
      const key = contentKey(inputs);
      if (!key) return;
      cache.set(manifestKey, { inputs: JSON.stringify(inputs) });
      cache.set(key, value);
    },
  };
}

async function bundle(spec: RuntimeSpec, rendered: ReadonlyMap<string, string>, cache: BuildCache | undefined): Promise<{ index: string; cli: string; imports: string }> {
  const version = (require('esbuild/package.json') as { version: string }).version;
  const entry = cached<{ index: string; cli: string; imports: string }>(cache, `bundle:${spec.dir}:${version}`, rendered);
  if (entry.hit) return entry.hit;
  const esbuild = await import('esbuild');
  const indexPath = join(REPO, spec.index);
  const cliPath = join(REPO, spec.cli);
  const provided = new Map(Object.entries(spec.provided ?? {}).map(([path, name]) => [join(REPO, path), name]));
  const plugin: import('esbuild').Plugin = {
    name: 'evalplatform-runtime',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.namespace !== 'file' && args.namespace !== 'generated') return undefined;
        const target = resolve(args.resolveDir, args.path);
        const source = target.replace(/\.js$/, '.ts');
        if (args.importer === cliPath && source === indexPath) return { path: './index.js', external: true };
        const other = provided.get(source);
        if (other) return { path: other, external: true };
        // Generated by this run: from memory. Otherwise (the control plane's client, which only a run on spec/
        // generates, for a spec that is not ours) the committed file is read.
        // Named by its repo-relative path: esbuild writes the name into the bundle, which must not depend on where
        // the checkout is (a CI clone lives in another folder).
        const named = generatedPackageImport(spec, toPosix(relative(REPO, target)));
        if (named !== undefined) return { path: named, external: true };
        if (generatedText(rendered, target) !== undefined) return { path: toPosix(relative(REPO, target)), namespace: 'generated' };
        return undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'generated' }, (args) => {
        const absolute = join(REPO, args.path);
        return { contents: generatedText(rendered, absolute)!, loader: 'js', resolveDir: dirname(absolute) };
      });
    },
  };
  const outputs: Record<string, string> = {};
  const inputs = new Set<string>();
  const imports = new Set<string>();
  for (const [name, entryPoint] of [['index', indexPath], ['cli', cliPath]] as const) {
    const result = await esbuild.build({
      entryPoints: [entryPoint],
      absWorkingDir: REPO,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      write: false,
      metafile: true,
      outfile: join(REPO, 'out', `${name}.js`),
      legalComments: 'none',
      charset: 'utf8',
      logLevel: 'silent',
      plugins: [plugin],
    });
    outputs[name] = result.outputFiles[0]!.text;
    for (const path of Object.keys(result.metafile.inputs)) inputs.add(toPosix(path.startsWith('generated:') ? path.slice('generated:'.length) : path));
    for (const output of Object.values(result.metafile.outputs)) {
      for (const imported of output.imports) {
        const name = imported.external ? packageOf(imported.path) : undefined;
        if (name && !imported.path.startsWith('.') && !Object.values(spec.provided ?? {}).includes(name)) imports.add(name);
      }
    }
  }
  const value = { index: outputs.index!, cli: outputs.cli!, imports: JSON.stringify([...imports].sort()) };
  entry.store([...inputs].sort(), value);
  return value;
}

/** Declarations of the main module and of every module it reaches, under `types/` (repo-relative paths). */
function declarations(spec: RuntimeSpec, rendered: ReadonlyMap<string, string>, cache: BuildCache | undefined): Record<string, string> {
  // Cached: the declarations emitted from src/ (keyed by src/ alone) and the list of generated ones they import,
  // which are taken from this run's output every time.
  // TypeScript takes a second to load: its version is read from its package.json, the compiler only on a miss.
  const version = (require('typescript/package.json') as { version: string }).version;
  const entry = cached<Record<string, string>>(cache, `declarations:${spec.dir}:${version}`, rendered);
  const withGenerated = (files: Record<string, string>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [path, text] of Object.entries(files)) if (path !== GENERATED_LIST) out[path] = text;
    for (const path of JSON.parse(files[GENERATED_LIST] ?? '[]') as string[]) {
      if (generatedPackageImport(spec, path) !== undefined) continue;
      const text = inputText(rendered, path);
      if (text !== undefined) out[`types/${path}`] = text;
    }
    return out;
  };
  if (entry.hit) return withGenerated(entry.hit);
  const ts = require('typescript') as typeof TypeScript;
  const options: TypeScript.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    declaration: true,
    emitDeclarationOnly: true,
    noCheck: true,
    skipLibCheck: true,
    types: ['node'],
    rootDir: REPO,
    outDir: join(REPO, 'types'),
    newLine: ts.NewLineKind.LineFeed,
  };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => generatedText(rendered, file) !== undefined || fileExists(file);
  host.readFile = (file) => generatedText(rendered, file) ?? readFile(file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = generatedText(rendered, file);
    return text === undefined ? getSourceFile(file, language, ...rest) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram({ rootNames: [join(REPO, spec.index)], options, host });
  const files: Record<string, string> = {};
  program.emit(undefined, (file, text) => {
    files[toPosix(relative(REPO, file))] = text;
  });
  // Generated declarations the emitted ones import travel with them, at the same relative place.
  const inputs: string[] = [];
  const generated: string[] = [];
  for (const source of program.getSourceFiles()) {
    const path = toPosix(relative(REPO, source.fileName));
    if (path.startsWith('node_modules/') || path.startsWith('..')) continue;
    if (path.startsWith('generated/')) generated.push(path);
    else inputs.push(path);
  }
  files[GENERATED_LIST] = JSON.stringify(generated.sort());
  entry.store(inputs.sort(), files);
  return withGenerated(files);
}

export async function buildRuntime(spec: RuntimeSpec, rendered: ReadonlyMap<string, string>, options: { cache?: BuildCache } = {}): Promise<BuiltRuntime> {
  const built = await bundle(spec, rendered, options.cache);
  const dts = declarations(spec, rendered, options.cache);
  const files = new Map<string, string>();
  files.set(`${spec.dir}/index.js`, built.index);
  files.set(`${spec.dir}/cli.js`, built.cli);
  const main = toPosix(spec.index).replace(/\.ts$/, '.js');
  files.set(`${spec.dir}/index.d.ts`, `export * from './types/${main}';\n`);
  const ownPackages = new Set(Object.values(spec.generatedPackages ?? {}));
  const typeImports = new Set<string>();
  const generatedImports = new Set<string>();
  const runtimeImports: string[] = [];
  for (const name of JSON.parse(built.imports) as string[]) (ownPackages.has(name) ? generatedImports.add(name) : runtimeImports.push(name));
  const shipped = publicDeclarations(spec, dts, `types/${main.replace(/\.js$/, '.d.ts')}`);
  for (const [path, text] of Object.entries(shipped).sort(([a], [b]) => (a < b ? -1 : 1))) {
    // The generated declarations come with their own header; the rest get it from the writer.
    const body = path.startsWith('types/generated/') ? text.replace(/^\/\/ Generated by [^\n]*\n/, '') : text;
    files.set(`${spec.dir}/${path}`, body);
    for (const match of body.matchAll(/(?:from|import\()\s*['"]([^'".][^'"]*)['"]/g)) {
      const name = packageOf(match[1]!);
      if (!name || Object.values(spec.provided ?? {}).includes(name)) continue;
      if (ownPackages.has(name)) generatedImports.add(name);
      else typeImports.add(name);
    }
  }
  const loadedOnUse = [...new Set([...built.index.matchAll(/createRequire\(import\.meta\.url\)\(\s*["']([^"'.][^"']*)["']\s*\)/g)].map((m) => packageOf(m[1]!)!))].sort();
  return { files, imports: runtimeImports, typeImports: [...typeImports].sort(), generatedImports: [...generatedImports].sort(), loadedOnUse };
}
