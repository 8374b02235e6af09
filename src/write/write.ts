// Emitted files -> bytes on disk. Compiles modules, formats, adds the header, confines paths to the
// output folder, leaves unchanged files untouched, removes files the generator no longer produces, and
// in --check mode writes nothing and lists what is stale.
import { lstat, mkdir, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { confinedPath } from '../encode/index.js';
import type { EmittedFile } from '../emit/emitted-file.js';
import { withHeader } from './header.js';
import type { RenderCache } from './render-cache.js';

export interface WriteResult {
  written: string[];
  unchanged: string[];
  removed: string[];
  /** --check: files that differ, are missing, or should not be there. */
  stale: string[];
}

/**
 * The final bytes of every output file, by path relative to the output root. With a cache, a file whose
 * emitted source was rendered before is taken from it (the header, which names the spec hash, is added after).
 */
export async function renderFiles(files: EmittedFile[], specHash: string, options: { cache?: RenderCache } = {}): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const put = (path: string, formatted: string): void => {
    if (out.has(path)) throw new Error(`two emitters produce ${path}`);
    out.set(path, withHeader(path, formatted, specHash));
  };
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const key = options.cache?.key(`${file.kind}:${file.path}`, file.contents);
    let rendered = key === undefined ? undefined : options.cache!.get(key);
    if (!rendered) {
      rendered = await renderOne(file);
      if (key !== undefined) options.cache!.set(key, rendered);
    }
    for (const [path, formatted] of Object.entries(rendered)) put(path, formatted);
  }
  return out;
}

/** One emitted file, compiled (modules give a `.js` and a `.d.ts`) and formatted; no header yet. */
async function renderOne(file: EmittedFile): Promise<Record<string, string>> {
  // Loaded on first use: TypeScript and prettier take a second or more to import, and a run whose files all
  // come from the render cache needs neither.
  const [{ compileModule }, { formatFile }] = await Promise.all([import('./compile.js'), import('./format.js')]);
  if (file.kind !== 'module') return { [file.path]: await formatFile(file.path, file.contents) };
  const { js, dts } = compileModule(file.path, file.contents);
  const base = file.path.replace(/\.ts$/, '');
  return { [`${base}.js`]: await formatFile(`${base}.js`, js), [`${base}.d.ts`]: await formatFile(`${base}.d.ts`, dts) };
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
