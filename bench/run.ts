// `npm run bench [-- --only generation,sandbox] [--skip validators] [options]`: runs the bench modules in turn,
// then writes bench/report.json (all rows) and bench/REPORT.md (one section per bench: method, targets, table) and
// prints the tables. A subset run replaces only its own benches' rows and sections and keeps the others from the
// previous report (each section says when it was measured). To add a bench, write bench/<name>.ts exporting an
// async function returning Row[] or a BenchResult and append it to `benches` below.
//
// `npm run bench -- --smoke` runs every case of every selected bench once with tiny durations (BenchOptions.smoke)
// and writes no report: it exits non-zero unless every bench returned rows and every row has both figures and no
// error (the validators bench throws when the peers disagree on validity). It never asserts a time. CI runs it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { benchValidators } from './validators.js';
import { benchGeneration } from './generation.js';
import { benchSandbox } from './sandbox.js';
import { benchSandboxPg } from './sandbox-pg.js';
import { benchClient } from './client.js';
import { benchRuns } from './runs.js';
import { cleanupTemp } from './processes.js';
import type { Bench, BenchOptions, BenchResult, Row, Target, Unit } from './types.js';
import { exitWithUsage, positiveNumber, readCommandLine, UsageError } from '../scripts/command-line.js';

const VALIDATOR_NOTES = [
  'Each figure is the median of 7 timed runs of about 300 ms, after a 300 ms warm-up; min-max is the range of those runs.',
  'Subjects of one case run interleaved in the same process (round-robin, order rotated each round).',
  '`ratio` = ours / peer: above 1 means ours is faster. Within a case, the peer rows share the same measurement of ours.',
  '',
  'Validator modes: `(is)` is the boolean answer (ours `.is()`, Ajv `allErrors: false`, TypeBox `TypeCompiler` `Check()`,',
  'typia `createIs`); `(all errors)` also collects every error (ours `.validate()`, Ajv `allErrors: true` with `.errors`,',
  'TypeBox `Check()` then `[...Errors()]` when invalid, typia `createValidate`). Ajv and TypeBox get the JSON Schemas of',
  'the model (Ajv: `ajv/dist/2020.js` + ajv-formats, `strict: false`; TypeBox: the schemas converted to TypeBox types',
  'with `$defs` references inlined, bench/json-schema-to-typebox.ts); typia gets TypeScript types carrying its',
  'constraint tags written from the same schemas (bench/json-schema-to-typia.ts), turned into validators ahead of time',
  'by `typia generate` (bench/typia-peer.ts, cached under node_modules/.cache). All four are first checked to agree',
  'on the validity of every input and of extra probe inputs.',
];

const benches: (Bench & { title: string; method?: string[] })[] = [
  { name: 'validators', title: 'Validators', method: VALIDATOR_NOTES, run: async (o) => withNotes(VALIDATOR_NOTES, await benchValidators(o)) },
  { name: 'generation', title: 'Generation', run: benchGeneration },
  { name: 'sandbox', title: 'Sandbox server', run: benchSandbox },
  { name: 'sandbox-pg', title: 'Sandbox on PostgreSQL (1-3 instances) beside SQLite', run: benchSandboxPg },
  { name: 'client', title: 'Client', run: benchClient },
  { name: 'runs', title: 'Runs at work (issue 25): conversations against a local chat agent', run: benchRuns },
];

/** A bench's result with its method notes first. */
function withNotes(method: string[], result: BenchResult): BenchResult {
  return { ...result, notes: [...method, ...(result.notes ?? [])] };
}

const REPORT_JSON = new URL('./report.json', import.meta.url);
const REPORT_MD = new URL('./REPORT.md', import.meta.url);

// ---------------------------------------------------------------------------------------------------------------
// Formatting.

function fmt(n: number | null, unit: Unit): string {
  if (n === null) return '-';
  switch (unit) {
    case 'ops/s':
    case 'req/s':
      return Math.round(n).toLocaleString('en-US');
    case 's':
      return n < 10 ? n.toFixed(2) : n.toFixed(1);
    case 'ms':
      return n < 100 ? n.toFixed(2) : n.toFixed(0);
    case 'MB':
      return Math.round(n).toLocaleString('en-US');
    case 'µs/call':
      return n.toFixed(1);
    case 'µs/req':
      return Math.round(n).toLocaleString('en-US');
  }
}

