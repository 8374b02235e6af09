// Every call the sandbox makes out (webhook deliveries, chat agents, judge endpoints) goes through one gate per
// process, so what users point the sandbox at cannot exhaust it. The soak found why (issue 29): webhooks whose host
// does not resolve (an example URL) were attempted ~13 times a second; each attempt's name lookup waits for one
// of libuv's four threads, the caller's timeout abandons the fetch but not the lookup, and the lookups queued
// without end: the heap grew by 20 MB in twenty minutes and p99 rose from 40 ms to 250 ms.
// - Names are looked up once per host and remembered for a short while: a host that does not resolve fails at
//   once (as fetch would, "host not found") until its entry expires; lookups of one host are shared.
// - At most `concurrency` calls are in flight; the next ones wait in order (their own timeout and cancellation
//   still apply while they wait), and past `queue` waiting a call fails at once as a network error, to be retried
//   as any other (a webhook's backoff, a run's failed turn).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface OutboundLimits {
  /** Calls in flight at most. */
  concurrency: number;
  /** Calls waiting at most; the next fails at once. */
  queue: number;
  /** How long a host's lookup (found or not) is remembered, in ms. */
  hostTtlMs: number;
  /** Hosts remembered at most (the oldest are forgotten first). */
  hosts: number;
}

export const OUTBOUND_LIMITS: OutboundLimits = { concurrency: 32, queue: 1_000, hostTtlMs: 10_000, hosts: 1_000 };

type Lookup = (host: string) => Promise<unknown>;

/** getaddrinfo's answers for a name that does not resolve. */
const NOT_FOUND = new Set(['ENOTFOUND', 'EAI_NONAME', 'EAI_NODATA', 'EAI_AGAIN']);

/** An error shaped as fetch's own network failures (a TypeError whose cause carries the code). */
function networkError(code: string, message: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
}

export class OutboundGate {
  private inFlight = 0;
  private readonly waiting: { start: () => void; fail: (error: unknown) => void }[] = [];
  private readonly hosts = new Map<string, { found: boolean; until: number } | Promise<boolean>>();
  /** Called right before each call leaves, once its slot is taken (a pool worker exits there if its listener died). */
  private guard: (() => void) | null = null;

  constructor(
    private readonly limits: OutboundLimits = OUTBOUND_LIMITS,
    private readonly resolve: Lookup = (host) => lookup(host),
    private readonly now: () => number = Date.now,
  ) {}

  /** Calls waiting for a slot and in flight (for tests and the inspector). */
  get load(): { inFlight: number; waiting: number } {
    return { inFlight: this.inFlight, waiting: this.waiting.length };
  }

  /**
   * Loads fetch's implementation now, in the background, where the first call out would load it: Node loads it
   * on first use (about 1.8 MB of heap and 60 ms once per process). A serving process (the CLI, each pool worker)
   * calls this at start, so its first webhook or agent turn is not the slow one, and its memory is at its working
   * size from the start: the PostgreSQL soak saw each of twelve workers step up by 2 MB at its first delivery,
   * minutes apart, which read as the heap growing for the whole half hour (issue 29). Nothing leaves the
   * process: the URL is a `data:` one.
   */
  warm(): void {
    void globalThis.fetch('data:,').then(
      (response) => response.arrayBuffer(),
      () => undefined,
    );
  }

  /** Sets the check made right before each call leaves (pool/worker.ts). */
  setGuard(guard: () => void): void {
    this.guard = guard;
  }

  /** fetch through the gate: the host checked, a slot taken for as long as the answer's head takes. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (!(await this.resolves(host))) throw networkError('ENOTFOUND', `${host} was not found (remembered for ${this.limits.hostTtlMs} ms)`);
    await this.slot(init.signal ?? undefined);
    try {
      this.guard?.();
      return await globalThis.fetch(url, init);
    } finally {
      this.release();
    }
  }

  private async resolves(host: string): Promise<boolean> {
    if (isIP(host) !== 0 || host === 'localhost') return true;
    const known = this.hosts.get(host);
    if (known instanceof Promise) return known;
    if (known && known.until > this.now()) return known.found;
    // Only "no such name" is remembered as not found; any other lookup failure is left to fetch to report.
    const pending = this.resolve(host).then(
      () => true,
      (error: { code?: string }) => !NOT_FOUND.has(error?.code ?? ''),
    );
    this.hosts.set(host, pending);
    const found = await pending;
    this.hosts.delete(host); // re-inserted last: the oldest entries are the first in the map
    this.hosts.set(host, { found, until: this.now() + this.limits.hostTtlMs });
    while (this.hosts.size > this.limits.hosts) this.hosts.delete(this.hosts.keys().next().value!);
    return found;
  }

  private slot(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.inFlight < this.limits.concurrency) {
      this.inFlight++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.limits.queue) return Promise.reject(networkError('ESANDBOXBUSY', `the sandbox already has ${this.limits.queue} outbound calls waiting`));
    return new Promise<void>((start, fail) => {
      const entry = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.inFlight++;
          start();
        },
        fail,
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        fail(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private release(): void {
    this.inFlight--;
    this.waiting.shift()?.start();
  }
}

/** The process's gate: every outbound call of every sandbox in this process shares it. */
export const outbound = new OutboundGate();

/** fetch through the process's gate (the signature the callers used with the global fetch). */
export const outboundFetch = (url: string, init?: RequestInit): Promise<Response> => outbound.fetch(url, init);
