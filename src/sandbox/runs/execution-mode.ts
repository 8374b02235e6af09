// Whether the sandbox executes an organization's launched runs itself (automatic, the default for every
// organization) or leaves them PENDING for the control plane to complete (manual: tests that script outcomes).
// Kept in the store's meta, so every instance over a shared store agrees.
import type { Store } from '../storage/store.js';

export type ExecutionMode = 'automatic' | 'manual';

const key = (org: string): string => `run_execution_mode:${org}`;

export function executionMode(store: Store, org: string): ExecutionMode {
  return store.meta(key(org)) === 'manual' ? 'manual' : 'automatic';
}

export function setExecutionMode(store: Store, org: string, mode: ExecutionMode): void {
  store.setMeta(key(org), mode);
}
