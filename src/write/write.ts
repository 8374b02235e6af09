// Rendered files -> bytes on disk: confines paths to the output folder, leaves unchanged files untouched, removes
// files the generator no longer produces, and in --check mode writes nothing and lists what is stale. Rendering
// (compile, format, header) is render.ts, re-exported here.
import { lstat, mkdir, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { confinedPath } from '../encode/index.js';

export { renderFiles, Renderer, type RenderStats } from './render.js';

export interface WriteResult {
  written: string[];
  unchanged: string[];
  removed: string[];
  /** --check: files that differ, are missing, or should not be there. */
  stale: string[];
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
