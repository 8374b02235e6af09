// Rendered files -> bytes on disk: confines paths to the output folder, leaves unchanged files untouched, removes
// files the generator no longer produces, and in --check mode writes nothing and lists what is stale. Rendering
// (compile, format, header) is render.ts, re-exported here.
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { confinedPath } from '../encode/index.js';
import { collectEvery } from './collect-garbage.js';

export { renderFiles, Renderer, type RenderStats } from './render.js';

export interface WriteResult {
  written: string[];
  unchanged: string[];
  removed: string[];
  /** --check: files that differ, are missing, or should not be there. */
  stale: string[];
}

/**
 * `release`: the caller hands the map over; each file is deleted from it once handled, and the heap is collected
 * after every 64 M characters written, so a file's text (and the flat copy writing makes of a header joined to a
 * body) dies while the rest is written, instead of the whole output and its copies piling up until the last file (on
 * graph.json 285 MB of text, which grew the heap by 450 MB during this stage).
 */
export async function writeOutput(root: string, rendered: Map<string, string>, options: { check: boolean; release?: boolean }): Promise<WriteResult> {
  const result: WriteResult = { written: [], unchanged: [], removed: [], stale: [] };
  // Every path is confined (lexically) before anything is read or written, so one bad path writes nothing.
  const targets = new Map([...rendered.keys()].map((path) => [path, confinedPath(root, path)]));
  const owned = new Set([...rendered.keys()].map((p) => p.split('/')[0]!)); // package folders the generator owns
  // Synchronous file system calls on purpose: a few hundred small files, each read, compared and maybe written, one
  // after the other; awaiting each call (a round trip through libuv's thread pool) made this stage 5-10x slower.
  if (!options.check) {
    mkdirSync(root, { recursive: true });
    // ...and physically: no folder on the way may be a symlink that leads out, and no target may be a symlink.
    const inside = insideCheck(root, realpathSync(root));
    for (const target of targets.values()) inside(target);
    for (const folder of owned) inside(confinedPath(root, folder));
  }
  const written = collectEvery(64 * 1024 * 1024);
  for (const [path, contents] of rendered) {
    if (options.release === true) {
      rendered.delete(path);
      written(contents.length);
    }
    const target = targets.get(path)!;
    const current = readIfFile(target);
    if (current === contents) {
      result.unchanged.push(path);
      continue;
    }
    if (options.check) {
      result.stale.push(current === undefined ? `${path} (missing)` : `${path} (differs)`);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, contents);
    result.written.push(path);
  }
  for (const folder of owned) {
    for (const file of listFiles(confinedPath(root, folder))) {
      const path = relative(root, file).split(sep).join('/');
      if (targets.has(path) || path.split('/').includes('node_modules')) continue;
      if (options.check) result.stale.push(`${path} (no longer generated)`);
      else {
        rmSync(file);
        result.removed.push(path);
      }
    }
  }
  return result;
}

/** The text of a file, or undefined when there is none (or it cannot be read: then it is written, or reported stale). */
function readIfFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * A check that refuses a target whose nearest existing folder resolves (through symlinks) outside the output root,
 * or that is a symlink. Real paths of folders are looked up once (hundreds of files share a few folders).
 */
function insideCheck(root: string, realRoot: string): (target: string) => void {
  const realPaths = new Map<string, string>();
  const realOf = (path: string): string => {
    let real = realPaths.get(path);
    if (real === undefined) realPaths.set(path, (real = realpathSync(path)));
    return real;
  };
  return (target) => {
    let existing = target;
    let info = lstatSync(existing, { throwIfNoEntry: false });
    while (info === undefined) {
      existing = dirname(existing);
      info = lstatSync(existing, { throwIfNoEntry: false });
    }
    if (existing === target && info.isSymbolicLink()) throw new Error(`refusing to write through the symlink ${target} (output folder ${root})`);
    // A regular file is where its folder really is; a folder or a symlink is resolved itself.
    const real = info.isFile() ? join(realOf(dirname(existing)), basename(existing)) : realOf(existing);
    const rel = relative(realRoot, real);
    if (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) throw new Error(`refusing to write ${target}: ${existing} leads outside the output folder ${root}`);
  };
}

/** Every file under `dir` (not under node_modules); none when it does not exist. */
function listFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') files.push(...listFiles(full));
    } else files.push(full);
  }
  return files;
}
