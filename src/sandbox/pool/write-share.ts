// How many of a pool's workers the writes of one caller may hold at once (issue 28, the open finding of
// docs/team-sandbox.md). A worker answers one request at a time and a write waits in its worker for its
// organization's advisory lock; writes of one organization run one after another anyway. Without a cap, a
// burst of one organization's writes while its lock is held (a slow transaction, or a client that abandoned a
// load of writes just before) took every worker, and every other request of the instance (reads of any
// organization) waited in the queue until the statement timeout cancelled the writes. So the listener lets the
// writes of one credential hold at most half the workers; the rest stay free for reads and for other callers.
//
// The listener never reads storage, so it cannot tell which organization a key belongs to: the share is per
// credential (the raw API-key or Authorization header), which is per organization for the usual one key per
// organization. Two keys of one organization each get the share (documented in docs/team-sandbox.md).
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Methods that change nothing: they take no lock, so they never count against a share (and a worker that died
 * with one may be given it again).
 */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The workers one credential's writes may hold: half the pool, at least one. */
export function writeShare(workers: number): number {
  return Math.max(1, Math.floor(workers / 2));
}

/** The caller a request's writes are counted against, or null for a request that takes no lock (a read). */
export function writerOf(method: string, headers: IncomingHttpHeaders): string | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const header = (name: string): string => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(',') : (value ?? '');
  };
  return `${header('x-api-key')}\u0000${header('authorization')}`;
}

/** Counts the writes in flight per caller and says whether one more may start. */
export class WriteShares {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly share: number) {}

  /** Whether a request of `writer` (null: a read) may go to a worker now. */
  allows(writer: string | null): boolean {
    return writer === null || (this.inFlight.get(writer) ?? 0) < this.share;
  }

  started(writer: string | null): void {
    if (writer !== null) this.inFlight.set(writer, (this.inFlight.get(writer) ?? 0) + 1);
  }

  finished(writer: string | null): void {
    if (writer === null) return;
    const left = (this.inFlight.get(writer) ?? 1) - 1;
    if (left <= 0) this.inFlight.delete(writer);
    else this.inFlight.set(writer, left);
  }
}
