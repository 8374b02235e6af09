// A content-addressed cache of rendered (compiled and formatted) files, so a run whose emitted source did not
// change skips TypeScript and prettier for it. The key covers everything the rendering depends on: the file's
// path and source, the TypeScript and prettier versions, and the text of the rendering code itself (so a change
// to compile or format settings can never serve an old rendering). Entries are plain files written atomically
// (temp file + rename); an unreadable or malformed entry is a miss. Entries unused for 14 days are pruned.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

/** The text of the modules that decide how a file is rendered; read once. */
function renderingCodeFingerprint(): string {
  const hash = createHash('sha256');
  for (const name of ['compile', 'format', 'write']) {
    for (const extension of ['.ts', '.js']) {
      try {
        hash.update(readFileSync(new URL(`./${name}${extension}`, import.meta.url)));
        break;
      } catch {
        // Not this extension (source or built); the other one is tried.
      }
    }
  }
  return hash.digest('hex');
}

/** A dependency's version from its package.json (without importing the package, which is slow). */
function packageVersion(name: string): string {
  return (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
}

export class RenderCache {
  private readonly salt: string;
  private readonly used = new Set<string>();

  constructor(private readonly dir: string) {
    this.salt = `${packageVersion('typescript')}\u0000${packageVersion('prettier')}\u0000${renderingCodeFingerprint()}`;
  }

  key(path: string, contents: string): string {
    return createHash('sha256').update(this.salt).update('\u0000').update(path).update('\u0000').update(contents).digest('hex');
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
export function defaultCacheDir(cwd: string = process.cwd()): string {
  return join(cwd, 'node_modules', '.cache', 'evalplatform-toolchain', 'render');
}
