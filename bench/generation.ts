// Generation: wall time, CPU time and peak memory of our generator against openapi-typescript (types only) and
// @hey-api/openapi-ts (types + fetch client), each a child process writing into a temp folder, on
//   - spec/ (13 documents with relative $refs to spec/_shared.yaml): ours exactly as `npm run generate` runs it
//     (strict policy, plus the control-plane client); the peers get the same 13 files in one process
//     (openapi-typescript: one redocly.yaml listing the 13 APIs; hey-api: 13 inputs / outputs, one job each);
//   - the largest document of ../shared/specs (elasticsearch-serverless, about 4 MB), ours with --policy lenient.
// Runs are interleaved (round-robin over the subjects, order rotated each round) after an untimed warm-up of each
// tool on a small document (petstore), so caches are warm and a burst of machine load is spread across tools.
//
// Where our time goes: the CLI prints its stage timings (load, model, emit, render, write) and, inside render,
// the compile time and the formatting time summed over the threads that format.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageVersion, runMeasured, stats, tempDir, type RunResult, type Stats } from './processes.js';
import type { BenchOptions, BenchResult, Row, Target } from './types.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CORPUS = process.env.CORPUS_DIR ?? resolve(ROOT, '../shared/specs');
const ES_DIR = join(CORPUS, 'elasticsearch-serverless');
const PETSTORE = join(CORPUS, 'petstore/petstore3-swagger-openapi.yaml');

const OT_BIN = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
const HEY_BIN = join(ROOT, 'node_modules/@hey-api/openapi-ts/bin/run.js');

// ---------------------------------------------------------------------------------------------------------------
// Inputs and tools.

interface Input {
  key: string;
  label: string;
  /** Files given to the peers (one API each). */
  documents: string[];
  /** Our generator's arguments after src/cli/generate.ts, given the output folder. */
  oursArgs: (out: string) => string[];
}

type ToolKey = 'ours' | 'openapi-typescript' | 'hey-api';

interface Tool {
  key: ToolKey;
  label: string;
  command: (input: Input, out: string) => { args: string[]; env?: Record<string, string> };
}

function specInput(): Input {
  const dir = join(ROOT, 'spec');
  const documents = readdirSync(dir)
    .filter((f) => /\.(ya?ml|json)$/.test(f) && !f.startsWith('_'))
    .sort()
    .map((f) => join(dir, f));
  // No --spec / --policy: the defaults of `npm run generate` (spec/, strict, plus the control-plane client).
  return { key: 'spec', label: `spec/ (${documents.length} documents)`, documents, oursArgs: (out) => ['--out', out] };
}

function esInput(): Input | undefined {
  if (!existsSync(ES_DIR)) return undefined;
  const file = readdirSync(ES_DIR).find((f) => /\.(json|ya?ml)$/.test(f));
  if (!file) return undefined;
  const path = join(ES_DIR, file);
  return { key: 'es', label: 'elasticsearch-serverless (3.8 MB)', documents: [path], oursArgs: (out) => ['--spec', path, '--out', out, '--policy', 'lenient'] };
}

export function petstoreInput(): Input {
  return { key: 'petstore', label: 'petstore', documents: [PETSTORE], oursArgs: (out) => ['--spec', PETSTORE, '--out', out, '--policy', 'lenient'] };
}

const apiName = (doc: string): string => basename(doc).replace(/\.(ya?ml|json)$/, '');

