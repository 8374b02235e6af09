// @ts-check
// A full garbage collection at the few points of a run where a large part of a heap has just died (the emitters'
// work handed over, the render worker's results gathered, a runtime package's TypeScript program dropped, every
// 64 M characters written; on the render worker, a large file's source and outputs once posted). V8 sizes a heap
// from the live set at its last full collection and, with gigabytes of headroom, lets garbage pile up: on graph.json
// the main thread's heap reached 1.4 GB while about 0.7 GB of it was live, and the process peaked at 2.2 GB of RSS.
// Collecting at these points keeps each step's heap near what is really live; marking costs in proportion to what
// is live, not to the garbage, and most of these points are where the thread would otherwise wait.
// `gc` is V8's own; Node exposes it only behind a flag, which V8 reads when a context is created, so the flag is set
// and a fresh context hands its `gc` over (the way test runners that look for heap leaks get it without a
// command-line flag). Plain JavaScript (checked by tsc through JSDoc): the render worker loads it without tsx.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** @type {(() => void) | null | undefined} */
let gc;

/**
 * Below this much heap in use (live or not) a collection is not worth its time: V8's own heuristics keep a small
 * heap small, and a run on spec/ never gets here, so it pays nothing.
 */
const WORTH_COLLECTING_BYTES = 128 * 1024 * 1024;

/** Runs a full, synchronous collection of this thread's heap when it is large (nothing when V8 refuses to expose gc). */
export function collectGarbage() {
  if (getHeapStatistics().used_heap_size < WORTH_COLLECTING_BYTES) return;
  if (gc === undefined) gc = exposedGc();
  gc?.();
}

/** @returns {(() => void) | null} */
function exposedGc() {
  const own = /** @type {{ gc?: unknown }} */ (globalThis).gc;
  if (typeof own === 'function') return /** @type {() => void} */ (own);
  try {
    setFlagsFromString('--expose-gc');
    /** @type {unknown} */
    const fromContext = runInNewContext('gc');
    return typeof fromContext === 'function' ? /** @type {() => void} */ (fromContext) : null;
  } catch {
    return null;
  }
}

/**
 * A counter that collects once every `chars` characters of text it is told have died (a file written, posted or
 * handed over): the collections of a long stage, spaced by the garbage it makes rather than by the number of files.
 * @param {number} chars
 * @returns {(done: number) => void}
 */
export function collectEvery(chars) {
  let since = 0;
  return (done) => {
    since += done;
    if (since < chars) return;
    since = 0;
    collectGarbage();
  };
}