function cell(v: number | null, min: number | null, max: number | null, unit: Unit, runs?: number): string {
  if (v === null) return 'failed';
  return `${fmt(v, unit)} (${fmt(min, unit)}-${fmt(max, unit)})${runs !== undefined ? ` n=${runs}` : ''}`;
}

const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function markdownTable(rows: Row[]): string {
  const withNotes = rows.some((r) => r.error || r.note);
  const lines = [
    `| case | unit | ours (min-max) | peer | peer (min-max) | ratio |${withNotes ? ' note |' : ''}`,
    `| --- | --- | ---: | --- | ---: | ---: |${withNotes ? ' --- |' : ''}`,
  ];
  for (const r of rows) {
    const unit = `${r.unit}${r.better === 'lower' ? ' (lower is better)' : ''}`;
    const note = [r.error ? `**${r.error}**` : '', r.note ?? ''].filter(Boolean).join('; ');
    lines.push(
      `| ${r.name} | ${unit} | ${cell(r.ours, r.ours_min, r.ours_max, r.unit, r.runs?.ours)} | ${r.peer_name} | ${cell(r.peer, r.peer_min, r.peer_max, r.unit, r.runs?.peer)} | ${r.ratio === null ? '-' : r.ratio.toFixed(2)} |${withNotes ? ` ${esc(note)} |` : ''}`,
    );
  }
  return lines.join('\n');
}

function targetsTable(targets: Target[]): string {
  const lines = ['| target | met | measured |', '| --- | --- | --- |'];
  for (const t of targets) lines.push(`| ${esc(t.text)} | ${t.met === null ? 'not measured' : t.met ? 'met' : '**missed**'} | ${esc(t.detail)} |`);
  return lines.join('\n');
}

/** True when the 1-minute load average at the start or end of a section was above the number of cores. */
function busy(...loads: string[]): boolean {
  return loads.some((l) => Number(l.split(',')[0]) > cpus().length);
}

function machine(): string {
  const c = cpus();
  return `Node ${process.version}, ${process.platform}/${process.arch}, ${c.length} × ${c[0]?.model.trim() ?? 'cpu'}`;
}

// ---------------------------------------------------------------------------------------------------------------

function usage(): string {
  return [
    'usage: npm run bench -- [--smoke] [--only NAME[,NAME]] [--skip NAME[,NAME]] [--gen-runs N] [--gen-budget S] [--gen-inputs spec,es,big,corpus] [--sandbox-seconds S] [--sandbox-rounds N]',
    `  benches: ${benches.map((b) => b.name).join(', ')} (all by default)`,
    '  --smoke              every case once with tiny durations; checks that each case ran and the peers agree, writes no report',
    '  --gen-runs N         generation: timed runs per tool and input (default 3)',
    '  --gen-budget S       generation: a tool stops early once its runs on an input add up to S seconds (default 150)',
    '  --gen-inputs LIST    generation: inputs to run, of spec, es, big and corpus (memory over the corpus; default all)',
    '  --sandbox-seconds S  sandbox: seconds per load-test measurement (default 3)',
    '  --sandbox-rounds N   sandbox: rounds per case (default 3)',
    '  BENCH_RUNS / BENCH_RUN_MS / BENCH_WARMUP_MS tune the validators bench.',
  ].join('\n');
}

function list(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

interface Section {
  name: string;
  markdown: string;
}

/** The sections of an existing REPORT.md, between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`. */
function readSections(): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(REPORT_MD)) return out;
  const text = readFileSync(REPORT_MD, 'utf8');
  for (const m of text.matchAll(/<!-- bench:([\w-]+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g)) out.set(m[1]!, m[2]!);
  return out;
}

function benchOf(row: Row): string {
  return row.name.split(':')[0]!.trim();
}

