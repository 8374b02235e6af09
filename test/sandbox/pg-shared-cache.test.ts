// Keys, organizations and workspaces are cached per instance on PostgreSQL (src/sandbox/storage/pg-shared-cache.ts)
// and checked against the database's cache epoch once per request: what one instance removes, another refuses at
// its very next request, although it had the key or workspace cached. And the cache is really used: a row changed
// behind the sandbox's back without raising the epoch is not seen until the epoch moves.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/sandbox.js';
import { describePg, dropSchema, freshSchemaUrl, pgQuery } from './pg-env.js';

describePg('caches of keys, organizations and workspaces across instances on PostgreSQL', () => {
  const { url, schema } = freshSchemaUrl('cache');
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    a = await startHarness({ db: url });
    b = await startHarness({ db: url });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    dropSchema(schema);
  });

  const tags = (h: Harness, key: string): Promise<Response> => h.raw('/tags', { headers: { 'x-api-key': key } });
  /** A list of a workspace's records (agents: the workspace header applies). */
  const agents = (h: Harness, workspace: string): Promise<Response> => h.raw('/agents', { headers: { 'x-api-key': h.sandbox.apiKey, 'X-Service-Workspace-Id': workspace } });

  it('refuses a workspace deleted through another instance at the next request', async () => {
    const { workspace } = await a.client.workspaces.createWorkspace({ display_name: 'cached then deleted', slug: 'cached-then-deleted' } as never);
    expect((await agents(b, workspace.id)).status).toBe(200);
    expect((await agents(b, workspace.id)).status).toBe(200);
    await a.client.workspaces.deleteWorkspace(workspace.id);
    const refused = await agents(b, workspace.id);
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('refuses a key removed through another instance (the control plane’s reset) at the next request', async () => {
    const org = await a.control.createOrganization('cached key');
    const key = org.api_key.key;
    expect((await tags(b, key)).status).toBe(200);
    expect((await tags(b, key)).status).toBe(200);
    await a.control.reset();
    const refused = await tags(b, key);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    // The development key the reset seeds again works through both.
    expect((await tags(b, b.sandbox.apiKey)).status).toBe(200);
    expect((await tags(a, a.sandbox.apiKey)).status).toBe(200);
  });

  it('answers from the cache until the epoch moves (a row deleted behind the sandbox’s back, then the epoch raised)', async () => {
    const org = await a.control.createOrganization('behind the back');
    const key = org.api_key.key;
    expect((await tags(b, key)).status).toBe(200);
    pgQuery('DELETE FROM api_keys WHERE key = $1', [key], schema);
    expect((await tags(b, key)).status).toBe(200);
    pgQuery('UPDATE cache_epoch SET value = value + 1 WHERE id = 1', [], schema);
    expect((await tags(b, key)).status).toBe(401);
  });
  it('refuses a create in a workspace deleted through another instance a moment before (checked in the write, not a 503)', async () => {
    const { workspace } = await a.client.workspaces.createWorkspace({ display_name: 'deleted before a write', slug: 'deleted-before-a-write' } as never);
    const create = (h: Harness) =>
      h.raw('/agents', { method: 'POST', headers: { 'content-type': 'application/json', 'X-Service-Workspace-Id': workspace.id }, body: JSON.stringify({ display_name: 'late', model_type: 'MODEL_TYPE_CHAT' }) });
    expect((await agents(b, workspace.id)).status).toBe(200);
    await a.client.workspaces.deleteWorkspace(workspace.id);
    const refused = await create(b);
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    expect(pgQuery("SELECT id FROM records WHERE kind = 'agent' AND workspace = $1", [workspace.id], schema)).toEqual([]);
  });

  it('runs a create again, body and all, when the epoch moved under it: one record, created once', async () => {
    const name = `rerun-${Date.now()}`;
    // b's cache is recent; another instance's write of a cached row moves the epoch before b's create.
    expect((await tags(b, b.sandbox.apiKey)).status).toBe(200);
    await a.control.createOrganization('moves the epoch');
    const created = await b.raw('/tags', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tag_name: name }) });
    expect(created.status).toBe(201);
    const stored = pgQuery("SELECT id FROM records WHERE kind = 'tag' AND data::jsonb ->> 'tag_name' = $1", [name], schema);
    expect(stored).toHaveLength(1);
  });
});
