// Faults given at start-up (createSandbox's `faults`, the CLI's --faults): the same configuration as the
// control plane's PUT /control/faults, refused with a plain Error naming the field (there is no request to
// answer with the envelope).
import type { Route } from '../engine/tables.js';
import { ApiFailure } from '../errors.js';
import { type FaultConfig, parseFaultConfig } from './config.js';

export function startupFaults(value: unknown, routes: readonly Route[]): FaultConfig {
  try {
    return parseFaultConfig(value, new Set(routes.map((r) => r.id)));
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    const detail = error.details[0];
    throw new Error(`faults: ${detail?.field ?? '(configuration)'}: ${detail?.description ?? error.message}`);
  }
}
