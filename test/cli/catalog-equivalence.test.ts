import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSpec } from '../../src/pipeline.js';
import { serveCatalog, type CatalogServer } from '../support/serve-catalog.js';

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
});
