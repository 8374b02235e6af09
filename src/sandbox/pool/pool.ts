// A sandbox instance on PostgreSQL as a pool of worker processes behind one HTTP listener (docs/sandbox.md, "Team
// sandbox at speed (issue 28)"). The store and the engine stay synchronous (every statement a libpq round trip
// that blocks its thread), so one engine answers one request at a time; here each worker runs its own engine
// and connection, and the listener process only reads requests, hands each to a free worker (one request per
// worker at a time; the rest wait in order for the first worker that answers, a caller's writes holding at most half the workers: write-share.ts), and writes the answers back. The listener never touches storage: its event loop never
// blocks, a slow statement holds one worker while the others answer, and N workers keep N requests in flight.
//
// Workers are child processes, not worker threads: the libpq binding is a native addon that loads in one thread
// of a process only ("Module did not self-register" in a second thread).
//
// Background work runs in the workers (each is an instance to the database: deliveries it created, its own
// sweeper taking over deliveries whose owner died). The control plane's waits and `idle()` wait for every
// worker's background work. A worker that dies is replaced; its requests in flight answer 503 INTERNAL. A worker
// whose listener dies (kill -9) exits when its IPC channel closes.
import { fork, type ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { json } from '../http/respond.js';
import { declaredTooLarge, drained, fromNodeRequest, writeNodeResponse } from '../http/node-adapter.js';
import { Listeners } from '../http/listeners.js';
import type { SandboxResponse } from '../http/exchange.js';
import { INSPECTOR_PATH } from '../inspector/handler.js';
import { CONTROL_PATH } from '../sandbox.js';
import type { WorkerEngineOptions } from './engine-options.js';
import { forwardedBody } from './forwarded-request.js';
import type { ForwardedRequest, MainToWorker, WorkerStart, WorkerToMain } from './messages.js';
import { runPoolWorker } from './worker.js';
import { SAFE_METHODS, WriteShares, writeShare, writerOf } from './write-share.js';

/** Workers per core when no count is given: a worker mostly waits on PostgreSQL, so more than one per core pays. */
const WORKERS_PER_CORE = 2;
export const MAX_WORKERS = 64;
/** The command-line flag a worker process is started with (this module starts a worker when it sees it). */
const WORKER_FLAG = '--sandbox-pool-worker';

/** The default pool size: from the cores the process may use. */
export function defaultWorkerCount(): number {
  return Math.min(MAX_WORKERS, Math.max(2, availableParallelism() * WORKERS_PER_CORE));
}

export interface SandboxPoolOptions {
  /** The postgres:// URL every worker opens. */
  db: string;
  /** Workers (default defaultWorkerCount()). */
  workers?: number;
  adminToken?: string;
  /** Options every worker's engine is created with. */
  engine?: WorkerEngineOptions;
}

export interface SandboxPool {
  readonly apiKey: string;
  readonly adminToken: string;
  readonly organizationId: string;
  /** The development organization's default workspace when the pool started (the start line names it). */
  readonly defaultWorkspaceId: string | undefined;
  readonly workers: number;
  /** The workers' process ids (CPU accounting, tests). */
  workerPids(): number[];
  /** Waits until every worker's background work is done. */
  idle(): Promise<void>;
  listen(options?: { port?: number; host?: string }): Promise<{ url: string; baseUrl: string; controlUrl: string; inspectorUrl: string; close(): Promise<void> }>;
  close(): Promise<void>;
}

/** Start-up failed: `unavailable` when the database refused or could not be reached (the CLI's exit 2). */
export class PoolStartError extends Error {
  constructor(
    readonly reason: string,
    readonly unavailable: boolean,
  ) {
    super(reason);
    this.name = 'PoolStartError';
  }
}

const workerGone = (): SandboxResponse => json(503, { error: { code: 'INTERNAL', message: 'The sandbox worker stopped while answering; try again.', details: [] } });

interface InFlight {
  message: ForwardedRequest;
  /** Whom the request counts against as a write (write-share.ts), null for a read. */
  writer: string | null;
  answer(response: SandboxResponse): void;
}

interface Slot {
  child: ChildProcess;
  inFlight: Map<number, InFlight>;
  ready: boolean;
}

/** How long a request waits for a free worker before it answers 503 (longer than the statement timeout, 10 s). */
const QUEUE_TIMEOUT_MS = 30_000;
/** Before starting a replacement again when one failed to start (the database may be down). */
const RELAUNCH_PAUSE_MS = 1000;

/**
 * util-linux's setpriv where the system has it (Linux): a worker started through `setpriv --pdeathsig KILL` is
 * killed by the kernel the moment its listener dies, even while it waits in a synchronous database call, so a
 * killed instance's workers start nothing more (a webhook half sent, a run's next turn). Elsewhere the workers
 * notice on their own: the IPC channel's disconnect, and the guard before each outbound call (worker.ts).
 */
const SETPRIV = process.platform === 'linux' ? ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p)) : undefined;

