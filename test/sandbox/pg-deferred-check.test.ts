// The deferred cache check on PostgreSQL (src/sandbox/storage/pg-store.ts, issue 28): a read-only request uses its
// cached key, organization and workspace at once and checks them beside its first read, so a GET by id costs one
// round trip where it cost two; and a change another instance made meanwhile is still never served: the request
// is told it is stale (it runs again), and a write it attempts is refused before anything is written.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPgStore } from '../../src/sandbox/storage/pg-store.js';
import type { ApiKeyRecord, StoredRecord } from '../../src/sandbox/storage/store.js';
import { describePg, dropSchema, freshSchemaUrl, pgQuery } from './pg-env.js';

describePg('the deferred check of cached entries on PostgreSQL', () => {
  const { url, schema } = freshSchemaUrl('deferred');
  let a: ReturnType<typeof openPgStore>;
  let b: ReturnType<typeof openPgStore>;
  const key: ApiKeyRecord = { key: 'k-deferred', organization_id: 'org-1', permissions: [], created_at: '2026-12-07T00:00:00Z' };
  const tag = (id: string): StoredRecord => ({ kind: 'tag', id, org: 'org-1', workspace: null, deleted: false, seq: 0, data: { tag_id: id, name: id } });

  beforeAll(() => {
    a = openPgStore(url, { cachedKinds: ['workspace'] });
    b = openPgStore(url, { cachedKinds: ['workspace'] });
    a.transaction(() => {
      a.putKey(key);
      a.insert(tag('t1'));
    });
    // b caches the key.
    b.newRequest!(true);
    expect(b.findKey(key.key)?.organization_id).toBe('org-1');
    expect(b.requestStale!()).toBe(false);
  });
  afterAll(() => {
    a?.close();
    b?.close();
    dropSchema(schema);
  });

  /**
   * A read-only request begins on b right after b checked the epoch (a request a moment before): the check may be
   * deferred only while the last one is recent (250 ms), as under traffic.
   */
  const readOnlyRequest = (): void => {
    b.newRequest!(false);
    b.findKey(key.key);
    b.requestStale!();
    b.newRequest!(true);
  };
  /** Round trips `fn` costs on store b. */
  const tripsOf = (fn: () => void): number => {
    const before = b.info.roundTrips();
    fn();
    return b.info.roundTrips() - before;
  };

  it('answers a read-only request with a cached key in one round trip: the epoch rides beside the read', () => {
    readOnlyRequest();
    const trips = tripsOf(() => {
      expect(b.findKey(key.key)).toBeDefined();
      expect(b.transaction(() => b.get('tag', 't1'), 'read')?.data).toEqual({ tag_id: 't1', name: 't1' });
    });
    expect(trips).toBe(1);
    expect(b.requestStale!()).toBe(false);
    // A request that is not read-only checks first: two.
    b.newRequest!(false);
    expect(tripsOf(() => void [b.findKey(key.key), b.get('tag', 't1')])).toBe(2);
    expect(b.requestStale!()).toBe(false);
  });

  it('says a read-only request is stale when another instance changed a cached entry meanwhile; run again, it sees the change', () => {
    readOnlyRequest();
    expect(b.findKey(key.key)).toBeDefined();
    // Instance a revokes the key between b's use of its cache and b's read.
    a.transaction(() => a.putKey({ ...key, permissions: ['revoked-marker'] }));
    expect(b.get('tag', 't1')).toBeDefined();
    expect(b.requestStale!()).toBe(true);
    b.newRequest!(false);
    expect(b.findKey(key.key)?.permissions).toEqual(['revoked-marker']);
    expect(b.requestStale!()).toBe(false);
  });

  it('checks at the end a read-only request that read nothing but its cache', () => {
    readOnlyRequest();
    expect(b.findKey(key.key)).toBeDefined();
    pgQuery('UPDATE cache_epoch SET value = value + 1 WHERE id = 1', [], schema);
    expect(b.requestStale!()).toBe(true);
  });

  it('refuses a write of a stale read-only request before anything is written (503, as a brief outage)', () => {
    readOnlyRequest();
    expect(b.findKey(key.key)).toBeDefined();
    a.transaction(() => a.putKey({ ...key, permissions: [] }));
    let thrown: unknown;
    try {
      b.transaction(() => b.insert(tag('t-stale')), 'read');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ status: 503, code: 'INTERNAL' });
    expect(pgQuery("SELECT id FROM records WHERE id = 't-stale'", [], schema)).toEqual([]);
    expect(b.requestStale!()).toBe(true);
    // Run again (not deferred), the write goes through.
    b.newRequest!(false);
    b.transaction(() => b.insert(tag('t-stale')), 'read');
    expect(pgQuery("SELECT id FROM records WHERE id = 't-stale'", [], schema)).toHaveLength(1);
  });
  it('checks a write request in the script that begins its transaction, and sends the insert with COMMIT: a create is two round trips', () => {
    // The first lookup by this field in the store checks (and may create) its index first: done once, beforehand.
    b.newRequest!(false);
    b.transaction(() => b.withField('tag', 'org-1', 'name', 'warm-up', true));
    readOnlyRequest();
    const trips = tripsOf(() => {
      expect(b.findKey(key.key)).toBeDefined();
      b.transaction(() => {
        expect(b.withField('tag', 'org-1', 'name', 't-guarded', true)).toEqual([]);
        b.insert(tag('t-guarded'));
      });
    });
    // BEGIN, the lock, the epoch guard and the lookup in one script; the insert and COMMIT in another.
    expect(trips).toBe(2);
    expect(b.requestStale!()).toBe(false);
    expect(pgQuery("SELECT id FROM records WHERE id = 't-guarded'", [], schema)).toHaveLength(1);
  });

  it("aborts a write request's transaction when the guard finds the epoch moved: nothing written, run again it sees the change", () => {
    readOnlyRequest();
    expect(b.findKey(key.key)).toBeDefined();
    a.transaction(() => a.putKey({ ...key, permissions: ['changed-before-the-write'] }));
    let thrown: unknown;
    try {
      b.transaction(() => {
        b.withField('tag', 'org-1', 'name', 't-refused', true);
        b.insert(tag('t-refused'));
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ status: 503, code: 'INTERNAL' });
    expect(pgQuery("SELECT id FROM records WHERE id = 't-refused'", [], schema)).toEqual([]);
    expect(b.requestStale!()).toBe(true);
    b.newRequest!(false);
    expect(b.findKey(key.key)?.permissions).toEqual(['changed-before-the-write']);
    b.transaction(() => b.insert(tag('t-refused')));
    expect(pgQuery("SELECT id FROM records WHERE id = 't-refused'", [], schema)).toHaveLength(1);
  });

  it('sends a waiting write ahead of the next read of its transaction, which sees it', () => {
    b.newRequest!(false);
    const seen = b.transaction(() => {
      b.withField('tag', 'org-1', 'name', 'x', true);
      b.insert(tag('t-read-back'));
      b.update({ ...tag('t-read-back'), data: { tag_id: 't-read-back', name: 'renamed' } });
      return b.get('tag', 't-read-back');
    });
    expect(seen?.data).toEqual({ tag_id: 't-read-back', name: 'renamed' });
    expect(seen?.seq).toBeLessThan(2 ** 52);
  });

  it('fails the transaction when a waiting write fails at COMMIT: nothing of it is written', () => {
    b.newRequest!(false);
    let thrown: unknown;
    try {
      b.transaction(() => {
        b.withField('tag', 'org-1', 'name', 'y', true);
        b.insert(tag('t-first-of-two'));
        b.insert(tag('t1')); // t1 exists: the primary key refuses it, with COMMIT
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(pgQuery("SELECT id FROM records WHERE id = 't-first-of-two'", [], schema)).toEqual([]);
    // The store goes on: the next transaction writes.
    b.transaction(() => b.insert(tag('t-after-failure')));
    expect(pgQuery("SELECT id FROM records WHERE id = 't-after-failure'", [], schema)).toHaveLength(1);
  });
});
