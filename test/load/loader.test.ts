import { mkdtempSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpecs, SpecError } from '../../src/load/index.js';
import { serveCatalog, type CatalogServer } from '../support/serve-catalog.js';

const MINIMAL = (extra = '') => `openapi: 3.1.0
info: { title: T, version: '1' }
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Thing' }
components:
  schemas:
    Thing: { type: object, properties: { id: { type: string } } }
${extra}`;

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'load-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function loadError(source: string, options = {}): Promise<SpecError> {
  const error = await loadSpecs(source, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpecError);
  return error as SpecError;
}

let server: CatalogServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('loading from disk', () => {
  it('loads every document of a folder, skipping shared fragments, in name order', async () => {
    const docs = await loadSpecs('spec');
    const names = docs.map((d) => d.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('workspaces');
    expect(names).not.toContain('_shared');
  });

  it('hoists refs into shared fragments into the document components under their own names', async () => {
    const [doc] = await loadSpecs('spec/workspaces.yaml');
    const components = doc!.document.components as Record<string, Record<string, unknown>>;
    expect(Object.keys(components.responses!)).toEqual(expect.arrayContaining(['NotFound', 'BadRequest']));
    expect(Object.keys(components.schemas!)).toEqual(expect.arrayContaining(['ErrorResponse', 'ErrorDetail']));
    expect(JSON.stringify(doc!.document)).not.toContain('_shared.yaml');
  });

  it('names the spec, pointer and line of a YAML syntax error', async () => {
    const dir = folder({ 'bad.yaml': 'openapi: 3.1.0\ninfo:\n  title: [unclosed\n' });
    const error = await loadError(dir);
    expect(error.spec).toBe('bad');
    expect(error.line).toBeGreaterThan(0);
    expect(error.message).toMatch(/^bad: #/);
  });

  it('reports an invalid OpenAPI document with a JSON pointer to the offending place', async () => {
    const dir = folder({ 'broken.yaml': MINIMAL().replace("'200':", "'200': 5\n        '201':") });
    const error = await loadError(dir);
    expect(error.spec).toBe('broken');
    expect(error.pointer).toMatch(/^#\/paths/);
  });

  it('refuses a $ref that leaves the spec folder', async () => {
    const dir = folder({ 'specs/a.yaml': MINIMAL().replace("{ $ref: '#/components/schemas/Thing' }", "{ $ref: '../outside.yaml#/Thing' }"), 'outside.yaml': 'Thing: { type: string }' });
    const error = await loadError(join(dir, 'specs'));
    expect(error.reason).toMatch(/leaves the spec folder/);
    expect(error.pointer).toContain('/schema');
  });

  it('refuses a $ref to another host', async () => {
    const dir = folder({ 'a.yaml': MINIMAL().replace("{ $ref: '#/components/schemas/Thing' }", "{ $ref: 'https://evil.example/x.yaml#/Thing' }") });
    expect((await loadError(dir)).reason).toMatch(/only relative file references/);
  });

  it('stops a YAML alias bomb at the alias limit', async () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`)].join('\n');
    const dir = folder({ 'bomb.yaml': `openapi: 3.1.0\n${bomb}\n` });
    const error = await loadError(dir, { limits: { maxAliases: 50 } });
    expect(error.reason).toMatch(/alias/i);
  });

  it('refuses documents nested deeper than the limit', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const dir = folder({ 'deep.json': deep });
    expect((await loadError(dir)).reason).toMatch(/nests deeper than the limit/);
  });

  it('refuses documents larger than the size limit', async () => {
    const dir = folder({ 'big.yaml': MINIMAL(`x-pad: "${'y'.repeat(2000)}"`) });
    expect((await loadError(dir, { limits: { maxDocumentBytes: 1000 } })).reason).toMatch(/more than the limit/);
  });

  it('follows relative refs between files of a multi-file document', async () => {
    const dir = folder({
      'api.yaml': MINIMAL().replace("{ $ref: '#/components/schemas/Thing' }", "{ $ref: './schemas/Thing.yaml' }"),
      'schemas/Thing.yaml': 'type: object\nproperties:\n  owner: { $ref: ./Owner.yaml }\n',
      'schemas/Owner.yaml': 'type: object\nproperties:\n  name: { type: string }\n',
    });
    const [doc] = await loadSpecs(join(dir, 'api.yaml'));
    const schemas = (doc!.document.components as Record<string, Record<string, unknown>>).schemas!;
    expect(schemas.Owner).toEqual({ type: 'object', properties: { name: { type: 'string' } } });
    expect(JSON.stringify(schemas)).toContain('#/components/schemas/Owner');
  });
});

describe('loading from a live catalog', () => {
  it('gives the same documents as the folder it serves', async () => {
    server = await serveCatalog('spec', { files: { '/v1/openapi/_shared.yaml': readFileSync('spec/_shared.yaml', 'utf8') } });
    const fromDisk = await loadSpecs('spec');
    const fromServer = await loadSpecs(server.baseUrl);
    expect(fromServer.map((d) => [d.name, d.hash])).toEqual(fromDisk.map((d) => [d.name, d.hash]));
  });

  it('retries a catalog that answers 503 first', async () => {
    server = await serveCatalog('spec', { failFirst: 2, files: { '/v1/openapi/_shared.yaml': readFileSync('spec/_shared.yaml', 'utf8') } });
    const docs = await loadSpecs(server.baseUrl, { sleep: async () => {} });
    expect(docs.length).toBeGreaterThan(5);
    expect(server.requests.slice(0, 3)).toEqual(['/v1/openapi', '/v1/openapi', '/v1/openapi']);
  });

  it('gives up with a clear error when the catalog keeps failing', async () => {
    server = await serveCatalog('spec', { failFirst: 100 });
    const error = await loadError(server.baseUrl, { sleep: async () => {}, limits: { fetchAttempts: 3 } });
    expect(error.reason).toMatch(/503 after 3 attempt/);
  });

  it('refuses a catalog entry on another host', async () => {
    const fetch = async (url: string) => (url.endsWith('/openapi') ? new Response(JSON.stringify({ specs: [{ name: 'x', url: 'https://elsewhere.example/x.yaml' }] })) : new Response('nope', { status: 404 }));
    const error = await loadError('https://api.example/v1', { fetch });
    expect(error.reason).toMatch(/another host/);
    expect(error.pointer).toBe('#/specs/0/url');
  });

  it('ends a slow catalog at the fetch deadline', async () => {
    const fetch = (_url: string, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))));
    const error = await loadError('https://api.example/v1', { fetch, sleep: async () => {}, limits: { fetchTimeoutMs: 50, fetchAttempts: 2 } });
    expect(error.reason).toMatch(/no answer within 50 ms/);
  });
});
