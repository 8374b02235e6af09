// The runs waiting for or under execution, kept in the store's meta under one key and changed only inside write
// transactions, so on a shared store (PostgreSQL: write transactions are serialized by the write lock) every
// instance sees one queue. A launch enqueues its run in the launch's own transaction (a rolled-back launch leaves
// nothing behind); an instance claims a run with a lease it renews while it executes; when an instance dies its
// lease runs out and another instance claims the run and resumes it. The queue holds only unfinished runs, so it
// stays small whatever the number of runs the sandbox has seen.
import type { Store } from '../storage/store.js';

const KEY = 'run_queue';

export interface QueueEntry {
  org: string;
  /** The instance executing the run, or null while nobody has claimed it. */
  owner: string | null;
  /** Epoch milliseconds the owner's claim lasts until. */
  lease_until: number;
  /** How many times the run was claimed (1 on the first claim; more after a takeover). */
  attempt: number;
}

type Queue = Record<string, QueueEntry>;

function read(store: Store): Queue {
  const text = store.meta(KEY);
  if (!text) return {};
  try {
    return JSON.parse(text) as Queue;
  } catch {
    return {};
  }
}

function write(store: Store, queue: Queue): void {
  store.setMeta(KEY, JSON.stringify(queue));
}

/**
 * Adds a launched run, unclaimed (inside the launch's transaction); or a job already claimed by the instance that
 * queues it (`claim`: a metric job its event handler does at once), which others take over once the lease runs out.
 */
export function enqueueRun(store: Store, runId: string, org: string, claim?: { owner: string; lease_until: number }): void {
  store.transaction(() => {
    const queue = read(store);
    queue[runId] = claim ? { org, owner: claim.owner, lease_until: claim.lease_until, attempt: 1 } : { org, owner: null, lease_until: 0, attempt: 0 };
    write(store, queue);
  }, 'write');
}

/** Whether any queued run is free to claim now (a read: the sweep asks this before it takes the write lock). */
export function anyClaimable(store: Store, now: number): boolean {
  return Object.values(read(store)).some((e) => e.owner === null || e.lease_until < now);
}

/** Claims up to `limit` runs nobody holds (never claimed, or their owner's lease ran out); their ids and attempts. */
export function claimRuns(store: Store, owner: string, leaseMs: number, limit: number, now: number): { runId: string; org: string; attempt: number }[] {
  return store.transaction(() => {
    const queue = read(store);
    const claimed: { runId: string; org: string; attempt: number }[] = [];
    for (const [runId, entry] of Object.entries(queue)) {
      if (claimed.length >= limit) break;
      if (entry.owner !== null && entry.lease_until >= now) continue;
      entry.owner = owner;
      entry.lease_until = now + leaseMs;
      entry.attempt += 1;
      claimed.push({ runId, org: entry.org, attempt: entry.attempt });
    }
    if (claimed.length > 0) write(store, queue);
    return claimed;
  }, 'write');
}

/** Extends this owner's leases; answers the ids it still holds (a run finished or taken over is left out). */
export function renewRuns(store: Store, owner: string, runIds: readonly string[], leaseMs: number, now: number): Set<string> {
  if (runIds.length === 0) return new Set();
  return store.transaction(() => {
    const queue = read(store);
    const held = new Set<string>();
    for (const id of runIds) {
      const entry = queue[id];
      if (entry?.owner !== owner) continue;
      entry.lease_until = now + leaseMs;
      held.add(id);
    }
    write(store, queue);
    return held;
  }, 'write');
}

/** Whether `owner` holds the run's claim (read inside the caller's transaction before each step). */
export function holdsRun(store: Store, owner: string, runId: string): boolean {
  return read(store)[runId]?.owner === owner;
}

/** Whether the run is queued at all (a manual-mode or finished run is not). */
export function isQueued(store: Store, runId: string): boolean {
  return read(store)[runId] !== undefined;
}

/** Removes a finished, cancelled or deleted run (inside the transaction that finishes it). */
export function dequeueRun(store: Store, runId: string): void {
  store.transaction(() => {
    const queue = read(store);
    if (!(runId in queue)) return;
    delete queue[runId];
    write(store, queue);
  }, 'write');
}

/** Empties the queue (the control plane's reset: the records it named are gone). */
export function resetRunQueue(store: Store): void {
  store.transaction(() => write(store, {}), 'write');
}
