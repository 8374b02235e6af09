// npm run drill, scaled down: every drill runs against a real sandbox child process (a few hundred fuzz
// requests, races of 10, one kill -9), so `npm test` exercises the drills' code. The full run is
// `npm run drill`; its findings are in drill/REPORT.md.
import { describe, expect, it } from 'vitest';
import { parseOptions, runDrills } from '../../drill/run.js';

// No open findings: the two the first full run found (requests that are not HTTP answered by Node's parser
// without the envelope; a fixture alert's channel token shown) are fixed and must stay fixed.
const KNOWN: Record<string, string[]> = {};

describe('npm run drill (scaled down)', () => {
  it('runs every drill to the end with no finding', async () => {
    // The fuzz goes round-robin over the operations: 400 requests give each of the 154 at least two, so one
    // that drew a protocol-level mutation (no operation reached) is still reached by the other.
    const options = parseOptions(['--seed', '42', '--requests', '400', '--concurrency', '4', '--race-size', '10', '--race-rounds', '1', '--crash-rounds', '1', '--quiet']);
    const outcome = await runDrills(options);
    expect(outcome.results.map((r) => r.name)).toEqual(['fuzz', 'races', 'crash', 'isolation', 'secrets']);
    for (const r of outcome.results) {
      const unexpected = Object.keys(r.findingCounts).filter((k) => !(KNOWN[r.name] ?? []).includes(k));
      expect(unexpected, `${r.name}: ${JSON.stringify(r.findings, null, 1)}`).toEqual([]);
    }
    const numbers = Object.fromEntries(outcome.results.flatMap((r) => r.numbers.map(([k, v]) => [`${r.name}: ${k}`, v])));
    expect(numbers['fuzz: requests sent']).toBe(400);
    expect(numbers['fuzz: 5xx']).toBe(0);
    expect(numbers['fuzz: process up afterwards']).toMatch(/^yes/);
    expect(numbers['crash: rounds (kill -9, restart on the same file)']).toBe(1);
    expect(outcome.report).toContain('# Drill report');
  });
});
