// The lenient policy (any spec but ours): a violation of the OpenAPI schema that leaves a usable description is a
// warning with the place and the reason, and loading goes on; strict (our spec/) still refuses it. And `$ref`s
// reach any place of the document, through other refs, as the common resolvers do.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalizeRefs } from '../../src/load/canonical-refs.js';
import { loadSpecs, SpecError } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';

const dir = mkdtempSync(join(tmpdir(), 'lenient-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const NO_RESPONSES = `openapi: 3.0.3
info: { title: T, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
    post:
      operationId: createThing
      responses:
        '201': { description: created }
`;

const MUTUAL_TLS = `openapi: 3.1.0
info: { title: T, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      security: [ { client: [] } ]
      responses:
        '200': { description: ok }
components:
  securitySchemes:
    client: { type: mutualTLS, description: client certificates }
`;

describe('lenient policy', () => {
  it('warns about an operation without responses (spec, pointer, line, reason) and loads it', async () => {
    const path = file('no-responses.yaml', NO_RESPONSES);
    const [doc] = await loadSpecs(path, { policy: 'lenient' });
    expect(doc!.warnings).toEqual([{ spec: 'no-responses', pointer: '#/paths/~1things/get', line: 6, reason: expect.stringMatching(/required property 'responses'/) }]);
    const model = buildModel([doc!], { policy: 'lenient' });
    expect(model.operations.map((o) => [o.id, o.responses.length])).toEqual([
      ['listThings', 0],
      ['createThing', 1],
    ]);
  });

  it('strict refuses the same document at the same place', async () => {
    const path = file('no-responses-strict.yaml', NO_RESPONSES);
    const error = await loadSpecs(path, { policy: 'strict' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).pointer).toBe('#/paths/~1things/get');
  });

  it('accepts a mutualTLS security scheme, as the current OpenAPI 3.1 schema does, even under strict', async () => {
    const [doc] = await loadSpecs(file('mtls.yaml', MUTUAL_TLS), { policy: 'strict' });
    expect(doc!.warnings).toEqual([]);
  });

  it('still refuses what is not OpenAPI 3.0/3.1 at all', async () => {
    const error = await loadSpecs(file('swagger.yaml', 'swagger: "2.0"\ninfo: { title: T, version: "1" }\npaths: {}\n'), { policy: 'lenient' }).catch((e: unknown) => e);
    expect((error as SpecError).reason).toMatch(/OpenAPI 2\.0 is not supported/);
  });
});

describe('$ref resolution', () => {
  const doc = (): Record<string, unknown> => ({
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    paths: {
      '/a': {
        post: {
          operationId: 'postA',
          requestBody: { content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Wrap' }] } } } },
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/paths/~1a/post/requestBody/content/application~1json/schema/allOf/0/properties/data/oneOf/0' } } },
            },
          },
        },
      },
    },
    components: { schemas: { Wrap: { type: 'object', properties: { data: { oneOf: [{ type: 'object', properties: { x: { type: 'string' } } }, { type: 'string' }] } } } } },
  });

  it('rewrites a pointer that passes through another $ref to the place it reaches', () => {
    const d = doc();
    expect(canonicalizeRefs(d)).toBe(1);
    const paths = d.paths as Record<string, Record<string, Record<string, unknown>>>;
    const response = (paths['/a']!.post!.responses as Record<string, { content: Record<string, { schema: { $ref: string } }> }>)['200']!;
    expect(response.content['application/json']!.schema.$ref).toBe('#/components/schemas/Wrap/properties/data/oneOf/0');
  });

  it('leaves a ref that leads nowhere for the model to name', () => {
    const d = { a: { $ref: '#/b/c' }, b: { $ref: '#/nowhere' } };
    expect(canonicalizeRefs(d)).toBe(0);
    expect(d.a.$ref).toBe('#/b/c');
  });

  it('generates a model from a document that uses such a ref (loaded lenient, validated)', async () => {
    const [loaded] = await loadSpecs(file('through.json', JSON.stringify(doc())), { policy: 'lenient' });
    expect(loaded!.warnings).toEqual([]);
    const model = buildModel([loaded!], { policy: 'lenient' });
    const response = model.operations[0]!.responses[0]!;
    expect(JSON.stringify(response)).toContain('#/$defs/');
  });
});
