// The soak's flatness verdict (drill/soak-judge.ts): reference window [T/6, T/3] against the final sixth, medians
// within 10% (p99: or 5 ms), memory allowed to grow by the data stored in between.
import { describe, expect, it } from 'vitest';
import { judgeFlatness, median, type SoakSample } from '../../drill/soak-judge.js';

const MB = 1024 * 1024;

/** One sample a minute for an hour; `f` shapes each minute's values. */
function hour(f: (minute: number) => Partial<SoakSample>): SoakSample[] {
  return Array.from({ length: 60 }, (_, i) => ({ t: (i + 1) * 60, requests: 1200, p50: 5, p99: 40, rss: 150 * MB, heap: 40 * MB, stored: 500, ...f(i + 1) }));
}

const result = (samples: SoakSample[], recordBytes = 400) => Object.fromEntries(judgeFlatness(samples, 3600, recordBytes).map((c) => [c.name, c.ok]));

describe('judgeFlatness', () => {
  it('passes a flat run, whatever the warm-up did', () => {
    expect(result(hour((m) => (m < 5 ? { p99: 900, heap: 10 * MB } : {})))).toEqual({ 'p99 flat': true, 'RSS flat': true, 'heap flat': true });
  });

  it('fails a heap that keeps growing, and a p99 that keeps growing', () => {
    const leaking = result(hour((m) => ({ heap: (40 + m) * MB, p99: 40 + m })));
    expect(leaking).toEqual({ 'p99 flat': false, 'RSS flat': true, 'heap flat': false });
  });

  it('allows memory to grow by the data stored between the windows', () => {
    // 40,000 more records of 1 KB between minutes 10-20 and 50-60: 40 MB more is accounted for.
    const growing = hour((m) => ({ stored: m * 1000, heap: 40 * MB + m * 1000 * 1024 }));
    expect(result(growing, 1024)['heap flat']).toBe(true);
    expect(result(growing, 64)['heap flat']).toBe(false);
  });

  it("allows RSS, not the heap, the database file's growth in between and SQLite's page cache (4 MiB)", () => {
    // The file grows by 30 MB between the windows; RSS by that (mapped pages) and the page cache filling to its bound.
    const mapped = hour((m) => ({ dbBytes: m * 0.75 * MB, rss: 150 * MB + m * 0.75 * MB + (4 * MB * m) / 60 }));
    expect(result(mapped)).toEqual({ 'p99 flat': true, 'RSS flat': true, 'heap flat': true });
    // Twice the file's growth is more than the store maps and caches.
    expect(result(hour((m) => ({ dbBytes: m * 0.75 * MB, rss: 150 * MB + 2 * m * 0.75 * MB })))['RSS flat']).toBe(false);
    // Without the sizes the same RSS is growth nobody accounts for.
    expect(result(mapped.map(({ dbBytes: _, ...s }) => s))['RSS flat']).toBe(false);
    // A heap growing with the file is still a finding.
    expect(result(hour((m) => ({ dbBytes: m * 0.75 * MB, heap: 40 * MB + m * 0.75 * MB })))['heap flat']).toBe(false);
  });

  it('gives tiny latencies 5 ms of room, and compares medians (one slow minute is not a trend)', () => {
    expect(result(hour((m) => ({ p99: m > 50 ? 6 : 2 })))['p99 flat']).toBe(true);
    expect(result(hour((m) => ({ p99: m === 55 ? 5000 : 40 })))['p99 flat']).toBe(true);
  });

  it('refuses to judge a run with too few samples', () => {
    const checks = judgeFlatness(hour(() => ({})).slice(0, 3), 3600, 400);
    expect(checks).toHaveLength(1);
    expect(checks[0]!.ok).toBe(false);
  });

  it('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
