// Runs every applicable check of every operation against a target, one at a time, each bounded in time,
// and cleans up what it created.
import { CHECKS, type Check } from './checks/index.js';
import { CheckFailure, CheckNotRun, CheckSkip, type CheckResult } from './result.js';
import { generatedSuite, type Route, type SuiteData } from './suite-data.js';
import type { Target } from './target.js';
import { World } from './world.js';

export interface RunOptions {
  suite?: SuiteData;
  checks?: readonly Check[];
  /** Only operations whose id contains this text. */
  operation?: string;
  /** Only these operation ids (exact). */
  operations?: readonly string[];
  /** Only checks whose name contains this text. */
  check?: string;
  /** Per-check time limit. */
  timeoutMs?: number;
  onResult?: (result: CheckResult) => void;
}

export async function runSuite(target: Target, options: RunOptions = {}): Promise<CheckResult[]> {
  const suite = options.suite ?? generatedSuite;
  const world = new World(target, suite);
  const results: CheckResult[] = [];
  const routes = [...suite.routes]
    .filter((r) => (options.operation === undefined || r.id.includes(options.operation)) && (options.operations === undefined || options.operations.includes(r.id)))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const route of routes) {
    const unreachable = shadowedBy(route, suite.routes);
    for (const check of options.checks ?? CHECKS) {
      if (!check.applies(route, suite)) continue;
      if (options.check !== undefined && !check.name.includes(options.check)) continue;
      if (unreachable !== undefined) {
        const result: CheckResult = { operation: route.id, check: check.name, outcome: 'not-run', detail: unreachable, rules: route.rules, ms: 0 };
        results.push(result);
        options.onResult?.(result);
        continue;
      }
      const started = performance.now();
      const limitMs = options.timeoutMs ?? 60_000;
      let result: CheckResult;
      try {
        await world.beginCheck(route);
        await withTimeout(check.run({ target, suite, world, route }), limitMs);
        result = { operation: route.id, check: check.name, outcome: 'pass', rules: route.rules, ms: 0 };
      } catch (error) {
        if (error instanceof CheckNotRun) result = { operation: route.id, check: check.name, outcome: 'not-run', detail: error.message, rules: route.rules, ms: 0 };
        else if (error instanceof CheckSkip) result = { operation: route.id, check: check.name, outcome: 'skip', detail: error.message, rules: route.rules, ms: 0 };
        else if (error instanceof CheckFailure) result = { operation: route.id, check: check.name, outcome: 'fail', detail: error.message, rules: route.rules, ms: 0 };
        else result = { operation: route.id, check: check.name, outcome: 'fail', detail: `error while checking: ${(error as Error)?.message ?? String(error)}`, rules: route.rules, ms: 0 };
      }
      try {
        await withTimeout(world.endCheck(), limitMs);
      } catch (error) {
        if (result.outcome === 'pass') result = { ...result, outcome: 'fail', detail: `removing the subscriptions the check left: ${(error as Error)?.message ?? String(error)}` };
      }
      result.ms = Math.round(performance.now() - started);
      results.push(result);
      options.onResult?.(result);
    }
  }
  await world.cleanUp();
  return results;
}

/**
 * Why an operation's requests cannot reach it, or undefined. Operations may share a method and a real path when
 * their path keys differ only after `#` (box documents variants of one endpoint as `/files/{file_id}#get_shared_link`;
 * rule 36 reads an undeclared bare `#name` as a mark, not a selector): nothing on the wire tells them apart, so the
 * sandbox's router, like the real API, takes the first in the spec's order, and checking a later one would check
 * that first operation under its name.
 */
export function shadowedBy(route: Route, routes: readonly Route[]): string | undefined {
  const selecting = (r: Route): string => JSON.stringify(r.select ?? []);
  const first = routes.find((r) => r.method === route.method && r.path === route.path && selecting(r) === selecting(route));
  return first === undefined || first === route ? undefined : `${route.method} ${route.path} is also ${first.id}'s, with nothing on the wire to tell them apart (their path keys differ after '#'): a request reaches ${first.id}`;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailure(`not finished within the per-check limit of ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
