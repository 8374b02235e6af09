// The official JSON Schema Test Suite (draft 2020-12) must pass completely, minus the documented exclusions.
import { describe, expect, it } from 'vitest';
import { EXCLUSIONS } from './exclusions.js';
import { runSuite, summaryLine, SUITE_DIR } from './run-suite.js';

describe('JSON Schema Test Suite (draft 2020-12)', () => {
  it.skipIf(SUITE_DIR === undefined)('passes every included test case', async () => {
    const r = await runSuite(SUITE_DIR!);
    console.log(summaryLine(r));
    expect(r.failures).toEqual([]);
    expect(r.failed).toBe(0);
    expect(r.passed).toBeGreaterThan(1000);
  }, 120_000);

  it('keeps every exclusion justified', () => {
    for (const e of EXCLUSIONS) expect(e.reason.length).toBeGreaterThan(20);
    expect(EXCLUSIONS.length).toBeLessThanOrEqual(12);
    // Only cases that need the suite's remotes/ (a server we do not run) may be left out.
    for (const e of EXCLUSIONS) expect(e.reason).toMatch(/remotes\//);
  });
});
