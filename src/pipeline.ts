// The whole pipeline, as a function: load -> model -> emit -> write. The CLI and the tests call this.
import { buildNames } from './emit/naming.js';
import { emitAll } from './emit/index.js';
import { loadSpecs, type FetchLike } from './load/index.js';
import { buildModel, type Policy } from './model/index.js';
import { renderFiles, writeOutput, type RenderStats, type WriteResult } from './write/write.js';
import type { ApiModel } from './model/ir.js';
import { finishRuntimePackages } from './emit/package/runtime-packages.js';
import { MODEL_FILE, modelFileText, planRelease, readPreviousModel, type ReleasePlan } from './diff/index.js';
import { withHeader } from './write/header.js';
import { BuildCache } from './write/build-cache.js';

export interface GenerateOptions {
  /** Directory, file, or base URL of a live catalog. */
  spec: string;
  out: string;
  check?: boolean;
  policy?: Policy;
  fetch?: FetchLike;
  json?: boolean;
  /**
   * Further specs generated into the same output as client packages only (the sandbox's control plane):
   * written in the same pass, so stale-file removal and --check cover them too.
   */
  companions?: { spec: string; dir: string; packageName: string }[];
  /**
   * Folder of the build cache of the runtime packages (their bundles and declarations, built from src/). The cache is
   * content-addressed, so it never changes the output; without it they are built every run.
   */
  buildCacheDir?: string;
  /** Write nothing when the model has a breaking change since the previous one (CI gates; the CLI exits 3). */
  failOnBreaking?: boolean;
}

export interface GenerateSummary extends WriteResult {
  model: ApiModel;
  /** ms per stage: `emit` builds the sources, `render` compiles and formats them (with the companions). */
  timings: { load: number; model: number; emit: number; render: number; write: number };
  /** Inside `render`: compiling and formatting. */
  render: RenderStats;
  /** What changed since the previous model (`<out>/.model.json`), and the packages' new version. */
  release: ReleasePlan;
}

export async function generate(options: GenerateOptions): Promise<GenerateSummary> {
  const t0 = performance.now();
  const docs = await loadSpecs(options.spec, { fetch: options.fetch, json: options.json });
  const t1 = performance.now();
  const model = buildModel(docs, { policy: options.policy ?? 'lenient' });
  const t2 = performance.now();
  // Versions follow the spec: the model is compared with the one the previous run kept beside the output.
  const release = planRelease(await readPreviousModel(options.out), model);
  const files = emitAll(model, buildNames(model), { documents: docs, history: release.history });
  const tEmitted = performance.now();
  const render: RenderStats = { compileMs: 0, formatMs: 0 };
  const rendered = await renderFiles(files, model.specHash, { stats: render });
  for (const companion of options.companions ?? []) {
    const companionModel = buildModel(await loadSpecs(companion.spec), { policy: 'lenient' });
    const companionFiles = emitAll(companionModel, buildNames(companionModel), { clientDir: companion.dir, packageName: companion.packageName, sandbox: false });
    const companionStats: RenderStats = { compileMs: 0, formatMs: 0 };
    for (const [path, text] of await renderFiles(companionFiles, companionModel.specHash, { stats: companionStats })) rendered.set(path, text);
    render.compileMs += companionStats.compileMs;
    render.formatMs += companionStats.formatMs;
  }
  // The sandbox and conformance packages' runtimes (built from src/, bundling the data just rendered).
  const cache = options.buildCacheDir === undefined ? undefined : new BuildCache(options.buildCacheDir);
  if (rendered.has('sandbox/routes.js')) for (const [path, text] of await finishRuntimePackages(rendered, model, release.history, { cache })) rendered.set(path, text);
  rendered.set(MODEL_FILE, withHeader(MODEL_FILE, modelFileText(model, release.history), model.specHash));
  cache?.prune();
  const t3 = performance.now();
  const refused = options.failOnBreaking === true && release.changes.some((c) => c.level === 'breaking');
  const result = await writeOutput(options.out, rendered, { check: options.check === true || refused });
  const t4 = performance.now();
  return { ...result, model, render, release, timings: { load: t1 - t0, model: t2 - t1, emit: tEmitted - t2, render: t3 - tEmitted, write: t4 - t3 } };
}

/** Everything up to (not including) the disk: the rendered files for a spec. Used by tests. */
export async function renderSpec(spec: string, options: { policy?: Policy; fetch?: FetchLike; json?: boolean } = {}): Promise<Map<string, string>> {
  const docs = await loadSpecs(spec, { fetch: options.fetch, json: options.json });
  const model = buildModel(docs, { policy: options.policy ?? 'lenient' });
  return renderFiles(emitAll(model, buildNames(model), { documents: docs }), model.specHash);
}
