// A sandbox for a spec that carries none of our x- vocabulary (issue 27): the spec is rendered in memory, its
// route table and documents are imported from a scratch folder, and the engine of src/sandbox serves it. Resources
// and actions are inferred (docs/x-vocabulary.md, "Inferred vocabulary"), the credential works in the spec's own
// scheme, and operations without state answer a schema-valid example.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Tables } from '../../src/sandbox/engine/tables.js';
import { generateFor } from '../../scripts/any-spec-run.js';
import { findOracle } from '../support/oracles.js';

const CORPUS = findOracle('corpus').dir;
const open: Sandbox[] = [];
afterAll(async () => {
  for (const s of open) await s.close();
});

/** The spec's generated route table and documents. */
async function tablesFor(spec: string): Promise<Tables> {
  return (await generateFor(spec)).tables;
}

async function sandboxFor(spec: string): Promise<{ sandbox: Sandbox; call: (method: string, path: string, init?: { body?: unknown; auth?: string | null }) => Promise<{ status: number; body: unknown }> }> {
  const tables = await tablesFor(spec);
  const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables });
  open.push(sandbox);
  const call = async (method: string, path: string, init: { body?: unknown; auth?: string | null } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.auth !== null) headers.authorization = init.auth ?? `Basic ${Buffer.from(`sandbox:${sandbox.apiKey}`).toString('base64')}`;
    const response = await sandbox.fetch(new Request(`http://sandbox.test${tables.basePath}${path}`, { method, headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) }));
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  return { sandbox, call };
}

describe.skipIf(CORPUS === undefined)('a sandbox for a spec without our vocabulary', () => {
  it('museum: special events are a resource with create, read, update, list and delete from stored state', async () => {
    const { call } = await sandboxFor(join(CORPUS!, 'museum', 'openapi.yaml'));
    const event = { name: 'Pirate Coding Workshop', location: 'Seven Seas Room', eventDescription: 'Learn to code like a pirate.', dates: ['2026-12-24'], price: 25 };
    const created = await call('POST', '/special-events', { body: event });
    expect(created.status).toBe(201);
    const body = created.body as Record<string, unknown>;
    expect(body).toMatchObject(event);
    expect(body.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const read = await call('GET', `/special-events/${body.eventId}`);
    expect(read).toEqual({ status: 200, body });
    const updated = await call('PATCH', `/special-events/${body.eventId}`, { body: { price: 30 } });
    expect(updated.status).toBe(200);
    expect((updated.body as Record<string, unknown>).price).toBe(30);
    const listed = await call('GET', '/special-events');
    expect(listed.status).toBe(200);
    expect((listed.body as Record<string, unknown>[]).map((e) => e.eventId)).toEqual([body.eventId]);
    expect((await call('DELETE', `/special-events/${body.eventId}`)).status).toBe(204);
    expect((await call('GET', `/special-events/${body.eventId}`)).status).toBe(404);
  });

  it('museum: the credential is checked in the spec scheme (HTTP basic), and bad input gets the error envelope', async () => {
    const { sandbox, call } = await sandboxFor(join(CORPUS!, 'museum', 'openapi.yaml'));
    expect((await call('GET', '/special-events', { auth: null })).status).toBe(401);
    expect((await call('GET', '/special-events', { auth: `Basic ${Buffer.from('sandbox:wrong').toString('base64')}` })).status).toBe(401);
    // The key as the user name with an empty password is the key too; a bearer token or a bare key is not in the
    // form the basic scheme takes, as a real deployment would refuse it.
    expect((await call('GET', '/special-events', { auth: `Basic ${Buffer.from(`${sandbox.apiKey}:`).toString('base64')}` })).status).toBe(200);
    expect((await call('GET', '/special-events', { auth: `Bearer ${sandbox.apiKey}` })).status).toBe(401);
    expect((await call('GET', '/special-events', { auth: sandbox.apiKey })).status).toBe(401);
    const bad = await call('POST', '/special-events', { body: { name: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String), details: expect.arrayContaining([expect.objectContaining({ field: expect.any(String) })]) } });
  });

  it('museum: an operation without inferable state answers the spec example', async () => {
    const { call } = await sandboxFor(join(CORPUS!, 'museum', 'openapi.yaml'));
    const hours = await call('GET', '/museum-hours');
    expect(hours.status).toBe(200);
    expect(Array.isArray(hours.body)).toBe(true);
    expect((hours.body as unknown[]).length).toBeGreaterThan(0);
  });
});

