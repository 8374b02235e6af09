// The control plane's run execution mode of an organization (GET/PUT /organizations/{id}/run-execution): automatic
// (the default: the sandbox executes launched runs) or manual (launched runs stay PENDING until run-completions).
import { invalid } from '../errors.js';
import type { Runtime } from '../engine/context.js';
import type { Json } from '../storage/store.js';
import { executionMode, setExecutionMode } from '../runs/execution-mode.js';

export function readRunExecution(runtime: Runtime, org: string): Json {
  return { mode: executionMode(runtime.store, org) };
}

export function changeRunExecution(runtime: Runtime, org: string, body: Json): Json {
  if (body.mode !== 'automatic' && body.mode !== 'manual') throw invalid('mode', 'must be automatic or manual');
  runtime.store.transaction(() => setExecutionMode(runtime.store, org, body.mode as 'automatic' | 'manual'), 'write');
  return { mode: body.mode };
}
