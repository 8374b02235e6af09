// Emitted files -> bytes on disk. Compiles modules, formats, adds the header, confines paths to the
// output folder, leaves unchanged files untouched, removes files the generator no longer produces, and
// in --check mode writes nothing and lists what is stale.
import { lstat, mkdir, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { confinedPath } from '../encode/index.js';
import type { EmittedFile } from '../emit/emitted-file.js';
import { compileModule } from './compile.js';
import { FormatPool } from './format-pool.js';
import { withHeader } from './header.js';
import type { RenderCache } from './render-cache.js';

export interface WriteResult {
  written: string[];
  unchanged: string[];
  removed: string[];
  /** --check: files that differ, are missing, or should not be there. */
  stale: string[];
}

/** What rendering took: compile time on the main thread, and formatting summed over the threads that did it. */
export interface RenderStats {
  compileMs: number;
  formatMs: number;
  formatThreads: number;
  cached: number;
}

/**
 * The final bytes of every output file, by path relative to the output root. With a cache, a file whose
 * emitted source was rendered before is taken from it (the header, which names the spec hash, is added after).
 * Modules are compiled on this thread while prettier formats earlier files in worker threads (format-pool.ts).
 */
export async function renderFiles(files: EmittedFile[], specHash: string, options: { cache?: RenderCache; stats?: RenderStats } = {}): Promise<Map<string, string>> {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : 1));
  const keys = sorted.map((file) => options.cache?.key(`${file.kind}:${file.path}`, file.contents));
  const hits = sorted.map((_, i) => (keys[i] === undefined ? undefined : options.cache!.get(keys[i]!)));
  const toRender = sorted.filter((_, i) => hits[i] === undefined);
  const pool = new FormatPool(toRender.reduce((n, f) => n + f.contents.length, 0));
  let compileMs = 0;
  let renders: (Promise<Record<string, string>> | Record<string, string>)[];
  try {
    renders = sorted.map((file, i) => {
      if (hits[i]) return hits[i]!;
      const started = performance.now();
      const compiled = compileOne(file);
      compileMs += performance.now() - started;
      return formatAll(pool, compiled);
    });
    renders = await Promise.all(renders);
  } finally {
    await pool.close();
  }
  if (options.stats) Object.assign(options.stats, { compileMs, formatMs: pool.stats.formatMs, formatThreads: pool.stats.threads, cached: hits.filter(Boolean).length });
  const out = new Map<string, string>();
  sorted.forEach((file, i) => {
    const rendered = renders[i] as Record<string, string>;
    if (!hits[i] && keys[i] !== undefined) options.cache!.set(keys[i]!, rendered);
    for (const [path, formatted] of Object.entries(rendered)) {
      if (out.has(path)) throw new Error(`two emitters produce ${path}`);
      out.set(path, withHeader(path, formatted, specHash));
    }
  });
  return out;
}

/** One emitted file as the unformatted files it becomes: a module gives a `.js` and a `.d.ts`. */
function compileOne(file: EmittedFile): Record<string, string> {
  if (file.kind !== 'module') return { [file.path]: file.contents };
  const { js, dts } = compileModule(file.path, file.contents);
  const base = file.path.replace(/\.ts$/, '');
  return { [`${base}.js`]: js, [`${base}.d.ts`]: dts };
}

async function formatAll(pool: FormatPool, files: Record<string, string>): Promise<Record<string, string>> {
  const entries = await Promise.all(Object.entries(files).map(async ([path, text]) => [path, await pool.format(path, text)] as const));
  return Object.fromEntries(entries);
}

export async function writeOutput(root: string, rendered: Map<string, string>, options: { check: boolean }): Promise<WriteResult> {
  const result: WriteResult = { written: [], unchanged: [], removed: [], stale: [] };
  // Every path is confined (lexically) before anything is read or written, so one bad path writes nothing.
  const targets = new Map([...rendered.keys()].map((path) => [path, confinedPath(root, path)]));
  const owned = new Set([...rendered.keys()].map((p) => p.split('/')[0]!)); // package folders the generator owns
  const realRoot = options.check ? undefined : await mkdir(root, { recursive: true }).then(() => realpath(root));
  if (realRoot !== undefined) {
    // ...and physically: no folder on the way may be a symlink that leads out, and no target may be a symlink.
    for (const target of targets.values()) await assertInside(root, realRoot, target);
    for (const folder of owned) await assertInside(root, realRoot, confinedPath(root, folder));
  }
  for (const [path, contents] of rendered) {
    const target = targets.get(path)!;
    const current = await readFile(target, 'utf8').catch(() => undefined);
    if (current === contents) {
      result.unchanged.push(path);
      continue;
    }
    if (options.check) {
      result.stale.push(current === undefined ? `${path} (missing)` : `${path} (differs)`);
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, contents);
    result.written.push(path);
  }
  for (const folder of owned) {
    for (const file of await listFiles(confinedPath(root, folder))) {
      const path = relative(root, file).split(sep).join('/');
      if (rendered.has(path) || path.split('/').includes('node_modules')) continue;
      if (options.check) result.stale.push(`${path} (no longer generated)`);
      else {
        await rm(file);
        result.removed.push(path);
      }
    }
  }
  return result;
}

/** Refuse a target whose nearest existing folder resolves (through symlinks) outside the output root, or that is a symlink. */
async function assertInside(root: string, realRoot: string, target: string): Promise<void> {
  let existing = target;
  while (!(await lstat(existing).then(() => true, () => false))) existing = dirname(existing);
  const info = await lstat(existing);
  if (existing === target && info.isSymbolicLink()) throw new Error(`refusing to write through the symlink ${target} (output folder ${root})`);
  const real = await realpath(existing);
  const rel = relative(realRoot, real);
  if (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) throw new Error(`refusing to write ${target}: ${existing} leads outside the output folder ${root}`);
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') files.push(...(await listFiles(full)));
    } else files.push(full);
  }
  return files;
}
