// The generated conformance suite against the in-process sandbox: every operation, every applicable check.
// No failure, and no skip without a reason from the short list of checks that cannot apply to this spec.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../generated/conformance/suite.js';
import { inProcessTarget } from '../../src/conformance/in-process.js';
import type { CheckResult } from '../../src/conformance/result.js';
import { runSuite } from '../../src/conformance/run.js';
import type { Target } from '../../src/conformance/target.js';
import type { Sandbox } from '../../src/sandbox/index.js';

/** Skips that are expected against the full sandbox, each with why. */
export const EXPECTED_SKIPS: RegExp[] = [
  // Boundary variants exist only for bodies with constrained fields.
  /the body schema has no constrained field with (valid|invalid) boundary values/,
];

let target: Target;
let sandbox: Sandbox;
beforeAll(async () => {
  ({ target, sandbox } = await inProcessTarget());
});
afterAll(async () => sandbox.close());

function explain(results: CheckResult[]): string {
  return results.map((r) => `${r.outcome} ${r.operation}: ${r.check}: ${r.detail ?? ''}`).join('\n');
}

describe('conformance of the sandbox', () => {
  it.each(routes.map((r) => r.id).sort())('%s', async (id) => {
    const results = await runSuite(target, { operations: [id] });
    expect(results.length).toBeGreaterThan(0);
    const failed = results.filter((r) => r.outcome === 'fail');
    expect(failed, explain(failed)).toEqual([]);
    const unexplained = results.filter((r) => r.outcome === 'skip' && !EXPECTED_SKIPS.some((re) => re.test(r.detail ?? '')));
    expect(unexplained, explain(unexplained)).toEqual([]);
  });
});