/** A worker process running this module (under tsx, a .ts file: the child loads it through tsx as this process does). */
function spawn(): ChildProcess {
  const path = fileURLToPath(import.meta.url);
  const needsTsx = path.endsWith('.ts') && !process.execArgv.some((a) => a.includes('tsx'));
  const execArgv = needsTsx ? [...process.execArgv, '--import', import.meta.resolve('tsx')] : process.execArgv;
  const options = { serialization: 'json' as const, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] as ('ignore' | 'inherit' | 'ipc')[] };
  // setpriv execs node in its own place (same pid, same descriptors and environment, so the IPC channel holds).
  if (SETPRIV !== undefined) return fork(path, [WORKER_FLAG], { ...options, execPath: SETPRIV, execArgv: ['--pdeathsig', 'KILL', process.execPath, ...execArgv] });
  return fork(path, [WORKER_FLAG], { ...options, execArgv });
}

export async function startSandboxPool(options: SandboxPoolOptions): Promise<SandboxPool> {
  const count = options.workers ?? defaultWorkerCount();
  if (!Number.isInteger(count) || count < 1 || count > MAX_WORKERS) throw new Error(`workers must be an integer 1-${MAX_WORKERS}, got ${count}`);
  const start: WorkerStart = { type: 'start', db: options.db, ...(options.adminToken ? { adminToken: options.adminToken } : {}), ...(options.engine ? { engine: options.engine } : {}) };
  const slots: Slot[] = [];
  let closing = false;
  let nextId = 0;
  const idleWaits = new Map<number, { left: Set<Slot>; done: () => void }>();
  const send = (slot: Slot, message: MainToWorker): void => {
    if (slot.child.connected) slot.child.send(message);
  };
  const settle = (id: number, slot: Slot): void => {
    const wait = idleWaits.get(id);
    if (!wait) return;
    wait.left.delete(slot);
    if (wait.left.size === 0) {
      idleWaits.delete(id);
      wait.done();
    }
  };

  /** Waits for every live worker's background work. */
  const poolIdle = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const live = slots.filter((s) => s.ready);
      if (live.length === 0) return resolve();
      const id = nextId++;
      idleWaits.set(id, { left: new Set(live), done: resolve });
      for (const slot of live) send(slot, { type: 'idle', id });
    });

  // Each worker gets one request at a time (its engine is synchronous: a second one would only wait behind the
  // first, and behind a slow statement it would wait as long); the others wait here, first come first served,
  // for the first worker that answers. So a worker held by a slow statement takes no more requests.
  // The writes of one caller hold at most half the workers (write-share.ts): a burst of writes waiting on one
  // organization's lock leaves workers for every other request.
  const queue: InFlight[] = [];
  const shares = new WriteShares(writeShare(count));
  let cursor = 0;
  /** A ready worker with nothing in flight (the first such after the last choice, to spread the work). */
  const free = (): Slot | undefined => {
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[(cursor + i) % slots.length]!;
      if (slot.ready && slot.inFlight.size === 0) {
        cursor = (cursor + i + 1) % slots.length;
        return slot;
      }
    }
    return undefined;
  };
  const dispatch = (slot: Slot, pending: InFlight): void => {
    slot.inFlight.set(pending.message.id, pending);
    shares.started(pending.writer);
    send(slot, pending.message);
  };
  /** Takes a request off a worker (answered, or its worker died). */
  const undispatch = (slot: Slot, id: number): InFlight | undefined => {
    const pending = slot.inFlight.get(id);
    slot.inFlight.delete(id);
    if (pending) shares.finished(pending.writer);
    return pending;
  };
  /** Gives waiting requests to free workers: the first in arrival order whose caller is within its share of writes. */
  const pump = (): void => {
    while (queue.length > 0) {
      const at = queue.findIndex((pending) => shares.allows(pending.writer));
      if (at < 0) return;
      const slot = free();
      if (!slot) return;
      dispatch(slot, queue.splice(at, 1)[0]!);
    }
  };
  const submit = (pending: InFlight, front = false): void => {
    if (front) queue.unshift(pending);
    else queue.push(pending);
    pump();
    if (!queue.includes(pending)) return;
    // No worker came free in time (all held, or none alive while one is replaced): 503, try again.
    setTimeout(() => {
      const at = queue.indexOf(pending);
      if (at < 0) return;
      queue.splice(at, 1);
      pending.answer(json(503, { error: { code: 'INTERNAL', message: 'The sandbox is busy; try again.', details: [] } }));
    }, QUEUE_TIMEOUT_MS).unref();
  };

  const launch = (index: number): Promise<WorkerToMain & { type: 'ready' }> =>
    new Promise((resolve, reject) => {
      const child = spawn();
      const slot: Slot = { child, inFlight: new Map(), ready: false };
      slots[index] = slot;
      child.send({ ...start } satisfies MainToWorker | WorkerStart);
      child.on('message', (message: WorkerToMain) => {
        switch (message.type) {
          case 'ready':
            slot.ready = true;
            resolve(message);
            pump();
            break;
          case 'failed':
            reject(new PoolStartError(message.reason, message.unavailable));
            break;
          case 'response': {
            const pending = undispatch(slot, message.id);
            pending?.answer({ status: message.status, headers: message.headers, body: message.body });
            pump();
            break;
          }
          case 'idled':
            settle(message.id, slot);
            break;
          case 'pool-idle':
            void poolIdle().then(() => send(slot, { type: 'pool-idled', id: message.id }));
            break;
          case 'closed':
            break;
        }
      });
      child.on('error', (error) => {
        if (!slot.ready) reject(new PoolStartError(error.message, false));
      });
      child.on('exit', (code, signal) => {
        const wasReady = slot.ready;
        slot.ready = false;
        // Reads go to another worker (the dead one may never have seen them); anything else may have been
        // done, or half of it rolled back, so its caller is told to try again.
        const orphans = [...slot.inFlight.keys()].map((id) => undispatch(slot, id)!);
        for (const pending of orphans) {
          if (SAFE_METHODS.has(pending.message.method.toUpperCase()) && !closing) submit(pending, true);
          else pending.answer(workerGone());
        }
        if (!wasReady) reject(new PoolStartError(`the worker stopped while starting (${signal ?? `exit ${code}`})`, false));
        // Waits that counted this worker would never finish otherwise.
        for (const id of [...idleWaits.keys()]) settle(id, slot);
        if (!closing && wasReady && slots[index] === slot) {
          process.stderr.write(`sandbox: a pool worker stopped (${signal ?? `exit ${code}`}); starting another\n`);
          replace(index);
        }
      });
    });

  /** Starts a worker in place of a dead one, again after a pause while that fails (the database may be down). */
  const replace = (index: number): void => {
    void launch(index).catch((error: Error) => {
      if (closing) return;
      process.stderr.write(`sandbox: could not replace a pool worker (${error.message}); trying again\n`);
      setTimeout(() => closing || replace(index), RELAUNCH_PAUSE_MS).unref();
    });
  };

  const stopAll = async (): Promise<void> => {
    closing = true;
    await Promise.all(
      slots.map(
        (slot) =>
          new Promise<void>((resolve) => {
            if (slot.child.exitCode !== null || slot.child.signalCode !== null) return resolve();
            slot.child.once('exit', () => resolve());
            if (slot.ready && slot.child.connected) send(slot, { type: 'close' });
            else slot.child.kill();
          }),
      ),
    );
  };

  // The first worker migrates and seeds (development organization, admin token) before the others start, so
  // they find what it stored instead of all racing to create it. The pool answers as soon as the first is ready
  // (start-up is what a worker costs: loading the engine, about a second of CPU each); the others join as they
  // come up, requests waiting meanwhile for a free worker.
  let first: WorkerToMain & { type: 'ready' };
  try {
    first = await launch(0);
  } catch (error) {
    await stopAll();
    throw error;
  }
  for (let i = 1; i < count; i++) replace(i);

  const forward = async (req: IncomingMessage, res: ServerResponse, host: string): Promise<void> => {
    const request = fromNodeRequest(req, host);
    // Read here, up to the limit (or not at all when its Content-Length is over it): the worker gets bytes.
    const body = forwardedBody(declaredTooLarge(req) ? null : await request.bytes());
    const response = await new Promise<SandboxResponse>((answer) => {
      const pending: InFlight = { message: { type: 'request', id: nextId++, method: request.method, url: request.url.href, headers: req.headers, body }, writer: writerOf(request.method, req.headers), answer };
      submit(pending);
      // A request whose client has gone before a worker took it is not run: a backlog of abandoned requests
      // (a load generator stopping, clients timing out) would otherwise hold the workers after its callers left.
      res.once('close', () => {
        const at = queue.indexOf(pending);
        if (at < 0) return;
        queue.splice(at, 1);
        answer(workerGone());
      });
    });
    if (res.destroyed) return;
    await drained(req, request);
    writeNodeResponse(res, response);
  };

  const listeners = new Listeners(forward, { basePath: first.basePath, controlPath: CONTROL_PATH, inspectorPath: INSPECTOR_PATH });
  return {
    apiKey: first.apiKey,
    adminToken: first.adminToken,
    organizationId: first.organizationId,
    defaultWorkspaceId: first.defaultWorkspaceId ?? undefined,
    workers: count,
    workerPids: () => slots.map((s) => s.child.pid).filter((pid): pid is number => pid !== undefined),
    idle: poolIdle,
    listen: (listenOptions) => listeners.open(listenOptions),
    async close() {
      await listeners.closeAll();
      await stopAll();
    },
  };
}

// Started as a pool worker (spawn() above): wait for the start message, then run the engine. The worker leaves
// signals to its listener (Ctrl+C reaches the whole process group; the listener closes the pool in order) and
// exits when the listener is gone.
if (process.argv[2] === WORKER_FLAG && process.send) {
  const channel = process as unknown as Parameters<typeof runPoolWorker>[1];
  process.on('SIGINT', () => {});
  process.on('disconnect', () => process.exit(0));
  process.once('message', (start: WorkerStart) => void runPoolWorker(start, channel, () => process.disconnect()));
}
