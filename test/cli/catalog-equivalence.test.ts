import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSpec } from '../../src/pipeline.js';
import { serveCatalog, type CatalogServer } from '../support/serve-catalog.js';
import { createSandbox } from '../../src/sandbox/index.js';

let server: CatalogServer;
beforeAll(async () => {
  server = await serveCatalog('spec', { files: { '/v1/openapi/_shared.yaml': readFileSync('spec/_shared.yaml', 'utf8') } });
});
afterAll(() => server.close());

describe('generation from a live catalog', () => {
  it('is byte-identical to generation from the spec folder, for YAML and for JSON documents', async () => {
    const fromDisk = await renderSpec('spec', { policy: 'strict' });
    const fromYaml = await renderSpec(server.baseUrl, { policy: 'strict' });
    const fromJson = await renderSpec(server.baseUrl, { policy: 'strict', json: true });
    expect([...fromYaml.keys()]).toEqual([...fromDisk.keys()]);
    for (const [path, text] of fromDisk) {
      expect(fromYaml.get(path), path).toBe(text);
      expect(fromJson.get(path), path).toBe(text);
    }
  });

  it('is byte-identical when the catalog is the sandbox serving its own spec (YAML and JSON)', async () => {
    const sandbox = await createSandbox({ log: () => {} });
    const fetch = (url: string, init?: RequestInit): Promise<Response> => sandbox.fetch(new Request(url, init));
    try {
      const fromDisk = await renderSpec('spec', { policy: 'strict' });
      for (const json of [false, true]) {
        const served = await renderSpec('http://sandbox.test/v1', { policy: 'strict', fetch: fetch as never, json });
        expect([...served.keys()]).toEqual([...fromDisk.keys()]);
        for (const [path, text] of fromDisk) expect(served.get(path), path).toBe(text);
      }
    } finally {
      await sandbox.close();
    }
  });
});
