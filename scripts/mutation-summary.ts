// Summarises Stryker JSON reports: the score per file and overall, and what survives by mutator kind.
// `tsx scripts/mutation-summary.ts [report.json ...]` (default reports/mutation/mutation.json); `--out <file>` writes
// the combination as one report; `--survivors <text>` lists each surviving or uncovered mutant of the files whose
// path contains <text>, with its line and replacement.
//
// Several reports combine mutant by mutant, so one-file runs and line-range runs (MUTATE=file.ts:10-20) add up:
// a file's result is built only from reports made on the file's current source (a report of an older source says
// nothing about today's mutants, so it is dropped with a warning): the union of their mutants, each later run's
// verdict replacing an earlier one on the same mutant (same place, mutator and replacement).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { exitWithUsage, readCommandLine } from './command-line.js';

interface Mutant {
  status: string;
  mutatorName: string;
  replacement?: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface Report {
  schemaVersion?: string;
  thresholds?: unknown;
  files: Record<string, { language?: string; source?: string; mutants: Mutant[] }>;
}
type Entry = Report['files'][string];

const USAGE = [
  'usage: npm run mutation:summary -- [report.json ...] [--out FILE] [--survivors TEXT]',
  '  report.json ...    Stryker JSON reports to combine (default reports/mutation/mutation.json)',
  '  --out FILE         also write the combination as one report',
  '  --survivors TEXT   list each surviving or uncovered mutant of the files whose path contains TEXT',
].join('\n');
const { values, positionals: inputs } = readCommandLine({
  command: 'mutation:summary',
  usage: USAGE,
  options: { out: { type: 'string' }, survivors: { type: 'string' } },
  allowPositionals: true,
});
const out = values.out;
const survivorsOf = values.survivors;
const paths = inputs.length > 0 ? inputs : ['reports/mutation/mutation.json'];

const key = (m: Mutant): string => `${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column} ${m.mutatorName} ${m.replacement ?? ''}`;

const runs = new Map<string, { mtime: number; entry: Entry }[]>();
let base: Report | undefined;
for (const path of paths) {
  if (!existsSync(path)) exitWithUsage('mutation:summary', USAGE, `no report at ${path} (npm run mutation writes reports/mutation/mutation.json)`);
  let report: Report;
  try {
    report = JSON.parse(readFileSync(path, 'utf8')) as Report;
  } catch (error) {
    exitWithUsage('mutation:summary', USAGE, `${path} is not a Stryker JSON report: ${(error as Error).message}`);
  }
  base ??= report;
  const mtime = statSync(path).mtimeMs;
  for (const [file, entry] of Object.entries(report.files)) runs.set(file, [...(runs.get(file) ?? []), { mtime, entry }]);
}

const files = new Map<string, Entry>();
for (const [file, all] of runs) {
  const source = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (source === undefined) {
    console.warn(`skipped ${file}: no longer exists`);
    continue;
  }
  const current = all.filter((r) => r.entry.source === undefined || r.entry.source === source);
  if (current.length === 0) {
    console.warn(`skipped ${file}: every report of it was made on an older source; run it again`);
    continue;
  }
  const widest = current.reduce((a, b) => (b.entry.mutants.length > a.entry.mutants.length || (b.entry.mutants.length === a.entry.mutants.length && b.mtime > a.mtime) ? b : a));
  // Every run's mutants, oldest run first, so a later verdict replaces an earlier one on the same mutant and
  // line-range runs of disjoint ranges add up (a mutant outside the widest run's range is kept too).
  const merged = new Map<string, Mutant>();
  for (const run of [...current].sort((a, b) => a.mtime - b.mtime)) for (const m of run.entry.mutants) merged.set(key(m), m);
  files.set(file, { ...widest.entry, mutants: [...merged.values()] });
}

const killedLike = new Set(['Killed', 'Timeout']);
const scored = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);
const pct = (k: number, t: number): string => (t === 0 ? '-' : `${((100 * k) / t).toFixed(1)}%`);
const rows: string[] = ['| file | killed | survived | no coverage | score |', '|---|---:|---:|---:|---:|'];
let killed = 0;
let total = 0;
const byKind = new Map<string, { survived: number; noCoverage: number }>();
for (const [file, entry] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
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

if (survivorsOf !== undefined) {
  console.log('');
  for (const [file, entry] of files) {
    if (!file.includes(survivorsOf)) continue;
    const lines = (entry.source ?? readFileSync(file, 'utf8')).split('\n');
    const left = entry.mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage').sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
    for (const m of left) {
      const line = m.location.start.line;
      const code = (lines[line - 1] ?? '').trim().slice(0, 120);
      console.log(`${file}:${line}:${m.location.start.column} ${m.status} ${m.mutatorName}: ${code}\n    => ${(m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 120)}`);
    }
  }
}

if (out && base) {
  const combined: Report = { ...base, files: Object.fromEntries(files) };
  writeFileSync(out, JSON.stringify(combined));
  console.log(`\nwrote ${out}`);
}
