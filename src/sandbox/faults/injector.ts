// Faults on demand (issue 29): which answer a request gets, decided before the operation runs (a replaced
// answer never runs the operation, so a faulted write changes nothing), reproducibly from the seed, and a log
// of what was injected for the inspector's event feed.
import type { FaultConfig, FaultRule, Latency } from './config.js';
import { NO_FAULTS } from './config.js';

export type FaultKind = 'unavailable' | 'rate_limited' | 'dropped';

export interface FaultDecision {
  /** Milliseconds to wait before answering (0: none). */
  latencyMs: number;
  /** The answer that replaces the operation's, or null: the operation runs. */
  replace: FaultKind | null;
  retryAfterSeconds: number;
  /** Which rule decided (index in the configuration) and its count of matching requests, for the log. */
  rule: number;
  n: number;
}

export interface FaultEvent {
  seq: number;
  at: string;
  org: string;
  operationId: string;
  method: string;
  path: string;
  /** The replacement, or `delayed` when only latency was added. */
  fault: FaultKind | 'delayed';
  status: number | null;
  latencyMs: number;
  rule: number;
}

/** How many injected faults the log keeps (oldest dropped first); the feed shows what is left. */
export const FAULT_LOG_SIZE = 1000;

/** A 32-bit mix (the murmur3 finaliser over a combination): the same inputs give the same draw. */
function mix32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** A uniform draw in [0, 1) from the seed, the rule, the request's number under the rule and a purpose. */
function draw(seed: number, rule: number, n: number, purpose: number): number {
  return mix32(seed, rule, n, purpose, n >>> 16) / 2 ** 32;
}

function delay(latency: Latency | null, u: number): number {
  if (latency === null) return 0;
  if (latency.kind === 'fixed') return latency.ms;
  if (latency.kind === 'uniform') return Math.round(latency.minMs + (latency.maxMs - latency.minMs) * u);
  return Math.min(latency.maxMs, Math.round(-latency.meanMs * Math.log(1 - u)));
}

function matches(rule: FaultRule, org: string, operationId: string): boolean {
  return (rule.organizationId === null || rule.organizationId === org) && (rule.operations === null || rule.operations.includes(operationId));
}

export class FaultInjector {
  private config: FaultConfig;
  /** Requests each rule matched since the configuration was set: the draw's position in the seed's sequence. */
  private counts: number[] = [];
  private readonly log: FaultEvent[] = [];
  private seq = 0;

  constructor(initial: FaultConfig = NO_FAULTS) {
    this.config = initial;
    this.counts = initial.rules.map(() => 0);
  }

  get current(): FaultConfig {
    return this.config;
  }

  /** Replaces the configuration; the sequence of each rule starts again from the seed. */
  set(config: FaultConfig): void {
    this.config = config;
    this.counts = config.rules.map(() => 0);
  }

  /** Matching requests per rule since the configuration was set. */
  get matched(): readonly number[] {
    return this.counts;
  }

  /** The first rule matching the organization and operation decides; none matching: undefined. */
  decide(org: string, operationId: string): FaultDecision | undefined {
    const i = this.config.rules.findIndex((r) => matches(r, org, operationId));
    if (i < 0) return undefined;
    const rule = this.config.rules[i]!;
    const n = this.counts[i]!++;
    const u = draw(this.config.seed, i, n, 1);
    const replace: FaultKind | null = u < rule.unavailable ? 'unavailable' : u < rule.unavailable + rule.rateLimited ? 'rate_limited' : u < rule.unavailable + rule.rateLimited + rule.dropped ? 'dropped' : null;
    return { latencyMs: delay(rule.latency, draw(this.config.seed, i, n, 2)), replace, retryAfterSeconds: rule.retryAfterSeconds, rule: i, n };
  }

  record(event: Omit<FaultEvent, 'seq'>): void {
    this.log.push({ ...event, seq: ++this.seq });
    if (this.log.length > FAULT_LOG_SIZE) this.log.splice(0, this.log.length - FAULT_LOG_SIZE);
  }

  /** The injected faults still in the log, oldest first (one organization's, when given). */
  events(org?: string): FaultEvent[] {
    return org === undefined ? [...this.log] : this.log.filter((e) => e.org === org);
  }
}

/**
 * The injector of each store's sandbox, for readers that only hold the runtime (the inspector's feed). A
 * sandbox registers its injector when it is created.
 */
const injectors = new WeakMap<object, FaultInjector>();

export function registerInjector(store: object, injector: FaultInjector): void {
  injectors.set(store, injector);
}

export function injectorOf(store: object): FaultInjector | undefined {
  return injectors.get(store);
}
