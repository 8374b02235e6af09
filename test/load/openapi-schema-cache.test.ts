// The compiled OpenAPI schema validators kept in the build cache: a run that finds one loads it instead of compiling
// the schema, and it judges documents exactly as the freshly compiled one does.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompiledCache } from '../../src/load/openapi-schema.js';

/** An in-memory cache that counts what it is asked. */
function memoryCache() {
  const entries = new Map<string, Record<string, string>>();
  const stats = { hits: 0, misses: 0, sets: 0 };
  const cache: CompiledCache = {
    key: (name, inputs) => `${name}\u0000${inputs}`,
    get: (key) => {
      const value = entries.get(key);
      if (value === undefined) stats.misses++;
      else stats.hits++;
      return value;
    },
    set: (key, value) => {
      stats.sets++;
      entries.set(key, value);
    },
  };
  return { cache, stats, entries };
}

/** The module afresh, as a new process would load it (the compiled validators are kept per module instance). */
async function freshModule() {
  vi.resetModules();
  return import('../../src/load/openapi-schema.js');
}

const invalid = (openapi: string) => ({
  openapi,
  info: { title: 'T', version: '1' },
  paths: { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } }, parameters: [{ name: 'x', in: 'nowhere' }] } } },
});

beforeEach(() => {
  vi.resetModules();
});

describe('compiled OpenAPI schema validators in the cache', () => {
  for (const version of ['3.0.3', '3.1.0']) {
    it(`are compiled once, kept, then loaded, and judge ${version} documents as a fresh compile does`, async () => {
      const { cache, stats, entries } = memoryCache();
      const compiled = (await freshModule()).openApiSchemaViolations(invalid(version));
      expect(compiled.length).toBeGreaterThan(0);
      expect(compiled.some((v) => v.instancePath.startsWith('/paths/~1a/get/parameters/0'))).toBe(true);

      const first = (await freshModule()).openApiSchemaViolations(invalid(version), cache);
      expect(stats).toEqual({ hits: 0, misses: 1, sets: 1 });
      expect([...entries.values()][0]!.code).toContain('module.exports');

      const second = await freshModule();
      const fromCache = second.openApiSchemaViolations(invalid(version), cache);
      expect(stats).toEqual({ hits: 1, misses: 1, sets: 1 });
      expect(fromCache).toEqual(compiled);
      expect(first).toEqual(compiled);
      const valid = { openapi: version, info: { title: 'T', version: '1' }, paths: {} };
      expect(second.openApiSchemaViolations(valid, cache)).toEqual([]);
    });
  }

  it('keeps the 3.0 and 3.1 validators under different keys', async () => {
    const { cache, entries } = memoryCache();
    const module = await freshModule();
    module.openApiSchemaViolations(invalid('3.0.3'), cache);
    module.openApiSchemaViolations(invalid('3.1.0'), cache);
    expect(entries.size).toBe(2);
  });
});
