// Operations whose path keys differ only after '#' (box: `/files/{file_id}` and `/files/{file_id}#get_shared_link`)
// share a method and path on the wire when the part after '#' selects nothing (rule 36): a request reaches the first
// of them, so a later one's checks are not run, saying which operation its requests reach, instead of checking that
// other operation under its name. One alone on its method and path is reached, and checked as usual (issue 27).
import { describe, expect, it } from 'vitest';
import { shadowedBy } from '../../src/conformance/run.js';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';

const thing = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string', maxLength: 50 } } };
const body = { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 50 } } } } } };
const answer = (status: string) => ({ [status]: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } });
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Fragments', version: '1' },
  security: [{ Key: [] }],
  paths: {
    '/things': { post: { operationId: 'createThing', requestBody: body, responses: answer('201') } },
    '/things/{thing_id}': {
      parameters: [{ name: 'thing_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getThing', responses: { ...answer('200'), '404': { description: 'none' } } },
    },
    '/things/{thing_id}#shared_link': {
      parameters: [{ name: 'thing_id', in: 'path', required: true, schema: { type: 'string' } }],
      put: { operationId: 'shareThing', requestBody: body, responses: answer('200') },
    },
    '/things/{thing_id}#preview': {
      parameters: [{ name: 'thing_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'previewThing', responses: answer('200') },
    },
  },
  components: { securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'X-Key' } }, schemas: { Thing: thing } },
};

describe("operations whose path keys differ only after '#'", () => {
  const route = (id: string, method: string, path: string, select?: { in: 'header' | 'query'; name: string; value?: string }[]) => ({ id, method, path, ...(select ? { select } : {}) }) as never;

  it('names the operation a shadowed one\'s requests reach; the first, and one a selector tells apart, are reached', () => {
    const first = route('getFile', 'GET', '/files/{file_id}');
    const link = route('getSharedLink', 'GET', '/files/{file_id}');
    const selected = route('getFileVersion', 'GET', '/files/{file_id}', [{ in: 'query', name: 'version', value: '2' }]);
    const put = route('updateFile', 'PUT', '/files/{file_id}');
    const routes = [first, link, selected, put];
    expect(shadowedBy(link, routes)).toBe("GET /files/{file_id} is also getFile's, with nothing on the wire to tell them apart (their path keys differ after '#'): a request reaches getFile");
    for (const reached of [first, selected, put]) expect(shadowedBy(reached, routes)).toBeUndefined();
  });

  it('runs no check of the shadowed operation, saying why (not counted as skipped); one alone on its method and path is checked as usual', async () => {
    const results = await conformanceOf(await generateFor(writeSpec(SPEC)));
    expect(failures(results)).toEqual([]);
    const preview = results.filter((r) => r.operation === 'previewThing');
    expect(preview.length).toBeGreaterThan(0);
    for (const r of preview) expect(`${r.outcome}: ${r.detail}`).toMatch(/^not-run: GET \/things\/\{thing_id\} is also getThing's.*a request reaches getThing$/);
    // PUT /things/{thing_id} is shareThing's alone: its checks run (and pass).
    expect(results.filter((r) => r.operation === 'shareThing' && r.outcome === 'pass').length).toBeGreaterThan(3);
    expect(results.filter((r) => r.operation === 'getThing' && r.outcome === 'pass').length).toBeGreaterThan(3);
  }, 120_000);
});
