// An operation whose path holds '#' (box: `/files/{file_id}#get_shared_link`) cannot be reached: the fragment never
// goes on the wire, so its requests would be another operation's. Its checks are skipped, saying so, instead of
// checking that other operation under its name (issue 27).
import { describe, expect, it } from 'vitest';
import { offTheWire } from '../../src/conformance/run.js';
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
  },
  components: { securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'X-Key' } }, schemas: { Thing: thing } },
};

describe("a path holding '#'", () => {
  it('names where its requests go', () => {
    expect(offTheWire('/files/{file_id}#get_shared_link')).toBe("its path holds '#', which never goes on the wire: a request reaches /files/{file_id}, the path of another operation");
    expect(offTheWire('/files/{file_id}')).toBeUndefined();
  });

  it("gets every check skipped with that reason; the other operations are checked as usual", async () => {
    const results = await conformanceOf(await generateFor(writeSpec(SPEC)));
    expect(failures(results)).toEqual([]);
    const shared = results.filter((r) => r.operation === 'shareThing');
    expect(shared.length).toBeGreaterThan(3);
    expect(new Set(shared.map((r) => `${r.outcome}: ${r.detail}`))).toEqual(new Set([`skip: ${offTheWire('/things/{thing_id}#shared_link')}`]));
    expect(results.filter((r) => r.operation === 'getThing' && r.outcome === 'pass').length).toBeGreaterThan(3);
  }, 120_000);
});
