// Faults on demand (issue 29): the configuration a user gives through the control plane (PUT /control/faults)
// or the start-up flag (--faults), read and checked here, once, into typed rules. Bad input is 400
// INVALID_ARGUMENT naming the field, as everywhere in the sandbox.
import { invalid } from '../errors.js';

/** How long a delay is: fixed, uniform between two bounds, or exponential with a mean (capped). */
export type Latency = { kind: 'fixed'; ms: number } | { kind: 'uniform'; minMs: number; maxMs: number } | { kind: 'exponential'; meanMs: number; maxMs: number };

export interface FaultRule {
  /** The organization whose requests the rule applies to; null for every organization. */
  organizationId: string | null;
  /** Operation ids the rule applies to; null for every operation. */
  operations: string[] | null;
  /** Fractions (0-1, summing to at most 1) of the matching requests whose answer is replaced. */
  unavailable: number;
  rateLimited: number;
  dropped: number;
  /** Retry-After (seconds) of a 429. */
  retryAfterSeconds: number;
  /** Added to every matching request (replaced or not), before its answer. */
  latency: Latency | null;
}

export interface FaultConfig {
  seed: number;
  rules: FaultRule[];
}

/** No single added delay is longer: a fault must never look like a hang to the drills or the user's suite. */
export const MAX_LATENCY_MS = 60_000;
export const MAX_RULES = 100;

export const NO_FAULTS: FaultConfig = { seed: 0, rules: [] };

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function fraction(rule: Obj, name: string, at: string): number {
  const v = rule[name];
  if (v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) throw invalid(`${at}.${name}`, 'must be a number from 0 to 1');
  return v;
}

function millis(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_LATENCY_MS) throw invalid(field, `must be an integer from 0 to ${MAX_LATENCY_MS} (milliseconds)`);
  return v;
}

function latency(v: unknown, at: string): Latency | null {
  if (v === undefined || v === null) return null;
  const field = `${at}.latency`;
  if (!isObj(v)) throw invalid(field, 'must be an object: {fixed_ms}, {min_ms, max_ms} or {mean_ms[, max_ms]}');
  const keys = Object.keys(v).sort().join(',');
  if (keys === 'fixed_ms') return { kind: 'fixed', ms: millis(v.fixed_ms, `${field}.fixed_ms`) };
  if (keys === 'max_ms,min_ms') {
    const minMs = millis(v.min_ms, `${field}.min_ms`);
    const maxMs = millis(v.max_ms, `${field}.max_ms`);
    if (maxMs < minMs) throw invalid(`${field}.max_ms`, 'must not be less than min_ms');
    return { kind: 'uniform', minMs, maxMs };
  }
  if (keys === 'mean_ms' || keys === 'max_ms,mean_ms') {
    return { kind: 'exponential', meanMs: millis(v.mean_ms, `${field}.mean_ms`), maxMs: v.max_ms === undefined ? MAX_LATENCY_MS : millis(v.max_ms, `${field}.max_ms`) };
  }
  throw invalid(field, 'must be one of {fixed_ms}, {min_ms, max_ms} (uniform) or {mean_ms[, max_ms]} (exponential)');
}

const RULE_KEYS = new Set(['organization_id', 'operations', 'unavailable', 'rate_limited', 'dropped', 'retry_after_seconds', 'latency']);

function rule(v: unknown, at: string, knownOperations: ReadonlySet<string>): FaultRule {
  if (!isObj(v)) throw invalid(at, 'must be an object');
  for (const k of Object.keys(v)) if (!RULE_KEYS.has(k)) throw invalid(`${at}.${k}`, `unknown property (known: ${[...RULE_KEYS].join(', ')})`);
  const org = v.organization_id;
  if (org !== undefined && org !== null && (typeof org !== 'string' || org === '')) throw invalid(`${at}.organization_id`, 'must be an organization id');
  let operations: string[] | null = null;
  if (v.operations !== undefined && v.operations !== null) {
    if (!Array.isArray(v.operations) || v.operations.length === 0 || v.operations.some((o) => typeof o !== 'string')) throw invalid(`${at}.operations`, 'must be a non-empty array of operation ids');
    const unknown = (v.operations as string[]).filter((o) => !knownOperations.has(o));
    if (unknown.length > 0) throw invalid(`${at}.operations`, `unknown operation id ${unknown.slice(0, 3).join(', ')}`);
    operations = v.operations as string[];
  }
  const unavailable = fraction(v, 'unavailable', at);
  const rateLimited = fraction(v, 'rate_limited', at);
  const dropped = fraction(v, 'dropped', at);
  if (unavailable + rateLimited + dropped > 1 + 1e-9) throw invalid(at, 'unavailable + rate_limited + dropped must not exceed 1');
  const retryAfter = v.retry_after_seconds ?? 1;
  if (typeof retryAfter !== 'number' || !Number.isInteger(retryAfter) || retryAfter < 0 || retryAfter > 3600) throw invalid(`${at}.retry_after_seconds`, 'must be an integer from 0 to 3600');
  return { organizationId: typeof org === 'string' ? org : null, operations, unavailable, rateLimited, dropped, retryAfterSeconds: retryAfter, latency: latency(v.latency, at) };
}

/** `{ seed?, rules: [...] }` as sent, checked against the operation ids the sandbox serves. */
export function parseFaultConfig(body: unknown, knownOperations: ReadonlySet<string>): FaultConfig {
  if (!isObj(body)) throw invalid(null, 'must be a JSON object {seed, rules}');
  for (const k of Object.keys(body)) if (k !== 'seed' && k !== 'rules') throw invalid(k, 'unknown property (known: seed, rules)');
  const seed = body.seed ?? 0;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) throw invalid('seed', 'must be an integer from 0 to 4294967295');
  if (!Array.isArray(body.rules)) throw invalid('rules', 'must be an array of fault rules');
  if (body.rules.length > MAX_RULES) throw invalid('rules', `at most ${MAX_RULES} rules`);
  return { seed, rules: body.rules.map((r, i) => rule(r, `rules[${i}]`, knownOperations)) };
}

/** The configuration as the control plane shows it (the shape it accepts). */
export function faultConfigView(config: FaultConfig): Obj {
  return {
    seed: config.seed,
    rules: config.rules.map((r) => ({
      organization_id: r.organizationId,
      operations: r.operations,
      unavailable: r.unavailable,
      rate_limited: r.rateLimited,
      dropped: r.dropped,
      retry_after_seconds: r.retryAfterSeconds,
      latency: r.latency === null ? null : r.latency.kind === 'fixed' ? { fixed_ms: r.latency.ms } : r.latency.kind === 'uniform' ? { min_ms: r.latency.minMs, max_ms: r.latency.maxMs } : { mean_ms: r.latency.meanMs, max_ms: r.latency.maxMs },
    })),
  };
}
