// @ts-check
// The rendering of one emitted file (render.ts runs it on its worker, or on the calling thread): a module compiled
// to `.js` + `.d.ts` (compile.js), then every code and Markdown output formatted (format.js), large modules in
// pieces (chunks.js), the native jobs at most a few at a time (Lanes).
// Plain JavaScript (checked by tsc through JSDoc), like every module the render worker loads: the worker then starts
// without tsx's loader (its hooks thread cost about half a second of CPU per run), whether the CLI runs from its
// bundle or from its TypeScript sources.
import { availableParallelism } from 'node:os';
import { splitAtTopLevel } from './chunks.js';
import { compileModule } from './compile.js';
import { formatFile } from './format.js';

/** @typedef {import('../emit/emitted-file.js').EmittedFile} EmittedFile */

/** Size of the pieces a large module is formatted in (characters). */
const CHUNK_CHARS = 256 * 1024;

/**
 * Modules at least this large are compiled one at a time: oxc-transform compiles a module whole, and its syntax tree
 * of a multi-megabyte module (graph.json's client types, operations and client, 10-20 MB each) is hundreds of
 * megabytes of native memory; two at once on two lanes made the peak of the render stage.
 */
const LARGE_MODULE_CHARS = 4 * 1024 * 1024;


/**
 * A span of wall time (performance.timeOrigin-based, so the worker's and the main thread's agree).
 * @typedef {{ start: number, end: number }} Span
 */
/**
 * Where the compile and format work of some renderFile calls took place in time.
 * @typedef {{ compile: Span, format: Span }} Spans
 */

const now = () => performance.timeOrigin + performance.now();
/** @returns {Span} */
const emptySpan = () => ({ start: Infinity, end: -Infinity });
/** @param {Span} span */
export const spanMs = (span) => (span.end > span.start ? span.end - span.start : 0);
/** @returns {Spans} */
export const emptySpans = () => ({ compile: emptySpan(), format: emptySpan() });

/**
 * @template T
 * @param {Span} span
 * @param {() => Promise<T>} run
 * @returns {Promise<T>}
 */
async function timed(span, run) {
  span.start = Math.min(span.start, now());
  try {
    return await run();
  } finally {
    span.end = Math.max(span.end, now());
  }
}

/**
 * One file's rendered outputs, without the header: a module's `.js` then its `.d.ts`; an asset as itself.
 * @param {EmittedFile} file
 * @param {Lanes} run
 * @param {Spans} spans
 * @returns {Promise<[string, string][]>}
 */
export async function renderFile(file, run, spans) {
  if (file.kind !== 'module') return [[file.path, await formatText(file.path, file.contents, run, spans)]];
  const base = file.path.replace(/\.ts$/, '');
  const compile = () => run.run(() => timed(spans.compile, () => compileModule(file.path, file.contents)));
  const { js, dts } = await (file.contents.length >= LARGE_MODULE_CHARS ? largeCompiles.run(compile) : compile());
  const [jsText, dtsText] = await Promise.all([formatText(`${base}.js`, js, run, spans), formatText(`${base}.d.ts`, dts, run, spans)]);
  return [
    [`${base}.js`, jsText],
    [`${base}.d.ts`, dtsText],
  ];
}

/**
 * A large module is formatted in pieces of its top-level statements (chunks.js), so the formatter's native memory
 * is held for a few hundred kilobytes at a time and the pieces of one big file spread over both lanes. A file whose
 * pieces do not parse alone is formatted whole.
 * @param {string} path
 * @param {string} text
 * @param {Lanes} run
 * @param {Spans} spans
 * @returns {Promise<string>}
 */
async function formatText(path, text, run, spans) {
  /** @param {string} piece */
  const format = (piece) => run.run(() => timed(spans.format, () => formatFile(path, piece)));
  const pieces = /\.(?:[cm]?js|ts)$/.test(path) ? splitAtTopLevel(text, CHUNK_CHARS) : [text];
  if (pieces.length === 1) return format(text);
  try {
    return (await Promise.all(pieces.map(format))).join('\n');
  } catch {
    return format(text);
  }
}

/** Runs native jobs at most `count` at a time, in the order they were asked for. */
export class Lanes {
  running = 0;
  /** @type {(() => void)[]} */
  waiting = [];

  /** @param {number} count */
  constructor(count) {
    this.count = count;
  }

  /**
   * @template T
   * @param {() => Promise<T>} job
   * @returns {Promise<T>}
   */
  async run(job) {
    if (this.running >= this.count) await new Promise((resolve) => this.waiting.push(() => resolve(undefined)));
    this.running++;
    try {
      return await job();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /**
   * More lanes from now on (waiting jobs start at once).
   * @param {number} count
   */
  widen(count) {
    for (; this.count < count; this.count++) this.waiting.shift()?.();
  }
}

const CORES = availableParallelism();
/** Jobs at once when nothing else runs: one per core (at least 2, at most 4), each holding a formatter's native memory. */
export const LANES = Math.min(4, Math.max(2, CORES));
/** Jobs at once while the main thread is still emitting (it keeps a core busy): one fewer, at least 1. */
export const LANES_WHILE_EMITTING = Math.max(1, Math.min(4, CORES) - 1);
/** One large compile at a time, whatever the lanes (it also holds a lane while it runs). */
const largeCompiles = new Lanes(1);
