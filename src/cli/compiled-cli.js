// @ts-check
// The CLI as one JavaScript module, bundled from src/ by esbuild and kept under a key of the sources it was built
// from, so a run that has work to do starts without tsx: loading the generator's ~300 TypeScript modules through
// tsx's loader hooks costs about three times as much as loading the same code as one bundle (measured: 750-850 ms
// against 250-280 ms of CPU). esbuild strips the types as tsx does (tsx uses esbuild), and every module keeps its own
// `import.meta.url` (written into the bundle as the module's file URL), so the paths modules find beside themselves
// (templates, the runtime sources, their own source as a cache key) are the same as under tsx. Packages are not
// bundled: they are imported from node_modules as before.
// Anything unexpected (no esbuild, a module outside src/, a cache that cannot be written) and the caller uses tsx.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceRecords } from '../write/up-to-date.js';

const TOOL_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(TOOL_ROOT, 'src');
const ENTRY = join(SRC, 'cli', 'generate.ts');
const CACHE = join(TOOL_ROOT, 'node_modules', '.cache', 'evalplatform-toolchain', 'cli');

/**
 * The CLI module built from the current sources (from the cache when it holds one for them), or undefined.
 * @param {Record<string, import('../write/up-to-date.js').FileRecord>} [known] Records of source files already hashed.
 * @returns {Promise<typeof import('./generate.js') | undefined>}
 */
export async function compiledCli(known) {
  try {
    const records = sourceRecords(known);
    if (records === undefined) return undefined;
    const file = bundleFile(records);
    if (!existsSync(file) && !(await build(file))) return undefined;
    return /** @type {typeof import('./generate.js')} */ (await import(pathToFileURL(file).href));
  } catch {
    return undefined;
  }
}

/**
 * Where the bundle of these sources is kept: named by a key of every source file's hash, the esbuild and Node
 * versions, and tsconfig.json (esbuild reads it: how classes and imports are compiled).
 * @param {Record<string, import('../write/up-to-date.js').FileRecord>} records Source files by absolute path.
 * @returns {string}
 */
export function bundleFile(records) {
  const esbuildVersion = /** @type {{ version: string }} */ (createRequire(join(TOOL_ROOT, 'package.json'))('esbuild/package.json')).version;
  const hash = createHash('sha256').update(JSON.stringify({ esbuildVersion, node: process.versions.node })).update(readFileSync(join(TOOL_ROOT, 'tsconfig.json')));
  for (const path of Object.keys(records).sort()) hash.update(`${path}\u0000${records[path]?.sha256}\n`);
  return join(CACHE, `generate-${hash.digest('hex').slice(0, 32)}.mjs`);
}

/**
 * Bundles the CLI into `file` (atomically). False when a bundled module lies outside src/ (it would not be covered
 * by the key).
 * @param {string} file
 * @returns {Promise<boolean>}
 */
async function build(file) {
  const esbuild = await import('esbuild');
  /** @type {import('esbuild').Plugin} */
  const ownUrls = {
    name: 'own-import-meta-url',
    setup(plugin) {
      plugin.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const contents = source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
        return { contents, loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js' };
      });
    },
  };
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    absWorkingDir: TOOL_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [ownUrls],
  });
  const inputs = Object.keys(result.metafile.inputs).map((input) => join(TOOL_ROOT, input));
  if (inputs.some((input) => !input.startsWith(SRC + sep))) return false;
  const code = result.outputFiles[0]?.text;
  if (code === undefined) return false;
  mkdirSync(CACHE, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, code);
  renameSync(temp, file);
  // Builds of older sources are not needed again (a checkout of them builds anew): one is kept, the current one.
  for (const name of readdirSync(CACHE)) if (join(CACHE, name) !== file && /^generate-[0-9a-f]+\.mjs$/.test(name)) rmSync(join(CACHE, name), { force: true });
  return true;
}
