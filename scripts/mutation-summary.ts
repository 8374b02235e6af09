// Summarises Stryker JSON reports: the score per file and overall, and what survives by mutator kind.
// `tsx scripts/mutation-summary.ts [report.json ...]` (default reports/mutation/mutation.json). Given several
// reports, each file is taken from the newest report that has it (partial runs of one file each combine into one
// table); `--out <file>` writes the combination as one report.
import { readFileSync, statSync, writeFileSync } from 'node:fs';

interface Mutant {
  status: string;
  mutatorName: string;
}
interface Report {
  schemaVersion?: string;
  thresholds?: unknown;
  files: Record<string, { language?: string; source?: string; mutants: Mutant[] }>;
}

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? args[outIndex + 1] : undefined;
const inputs = args.filter((a, i) => i !== outIndex && i !== outIndex + 1);
const paths = inputs.length > 0 ? inputs : ['reports/mutation/mutation.json'];

const files = new Map<string, { mtime: number; entry: Report['files'][string] }>();
let base: Report | undefined;
for (const path of paths) {
  const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
  base ??= report;
  const mtime = statSync(path).mtimeMs;
  for (const [file, entry] of Object.entries(report.files)) {
    const seen = files.get(file);
    if (!seen || seen.mtime < mtime) files.set(file, { mtime, entry });
  }
}

const killedLike = new Set(['Killed', 'Timeout']);
const scored = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);
const pct = (k: number, t: number): string => (t === 0 ? '-' : `${((100 * k) / t).toFixed(1)}%`);
const rows: string[] = ['| file | killed | survived | no coverage | score |', '|---|---:|---:|---:|---:|'];
let killed = 0;
let total = 0;
const byKind = new Map<string, { survived: number; noCoverage: number }>();
for (const [file, { entry }] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const count = (status: string): number => entry.mutants.filter((m) => m.status === status).length;
  const k = entry.mutants.filter((m) => killedLike.has(m.status)).length;
  const t = entry.mutants.filter((m) => scored.has(m.status)).length;
  killed += k;
  total += t;
  rows.push(`| ${file} | ${k} | ${count('Survived')} | ${count('NoCoverage')} | ${pct(k, t)} |`);
  for (const m of entry.mutants) {
    if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
    const kind = byKind.get(m.mutatorName) ?? { survived: 0, noCoverage: 0 };
    if (m.status === 'Survived') kind.survived++;
    else kind.noCoverage++;
    byKind.set(m.mutatorName, kind);
  }
}
rows.push(`| **all** | ${killed} | | | **${pct(killed, total)}** |`);
console.log(rows.join('\n'));
console.log('\n| mutator | survived | no coverage |\n|---|---:|---:|');
for (const [kind, c] of [...byKind].sort((a, b) => b[1].survived + b[1].noCoverage - a[1].survived - a[1].noCoverage)) console.log(`| ${kind} | ${c.survived} | ${c.noCoverage} |`);

if (out && base) {
  const combined: Report = { ...base, files: Object.fromEntries([...files].map(([file, { entry }]) => [file, entry])) };
  writeFileSync(out, JSON.stringify(combined));
  console.log(`\nwrote ${out}`);
}
