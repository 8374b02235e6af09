// One worker of a sandbox pool: a child process running a whole sandbox engine with its own synchronous
// PostgreSQL connection, answering the requests the listener process forwards over IPC. A statement that waits
// (a lock, a slow query) blocks this process only; the listener and the other workers go on. Each worker is to the database what an instance is
// (its own delivery owner and sweeper), so every cross-instance guarantee of the PostgreSQL store holds between
// workers as it holds between instances.
import { createSandbox, type Sandbox } from '../sandbox.js';
import { fromForwarded } from './forwarded-request.js';
import { listenerAliveCheck } from './listener-alive.js';
import type { MainToWorker, WorkerStart, WorkerToMain } from './messages.js';
import { outbound } from '../http/outbound.js';

/** The IPC channel to the listener process (a forked child's `process`). */
export interface WorkerChannel {
  send(message: WorkerToMain): void;
  on(event: 'message', listener: (message: MainToWorker) => void): void;
}

export async function runPoolWorker(start: WorkerStart, channel: WorkerChannel, exit: () => void): Promise<void> {
  const post = (message: WorkerToMain): void => channel.send(message);
  const poolIdleWaits = new Map<number, () => void>();
  let nextWait = 0;
  // The control plane's waits cover the whole pool: a delivery may be running on another worker.
  const backgroundIdle = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const id = nextWait++;
      poolIdleWaits.set(id, resolve);
      post({ type: 'pool-idle', id });
    });
  // A worker whose listener was killed sends nothing more: it exits right before a call would leave (a webhook,
  // an agent's turn), once the call's slot is taken, so no wait of the call's own comes after the check.
  const listenerAlive = listenerAliveCheck();
  outbound.setGuard(() => {
    if (!listenerAlive()) process.exit(0);
  });
  let sandbox: Sandbox;
  try {
    sandbox = await createSandbox({ db: start.db, backgroundIdle, ...start.engine, ...(start.adminToken ? { adminToken: start.adminToken } : {}) });
  } catch (error) {
    const reason = (error as { reason?: string }).reason;
    post({ type: 'failed', reason: reason ?? (error as Error)?.message ?? String(error), unavailable: reason !== undefined });
    exit();
    return;
  }
  channel.on('message', (message: MainToWorker) => {
    switch (message.type) {
      case 'request':
        // handle() never rejects: every failure is an answer with the error envelope.
        void sandbox.handle(fromForwarded(message)).then((response) => post({ type: 'response', id: message.id, status: response.status, headers: response.headers, body: response.body }));
        break;
      case 'idle':
        void sandbox.idle().then(() => post({ type: 'idled', id: message.id }));
        break;
      case 'pool-idled':
        poolIdleWaits.get(message.id)?.();
        poolIdleWaits.delete(message.id);
        break;
      case 'close':
        void sandbox.close().finally(() => {
          post({ type: 'closed' });
          exit();
        });
        break;
    }
  });
  outbound.warm();
  post({ type: 'ready', apiKey: sandbox.apiKey, adminToken: sandbox.adminToken, organizationId: sandbox.organizationId, defaultWorkspaceId: sandbox.defaultWorkspaceId ?? null, basePath: sandbox.basePath });
}
