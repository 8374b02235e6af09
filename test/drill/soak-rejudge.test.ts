// Judging a soak report again from its own sample table (drill/soak-rejudge.ts), as the report's readers can.
import { expect, it } from 'vitest';
import { rejudgeReport } from '../../drill/soak-rejudge.js';

function report(rows: string[]): string {
  return [
    '# Soak report (SQLite)',
    '',
    '`npm run drill -- --soak 600`: **FAIL**. 12000 requests in 600 s (target 20/s) over 158 of 158 operations, seed 1.',
    '',
    '| t (s) | requests | p50 (ms) | p99 (ms) | RSS (MB) | heap (MB) | records stored | database (MB) | errors | 4xx | ticks skipped (busy) | slowest (operation ms) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    'Mean stored record size (as answered): 400 B.',
  ].join('\n');
}

const row = (t: number, rss: number, heap: number, db: string) => `| ${t} | 1200 | 2.0 | 10.0 | ${rss.toFixed(1)} | ${heap.toFixed(1)} | 20 | ${db} | 0 | 0 | 0 | getSpec 12 |`;

it('reads the samples back and judges them: RSS growing with the database file is accounted for, not a growing heap', () => {
  // Ten samples of 60 s; the file grows 2 MB a minute and RSS 4 MB a minute (mapped and cached).
  const flat = report(Array.from({ length: 10 }, (_, i) => row((i + 1) * 60, 150 + 4 * i, 40, (10 + 2 * i).toFixed(1))));
  expect(Object.fromEntries(rejudgeReport(flat)!.map((c) => [c.name, c.ok]))).toEqual({ 'p99 flat': true, 'RSS flat': true, 'heap flat': true });
  const leaking = report(Array.from({ length: 10 }, (_, i) => row((i + 1) * 60, 150, 40 + 3 * i, (10 + i).toFixed(1))));
  expect(Object.fromEntries(rejudgeReport(leaking)!.map((c) => [c.name, c.ok]))['heap flat']).toBe(false);
  // Without database sizes (PostgreSQL: "-") the same RSS growth is not accounted for.
  const noSizes = report(Array.from({ length: 10 }, (_, i) => row((i + 1) * 60, 150 + 4 * i, 40, '-')));
  expect(Object.fromEntries(rejudgeReport(noSizes)!.map((c) => [c.name, c.ok]))['RSS flat']).toBe(false);
});

it('reads reports with the process count and the RSS breakdown columns (anonymous / mapped files, external) as those without', () => {
  const plain = report(Array.from({ length: 10 }, (_, i) => row((i + 1) * 60, 150, 40 + 3 * i, (10 + i).toFixed(1))));
  const withBreakdown = plain
    .replace('| p99 (ms) | RSS (MB) | heap (MB) |', '| p99 (ms) | processes | RSS (MB) | RSS anonymous / mapped files (MB) | external (MB) | heap (MB) |')
    .replace('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|', '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|')
    .replace(/^\| (\d+) \| 1200 \| 2\.0 \| 10\.0 \| ([\d.]+) \|/gm, '| $1 | 1200 | 2.0 | 10.0 | 15 | $2 | 90.0 / 60.0 | 3.0 |');
  expect(withBreakdown).toContain('| 15 | 150.0 | 90.0 / 60.0 | 3.0 |');
  expect(rejudgeReport(withBreakdown)).toEqual(rejudgeReport(plain));
  expect(Object.fromEntries(rejudgeReport(withBreakdown)!.map((c) => [c.name, c.ok]))['heap flat']).toBe(false);
  // Reports since 2026-12-07 18:45 also say how much of the anonymous memory is V8's heap.
  const withV8 = withBreakdown.replace('| RSS anonymous / mapped files (MB) |', '| RSS anonymous (of it V8 heap) / mapped files (MB) |').replaceAll('| 90.0 / 60.0 |', '| 90.0 (55.0) / 60.0 |');
  expect(withV8).toContain('| 90.0 (55.0) / 60.0 |');
  expect(rejudgeReport(withV8)).toEqual(rejudgeReport(plain));
});

it('says when a text is no soak report', () => {
  expect(rejudgeReport('# Something else\n')).toBeNull();
});
