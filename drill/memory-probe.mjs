// Loaded into a sandbox process by the soak (`node --import ./drill/memory-probe.mjs`): every 2 s it writes the
// process's memory (RSS, V8 heap) to DRILL_MEMORY_DIR/<pid>.json, so the soak can report the heap of a process
// it only sees from outside. Plain JavaScript: it runs before tsx is loaded. Nothing else is touched.
//
// `heapLive` is the heap V8 kept after its last full collection (mark-sweep-compact), from v8.GCProfiler: what the
// process still holds, without the garbage a sample taken at a random moment also counts. A leak grows it; a
// sample of `heapUsed` swings by a third between collections (23-39 MB within a minute in an hour's soak), which
// hides a leak of that size and fails a flat process by chance. V8 runs a full collection only every few minutes
// at a soak's pace, so the probe asks for one every 30 s (a pause of a few ms on a heap of tens of MB: one request
// in the 1,200 of a minute at 20/s, below the minute's p99). A collection frees only garbage; a leak survives it.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

// The intervals can be shortened for the probe's own test (DRILL_MEMORY_GC_MS=first,every).
const [firstMs, everyMs] = (process.env.DRILL_MEMORY_GC_MS ?? '').split(',').map(Number);
const COLLECT_EVERY_MS = everyMs > 0 ? everyMs : 30_000;
/** The first asked-for collection; collections before it ran while the sandbox was still loading, not serving. */
const FIRST_COLLECTION_MS = firstMs > 0 ? firstMs : 10_000;

/** `gc()` without a command-line flag (NODE_OPTIONS refuses --expose-gc): null where V8 will not give it. */
function fullCollection() {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc');
  } catch {
    return null;
  }
}

/**
 * RSS by kind, from the kernel (Linux): `anon` is what the process allocated (V8's heap, malloc: SQLite's page cache,
 * buffers), `file` the file pages it maps (its code, and the SQLite database the store maps), `shmem` shared memory
 * (SQLite's WAL index). Null elsewhere. Where RSS grows tells a leak (anon, with a flat heap: native memory) from a
 * mapped database growing (file).
 */
function rssByKind() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    const out = { anon: kb('RssAnon'), file: kb('RssFile'), shmem: kb('RssShmem') };
    return Object.values(out).every(Number.isFinite) ? out : null;
  } catch {
    return null;
  }
}

const dir = process.env.DRILL_MEMORY_DIR;
if (dir) {
  const file = join(dir, `${process.pid}.json`);
  let heapLive = null;
  let profiler = null;
  let serving = false;
  const afterFullCollections = () => {
    if (!profiler) return;
    const report = profiler.stop();
    for (const gc of report?.statistics ?? []) {
      if (serving && gc.gcType === 'MarkSweepCompact') heapLive = gc.afterGC.heapStatistics.usedHeapSize;
    }
    profiler.start();
  };
  try {
    profiler = new v8.GCProfiler();
    profiler.start();
  } catch {
    profiler = null; // A Node without GCProfiler: heapLive stays null and the soak judges heapUsed.
  }
  const write = () => {
    afterFullCollections();
    const m = process.memoryUsage();
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, heapLive, external: m.external, rssByKind: rssByKind(), at: Date.now() }));
      renameSync(`${file}.tmp`, file);
    } catch {
      // The soak removed its folder (it is ending): nothing to report to.
    }
  };
  const collect = fullCollection();
  write();
  setInterval(write, Math.min(2000, COLLECT_EVERY_MS)).unref();
  if (collect) {
    setTimeout(() => {
      afterFullCollections(); // drops the loading's collections
      serving = true;
      collect();
      setInterval(() => collect(), COLLECT_EVERY_MS).unref();
    }, FIRST_COLLECTION_MS).unref();
  }
}
