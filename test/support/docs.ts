// Model inputs built directly in tests: a LoadedDocument from a plain object, no YAML or disk involved.
import { hashJson, type LoadedDocument } from '../../src/load/index.js';

export function doc(name: string, document: Record<string, unknown>): LoadedDocument {
  return { name, uri: `/virtual/${name}.yaml`, document, hash: hashJson(document), lineOf: () => undefined, warnings: [] };
}

export function openapi(paths: Record<string, unknown>, schemas: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { openapi: '3.1.0', info: { title: 'Test API: Things', version: '1' }, paths, components: { schemas }, ...extra };
}

export const ok = (schema: unknown) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } } });
