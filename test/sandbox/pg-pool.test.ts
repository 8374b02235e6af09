// An instance on PostgreSQL is a pool of worker processes behind one listener (src/sandbox/pool), and a write
// locks only its own organization (src/sandbox/storage/pg-store.ts): with one request's statement held waiting
// on purpose, by a transaction held open from outside on its organization's lock (the test hook is the
// database itself), the same instance goes on answering reads of that organization and reads and writes of
// another, and the waiting request completes once the lock is released. Writes of one organization stay
// serialized across the pool's workers (exactly one winner among concurrent renames).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { finishPq, newPq } from '../../src/sandbox/storage/pg-connection.js';
import { scopeLockKey } from '../../src/sandbox/storage/pg-schema.js';
import { describePg, dropSchema, freshSchemaUrl, pgQuery } from './pg-env.js';

interface Started {
  child: ChildProcess;
  base: string;
  control: string;
  admin: string;
}

async function startInstance(db: string, workers: number): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--json', '--db', db, '--workers', String(workers)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it listened`)));
  });
  const info = JSON.parse(line) as { base_url: string; control_url: string; admin_token: string };
  return { child, base: info.base_url, control: info.control_url, admin: info.admin_token };
}

/** The pids of a process's pool workers (its children started with the worker flag; tsx starts others). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return Number(readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]) === pid && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('--sandbox-pool-worker');
      } catch {
        return false;
      }
    })
    .map(Number);
}

describePg('an instance on PostgreSQL: a pool of workers, writes locked per organization', () => {
  const { url, schema } = freshSchemaUrl('pool');
  let instance: Started;
  const orgs: Record<'a' | 'b', { id: string; key: string }> = { a: { id: '', key: '' }, b: { id: '', key: '' } };

  const api = (org: 'a' | 'b', method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${instance.base}${path}`, { method, headers: { 'x-api-key': orgs[org].key, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  beforeAll(async () => {
    instance = await startInstance(url, 2);
    for (const name of ['a', 'b'] as const) {
      const res = await fetch(`${instance.control}/organizations`, { method: 'POST', headers: { authorization: `Bearer ${instance.admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ display_name: `org ${name}` }) });
      const created = (await res.json()) as { organization: { id: string }; api_key: { key: string } };
      orgs[name] = { id: created.organization.id, key: created.api_key.key };
    }
  }, 120_000);
  afterAll(async () => {
    if (instance && instance.child.exitCode === null) {
      instance.child.kill('SIGTERM');
      await new Promise((r) => instance.child.once('exit', r));
    }
    dropSchema(schema);
  });

  /**
   * Holds organization `org`'s write lock in a transaction of its own connection (COMMIT it, then finishPq);
   * `waiters` counts the requests waiting for it. A 64-bit advisory key shows in pg_locks as its high half
   * (classid) and low half (objid).
   */
  function holdOrganization(org: string): { holder: ReturnType<typeof newPq>; waiters: () => number } {
    const holder = newPq();
    holder.connectSync(url.replace(/([?&])schema=[^&]*&?/, '$1').replace(/[?&]$/, ''));
    const key = BigInt(scopeLockKey(schema, org));
    holder.exec(`BEGIN; SELECT pg_advisory_xact_lock(${key})`);
    expect(holder.resultErrorMessage()).toBe('');
    const waiters = (): number =>
      pgQuery("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid::text::bigint = $1 AND objid::text::bigint = $2", [String(BigInt.asUintN(64, key) >> 32n), String(BigInt.asUintN(32, key))]).length;
    return { holder, waiters };
  }

  it('keeps answering while one request waits on a transaction held open on its organization, which then completes', async () => {
    const { tag: existing } = (await (await api('a', 'POST', '/tags', { tag_name: 'before the hold' })).json()) as { tag: { id: string } };
    const { holder, waiters } = holdOrganization(orgs.a.id);
    try {
      let waitingDone = false;
      const waiting = api('a', 'POST', '/tags', { tag_name: 'made while held' }).then((res) => {
        waitingDone = true;
        return res;
      });
      // The request is in the database, waiting for that lock (not still on its way).
      for (let i = 0; i < 200 && waiters() === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(waiters()).toBe(1);

      // Another organization writes and reads; the held organization reads (reads take no lock).
      const otherWrite = await api('b', 'POST', '/tags', { tag_name: 'other organization' });
      expect(otherWrite.status).toBe(201);
      const otherRead = await api('b', 'GET', '/tags');
      expect(otherRead.status).toBe(200);
      expect(((await otherRead.json()) as { tags: { tag_name: string }[] }).tags.map((t) => t.tag_name)).toEqual(['other organization']);
      const heldRead = await api('a', 'GET', `/tags/${existing.id}`);
      expect(heldRead.status).toBe(200);
      // Many at once: none is given to the held worker (each worker takes one request at a time), so all answer.
      const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => api(i % 2 === 0 ? 'a' : 'b', 'GET', '/tags')));
      expect(burst.map((r) => r.status)).toEqual(Array.from({ length: 12 }, () => 200));
      expect(waitingDone).toBe(false);

      holder.exec('COMMIT');
      const done = await waiting;
      expect(done.status).toBe(201);
      expect(((await done.json()) as { tag: { tag_name: string } }).tag.tag_name).toBe('made while held');
    } finally {
      finishPq(holder);
    }
  }, 60_000);

  it('keeps answering reads of every organization while more writes than workers wait on one held organization', async () => {
    const { tag: existing } = (await (await api('a', 'POST', '/tags', { tag_name: 'before the burst' })).json()) as { tag: { id: string } };
    const { holder, waiters } = holdOrganization(orgs.a.id);
    try {
      // Twice as many writes of the held organization as the instance has workers (a load of writes arriving
      // while a transaction of its organization is open).
      let writesDone = 0;
      const writes = Array.from({ length: 4 }, (_, i) =>
        api('a', 'POST', '/tags', { tag_name: `burst ${i}` }).then((res) => {
          writesDone++;
          return res;
        }),
      );
      for (let i = 0; i < 200 && waiters() === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(waiters()).toBeGreaterThan(0);

      // Reads of both organizations answer while every one of those writes still waits (before, the writes
      // took both workers and the reads waited for the statement timeout to cancel them).
      const reads = await Promise.all([api('b', 'GET', '/tags'), api('a', 'GET', `/tags/${existing.id}`), api('a', 'GET', '/tags'), api('b', 'GET', '/tags')]);
      expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(writesDone).toBe(0);
      const otherWrite = await api('b', 'POST', '/tags', { tag_name: 'not held' });
      expect(otherWrite.status).toBe(201);
      expect(writesDone).toBe(0);

      holder.exec('COMMIT');
      expect((await Promise.all(writes)).map((r) => r.status)).toEqual([201, 201, 201, 201]);
      const names = ((await (await api('a', 'GET', '/tags')).json()) as { tags: { tag_name: string }[] }).tags.map((t) => t.tag_name);
      expect(names.filter((n) => n.startsWith('burst ')).sort()).toEqual(['burst 0', 'burst 1', 'burst 2', 'burst 3']);
    } finally {
      finishPq(holder);
    }
  }, 60_000);

  it('serializes one organization’s writes across workers: of concurrent renames to one name, exactly one wins', async () => {
    const ids: string[] = [];
    for (const name of ['first', 'second', 'third', 'fourth']) ids.push(((await (await api('a', 'POST', '/tags', { tag_name: `race ${name}` })).json()) as { tag: { id: string } }).tag.id);
    const statuses = (await Promise.all(ids.map((id) => api('a', 'PATCH', `/tags/${id}`, { tag_name: 'The One Name' })))).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
  }, 60_000);

  it('replaces a worker that dies; the instance answers meanwhile', async () => {
    const workers = childrenOf(instance.child.pid!);
    expect(workers).toHaveLength(2);
    process.kill(workers[0]!, 'SIGKILL');
    for (let i = 0; i < 5; i++) expect((await api('b', 'GET', '/tags')).status).toBe(200);
    let now: number[] = [];
    for (let i = 0; i < 600 && (now = childrenOf(instance.child.pid!)).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(now).toHaveLength(2);
    expect(now).not.toContain(workers[0]);
  }, 90_000);
});
