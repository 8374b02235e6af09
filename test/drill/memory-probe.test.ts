// The soak's memory probe (drill/memory-probe.mjs) reports the heap V8 kept after its last full collection: data a
// process holds counts, garbage it has not yet collected does not (issue 29: the soak judged heapUsed at random
// moments, which swung by a third within a minute).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';

const PROBE = pathToFileURL(join(import.meta.dirname, '../../drill/memory-probe.mjs')).href;
const MB = 2 ** 20;

// Holds 60 MB for 1.5 s, then lets it go while making 60 MB of garbage a second for 1.5 s.
const CHILD = `
let held = Array.from({ length: 60 }, () => new Array(MBE).fill(1.5));
setTimeout(() => {
  held = null;
  const churn = setInterval(() => { let g = Array.from({ length: 6 }, () => new Array(MBE).fill(2.5)); g = null; }, 100);
  setTimeout(() => clearInterval(churn), 1500);
}, 1500);
setTimeout(() => {}, 3200);
`.replaceAll('MBE', String(MB / 8));

interface Reading {
  heapUsed: number;
  heapLive: number | null;
}

it('reports what a full collection kept: held data counts, uncollected garbage does not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-probe-'));
  const child = spawn(process.execPath, ['--import', PROBE, '--input-type=module', '-e', CHILD], { env: { ...process.env, DRILL_MEMORY_DIR: dir, DRILL_MEMORY_GC_MS: '300,400' }, stdio: 'ignore' });
  const readings: Reading[] = [];
  const read = (): Reading => JSON.parse(readFileSync(join(dir, `${child.pid}.json`), 'utf8')) as Reading;
  await new Promise((r) => setTimeout(r, 1300));
  readings.push(read());
  await new Promise((r) => setTimeout(r, 1600));
  readings.push(read());
  await new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const [holding, released] = readings as [Reading, Reading];
  expect(holding.heapLive).toBeGreaterThan(55 * MB);
  expect(released.heapLive).not.toBeNull();
  expect(released.heapLive!).toBeLessThan(20 * MB);
}, 20_000);
