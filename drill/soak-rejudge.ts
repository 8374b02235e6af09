// Judges a soak report again from its own samples with the current verdict (drill/soak-judge.ts), for a report
// written before the verdict changed: `npx tsx drill/soak-rejudge.ts docs/soak-sqlite.md [--write]`. Prints the
// flatness checks; with --write, adds them to the report under their own heading, leaving the original verdict
// as it was written.
import { readFileSync, writeFileSync } from 'node:fs';
import { type Check, judgeFlatness, type SoakSample } from './soak-judge.js';

const MB = 1024 * 1024;
const HEADING = '## Flatness judged again with the current verdict';

/** The flatness checks of a soak report's samples under the current verdict; null when `text` is no soak report. */
export function rejudgeReport(text: string): Check[] | null {
  const seconds = Number(/ (\d+) requests in (\d+) s/.exec(text)?.[2]);
  const recordBytes = Number(/Mean stored record size \(as answered\): (\d+) B/.exec(text)?.[1] ?? 0);
  // The sample table: | t | requests | p50 | p99 | [processes |] RSS (MB) | [RSS anonymous / mapped files (MB) |
  // external (MB) |] heap (MB) | records stored | database (MB) | ... (reports before 2026-12-07 16:00 have neither
  // the process count nor the breakdown columns).
  const counted = /\| p99 \(ms\) \| processes \| RSS \(MB\) \|/.test(text) ? 1 : 0;
  const extra = counted + (/\| RSS anonymous (\(of it V8 heap\) )?\/ mapped files \(MB\) \| external \(MB\) \|/.test(text) ? 2 : 0);
  const samples: SoakSample[] = [];
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 10 + extra || !/^\d+$/.test(cells[1]!)) continue;
    const [t, requests, p50, p99] = cells.slice(1, 5);
    const rss = cells[5 + counted];
    const [heap, stored, db] = cells.slice(6 + extra, 9 + extra);
    samples.push({ t: Number(t), requests: Number(requests), p50: Number(p50), p99: Number(p99), rss: Number(rss) * MB, heap: Number(heap) * MB, stored: Number(stored), dbBytes: db === '-' ? null : Number(db) * MB });
  }
  if (!Number.isFinite(seconds) || samples.length === 0) {
    return null;
  }
  return judgeFlatness(samples, seconds, recordBytes);
}

function main(argv: string[]): number {
  const file = argv.find((a) => !a.startsWith('--'));
  if (!file || argv.some((a) => a.startsWith('--') && a !== '--write')) {
    process.stderr.write('usage: npx tsx drill/soak-rejudge.ts REPORT.md [--write]\n');
    return 2;
  }
  const text = readFileSync(file, 'utf8');
  const checks = rejudgeReport(text);
  if (checks === null) {
    process.stderr.write(`${file}: not a soak report (no duration or no sample table)\n`);
    return 2;
  }
  const rows = ['| check | result | detail |', '|---|---|---|', ...checks.map((c) => `| ${c.name} | ${c.ok ? 'pass' : '**FAIL**'} | ${c.detail} |`)];
  process.stdout.write(`${rows.join('\n')}\n`);
  if (argv.includes('--write')) {
    const kept = text.includes(HEADING) ? text.slice(0, text.indexOf(HEADING)).trimEnd() : text.trimEnd();
    writeFileSync(file, `${kept}\n\n${HEADING}\n\n\`npx tsx drill/soak-rejudge.ts ${file}\`, from the samples above (sizes as the table rounds them to 0.1 MB):\n\n${rows.join('\n')}\n`);
  }
  return checks.every((c) => c.ok) ? 0 : 1;
}

if (process.argv[1]?.endsWith('soak-rejudge.ts')) process.exitCode = main(process.argv.slice(2));
