// A content-addressed cache of build results (the sandbox and conformance packages' runtime bundles and
// declarations, built from src/ by src/emit/package/runtime-build.ts). A key covers everything the result depends
// on (the caller names its inputs: their contents, the tool versions, the build code), so an entry can never be
// served for other inputs and the cache cannot change the output, only skip work. Entries are plain files written
// atomically (temp file + rename); an unreadable or malformed entry is a miss. Entries unused for 14 days are pruned.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

export class BuildCache {
  private readonly used = new Set<string>();

  constructor(private readonly dir: string) {}

  /** The key of an entry: the caller names what it builds and gives every input the result depends on. */
  key(name: string, inputs: string): string {
    return createHash('sha256').update(name).update('\u0000').update(inputs).digest('hex');
  }

  get(key: string): Record<string, string> | undefined {
    const file = join(this.dir, key.slice(0, 2), `${key}.json`);
    try {
      const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) return undefined;
      this.used.add(key);
      const now = new Date();
      utimesSync(file, now, now);
      return value as Record<string, string>;
    } catch {
      return undefined;
    }
  }

  set(key: string, value: Record<string, string>): void {
    const folder = join(this.dir, key.slice(0, 2));
    try {
      mkdirSync(folder, { recursive: true });
      const temp = join(folder, `${key}.${process.pid}.tmp`);
      writeFileSync(temp, JSON.stringify(value));
      renameSync(temp, join(folder, `${key}.json`));
      this.used.add(key);
    } catch {
      // A cache that cannot be written (read-only disk, full disk) only costs speed.
    }
  }

  /** Removes entries unused for 14 days (and stray temp files). */
  prune(now: number = Date.now()): void {
    let folders: string[];
    try {
      folders = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const folder of folders) {
      const path = join(this.dir, folder);
      let names: string[];
      try {
        names = readdirSync(path);
      } catch {
        continue;
      }
      for (const name of names) {
        const file = join(path, name);
        try {
          if (this.used.has(name.replace(/\.json$/, ''))) continue;
          if (name.endsWith('.tmp') || now - statSync(file).mtimeMs > MAX_AGE_MS) rmSync(file, { force: true });
        } catch {
          // Raced with another run: nothing to do.
        }
      }
    }
  }
}

/** The default cache folder: node_modules/.cache/<tool> under the working directory (the usual place). */
export function defaultBuildCacheDir(cwd: string = process.cwd()): string {
  return join(cwd, 'node_modules', '.cache', 'evalplatform-toolchain', 'build');
}
