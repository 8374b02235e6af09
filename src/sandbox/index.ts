// The sandbox's public surface.
export { createSandbox, CONTROL_PATH, type Sandbox, type SandboxOptions } from './sandbox.js';
export type { Store } from './storage/store.js';
export { openSqliteStore } from './storage/sqlite-store.js';
export { chooseDb, type DbChoice } from './storage/open.js';
export { defaultWorkerCount, MAX_WORKERS, PoolStartError, startSandboxPool, type SandboxPool, type SandboxPoolOptions } from './pool/pool.js';
