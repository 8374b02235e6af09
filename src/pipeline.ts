// The whole pipeline, as a function: load -> model -> emit -> write. The CLI and the tests call this.
import { buildNames } from './emit/naming.js';
import { emitAll } from './emit/index.js';
import { FetchError } from './load/fetch-text.js';
import { loadSpecs, SpecError, type FetchLike, type LoadedDocument, type SpecWarning } from './load/index.js';
import { buildModel, type KnownNames, type Policy } from './model/index.js';
import { Renderer, renderFiles, writeOutput, type RenderStats, type WriteResult } from './write/write.js';
import type { ApiModel } from './model/ir.js';
import type { EmittedFile } from './emit/emitted-file.js';
import { finishRuntimePackages } from './emit/package/runtime-packages.js';
import { MODEL_FILE, modelFile, planRelease, readPreviousModel, type ReleasePlan } from './diff/index.js';
import { jsonWithHeader } from './write/header.js';
import { BuildCache } from './write/build-cache.js';
import { collectEvery, collectGarbage } from './write/collect-garbage.js';
import { EVENT_NAMES, RULE_NAMES } from './sandbox/rules/names.js';

/** The sandbox's rule and event names: the ones `x-rules`, `x-handlers` and `x-emits` may use. */
const SANDBOX_NAMES: KnownNames = { rules: new Set(RULE_NAMES), events: new Set(EVENT_NAMES) };

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
  /** Largest document accepted, in bytes (`--max-bytes`, for trusted large files); default: the loader's limit. */
  maxBytes?: number;
}

export interface GenerateSummary extends WriteResult {
  model: ApiModel;
  /** ms per stage: `emit` builds the sources (with the companions' load and model), `render` waits for the rest of their compiling and formatting and builds the runtimes. */
  timings: { load: number; model: number; emit: number; render: number; write: number };
  /** Inside `render`: compiling and formatting. */
  render: RenderStats;
  /** What changed since the previous model (`<out>/.model.json`), and the packages' new version. */
  release: ReleasePlan;
  /** What the lenient policy let pass, per document, in load order. */
  warnings: SpecWarning[];
}

/**
 * A failure that is not the spec's fault (a bug of ours): it says so, with the spec and the stage, so the
 * CLI prints one line instead of a stack trace.
 */
export class InternalError extends Error {
  override readonly name = 'InternalError';
  constructor(
    readonly spec: string,
    readonly stage: string,
    readonly detail: unknown,
  ) {
    super(`${spec}: #: internal error in the ${stage} stage (a bug of the generator, not of the spec): ${firstLine(detail)}`);
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return text.split('\n')[0]!.slice(0, 500);
}

/** Runs one stage; an error that is neither the spec's (SpecError) nor the network's (FetchError) becomes an InternalError. */
async function stage<T>(spec: string, name: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // The spec's fault, the network's, or the file system's (EACCES, ENOSPC: said as they are): not ours.
    if (error instanceof SpecError || error instanceof FetchError || error instanceof InternalError || typeof (error as { code?: unknown })?.code === 'string') throw error;
    throw new InternalError(spec, name, error);
  }
}

export async function generate(options: GenerateOptions): Promise<GenerateSummary> {
  const t0 = performance.now();
  // The build cache also keeps the loader's compiled OpenAPI schema validators (the tool's, not the spec's).
  const cache = options.buildCacheDir === undefined ? undefined : new BuildCache(options.buildCacheDir);
  // The loaded documents are needed by the model and by the emitters (the served documents) only: what the summary
  // reports of them (their warnings) is taken now, and they are let go once emitted (on graph.json the parsed
  // document and its line index are over a hundred megabytes that would otherwise live through render and write).
  let docs: LoadedDocument[] | undefined = await stage(options.spec, 'load', () => loadSpecs(options.spec, { fetch: options.fetch, json: options.json, policy: options.policy ?? 'lenient', cache, limits: options.maxBytes === undefined ? undefined : { maxDocumentBytes: options.maxBytes } }));
  const documentWarnings = docs.flatMap((d) => d.warnings);
  const t1 = performance.now();
  const model = await stage(options.spec, 'model', () => buildModel(docs!, { policy: options.policy ?? 'lenient', known: SANDBOX_NAMES }));
  const t2 = performance.now();
  // Versions follow the spec: the model is compared with the one the previous run kept beside the output.
  const release = planRelease(await readPreviousModel(options.out), model);
  // Each emitter's files start rendering (on the native libraries' threads) while the next emitter runs.
  const renderer = new Renderer(model.specHash);
  // An emitter's working data dies when its files are handed over: collected every 32 M characters emitted, so the
  // main thread's heap does not grow over every emitter's garbage while the worker's heap grows over the rendering.
  const emitted = collectEvery(32 * 1024 * 1024);
  const hand = (files: readonly EmittedFile[]): void => {
    renderer.add(files);
    emitted(files.reduce((sum, file) => sum + file.contents.length, 0));
  };
  await stage(options.spec, 'names and emit', () => emitAll(model, buildNames(model), { documents: docs, history: release.history, onFiles: hand, handOnly: true }));
  docs = undefined;
  // The companions are loaded and emitted while the worker is still rendering the main files, and join its queue.
  for (const companion of options.companions ?? []) {
    const companionModel = buildModel(await loadSpecs(companion.spec, { cache }), { policy: 'lenient' });
    renderer.add(emitAll(companionModel, buildNames(companionModel), { clientDir: companion.dir, packageName: companion.packageName, sandbox: false }), companionModel.specHash);
  }
  // The emitters' garbage goes now, while the main thread only waits for the worker.
  collectGarbage();
  const tEmitted = performance.now();
  const render: RenderStats = { compileMs: 0, formatMs: 0 };
  const rendered = await stage(options.spec, 'render', () => renderer.finish(render));
  collectGarbage();
  // The sandbox and conformance packages' runtimes (built from src/, bundling the data just rendered).
  if (rendered.has('sandbox/routes.js')) for (const [path, text] of await finishRuntimePackages(rendered, model, release.history, { cache })) rendered.set(path, text);
  rendered.set(MODEL_FILE, jsonWithHeader(modelFile(model, release.history), model.specHash));
  collectGarbage();
  cache?.prune();
  const t3 = performance.now();
  const refused = options.failOnBreaking === true && release.changes.some((c) => c.level === 'breaking');
  const result = await stage(options.spec, 'write', () => writeOutput(options.out, rendered, { check: options.check === true || refused, release: true }));
  const t4 = performance.now();
  return { ...result, model, render, release, warnings: [...documentWarnings, ...(model.inferenceNotes ?? [])], timings: { load: t1 - t0, model: t2 - t1, emit: tEmitted - t2, render: t3 - tEmitted, write: t4 - t3 } };
}

/** Everything up to (not including) the disk: the rendered files for a spec. Used by tests. */
export async function renderSpec(spec: string, options: { policy?: Policy; fetch?: FetchLike; json?: boolean } = {}): Promise<Map<string, string>> {
  const docs = await loadSpecs(spec, { fetch: options.fetch, json: options.json, policy: options.policy ?? 'lenient' });
  const model = buildModel(docs, { policy: options.policy ?? 'lenient', known: SANDBOX_NAMES });
  return renderFiles(emitAll(model, buildNames(model), { documents: docs }), model.specHash);
}
