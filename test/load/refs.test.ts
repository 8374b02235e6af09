// Runs the multi-file corpus of ref-corpus.ts: every layout loads, and the bundled document (local refs only)
// resolves each case's place to the value a JSON Reference resolver gives.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../src/load/index.js';
import { REF_CASES } from './ref-corpus.js';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'refs-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function keysOf(ref: string): string[] {
  expect(ref === '#' || ref.startsWith('#/'), `only local refs are left after bundling: ${ref}`).toBe(true);
  return ref === '#' ? [] : ref.slice(2).split('/').map((k) => decodeURIComponent(k).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Walk `keys` from the root, following every local ref met (also the one at the end), as a reader would. */
function follow(doc: unknown, keys: string[], hops = 0): unknown {
  expect(hops).toBeLessThan(50);
  let node = doc;
  for (const key of keys) {
    while (isObject(node) && typeof node.$ref === 'string' && !Object.hasOwn(node, key)) node = follow(doc, keysOf(node.$ref), hops + 1);
    expect(isObject(node) || Array.isArray(node), `step ${key}`).toBe(true);
    node = (node as Record<string, unknown>)[key];
  }
  while (isObject(node) && typeof node.$ref === 'string') node = follow(doc, keysOf(node.$ref), hops + 1);
  return node;
}

/** Replace every local ref in a value by its target, one level (enough to compare small resolved values). */
function noRefs(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(noRefs);
  if (!isObject(value)) return true;
  return !('$ref' in value) && Object.values(value).every(noRefs);
}

describe('multi-file references resolve as JSON Reference resolvers resolve them', () => {
  it.each(REF_CASES.map((c) => [c.rule, c] as const))('%s', async (_rule, c) => {
    const dir = folder(c.files);
    const [loaded] = await loadSpecs(join(dir, c.entry));
    const document = loaded!.document;
    const text = JSON.stringify(document);
    // Nothing of the files is left to resolve: every ref is local to the bundle.
    for (const match of text.matchAll(/"\$ref":"([^"]*)"/g)) expect(match[1]!.startsWith('#')).toBe(true);
    const value = follow(document, c.at);
    expect(value).toEqual(c.expect);
    if (typeof c.expect === 'object') expect(noRefs(value)).toBe(true);
  });

  it('reads a file several refs name once, and gives it one name in components', async () => {
    const dir = folder({
      'api.yaml': "openapi: 3.1.0\ninfo: { title: T, version: '1' }\npaths:\n  /a:\n    get:\n      operationId: a\n      responses:\n        '200': { description: ok, content: { application/json: { schema: { $ref: 'models/m.yaml#/M' } } } }\n  /b:\n    get:\n      operationId: b\n      responses:\n        '200': { description: ok, content: { application/json: { schema: { $ref: './models/../models/m.yaml#/M' } } } }\n",
      'models/m.yaml': 'M: { type: string }\n',
    });
    const [loaded] = await loadSpecs(join(dir, 'api.yaml'));
    const schemas = (loaded!.document.components as Record<string, Record<string, unknown>>).schemas!;
    expect(Object.keys(schemas)).toEqual(['M']);
  });
});
