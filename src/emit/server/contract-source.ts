// The route-table contract (src/contracts/route-table.ts) is a real module of the generator, imported by the
// emitter and the engine, and emitted verbatim as `sandbox/route-table.ts`: the generated route table imports
// its types from there. It holds no spec-derived content.
import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** Source text of `sandbox/route-table.ts`. */
export function routeTableContractSource(): string {
  cached ??= readFileSync(new URL('../../contracts/route-table.ts', import.meta.url), 'utf8');
  return cached;
}
