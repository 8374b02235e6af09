// Output paths are confined to the output directory whatever a spec name says.
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** A file-system-safe single path segment derived from a spec name (no separators, no dots-only, no NUL). */
export function fileSegment(name: string): string {
  const cleaned = name
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/-+$/, '')
    .slice(0, 100);
  return cleaned === '' ? 'unnamed' : cleaned;
}

/** Resolve `relPath` under `root`, refusing anything that would land outside it. */
export function confinedPath(root: string, relPath: string): string {
  if (relPath.includes('\0')) throw new Error(`refusing output path with NUL byte: ${JSON.stringify(relPath)}`);
  if (isAbsolute(relPath)) throw new Error(`refusing absolute output path: ${JSON.stringify(relPath)}`);
  const base = resolve(root);
  const target = resolve(base, relPath);
  const rel = relative(base, target);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
    throw new Error(`refusing output path outside ${base}: ${JSON.stringify(relPath)}`);
  }
  return target;
}