export function tools(): Tool[] {
  return [
    {
      key: 'ours',
      label: 'ours',
      // Cold: --no-cache, so every run renders every file (what a fresh checkout does).
      command: (input, out) => ({ args: ['--import', 'tsx', join(ROOT, 'src/cli/generate.ts'), ...input.oursArgs(out), '--no-cache'] }),
    },
    {
      key: 'openapi-typescript',
      label: `openapi-typescript ${packageVersion('openapi-typescript')} (types only)`,
      command: (input, out) => {
        if (input.documents.length === 1) return { args: [OT_BIN, input.documents[0]!, '-o', join(out, 'schema.d.ts')] };
        // Several documents in one process: a Redocly config listing each as an API with its own output.
        const config = ['apis:', ...input.documents.flatMap((d) => [`  ${apiName(d)}:`, `    root: ${JSON.stringify(d)}`, '    x-openapi-ts:', `      output: ${JSON.stringify(join(out, `${apiName(d)}.d.ts`))}`])];
        writeFileSync(join(out, 'redocly.yaml'), config.join('\n') + '\n');
        return { args: [OT_BIN, '--redocly', join(out, 'redocly.yaml')] };
      },
    },
    {
      key: 'hey-api',
      label: `@hey-api/openapi-ts ${packageVersion('@hey-api/openapi-ts')} (types + client)`,
      command: (input, out) => ({
        args: [HEY_BIN, '-i', ...input.documents, '-o', ...input.documents.map((d) => join(out, apiName(d))), '-c', '@hey-api/client-fetch', '--no-log-file', '-s'],
      }),
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring.

interface Sample {
  wallMs: number;
  cpuMs: number | undefined;
  peakRssMb: number | undefined;
  /** Ours only: stage timings in ms from the CLI (load, model, emit, render, write, total, compile, format, threads). */
  stages?: Record<string, number>;
}

interface Series {
  samples: Sample[];
  error?: string;
  elapsedMs: number;
  done: boolean;
}

/** Parses `... in 1234 ms (load 1 ms, model 2 ms, emit 3 ms, render 4 ms, write 5 ms; render: compile 6 ms, format 7 ms over 2 thread(s), ...)`. */
function parseCliStages(stdout: string): Record<string, number> {
  const out: Record<string, number> = {};
  const total = /\bin (\d+) ms \(/.exec(stdout);
  if (total) out.total = Number(total[1]);
  for (const [, name, ms] of stdout.matchAll(/\b(load|model|emit|render|write|compile|format) (\d+) ms/g)) out[name!] = Number(ms);
  const threads = /over (\d+) thread/.exec(stdout);
  if (threads) out.threads = Number(threads[1]);
  return out;
}

export async function runOnce(tool: Tool, input: Input): Promise<RunResult> {
  const out = tempDir(`gen-${tool.key}-${input.key}`);
  const { args, env } = tool.command(input, out);
  return runMeasured(process.execPath, args, { cwd: ROOT, env, timeoutMs: 15 * 60_000 });
}

function toSample(tool: Tool, r: RunResult): Sample {
  const sample: Sample = { wallMs: r.wallMs, cpuMs: r.cpuMs, peakRssMb: r.peakRssMb };
  if (tool.key === 'ours') sample.stages = parseCliStages(r.stdout);
  return sample;
}

const fmtS = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

export async function benchGeneration(options: BenchOptions = {}): Promise<BenchResult> {
  const runs = options.genRuns ?? 3;
  const budgetMs = (options.genBudgetS ?? 150) * 1000;
  const inputs = [specInput(), esInput()].filter((i): i is Input => i !== undefined && (options.genInputs === undefined || options.genInputs.includes(i.key)));
  const ts = tools();
  const log = (s: string): void => console.log(`  ${s}`);

  // Untimed warm-up: every tool once on petstore (loads its code from disk into the page cache, JIT-free otherwise).
  for (const tool of ts) {
    const r = await runOnce(tool, petstoreInput());
    log(`warm-up ${tool.key} on petstore: ${fmtS(r.wallMs)}${r.ok ? '' : ` (failed: ${r.error})`}`);
  }

  const series = new Map<string, Series>();
  const key = (t: Tool, i: Input): string => `${t.key}|${i.key}`;
  for (const i of inputs) for (const t of ts) series.set(key(t, i), { samples: [], elapsedMs: 0, done: false });

  for (let round = 0; round < runs; round++) {
    for (const input of inputs) {
      for (let j = 0; j < ts.length; j++) {
        const tool = ts[(j + round) % ts.length]!;
        const s = series.get(key(tool, input))!;
        if (s.done) continue;
        const r = await runOnce(tool, input);
        s.elapsedMs += r.wallMs;
        if (!r.ok) {
          s.error = r.error;
          s.done = true;
          log(`${input.key} ${tool.key} run ${round + 1}: FAILED ${r.error}`);
          continue;
        }
        const sample = toSample(tool, r);
        s.samples.push(sample);
        log(`${input.key} ${tool.key} run ${round + 1}: ${fmtS(r.wallMs)} wall, ${r.cpuMs === undefined ? '?' : fmtS(r.cpuMs)} CPU, ${r.peakRssMb?.toFixed(0) ?? '?'} MB${sample.stages ? ` (${JSON.stringify(roundAll(sample.stages))})` : ''}`);
        // A tool whose runs add up past the budget stops there (our generator on the 4 MB document can take minutes).
        if (s.samples.length >= runs || s.elapsedMs >= budgetMs) s.done = true;
      }
    }
  }

  // Ours again with a warm render cache (a repeated run on an unchanged spec: its files come from the cache),
  // after one untimed run that fills a fresh cache folder. Reported beside the cold runs, never instead of them.
  const warm = new Map<string, Sample[]>();
  for (const input of inputs) {
    const cacheDir = tempDir(`gen-cache-${input.key}`);
    const warmTool: Tool = { key: 'ours', label: 'ours (warm render cache)', command: (i, out) => ({ args: ['--import', 'tsx', join(ROOT, 'src/cli/generate.ts'), ...i.oursArgs(out), '--cache-dir', cacheDir] }) };
    const primed = await runOnce(warmTool, input);
    if (!primed.ok) continue;
    const samples: Sample[] = [];
    for (let round = 0; round < runs; round++) {
      const r = await runOnce(warmTool, input);
      if (!r.ok) break;
      samples.push(toSample(warmTool, r));
      log(`${input.key} ours (warm cache) run ${round + 1}: ${fmtS(r.wallMs)} wall`);
    }
    warm.set(input.key, samples);
  }

  const rows: Row[] = [];
  const targets: Target[] = [];
  const metricStats = (s: Series, pick: (x: Sample) => number | undefined): Stats | undefined => {
    const xs = s.samples.map(pick).filter((x): x is number => x !== undefined);
    return xs.length > 0 ? stats(xs) : undefined;
  };
  const metrics: { label: string; unit: 's' | 'MB'; pick: (x: Sample) => number | undefined; scale: number }[] = [
    { label: 'wall time', unit: 's', pick: (x) => x.wallMs, scale: 1 / 1000 },
    { label: 'CPU time (user+sys)', unit: 's', pick: (x) => x.cpuMs, scale: 1 / 1000 },
    { label: 'peak RSS', unit: 'MB', pick: (x) => x.peakRssMb, scale: 1 },
  ];
  const r3 = (x: number): number => Math.round(x * 1000) / 1000;
  for (const input of inputs) {
    const ours = series.get(key(ts[0]!, input))!;
    for (const m of metrics) {
      const o = metricStats(ours, m.pick);
      for (const peerTool of ts.slice(1)) {
        const peer = series.get(key(peerTool, input))!;
        const p = metricStats(peer, m.pick);
        const row: Row = {
          name: `generation: ${input.label} ${m.label}`,
          unit: m.unit,
          better: 'lower',
          ours: o ? r3(o.median * m.scale) : null,
          peer: p ? r3(p.median * m.scale) : null,
          peer_name: peerTool.label,
          ratio: o && p ? Math.round((p.median / o.median) * 100) / 100 : null,
          ours_min: o ? r3(o.min * m.scale) : null,
          ours_max: o ? r3(o.max * m.scale) : null,
          peer_min: p ? r3(p.min * m.scale) : null,
          peer_max: p ? r3(p.max * m.scale) : null,
          runs: { ours: ours.samples.length, peer: peer.samples.length },
        };
        if (ours.error) row.error = `ours failed: ${ours.error}`;
        else if (peer.error) row.error = `${peerTool.key} failed: ${peer.error}`;
        rows.push(row);
      }
    }
  }

  // Targets.
  const wall = (t: ToolKey, i: string): Stats | undefined => {
    const s = series.get(`${t}|${i}`);
    return s && !s.error ? metricStats(s, (x) => x.wallMs) : undefined;
  };
  const cpu = (t: ToolKey, i: string): Stats | undefined => {
    const s = series.get(`${t}|${i}`);
    return s && !s.error ? metricStats(s, (x) => x.cpuMs) : undefined;
  };
  const cpuNote = (a: Stats | undefined, b: Stats | undefined): string => (a && b ? `; CPU time ${fmtS(a.median)} vs ${fmtS(b.median)} (${(a.median / b.median).toFixed(2)}x)` : '');
  const es = inputs.find((i) => i.key === 'es');
  if (es) {
    const o = wall('ours', 'es');
    const hey = wall('hey-api', 'es');
    const ot = wall('openapi-typescript', 'es');
    const esError = series.get(`ours|es`)?.error;
    targets.push({
      text: `${es.label}: our full set faster than @hey-api/openapi-ts (wall time)`,
      met: o && hey ? o.median < hey.median : null,
      detail: o && hey ? `ours ${fmtS(o.median)} vs ${fmtS(hey.median)} (${(o.median / hey.median).toFixed(2)}x)${cpuNote(cpu('ours', 'es'), cpu('hey-api', 'es'))}` : `not measured${esError ? `: ours failed (${esError})` : ''}`,
    });
    targets.push({
      text: `${es.label}: our full set within 1.5x of openapi-typescript doing types alone (wall time)`,
      met: o && ot ? o.median <= 1.5 * ot.median : null,
      detail: o && ot ? `ours ${fmtS(o.median)} vs ${fmtS(ot.median)} (${(o.median / ot.median).toFixed(2)}x)${cpuNote(cpu('ours', 'es'), cpu('openapi-typescript', 'es'))}` : `not measured${esError ? `: ours failed (${esError})` : ''}`,
    });
  }
  const sp = wall('ours', 'spec');
  targets.push({
    text: '`npm run generate` on spec/ in under 2 s (wall time), cold (no render cache)',
    met: sp ? sp.median < 2000 : null,
    detail: sp ? `${fmtS(sp.median)} (min ${fmtS(sp.min)}); CPU time ${fmtS(cpu('ours', 'spec')?.median ?? NaN)}` : `not measured: ${series.get('ours|spec')?.error ?? ''}`,
  });
  const warmSpec = warm.get('spec');
  if (warmSpec && warmSpec.length > 0) {
    const w = stats(warmSpec.map((x) => x.wallMs));
    targets.push({
      text: '`npm run generate` on spec/ in under 2 s (wall time), warm render cache (spec unchanged since the last run)',
      met: w.median < 2000,
      detail: `${fmtS(w.median)} (min ${fmtS(w.min)})`,
    });
  }
  for (const input of inputs) {
    const samples = warm.get(input.key);
    if (!samples || samples.length === 0) continue;
    const o = stats(samples.map((x) => x.wallMs));
    for (const peerTool of ts.slice(1)) {
      const p = wall(peerTool.key, input.key);
      rows.push({
        name: `generation: ${input.label} wall time, ours with a warm render cache`,
        unit: 's',
        better: 'lower',
        ours: r3(o.median / 1000),
        peer: p ? r3(p.median / 1000) : null,
        peer_name: peerTool.label,
        ratio: p ? Math.round((p.median / o.median) * 100) / 100 : null,
        ours_min: r3(o.min / 1000),
        ours_max: r3(o.max / 1000),
        peer_min: p ? r3(p.min / 1000) : null,
        peer_max: p ? r3(p.max / 1000) : null,
        runs: { ours: samples.length, peer: series.get(`${peerTool.key}|${input.key}`)!.samples.length },
      });
    }
  }

  // Where our time goes.
  const stageNames: [string, string][] = [
    ['startup', 'Node + tsx start-up, imports'],
    ['load', 'load (parse, bundle, validate)'],
    ['model', 'model'],
    ['emit', 'emit (build TypeScript source)'],
    ['render', 'render (compile, then format in parallel)'],
    ['compile', 'of which compile (ts transpile, .js + .d.ts)'],
    ['format', 'format (prettier, summed over threads)'],
    ['write', 'write'],
  ];
  const stageLines = [
    '| input | runs | wall | ' + stageNames.map(([, l]) => l).join(' | ') + ' |',
    '| --- | ---: | ---: | ' + stageNames.map(() => '---:').join(' | ') + ' |',
  ];
  for (const input of inputs) {
    const s = series.get(`ours|${input.key}`)!;
    if (s.samples.length === 0) {
      stageLines.push(`| ${input.label} | 0 | failed: ${escapeCell(s.error ?? '')} | ${stageNames.map(() => '').join(' | ')} |`);
      continue;
    }
    const per = (f: (x: Sample) => number | undefined): string => {
      const xs = s.samples.map(f).filter((x): x is number => x !== undefined && Number.isFinite(x));
      if (xs.length === 0) return '?';
      const m = stats(xs).median;
      const w = stats(s.samples.map((x) => x.wallMs)).median;
      return `${fmtS(m)} (${Math.round((m / w) * 100)}%)`;
    };
    const st = (x: Sample, k: string): number | undefined => x.stages?.[k];
    const cells = {
      startup: per((x) => (st(x, 'total') === undefined ? undefined : x.wallMs - st(x, 'total')!)),
      load: per((x) => st(x, 'load')),
      model: per((x) => st(x, 'model')),
      emit: per((x) => st(x, 'emit')),
      render: per((x) => st(x, 'render')),
      compile: per((x) => st(x, 'compile')),
      format: per((x) => st(x, 'format')),
      write: per((x) => st(x, 'write')),
    } as Record<string, string>;
    stageLines.push(`| ${input.label} | ${s.samples.length} | ${fmtS(stats(s.samples.map((x) => x.wallMs)).median)} | ${stageNames.map(([k]) => cells[k]).join(' | ')} |`);
  }

  const runsNote = inputs
    .flatMap((i) => ts.map((t) => `${t.key} on ${i.key}: ${series.get(key(t, i))!.samples.length}`))
    .join(', ');
  const notes = [
    `Each tool runs as a child process (\`node <tool>\`, output into a fresh temp folder), interleaved round-robin with the order rotated each round, after one untimed warm-up run of each tool on petstore. Up to ${runs} runs per tool and input; a tool stops early once its runs on an input add up to ${budgetMs / 1000} s (runs made: ${runsNote}). Figures are medians, min-max the range. Wall time is spawn to exit (Node start-up included); CPU time and peak RSS come from \`process.resourceUsage()\` of every Node process of the tool (a preload module), peak RSS cross-checked with /proc VmHWM. \`ratio\` = peer / ours: above 1 means ours is faster or smaller.`,
    '',
    'What each tool does: **ours** `node --import tsx src/cli/generate.ts --no-cache` (cold: every file rendered) writes the full set, i.e. types, validators and client, and also the sandbox route table, the served documents and the conformance suite (on spec/ also the control-plane client; there is no switch to leave those out); **openapi-typescript** writes one `.d.ts` of types per document (spec/: one `redocly.yaml` listing the 13 documents, one process); **@hey-api/openapi-ts** writes types and an SDK with `@hey-api/client-fetch` (spec/: 13 inputs, 13 outputs, one process). Ours on spec/ runs exactly as `npm run generate` (strict policy); on elasticsearch-serverless with `--policy lenient`.',
    '',
    `**Warm render cache** rows: ours run again on the same input with \`--cache-dir\` pointing at a cache filled by one untimed run before (${[...warm].map(([k, v]) => `${k}: ${v.length} runs`).join(', ')}), i.e. a repeated \`npm run generate\` on an unchanged spec, where compile and format are skipped; the peers have no such cache, so these rows compare a repeated run of ours with a cold run of theirs.`,
    '',
    '**Where our time goes** (medians over our runs; share of wall time), from the timings our CLI prints. Render compiles each module on the main thread while prettier formats the compiled files in worker threads (one per core, at most 4; src/write/format-pool.ts), so its wall time is less than compile + format: the format column sums the formatting time of every thread and can exceed its share of the wall time.',
    '',
    ...stageLines,
  ];
  return { rows, targets, notes };
}

function roundAll(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v)]));
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
