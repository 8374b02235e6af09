// The messages between a sandbox pool's listener process and its workers (child processes, each a sandbox engine
// with its own PostgreSQL connection), over IPC with JSON serialization: for these small messages Node's JSON
// channel costs about half the CPU of its structured-clone ('advanced') one on each side (issue 28 round 3:
// ~72 against ~40 µs per message in the listener, ~77 against ~46 in a worker, one request and its answer),
// so request bodies cross as base64 text. One definition, so both sides agree on every field.
import type { IncomingHttpHeaders } from 'node:http';
import type { WorkerEngineOptions } from './engine-options.js';

/** What a worker is started with: its first message (not its command line, which anyone may read: the URL may hold a password). */
export interface WorkerStart {
  type: 'start';
  db: string;
  adminToken?: string;
  /** Engine options every worker's sandbox is created with (JSON values: they cross IPC). */
  engine?: WorkerEngineOptions;
}

/** A request as the listener received it: method, URL, Node's parsed headers, the body bytes as base64 (null: over the limit). */
export interface ForwardedRequest {
  type: 'request';
  id: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string | null;
}

export type MainToWorker =
  | ForwardedRequest
  /** Wait for this worker's own background work (deliveries), then answer `idled`. */
  | { type: 'idle'; id: number }
  /** The answer to a worker's `pool-idle`: every worker's background work is done. */
  | { type: 'pool-idled'; id: number }
  | { type: 'close' };

export type WorkerToMain =
  | { type: 'ready'; apiKey: string; adminToken: string; organizationId: string; defaultWorkspaceId: string | null; basePath: string }
  /** The engine could not start; `unavailable` when the database refused or could not be reached. */
  | { type: 'failed'; reason: string; unavailable: boolean }
  | { type: 'response'; id: number; status: number; headers: Record<string, string>; body: string | null }
  | { type: 'idled'; id: number }
  /** The control plane of this worker waits for background work: asks the listener to wait for the whole pool's. */
  | { type: 'pool-idle'; id: number }
  | { type: 'closed' };
