// Emitted files -> their final text: modules compiled to `.js` + `.d.ts` (compile.js), every code and Markdown file
// formatted (format.js), the header added last; one file's rendering is render-jobs.js.
//
// The work runs on a worker thread (render-worker.mjs) with its own event loop, so a file starts rendering as soon
// as its emitter hands it over (Renderer.add) and goes on while the main thread, busy and synchronous, emits the next
// files: on a large spec the validators module is formatted while the types, the client, the route table and the
// conformance data are still being emitted. The worker renders two files (or pieces) at a time, which bounds the
// formatter's native memory (handing every piece to the native libraries at once grows the process by hundreds of
// megabytes). The result does not depend on timing: files are collected by path.
import { Worker } from 'node:worker_threads';
import type { EmittedFile } from '../emit/emitted-file.js';
import { withHeader } from './header.js';
import { returnNativeMemoryPromptly } from './native-memory.js';
import { emptySpans, Lanes, LANES, renderFile, spanMs, type Spans } from './render-jobs.js';

/**
 * What rendering took on the worker, as spans of wall time from the first job of a kind started to the last one
 * finished. The spans overlap each other and the emit stage, so they can add up to more than the render stage.
 */
export interface RenderStats {
  compileMs: number;
  formatMs: number;
}

/** What the worker sends back for one file (with the spans of all its work so far). */
export interface RenderedMessage extends Spans {
  id: number;
  outputs?: [string, string][];
  error?: string;
}

/** The final text of rendered outputs in the order of their emitted paths, with the header. */
function collect(jobs: { path: string; specHash: string; outputs: [string, string][] }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const job of [...jobs].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    for (const [path, text] of job.outputs) {
      if (out.has(path)) throw new Error(`two emitters produce ${path}`);
      out.set(path, withHeader(path, text, job.specHash));
    }
  }
  return out;
}

export class Renderer {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (outputs: [string, string][]) => void; reject: (error: Error) => void }>();
  /** By emitted path: a module's job gives its `.js` and then its `.d.ts`. */
  private readonly jobs: { path: string; specHash: string; done: Promise<[string, string][]> }[] = [];
  private readonly spans = emptySpans();

  constructor(private readonly specHash: string) {
    // Before the worker loads the native libraries: their allocator is set up from the process environment.
    returnNativeMemoryPromptly();
    this.worker = new Worker(new URL('./render-worker.mjs', import.meta.url));
    this.worker.on('message', (message: RenderedMessage) => {
      for (const [mine, theirs] of [[this.spans.compile, message.compile], [this.spans.format, message.format]] as const) {
        mine.start = Math.min(mine.start, theirs.start);
        mine.end = Math.max(mine.end, theirs.end);
      }
      const waiter = this.pending.get(message.id)!;
      this.pending.delete(message.id);
      if (message.outputs) waiter.resolve(message.outputs);
      else waiter.reject(new Error(message.error));
    });
    this.worker.on('error', (error) => this.failAll(error));
    this.worker.on('exit', (code) => this.failAll(new Error(`the render worker stopped (exit code ${code})`)));
  }

  /** Starts rendering files (their header names `specHash`: a companion spec's files name their own); nothing waits for them until finish(). */
  add(files: readonly EmittedFile[], specHash: string = this.specHash): void {
    for (const file of files) {
      const id = this.jobs.length;
      const done = new Promise<[string, string][]>((resolve, reject) => this.pending.set(id, { resolve, reject }));
      // A failure is reported by finish(); until then it must not count as an unhandled rejection.
      done.catch(() => undefined);
      this.jobs.push({ path: file.path, specHash, done });
      this.worker.postMessage({ id, file });
    }
  }

  /** Every file's final text, in the order of the emitted paths, once all the work is done; the worker ends. */
  async finish(stats?: RenderStats): Promise<Map<string, string>> {
    // Emitting is done: the main thread only waits from now on, so the worker may use every lane.
    this.worker.postMessage({ emitted: true });
    try {
      const outputs = await Promise.all(this.jobs.map((job) => job.done));
      if (stats) Object.assign(stats, { compileMs: spanMs(this.spans.compile), formatMs: spanMs(this.spans.format) });
      const jobs = this.jobs.map((job, i) => ({ path: job.path, specHash: job.specHash, outputs: outputs[i]! }));
      // The settled jobs hold every output without its header; the caller keeps this Renderer until the run ends,
      // so they are let go here (on a large spec, tens of megabytes alive through the write stage otherwise).
      this.jobs.length = 0;
      return collect(jobs);
    } finally {
      this.close();
    }
  }

  /** Ends the worker without waiting for its work (finish() does this; a caller that gives up calls it). */
  close(): void {
    this.worker.removeAllListeners('exit');
    void this.worker.terminate();
  }

  private failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}

/**
 * Renders a set of files given at once, on this thread's native jobs (nothing else runs meanwhile, so a worker
 * would only add its start-up): the same lanes and outputs as a Renderer.
 */
export async function renderFiles(files: readonly EmittedFile[], specHash: string, options: { stats?: RenderStats } = {}): Promise<Map<string, string>> {
  const run = new Lanes(LANES);
  const spans = emptySpans();
  const outputs = await Promise.all(files.map((file) => renderFile(file, run, spans)));
  if (options.stats) Object.assign(options.stats, { compileMs: spanMs(spans.compile), formatMs: spanMs(spans.format) });
  return collect(files.map((file, i) => ({ path: file.path, specHash, outputs: outputs[i]! })));
}