async function main(): Promise<number> {
  const { values } = readCommandLine({
    command: 'bench',
    usage: usage(),
    options: {
      only: { type: 'string', multiple: true },
      skip: { type: 'string', multiple: true },
      'gen-runs': { type: 'string' },
      'gen-budget': { type: 'string' },
      'gen-inputs': { type: 'string', multiple: true },
      'sandbox-seconds': { type: 'string' },
      'sandbox-rounds': { type: 'string' },
      smoke: { type: 'boolean', default: false },
    },
  });
  let options: BenchOptions;
  let selected: typeof benches;
  try {
    const only = list(values.only);
    const skip = list(values.skip);
    for (const n of [...only, ...skip]) if (!benches.some((b) => b.name === n)) throw new UsageError(`unknown bench ${n}; known: ${benches.map((b) => b.name).join(', ')}`);
    selected = benches.filter((b) => (only.length === 0 || only.includes(b.name)) && !skip.includes(b.name));
    options = {
      genRuns: positiveNumber(values['gen-runs'], '--gen-runs'),
      genBudgetS: positiveNumber(values['gen-budget'], '--gen-budget'),
      ...(values['gen-inputs'] ? { genInputs: list(values['gen-inputs']) } : {}),
      sandboxSeconds: positiveNumber(values['sandbox-seconds'], '--sandbox-seconds'),
      sandboxRounds: positiveNumber(values['sandbox-rounds'], '--sandbox-rounds'),
      smoke: values.smoke ?? false,
    };
  } catch (error) {
    if (error instanceof UsageError) exitWithUsage('bench', usage(), error.message);
    throw error;
  }

  const started = performance.now();
  const fresh = new Map<string, { result: BenchResult; seconds: number; at: string; load: string; loadEnd: string }>();
  // A bench that throws does not stop the others: its section says so, and its rows from the previous report stay.
  const failed = new Map<string, { error: string; at: string }>();
  try {
    for (const bench of selected) {
      const t0 = performance.now();
      const load = loadavg().map((x) => x.toFixed(1)).join(', ');
      console.log(`bench ${bench.name} ...`);
      let out: Row[] | BenchResult;
      try {
        out = await bench.run(options);
      } catch (error) {
        const message = (error as Error)?.message ?? String(error);
        console.error(`bench ${bench.name} FAILED after ${((performance.now() - t0) / 1000).toFixed(1)} s: ${(error as Error)?.stack ?? message}`);
        failed.set(bench.name, { error: message.split('\n')[0]!, at: new Date().toISOString() });
        continue;
      }
      const result: BenchResult = Array.isArray(out) ? { rows: out } : out;
      const seconds = (performance.now() - t0) / 1000;
      fresh.set(bench.name, { result, seconds, at: new Date().toISOString(), load, loadEnd: loadavg().map((x) => x.toFixed(1)).join(', ') });
      console.log(`bench ${bench.name}: ${seconds.toFixed(1)} s${options.smoke ? `, ${result.rows.length} rows (smoke: figures not shown, they mean nothing)` : ''}`);
      if (options.smoke) continue;
      console.log('');
      console.log(markdownTable(result.rows));
      if (result.targets?.length) console.log('\n' + targetsTable(result.targets));
      console.log('');
    }
  } finally {
    cleanupTemp();
  }
  const total = (performance.now() - started) / 1000;
  if (options.smoke) return smokeVerdict(selected.map((b) => b.name), fresh, failed, total);

  // Rows: this run's benches replace theirs; the others are kept from the previous report.json.
  const previous: Row[] = existsSync(REPORT_JSON) ? (JSON.parse(readFileSync(REPORT_JSON, 'utf8')) as Row[]) : [];
  const rows: Row[] = [];
  for (const b of benches) {
    const f = fresh.get(b.name);
    if (f) rows.push(...f.result.rows);
    else {
      const fail = failed.get(b.name);
      const kept = previous.filter((r) => benchOf(r) === b.name);
      rows.push(...(fail ? kept.map((r) => ({ ...r, note: `not re-measured: this bench failed in the run of ${fail.at} (${fail.error}); figures from an earlier run` })) : kept));
    }
  }

  const oldSections = readSections();
  const sections: Section[] = [];
  for (const b of benches) {
    const f = fresh.get(b.name);
    if (f) {
      const md = [
        `## ${b.title}`,
        '',
        `Measured on ${f.at} in ${f.seconds.toFixed(0)} s (${machine()}; load average (1, 5, 15 min) at the start ${f.load}, at the end ${f.loadEnd}).${busy(f.load, f.loadEnd) ? ` **The machine was busy (load above its ${cpus().length} cores): these are not quiet-machine figures.**` : ''}`,
        '',
        ...(f.result.notes ?? []),
        '',
        ...(f.result.targets?.length ? ['Targets:', '', targetsTable(f.result.targets), ''] : []),
        markdownTable(f.result.rows),
        '',
      ].join('\n');
      sections.push({ name: b.name, markdown: md });
    } else if (failed.has(b.name)) {
      const fail = failed.get(b.name)!;
      // The previous section, unless it was itself a failure notice (then the kept rows are shown again).
      const old = oldSections.get(b.name)?.replace(/^## .*\n+/, '');
      const useOld = old !== undefined && !old.startsWith('**This bench failed');
      const kept = rows.filter((r) => benchOf(r) === b.name);
      sections.push({
        name: b.name,
        markdown: [
          `## ${b.title}`,
          '',
          `**This bench failed in the run of ${fail.at}: ${esc(fail.error)}.** ${useOld ? 'What follows is its section from an earlier run.' : kept.length > 0 ? 'Its rows from an earlier run are kept in bench/report.json and below.' : ''}`,
          '',
          ...(useOld ? [old!] : kept.length > 0 ? [...(b.method ? [...b.method, ''] : []), markdownTable(kept)] : []),
          '',
        ].join('\n'),
      });
    } else if (oldSections.has(b.name)) {
      sections.push({ name: b.name, markdown: oldSections.get(b.name)! });
    }
  }

  const md = [
    '# Benchmark report',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString()}${selected.length < benches.length ? ` (this run: ${selected.map((b) => b.name).join(', ')}; the other sections are from earlier runs)` : ''}; this run took ${total.toFixed(0)} s. ${machine()}.`,
    '',
    '`ratio` is above 1 when ours is better: ours / peer for throughput (ops/s, req/s), peer / ours for times and memory (marked "lower is better"). Figures are medians; min-max is the range of the runs; `n=` is the number of timed runs behind a median where a bench records it (the generation bench stops a slow tool early). All rows are also in bench/report.json.',
    '',
    ...sections.flatMap((s) => [`<!-- bench:${s.name} -->`, s.markdown.replace(/\n*$/, '\n'), `<!-- /bench:${s.name} -->`, '']),
  ].join('\n');

  writeFileSync(REPORT_JSON, JSON.stringify(rows, null, 2) + '\n');
  writeFileSync(REPORT_MD, md);
  console.log(`wrote bench/report.json (${rows.length} rows) and bench/REPORT.md in ${total.toFixed(1)} s`);
  if (failed.size > 0) {
    console.error(`failed: ${[...failed].map(([n, f]) => `${n} (${f.error})`).join('; ')}`);
    return 1;
  }
  return 0;
}

/**
 * The smoke run's verdict: every selected bench ran without throwing and returned rows, and every row has a figure
 * for ours and for the peer and no error (a failed run, unexpected statuses). Times are never judged.
 */
function smokeVerdict(names: string[], fresh: Map<string, { result: BenchResult }>, failed: Map<string, { error: string }>, seconds: number): number {
  const problems: string[] = [];
  for (const name of names) {
    const fail = failed.get(name);
    if (fail) {
      problems.push(`${name}: failed: ${fail.error}`);
      continue;
    }
    const rows = fresh.get(name)?.result.rows ?? [];
    if (rows.length === 0) problems.push(`${name}: no rows`);
    for (const r of rows) {
      // A row that measures ours alone (no peer by design: `-`, as the runs bench's) needs only our figure.
      const peerless = r.peer_name === '-' && r.peer === null;
      if (r.ours === null || !Number.isFinite(r.ours) || (!peerless && (r.peer === null || !Number.isFinite(r.peer)))) problems.push(`${r.name} against ${r.peer_name}: no figure (ours ${r.ours}, peer ${r.peer})`);
      if (r.error) problems.push(`${r.name} against ${r.peer_name}: ${r.error}`);
    }
  }
  const cases = names.reduce((n, name) => n + (fresh.get(name)?.result.rows.length ?? 0), 0);
  if (problems.length > 0) {
    console.error(`bench smoke FAILED in ${seconds.toFixed(1)} s:\n  ${problems.join('\n  ')}`);
    return 1;
  }
  console.log(`bench smoke: ${names.length} benches, ${cases} rows, every case ran and the peers agree (${seconds.toFixed(1)} s; no report written)`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench: ${(error as Error)?.stack ?? String(error)}`);
    cleanupTemp();
    process.exit(1);
  },
);