describe.skipIf(CORPUS === undefined)('a sandbox for a multi-file spec with OAuth 2 (redocly-cafe)', () => {
  it('starts, takes its key as an OAuth 2 bearer token, and keeps orders with ids in their pattern and server timestamps', async () => {
    const { sandbox, call } = await sandboxFor(join(CORPUS!, 'redocly-cafe', 'openapi', 'openapi.yaml'));
    const bearer = `Bearer ${sandbox.apiKey}`;
    // The menu listing is public in the spec (security: []); orders need the OAuth 2 token.
    expect((await call('GET', '/menu', { auth: null })).status).toBe(200);
    const order = { customerName: 'Mary Ann', orderItems: [{ menuItemId: '01h1s5z6vf2mm1mz3hevnn9va7', quantity: 2 }] };
    expect((await call('POST', '/orders', { auth: null, body: order })).status).toBe(401);
    const created = await call('POST', '/orders', { auth: bearer, body: order });
    expect(created.status).toBeLessThan(300);
    const body = created.body as Record<string, unknown>;
    expect(body).toMatchObject(order);
    expect(typeof body.id).toBe('string');
    expect(Date.parse(String(body.createdAt))).not.toBeNaN();
    // The id is minted in its schema's pattern (`^ord_[0-9abcdefghjkmnpqrstvwxyz]{26}$`), so the item path takes it.
    expect(body.id).toMatch(/^ord_[0-9abcdefghjkmnpqrstvwxyz]{26}$/);
    const read = await call('GET', `/orders/${body.id}`, { auth: bearer });
    expect(read).toEqual({ status: 200, body });
  });
});

describe.skipIf(CORPUS === undefined)('a sandbox for the petstore (an API-key header of its own name)', () => {
  it('starts, takes its key in the api_key header, and answers an operation without state with a schema-valid value', async () => {
    const { sandbox } = await sandboxFor(join(CORPUS!, 'petstore', 'petstore3-swagger-openapi.yaml'));
    const headers = { 'content-type': 'application/json', api_key: sandbox.apiKey };
    const get = (path: string, h: Record<string, string>) => sandbox.fetch(new Request(`http://sandbox.test/api/v3${path}`, { headers: h }));
    expect((await get('/store/inventory', { 'content-type': 'application/json' })).status).toBe(401);
    const inventory = await get('/store/inventory', headers);
    expect(inventory.status).toBe(200);
    const body = (await inventory.json()) as Record<string, unknown>;
    // No example in the spec: a generated map of integers (additionalProperties: integer).
    expect(typeof body).toBe('object');
    for (const value of Object.values(body)) expect(Number.isInteger(value)).toBe(true);
  });

  it('keeps pets under integer ids: minted as numbers, read back through the integer path parameter', async () => {
    const { sandbox } = await sandboxFor(join(CORPUS!, 'petstore', 'petstore3-swagger-openapi.yaml'));
    const headers = { 'content-type': 'application/json', api_key: sandbox.apiKey };
    const call = (method: string, path: string, body?: unknown) => sandbox.fetch(new Request(`http://sandbox.test/api/v3${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
    // The Order's id is not readOnly: a client id is kept; without one the sandbox mints an integer.
    const given = await call('POST', '/store/order', { id: 4242, petId: 1, quantity: 2 });
    expect(given.status).toBe(200);
    expect(((await given.json()) as { id: unknown }).id).toBe(4242);
    const minted = (await (await call('POST', '/store/order', { petId: 1, quantity: 1 })).json()) as { id: unknown };
    expect(Number.isSafeInteger(minted.id) && (minted.id as number) > 0).toBe(true);
    const read = await call('GET', `/store/order/${minted.id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { id: unknown }).id).toBe(minted.id);
    expect((await call('GET', '/store/order/2147483646')).status).toBe(404);
    expect((await call('GET', '/store/order/not-a-number')).status).toBe(400);
  });
});
