// When the database cannot be reached, a request answers 503 INTERNAL with the error envelope at once (no hang,
// no crash), and the instance recovers by itself when the database is back. A connection the server dropped
// while idle is replaced without the request noticing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/sandbox.js';
import { PG_URL, describePg, pgQuery } from './pg-env.js';

describePg('the PostgreSQL store when the database goes away', () => {
  // A database of its own, so closing it to connections leaves every other test alone.
  const database = `sandbox_outage_${process.pid}_${Date.now().toString(36)}`;
  const url = (() => {
    const u = new URL(PG_URL);
    u.pathname = `/${database}`;
    return u.href;
  })();
  let h: Harness;
  const terminate = () => pgQuery('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
  beforeAll(async () => {
    pgQuery(`CREATE DATABASE "${database}"`);
    h = await startHarness({ db: url });
  });
  afterAll(async () => {
    await h?.close();
    pgQuery(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    terminate();
    pgQuery(`DROP DATABASE IF EXISTS "${database}"`);
  });

  it('replaces a connection the server dropped while idle', async () => {
    const { tag } = await h.client.tags.createTag({ tag_name: 'before the drop' });
    terminate();
    expect((await h.client.tags.getTag(tag.id)).tag.tag_name).toBe('before the drop');
  });

  it('answers 503 INTERNAL with the envelope while the database is unreachable, and recovers after', async () => {
    pgQuery(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
    terminate();
    for (const request of [h.raw('/tags'), h.raw('/tags', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tag_name: 'during' }) })]) {
      const res = await request;
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: { code: 'INTERNAL', message: 'The sandbox database is unavailable; try again.', details: [] } });
    }
    pgQuery(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    await new Promise((r) => setTimeout(r, 300)); // past the pause between reconnection attempts
    const res = await h.raw('/tags', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tag_name: 'after' }) });
    expect(res.status).toBe(201);
    const names = (await h.client.tags.listTags()).tags.map((t) => t.tag_name);
    expect(names).toContain('after');
    expect(names).not.toContain('during');
  });
});
