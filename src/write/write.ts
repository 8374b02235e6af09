// Emitted files -> bytes on disk. Compiles modules, formats, adds the header, confines paths to the
// output folder, leaves unchanged files untouched, removes files the generator no longer produces, and
// in --check mode writes nothing and lists what is stale.
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { confinedPath } from '../encode/index.js';
import type { EmittedFile } from '../emit/emitted-file.js';
import { compileModule } from './compile.js';
import { formatFile } from './format.js';
import { withHeader } from './header.js';

export interface WriteResult {
  written: string[];
  unchanged: string[];
  removed: string[];
  /** --check: files that differ, are missing, or should not be there. */
  stale: string[];
}

/** The final bytes of every output file, by path relative to the output root. */
export async function renderFiles(files: EmittedFile[], specHash: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const put = async (path: string, contents: string): Promise<void> => {
    if (out.has(path)) throw new Error(`two emitters produce ${path}`);
    out.set(path, withHeader(path, await formatFile(path, contents), specHash));
  };
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (file.kind === 'module') {
      const { js, dts } = compileModule(file.path, file.contents);
      const base = file.path.replace(/\.ts$/, '');
      await put(`${base}.js`, js);
      await put(`${base}.d.ts`, dts);
    } else {
      await put(file.path, file.contents);
    }
  }
  return out;
}

export async function writeOutput(root: string, rendered: Map<string, string>, options: { check: boolean }): Promise<WriteResult> {
  const result: WriteResult = { written: [], unchanged: [], removed: [], stale: [] };
  const owned = new Set([...rendered.keys()].map((p) => p.split('/')[0]!)); // package folders the generator owns
  for (const [path, contents] of rendered) {
    const target = confinedPath(root, path);
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
