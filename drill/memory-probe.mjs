// Loaded into a sandbox process by the soak (`node --import ./drill/memory-probe.mjs`): every 2 s it writes the
// process's memory (RSS, V8 heap) to DRILL_MEMORY_DIR/<pid>.json, so the soak can report the heap of a process
// it only sees from outside. Plain JavaScript: it runs before tsx is loaded. Nothing else is touched.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.DRILL_MEMORY_DIR;
if (dir) {
  const file = join(dir, `${process.pid}.json`);
  const write = () => {
    const m = process.memoryUsage();
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, at: Date.now() }));
      renameSync(`${file}.tmp`, file);
    } catch {
      // The soak removed its folder (it is ending): nothing to report to.
    }
  };
  write();
  setInterval(write, 2000).unref();
}
