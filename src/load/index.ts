// The loader: source (directory, file, or live catalog) -> parsed, bundled, validated documents.
import { createHash } from 'node:crypto';
import { bundleDocument } from './bundle.js';
import { canonicalizeRefs } from './canonical-refs.js';
import { SpecError, type SpecWarning } from './errors.js';
import { DEFAULT_LIMITS, type LoadLimits } from './limits.js';
import { parseSpecText } from './parse.js';
import { isUrl, openCatalog, openDisk } from './sources.js';
import { validateDocument } from './validate.js';
import type { FetchLike } from './fetch-text.js';

export { SpecError, warningText, type SpecWarning } from './errors.js';
export { DEFAULT_LIMITS, type LoadLimits } from './limits.js';
export type { FetchLike } from './fetch-text.js';

export interface LoadedDocument {
  name: string;
  uri: string;
  /** The bundled, self-contained document (refs are local). */
  document: Record<string, unknown>;
  /** sha256 of the canonical JSON of `document`. */
  hash: string;
  lineOf(pointer: string): number | undefined;
  /** Violations the lenient policy let pass (empty under strict, which refuses them). */
  warnings: SpecWarning[];
}

export interface LoadOptions {
  limits?: Partial<LoadLimits>;
  fetch?: FetchLike;
  /** For a catalog URL: ask for JSON documents rather than YAML. */
  json?: boolean;
  /** `strict` (default) refuses any violation of the OpenAPI schema or spec rules; `lenient` warns and goes on. */
  policy?: 'strict' | 'lenient';
  /** Skip swagger-parser validation (only for documents already known valid). */
  skipValidation?: boolean;
  sleep?: (ms: number) => Promise<void>;
}

export async function loadSpecs(source: string, options: LoadOptions = {}): Promise<LoadedDocument[]> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const opened = isUrl(source) ? await openCatalog(source, { limits, fetch: options.fetch, json: options.json, sleep: options.sleep }) : await openDisk(source, limits);
  const loaded: LoadedDocument[] = [];
  for (const doc of opened.documents) {
    const parsed = parseSpecText(doc.name, doc.text, limits);
    const bundled = await bundleDocument(doc.name, doc.uri, parsed.value, opened, limits);
    canonicalizeRefs(bundled);
    const warnings = options.skipValidation ? [] : await validateDocument(doc.name, bundled, parsed.lineOf, options.policy ?? 'strict');
    loaded.push({ name: doc.name, uri: doc.uri, document: bundled, hash: hashJson(bundled), lineOf: parsed.lineOf, warnings });
  }
  const names = new Set<string>();
  for (const doc of loaded) {
    if (names.has(doc.name)) throw new SpecError(doc.name, '#', 'two documents have this spec name');
    names.add(doc.name);
  }
  return loaded;
}

/** Canonical JSON (keys sorted) so the hash does not depend on key order or formatting of the source. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

export function hashJson(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
