// The conformance suite as vitest cases, one per operation: no failure, and no skip without a reason from the
// short list of checks that cannot apply to this spec. Run against the sandbox on each store.
import { expect, it } from 'vitest';
import { routes } from '../../generated/conformance/suite.js';
import type { CheckResult } from '../../src/conformance/result.js';
import { runSuite } from '../../src/conformance/run.js';
import type { Target } from '../../src/conformance/target.js';

/** Skips that are expected against the full sandbox, each with why. */
export const EXPECTED_SKIPS: RegExp[] = [
  // Boundary variants exist only for bodies with constrained fields.
  /the body schema has no constrained field with (valid|invalid) boundary values/,
];

function explain(results: CheckResult[]): string {
  return results.map((r) => `${r.outcome} ${r.operation}: ${r.check}: ${r.detail ?? ''}`).join('\n');
}

/** One case per operation, against the target `target()` returns once beforeAll has built it. */
export function conformanceCases(target: () => Target): void {
  it.each(routes.map((r) => r.id).sort())('%s', async (id) => {
    const results = await runSuite(target(), { operations: [id] });
    expect(results.length).toBeGreaterThan(0);
    const failed = results.filter((r) => r.outcome === 'fail');
    expect(failed, explain(failed)).toEqual([]);
    const unexplained = results.filter((r) => r.outcome === 'skip' && !EXPECTED_SKIPS.some((re) => re.test(r.detail ?? '')));
    expect(unexplained, explain(unexplained)).toEqual([]);
  });
}
