// Emitted files -> bytes on disk. Compiles modules, formats, adds the header, confines paths to the
// output folder, leaves unchanged files untouched, removes files the generator no longer produces, and
// in --check mode writes nothing and lists what is stale.
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { confinedPath } from '../encode/index.js';
import type { EmittedFile } from '../emit/emitted-file.js';
import { splitAtTopLevel } from './chunks.js';
import { compileModule } from './compile.js';
import { formatFile } from './format.js';
import { withHeader } from './header.js';

/** Files formatted at once: one per core (at least 2, so formatting overlaps the main thread), at most 4. */
const FORMAT_LANES = Math.min(4, Math.max(2, availableParallelism()));
/** Size of the pieces a large module is formatted in (characters). */
const CHUNK_CHARS = 256 * 1024;

export interface WriteResult {
  written: string[];
  unchanged: string[];
  removed: string[];
  /** --check: files that differ, are missing, or should not be there. */
  stale: string[];
}

/** What rendering took: compiling modules (on this thread) and formatting (wall time; the formatter is native and concurrent). */
export interface RenderStats {
  compileMs: number;
  formatMs: number;
}

/**
 * The final bytes of every output file, by path relative to the output root: modules compiled to `.js` and
 * `.d.ts`, every file formatted, the header (which names the spec hash) added last.
 */
export async function renderFiles(files: EmittedFile[], specHash: string, options: { stats?: RenderStats } = {}): Promise<Map<string, string>> {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : 1));
  const started = performance.now();
  const compiled: [string, string][] = [];
  for (const file of sorted) {
    if (file.kind !== 'module') {
      compiled.push([file.path, file.contents]);
      continue;
    }
    const { js, dts } = compileModule(file.path, file.contents);
    const base = file.path.replace(/\.ts$/, '');
    compiled.push([`${base}.js`, js], [`${base}.d.ts`, dts]);
  }
  const formatStarted = performance.now();
  const formatted = await formatAll(compiled);
  if (options.stats) Object.assign(options.stats, { compileMs: formatStarted - started, formatMs: performance.now() - formatStarted });
  const out = new Map<string, string>();
  compiled.forEach(([path], i) => {
    if (out.has(path)) throw new Error(`two emitters produce ${path}`);
    out.set(path, withHeader(path, formatted[i]!, specHash));
  });
  return out;
}

/**
 * Formats every file, a few pieces at a time: oxfmt works off the main thread, so one piece per core keeps every
 * core busy, while a large module is formatted in pieces of its top-level statements (chunks.ts) so the
 * formatter's native memory is held for a few hundred kilobytes at a time. Largest first, so a big piece does not
 * start last and run alone. A file whose pieces do not parse alone is formatted whole.
 */
async function formatAll(files: [string, string][]): Promise<string[]> {
  const jobs: { file: number; piece: number; text: string }[] = [];
  const pieces = files.map(([path, text], file) => {
    const parts = /\.(?:[cm]?js|ts)$/.test(path) ? splitAtTopLevel(text, CHUNK_CHARS) : [text];
    parts.forEach((part, piece) => jobs.push({ file, piece, text: part }));
    return new Array<string>(parts.length);
  });
  jobs.sort((a, b) => b.text.length - a.text.length || a.file - b.file || a.piece - b.piece);
  const whole = new Set<number>();
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      if (whole.has(job.file)) continue;
      try {
        pieces[job.file]![job.piece] = await formatFile(files[job.file]![0], job.text);
      } catch (error) {
        if (pieces[job.file]!.length === 1) throw error;
        whole.add(job.file);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(FORMAT_LANES, jobs.length)) }, lane));
  const out: string[] = [];
  for (let i = 0; i < files.length; i++) {
    out.push(whole.has(i) ? await formatFile(files[i]![0], files[i]![1]) : pieces[i]!.join('\n'));
  }
  return out;
}

export async function writeOutput(root: string, rendered: Map<string, string>, options: { check: boolean }): Promise<WriteResult> {
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
  for (const [path, contents] of rendered) {
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
      if (rendered.has(path) || path.split('/').includes('node_modules')) continue;
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
