// The control plane's faults on demand (issue 29): GET shows the configuration with what each rule matched,
// PUT replaces it (restarting each rule's seeded sequence), DELETE removes every rule. The configuration is
// this instance's (kept in memory, like the start-up flag's); the body is read like every control body.
import type { Runtime } from '../engine/context.js';
import { faultConfigView, NO_FAULTS, parseFaultConfig } from '../faults/config.js';
import type { FaultInjector } from '../faults/injector.js';
import type { SandboxResponse } from '../http/exchange.js';
import { json } from '../http/respond.js';
import type { Json } from '../storage/store.js';

function view(faults: FaultInjector): Json {
  const shown = faultConfigView(faults.current);
  return { ...shown, matched: [...faults.matched], injected: faults.events().length } as Json;
}

export async function handleFaults(faults: FaultInjector, runtime: Runtime, method: string, body: () => Promise<Json>): Promise<SandboxResponse> {
  if (method === 'PUT') faults.set(parseFaultConfig(await body(), new Set(runtime.tables.routes.map((r) => r.id))));
  else if (method === 'DELETE') faults.set(NO_FAULTS);
  return json(200, view(faults));
}
