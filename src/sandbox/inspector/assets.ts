// The inspector's front end, built ahead of time by `npm run build:inspector` (scripts/build-inspector.ts) into
// dist/ beside this module and committed. Found relative to this module, not the repository, so the folder
// works wherever the sandbox is installed; read once, then kept in memory.
import { readFileSync } from 'node:fs';

export const DIST = new URL('./dist/', import.meta.url);

/** The files the build writes, with their media types. */
export const ASSETS: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'inspector.js': 'text/javascript; charset=utf-8',
  'inspector.css': 'text/css; charset=utf-8',
};

const cache = new Map<string, string | null>();

/** An asset's text, or null when it is not one of ASSETS or was not built. */
export function asset(name: string): { body: string; type: string } | null {
  const type = ASSETS[name];
  if (type === undefined || !Object.prototype.hasOwnProperty.call(ASSETS, name)) return null;
  if (!cache.has(name)) {
    try {
      cache.set(name, readFileSync(new URL(name, DIST), 'utf8'));
    } catch {
      cache.set(name, null);
    }
  }
  const body = cache.get(name);
  return body === null || body === undefined ? null : { body, type };
}
