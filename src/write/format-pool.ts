// Formatting in parallel: prettier runs in worker threads (one per core, at most 4) while the main thread
// compiles the next modules. Jobs go to the worker with the least queued text; results are keyed by job, so the
// output does not depend on which worker formatted what. Small runs, one-core machines, and runtimes where a
// worker cannot start format on the main thread instead (same prettier, same options, same bytes).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { formatFile, formatOptionsFor } from './format.js';

interface Pending {
  resolve(text: string): void;
  reject(error: Error): void;
  size: number;
  worker: number;
}

export interface FormatStats {
  /** Time spent formatting, summed over every thread that formatted. */
  formatMs: number;
  /** Threads that formatted (1: the main thread only). */
  threads: number;
}

export class FormatPool {
  private workers: Worker[] = [];
  private readonly queued: number[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failed = false;
  private here: Promise<unknown> = Promise.resolve();
  readonly stats: FormatStats = { formatMs: 0, threads: 1 };

  /** `expectedBytes`: the text the run will format; below the threshold workers are not worth starting. */
  constructor(expectedBytes: number, threshold = 256 * 1024) {
    const count = Math.min(4, availableParallelism());
    if (count < 2 || expectedBytes < threshold) return;
    try {
      for (let i = 0; i < count; i++) {
        const worker = new Worker(new URL('./format-worker.mjs', import.meta.url));
        worker.on('message', (message: { id: number; text?: string; error?: string; ms: number }) => this.settle(message));
        worker.on('error', (error) => this.abandon(error));
        this.workers.push(worker);
        this.queued.push(0);
      }
      this.stats.threads = count;
    } catch {
      this.workers = [];
    }
  }

  format(path: string, contents: string): Promise<string> {
    const options = formatOptionsFor(path);
    if (options === undefined) return Promise.resolve(contents);
    if (this.workers.length === 0 || this.failed) return this.formatHere(path, contents);
    let target = 0;
    for (let i = 1; i < this.queued.length; i++) if (this.queued[i]! < this.queued[target]!) target = i;
    const id = this.nextId++;
    this.queued[target]! += contents.length;
    return new Promise<string>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, size: contents.length, worker: target });
      this.workers[target]!.postMessage({ id, text: contents, options });
    }).catch((error: Error) => {
      // A worker that died takes its jobs with it: those are formatted here (the same prettier).
      if (this.failed) return this.formatHere(path, contents);
      throw error;
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers = [];
  }

  /** On this thread, one file at a time (as in a worker), so the time of each is its own. */
  private formatHere(path: string, contents: string): Promise<string> {
    const run = async (): Promise<string> => {
      const started = performance.now();
      try {
        return await formatFile(path, contents);
      } finally {
        this.stats.formatMs += performance.now() - started;
      }
    };
    const result = this.here.then(run, run);
    this.here = result.catch(() => undefined);
    return result;
  }

  private settle(message: { id: number; text?: string; error?: string; ms: number }): void {
    const job = this.pending.get(message.id);
    if (!job) return;
    this.pending.delete(message.id);
    this.queued[job.worker]! -= job.size;
    this.stats.formatMs += message.ms;
    if (message.text !== undefined) job.resolve(message.text);
    else job.reject(new Error(message.error ?? 'prettier failed'));
  }

  private abandon(error: Error): void {
    this.failed = true;
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }
}
