// The fast YAML reader must give exactly the value the `yaml` package gives under the loader's options (core
// schema, unique keys, string keys), and leave to `yaml` every document outside its common ground, so that a
// spec reads the same whichever path reads it, and a bad one fails with the reference parser's error.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadSpecs, SpecError } from '../../src/load/index.js';
import { readCommonYaml } from '../../src/load/yaml-fast.js';
import { parseSpecText } from '../../src/load/parse.js';
import { DEFAULT_LIMITS } from '../../src/load/limits.js';
import { oracleDir } from '../support/oracles.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What parse.ts's reference path reads: the value, or the first error's code. */
function reference(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, stringKeys: true });
  return doc.errors.length > 0 ? { error: doc.errors[0]!.code } : doc.toJS({ maxAliasCount: DEFAULT_LIMITS.maxAliases });
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

describe('fast YAML reader', () => {
  it('reads every document of spec/ and of the corpus as yaml does', () => {
    const corpus = oracleDir('corpus');
    const files = [...yamlFiles(join(ROOT, 'spec')), ...(corpus ? yamlFiles(corpus) : [])];
    expect(files.length).toBeGreaterThan(13);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const fast = readCommonYaml(text, DEFAULT_LIMITS.maxDepth);
      // Every one of these is common ground: the fast path is what the generator takes on them.
      expect(fast, file).not.toBeUndefined();
      expect(fast, file).toStrictEqual(reference(text));
    }
  });

  it.each([
    ['core-schema plain scalars', 'a: [1, 0x1F, 0o17, .5, -.inf, .NaN, 1e3, +12, -0, 012, 0b101, 1_000, 12345678901234567890]'],
    ['null and bool spellings', 'a: null\nb: Null\nc: NULL\nd: ~\ne: True\nf: FALSE\ng: tRue\nh:\n'],
    ['keys read as text', '007: x\n~: y\n1.50: z\ntrue: w\n"": v'],
    ['quoted and block scalars', 'a: "\\u00e9\\t"\nb: \'it\'\'s\'\nc: |\n  x\n  y\nd: >-\n  x\n  y\n\n  z\n'],
    ['flow collections', 'a: { x: y, "q": 1, n: [1, two, { k: v }] }'],
    ['an explicit scalar key', '? a\n: b'],
  ])('gives yaml’s value for %s', (_, text) => {
    expect(readCommonYaml(text, DEFAULT_LIMITS.maxDepth)).toStrictEqual(reference(text));
  });

  it.each([
    ['a duplicate key', 'a: 1\na: 2'],
    ['an alias', 'a: &x 1\nb: *x'],
    ['an anchor alone', 'a: &x 1'],
    ['a tag', 'a: !!str 1'],
    ['a directive', '%YAML 1.1\n---\na: yes'],
    ['two documents', 'a: 1\n---\nb: 2'],
    ['an empty document', '# only a comment'],
    ['a collection as a key', '[a, b]: c'],
    ['the __proto__ key', '__proto__: 1'],
    ['a syntax error', 'plain: a #c\n  b'],
    ['nesting past the limit', `${'['.repeat(DEFAULT_LIMITS.maxDepth + 2)}${']'.repeat(DEFAULT_LIMITS.maxDepth + 2)}`],
  ])('leaves %s to yaml', (_, text) => {
    expect(readCommonYaml(text, DEFAULT_LIMITS.maxDepth)).toBeUndefined();
  });

  it('names the line of a node of a document it read (positions come from yaml on demand)', () => {
    const parsed = parseSpecText('doc', 'openapi: 3.1.0\ninfo:\n  title: T\n  version: "1"\n', DEFAULT_LIMITS);
    expect(parsed.value).toStrictEqual({ openapi: '3.1.0', info: { title: 'T', version: '1' } });
    expect(parsed.lineOf('/info/version')).toBe(4);
  });

  it('reports a bad document with the reference parser’s error and line', () => {
    let error: unknown;
    try {
      parseSpecText('doc', 'openapi: 3.1.0\ninfo: 1\ninfo: 2\n', DEFAULT_LIMITS);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).message).toBe("doc: # (line 3): invalid YAML: Map keys must be unique");
  });

  it('loads spec/ through the fast path to the same documents as before', async () => {
    const docs = await loadSpecs(join(ROOT, 'spec'), { skipValidation: true });
    expect(docs.length).toBe(13);
    for (const doc of docs) expect(doc.document.openapi, doc.name).toMatch(/^3\.1\./);
  });
});
