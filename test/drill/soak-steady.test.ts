// The soak measures the sandbox in a steady state (issue 29): the mix's creates and duplicates outnumber its
// deletes, so without the population cap every kind it duplicates grew all hour and the unpaged listings over them
// slowed with the traffic, not the sandbox. A short soak at a high rate does about a dozen rounds of the mix,
// enough for every capped kind to pass the cap.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POPULATION_CAP, runSoak } from '../../drill/soak.js';

const dir = mkdtempSync(join(tmpdir(), 'soak-steady-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the soak (scaled down)', () => {
  it('passes, and holds what its mix makes under the cap, duplicates and deleted metrics included', async () => {
    const outcome = await runSoak({ seconds: 30, rate: 60, seed: 20261207, dbDir: dir, quiet: true }, 'soak-steady.test.ts');
    // Every check but the latency and memory trends passes; those are judged (enough samples) but, as timings on a
    // machine that runs other tests beside this one, not asserted here: the hour-long soak asserts them.
    const judged = new Map(outcome.checks.map((c) => [c.name, c]));
    for (const name of ['no errors', 'nothing lost', 'runs executed', 'sandbox up']) expect(judged.get(name), name).toMatchObject({ ok: true });
    expect([...judged.keys()]).toEqual(expect.arrayContaining(['p99 flat', 'RSS flat', 'heap flat']));
    // The mix's own records: never more than the cap live (one request in flight may add one past it).
    for (const [kind, n] of Object.entries(outcome.made)) expect(n, kind).toBeLessThanOrEqual(POPULATION_CAP + 1);
    // What the database holds of the kinds the mix duplicates grew by the mix's records at most, not by one record
    // per round (before the cap: about a dozen duplicates each in this soak, 450 an hour); deleted metrics count,
    // as they stay listed until their purge.
    const before = outcome.storedBefore!;
    const after = outcome.stored!;
    for (const kind of ['agent', 'persona', 'test_set', 'metric']) expect((after[kind] ?? 0) - (before[kind] ?? 0), kind).toBeLessThanOrEqual(POPULATION_CAP + 1);
    // Background sounds cannot be deleted through the API: their create leaves the mix at the cap.
    expect((after.background_sound ?? 0) - (before.background_sound ?? 0)).toBeLessThanOrEqual(POPULATION_CAP);
  }, 120_000);
});
