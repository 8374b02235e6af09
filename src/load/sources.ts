// Where documents come from: a directory, one file, or a live catalog (GET {base}/openapi).
import { open, readdir, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { FetchError, fetchText, type FetchLike } from './fetch-text.js';
import { SpecError } from './errors.js';
import type { LoadLimits } from './limits.js';

export interface SourceDocument {
  /** Spec name: file name without extension, or the catalog entry's name. */
  name: string;
  /** Absolute file path or URL: the base for relative $refs. */
  uri: string;
  text: string;
}

export interface Source {
  documents: SourceDocument[];
  /** What relative $refs may reach: a directory (disk) or a URL prefix (catalog). */
  boundary: string;
  /** Reads a referenced file or URL inside the boundary. */
  read(uri: string): Promise<string>;
}

const SPEC_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

export async function openDisk(path: string, limits: LoadLimits): Promise<Source> {
  const absolute = resolve(path);
  let info;
  try {
    info = await stat(absolute);
  } catch {
    throw new SpecError(path, '#', 'no such file or directory');
  }
  const readBounded = (file: string): Promise<string> => readFileBounded(file, limits.maxDocumentBytes);
  if (info.isDirectory()) {
    const names = (await readdir(absolute)).filter((f) => SPEC_EXTENSIONS.has(extname(f)) && !f.startsWith('_') && !f.startsWith('.')).sort();
    if (names.length === 0) throw new SpecError(path, '#', 'the directory holds no .yaml, .yml or .json documents');
    const documents: SourceDocument[] = [];
    for (const file of names) {
      const uri = join(absolute, file);
      documents.push({ name: basename(file, extname(file)), uri, text: await readBounded(uri) });
    }
    return { documents, boundary: absolute, read: readBounded };
  }
  const dir = resolve(absolute, '..');
  return { documents: [{ name: basename(absolute, extname(absolute)), uri: absolute, text: await readBounded(absolute) }], boundary: dir, read: readBounded };
}

/**
 * Read a spec file, refusing it before reading when it is larger than the limit, and never reading more than the
 * limit even if it grows meanwhile; only regular files (a FIFO or a device would block or never end).
 */
export async function readFileBounded(file: string, maxBytes: number): Promise<string> {
  let info;
  try {
    info = await stat(file);
  } catch {
    throw new SpecError(basename(file), '#', `no such file: ${file}`);
  }
  if (!info.isFile()) throw new SpecError(basename(file), '#', `not a regular file: ${file}`);
  if (info.size > maxBytes) throw new SpecError(basename(file), '#', `document is ${info.size} bytes, more than the limit of ${maxBytes} bytes`);
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw new SpecError(basename(file), '#', `document is more than the limit of ${maxBytes} bytes`);
      if (length === buffer.length) throw new SpecError(basename(file), '#', `the file grew while it was read: ${file}`);
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
}

export interface CatalogOptions {
  limits: LoadLimits;
  fetch?: FetchLike;
  /** Ask the server for JSON documents instead of YAML. */
  json?: boolean;
  sleep?: (ms: number) => Promise<void>;
}

/** Load `{base}/openapi` and every document it lists. Entries must stay on the base URL's origin. */
export async function openCatalog(baseUrl: string, options: CatalogOptions): Promise<Source> {
  const base = baseUrl.replace(/\/+$/, '');
  const catalogUrl = `${base}/openapi`;
  let origin: string;
  try {
    origin = new URL(base).origin;
  } catch {
    throw new SpecError(baseUrl, '#', 'not a valid URL');
  }
  // One deadline for the whole load: the catalog, every document and every file they reference.
  const deadline = Date.now() + options.limits.loadTimeoutMs;
  const get = (url: string, accept: string) => fetchText(url, { accept, limits: options.limits, fetch: options.fetch, sleep: options.sleep, deadline });
  let catalog: unknown;
  try {
    catalog = JSON.parse((await get(catalogUrl, 'application/json')).text);
  } catch (error) {
    if (error instanceof FetchError) throw new SpecError(catalogUrl, '#', error.message);
    throw new SpecError(catalogUrl, '#', `the catalog is not JSON: ${(error as Error).message}`);
  }
  const specs = (catalog as { specs?: unknown })?.specs;
  if (!Array.isArray(specs)) throw new SpecError(catalogUrl, '#/specs', 'the catalog must be an object with a "specs" array');
  const documents: SourceDocument[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of specs.entries()) {
    const pointer = `#/specs/${index}`;
    const name = (entry as { name?: unknown })?.name;
    const url = (entry as { url?: unknown })?.url;
    if (typeof name !== 'string' || name === '') throw new SpecError(catalogUrl, `${pointer}/name`, 'each catalog entry needs a non-empty string name');
    if (typeof url !== 'string') throw new SpecError(catalogUrl, `${pointer}/url`, 'each catalog entry needs a string url');
    if (seen.has(name)) throw new SpecError(catalogUrl, `${pointer}/name`, `spec name ${JSON.stringify(name)} is listed twice`);
    seen.add(name);
    let absolute: URL;
    try {
      absolute = new URL(url, `${base}/`);
    } catch {
      throw new SpecError(catalogUrl, `${pointer}/url`, `not a URL: ${JSON.stringify(url)}`);
    }
    if (absolute.origin !== origin) throw new SpecError(catalogUrl, `${pointer}/url`, `refusing a spec on another host (${absolute.origin}); the catalog is on ${origin}`);
    try {
      const { text } = await get(absolute.href, options.json ? 'application/json' : 'application/yaml');
      documents.push({ name, uri: absolute.href, text });
    } catch (error) {
      if (error instanceof FetchError) throw new SpecError(name, '#', error.message);
      throw error;
    }
  }
  documents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    documents,
    boundary: `${origin}/`,
    read: async (uri) => (await get(uri, options.json ? 'application/json' : 'application/yaml')).text,
  };
}
