// The unchanged-spec shortcut of `npm run generate`: a key over everything a run reads (the spec's folder, the
// generator's own source, the installed versions of its dependencies, the options) is compared with the key the
// last run recorded, and the output files are hashed against what that run wrote. When both match, the run is
// over before the loader, the model or any native module is imported. Only node: built-ins here (and the loader's
// limits, a module of constants), on purpose.
// A URL spec has no shortcut (the server's answer may change); a spec folder too large to hash cheaply neither.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LIMITS } from '../load/limits.js';

/**
 * Past these, hashing the inputs is not cheap enough to be worth it: the run simply generates. A file larger than
 * the loader accepts is never read here either (its size is known first), so the loader refuses it as before.
 */
const MAX_FILES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_FILE_BYTES = DEFAULT_LIMITS.maxDocumentBytes;

const TOOL_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunInputs {
  /** Spec folders or files (a file stands for its folder: relative $refs can reach its siblings). */
  specs: string[];
  out: string;
  /** Every option that changes the output (policy, --json, companions, ...). */
  options: Record<string, unknown>;
}

export interface Stamp {
  key: string;
  /** Output files (relative to the output folder, forward slashes) -> sha256 of their bytes. */
  files: Record<string, string>;
}

/** The default folder for the stamp: node_modules/.cache/<tool> under the working directory (the usual place). */
export function defaultStampDir(cwd: string = process.cwd()): string {
  return join(cwd, 'node_modules', '.cache', 'evalplatform-toolchain');
}

function stampFile(dir: string, out: string): string {
  return join(dir, `last-run-${sha256(resolve(out)).slice(0, 16)}.json`);
}

/** The key of a run's inputs, or undefined when they cannot be hashed cheaply (a URL, a huge folder). */
export function inputsKey(inputs: RunInputs): string | undefined {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ out: resolve(inputs.out), options: inputs.options, node: process.versions.node }));
  const budget = { files: 0, bytes: 0 };
  for (const spec of inputs.specs) {
    if (/^https?:\/\//i.test(spec)) return undefined;
    const path = resolve(spec);
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (info === undefined) return undefined;
    if (!hashTree(hash, info.isDirectory() ? path : dirname(path), budget)) return undefined;
  }
  // The generator itself: its source and templates, and the installed version of every dependency.
  for (const folder of ['src', 'templates']) if (!hashTree(hash, join(TOOL_ROOT, folder), budget)) return undefined;
  const require = createRequire(join(TOOL_ROOT, 'package.json'));
  const manifest = JSON.parse(readFileSync(join(TOOL_ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {}).sort()) {
    try {
      hash.update(`${name}@${(require(`${name}/package.json`) as { version: string }).version}\n`);
    } catch {
      hash.update(`${name}@?\n`); // a package that does not export its package.json: its range stands in
      hash.update(manifest.dependencies![name]!);
    }
  }
  return hash.digest('hex');
}

/** Files under `root` (not node_modules, not .git), names and bytes, in a fixed order. False past the budget. */
function hashTree(hash: ReturnType<typeof createHash>, root: string, budget: { files: number; bytes: number }): boolean {
  let entries: string[];
  try {
    entries = readdirSync(root, { recursive: true, encoding: 'utf8' });
  } catch {
    return false;
  }
  for (const name of entries.sort()) {
    if (name.split(sep).some((part) => part === 'node_modules' || part === '.git')) continue;
    const path = join(root, name);
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (!info?.isFile()) continue;
    budget.files += 1;
    budget.bytes += info.size;
    if (budget.files > MAX_FILES || budget.bytes > MAX_BYTES || info.size > MAX_FILE_BYTES) return false;
    hash.update(`${path}\u0000${info.size}\u0000`).update(readFileSync(path));
  }
  return true;
}

/**
 * The files of the output, by relative path, when the last run had the same key and every file it wrote is still
 * there, byte for byte, with nothing added to the package folders it owns; otherwise undefined.
 */
export function upToDate(dir: string, key: string, out: string): string[] | undefined {
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile(dir, out), 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
  if (stamp.key !== key || typeof stamp.files !== 'object' || stamp.files === null) return undefined;
  const paths = Object.keys(stamp.files);
  for (const path of paths) {
    const target = join(out, path);
    if (!lstatSync(target, { throwIfNoEntry: false })?.isFile()) return undefined;
    if (sha256(readFileSync(target)) !== stamp.files[path]) return undefined;
  }
  // A file dropped into a package folder would be removed by a real run: then this is not up to date.
  // (Top-level files such as the kept model are checked above; only package folders are listed.)
  for (const folder of new Set(paths.filter((p) => p.includes('/')).map((p) => p.split('/')[0]!))) {
    for (const name of readdirSync(join(out, folder), { recursive: true, encoding: 'utf8' })) {
      const path = `${folder}/${name.split(sep).join('/')}`;
      if (path.split('/').includes('node_modules') || lstatSync(join(out, path)).isDirectory()) continue;
      if (!(path in stamp.files)) return undefined;
    }
  }
  return paths;
}

/** Records what a run wrote under its key (atomically; a stamp that cannot be written only costs speed). */
export function recordRun(dir: string, key: string, out: string, paths: string[]): void {
  const stamp: Stamp = { key, files: {} };
  for (const path of [...paths].sort()) stamp.files[path] = sha256(readFileSync(join(out, path)));
  try {
    mkdirSync(dir, { recursive: true });
    const file = stampFile(dir, out);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(stamp));
    renameSync(temp, file);
  } catch {
    // Read-only or full disk: the next run generates in full.
  }
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
