// Faults on demand (issue 29): turning a decision into what the caller sees. Runs after authentication (the
// organization is known) and before the request's body is read or its operation runs, so a replaced answer
// changes no state. Every injected fault (and every added delay) is logged for the inspector's events feed.
import type { Clock } from '../engine/context.js';
import type { SandboxResponse } from '../http/exchange.js';
import { json } from '../http/respond.js';
import type { FaultInjector } from './injector.js';

/** Marks an answer as injected, so a user's logs can tell it from a real one. */
export const FAULT_HEADER = 'x-sandbox-fault';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The replaced answer, or undefined when the operation is to run (after any added delay). */
export async function injectFault(injector: FaultInjector, clock: Clock, org: string, operationId: string, method: string, path: string): Promise<SandboxResponse | undefined> {
  const decision = injector.decide(org, operationId);
  if (!decision || (decision.replace === null && decision.latencyMs === 0)) return undefined;
  const status = decision.replace === 'unavailable' ? 503 : decision.replace === 'rate_limited' ? 429 : null;
  injector.record({ at: clock.now().toISOString(), org, operationId, method, path, fault: decision.replace ?? 'delayed', status, latencyMs: decision.latencyMs, rule: decision.rule });
  if (decision.latencyMs > 0) await sleep(decision.latencyMs);
  if (decision.replace === 'unavailable') {
    // The seed's transient outage: 503 INTERNAL, "retry".
    const answer = json(503, { error: { code: 'INTERNAL', message: 'Transient database routing outage; retry.', details: [] } });
    answer.headers[FAULT_HEADER] = 'unavailable';
    return answer;
  }
  if (decision.replace === 'rate_limited') {
    // Decision: the seed names no code for 429; RESOURCE_EXHAUSTED is the gRPC-style name the API's codes follow.
    const answer = json(429, { error: { code: 'RESOURCE_EXHAUSTED', message: `Rate limit exceeded; retry after ${decision.retryAfterSeconds} s.`, details: [] } });
    answer.headers['retry-after'] = String(decision.retryAfterSeconds);
    answer.headers[FAULT_HEADER] = 'rate_limited';
    return answer;
  }
  if (decision.replace === 'dropped') return { status: 503, headers: { [FAULT_HEADER]: 'dropped' }, body: null, dropConnection: true };
  return undefined;
}
