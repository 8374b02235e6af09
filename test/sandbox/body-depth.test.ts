// Issue 29: a JSON body nested beyond MAX_BODY_DEPTH is 400 INVALID_ARGUMENT naming the top-level field, on
// every operation with a JSON body and on both stores (never a 500 or a stack overflow), and a value nested
// just within the bound is stored, copied into versions and presented without trouble.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedSuite } from '../../src/conformance/suite-data.js';
import { tooDeep } from '../../src/sandbox/http/json-depth.js';
import { MAX_BODY_DEPTH } from '../../src/sandbox/http/limits.js';
import { startHarness, type Harness } from '../support/sandbox.js';
import { describePg, dropSchema, freshSchemaUrl } from './pg-env.js';

/** `{"a":{"a":...1...}}` with `levels` objects: as text, since JSON.stringify itself overflows on deep values. */
function nestedText(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

const jsonRoutes = generatedSuite.routes.filter((r) => r.body !== null && (r.body.media.length === 0 || r.body.media.some((m) => /json/i.test(m))));

function pathOf(template: string): string {
  return template.replace(/\{[^}]+\}/g, 'ZZZZZZZZZZZZZZZZZZZZZZ');
}

describe('tooDeep (the iterative walk)', () => {
  it('counts the body as level 1 and ignores scalars', () => {
    expect(tooDeep({ a: 1 }, 1)).toBeUndefined();
    expect(tooDeep({ a: {} }, 1)).toEqual({ field: 'a' });
    expect(tooDeep([[1]], 2)).toBeUndefined();
    expect(tooDeep([[[1]]], 2)).toEqual({ field: null });
    expect(tooDeep('text', 0)).toBeUndefined();
  });

  it('names the first too-deep field in document order, and survives 200,000 levels', () => {
    expect(tooDeep({ ok: { b: 1 }, first: [[[]]], second: [[[]]] }, 3)).toEqual({ field: 'first' });
    const million = JSON.parse(`{"deep":${'['.repeat(200_000)}${']'.repeat(200_000)}}`) as unknown;
    expect(tooDeep(million)).toEqual({ field: 'deep' });
  });
});

function depthSuite(open: () => Promise<{ h: Harness; done: () => void }>): void {
  let h: Harness;
  let done: () => void;
  beforeAll(async () => {
    ({ h, done } = await open());
  });
  afterAll(async () => {
    await h.close();
    done();
  });

  it(`answers 400 on the field for a body ${10_000} levels deep, on every operation with a JSON body`, async () => {
    expect(jsonRoutes.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const route of jsonRoutes) {
      const answer = await h.raw(pathOf(route.path), { method: route.method, headers: { 'content-type': 'application/json' }, body: `{"deep_field":${nestedText(10_000)}}` });
      const body = (await answer.json()) as { error?: { code?: string; details?: { field?: string | null }[] } };
      if (answer.status !== 400 || body.error?.code !== 'INVALID_ARGUMENT' || body.error.details?.[0]?.field !== 'deep_field') {
        wrong.push(`${route.id}: ${answer.status} ${JSON.stringify(body).slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers 400 with no field for an array body nested too deep (seed 7: POST /test-sets, 10,000 levels)', async () => {
    const answer = await h.raw('/test-sets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `${'['.repeat(10_000)}${']'.repeat(10_000)}` });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { details: { field: unknown }[] } }).error.details[0]!.field).toBeNull();
    const metadata = await h.raw('/test-sets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"display_name":"deep","test_set_metadata":${nestedText(10_000)}}` });
    expect(metadata.status).toBe(400);
    expect(((await metadata.json()) as { error: { details: { field: unknown }[] } }).error.details[0]!.field).toBe('test_set_metadata');
  });

  it('refuses a control-plane body nested too deep with 400, not 500', async () => {
    const org = await h.control.createOrganization('depth');
    const deep = await h.sandbox.fetch(
      new Request(`http://sandbox.test/control/organizations/${org.organization.id}/run-completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.sandbox.adminToken}`, 'content-type': 'application/json' },
        body: `{"metric_values":${nestedText(10_000)}}`,
      }),
    );
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { error: { details: { field: unknown }[] } }).error.details[0]!.field).toBe('metric_values');
  });

  it('stores, versions, copies and presents a value nested exactly to the bound', async () => {
    // The body is level 1 and test_set_metadata level 2: MAX_BODY_DEPTH - 1 objects fill it to the bound.
    const allowed = `{"display_name":"At the bound","test_set_metadata":${nestedText(MAX_BODY_DEPTH - 1)}}`;
    const created = await h.raw('/test-sets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: allowed });
    expect(created.status).toBe(201);
    const set = ((await created.json()) as { test_set: { id: string; test_set_metadata: unknown } }).test_set;
    expect(tooDeep({ m: set.test_set_metadata }, MAX_BODY_DEPTH)).toBeUndefined();
    expect(tooDeep({ m: set.test_set_metadata }, MAX_BODY_DEPTH - 1)).toEqual({ field: 'm' });
    // A second version copies the deep value; the history lists both.
    const updated = await h.raw(`/test-sets/${set.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: `{"test_set_metadata":{"b":${nestedText(MAX_BODY_DEPTH - 2)}}}` });
    expect(updated.status).toBe(200);
    const read = (await (await h.raw(`/test-sets/${set.id}`)).json()) as { test_set: { test_set_metadata: Record<string, unknown> } };
    expect(Object.keys(read.test_set.test_set_metadata)).toEqual(['b']);
    const versions = (await (await h.raw(`/test-sets/${set.id}/versions`)).json()) as { versions: { test_set_metadata: unknown }[] };
    expect(versions.versions.length).toBe(2);
    expect(JSON.stringify(versions.versions.map((v) => v.test_set_metadata))).toContain('"a":{"a":');
    // One level more is refused and changes nothing.
    const over = await h.raw(`/test-sets/${set.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: `{"test_set_metadata":${nestedText(MAX_BODY_DEPTH)}}` });
    expect(over.status).toBe(400);
    expect((await (await h.raw(`/test-sets/${set.id}/versions`)).json()) as unknown).toEqual(versions);
  });
}

describe('body depth on SQLite', () => {
  depthSuite(async () => ({ h: await startHarness(), done: () => {} }));
});

describePg('body depth on PostgreSQL', () => {
  depthSuite(async () => {
    const { url, schema } = freshSchemaUrl('depth');
    return { h: await startHarness({ db: url }), done: () => dropSchema(schema) };
  });
});
