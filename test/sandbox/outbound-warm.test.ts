// OutboundGate.warm() (src/sandbox/http/outbound.ts, issue 29): a serving process loads fetch's implementation at
// start, so its first call out does not add to its heap minutes later (the PostgreSQL soak's twelve workers each
// stepped up by about 2 MB at their first delivery, which read as growth for the whole half hour). Measured in a
// fresh process each (the implementation loads once per process), with full collections on both sides.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const script = (warm: boolean): string => `
  import http from 'node:http';
  import { outbound } from './src/sandbox/http/outbound.ts';
  const live = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
  const server = http.createServer((req, res) => res.end('ok')).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  ${warm ? 'outbound.warm(); await new Promise((r) => setTimeout(r, 300));' : ''}
  const before = live();
  const res = await outbound.fetch('http://127.0.0.1:' + server.address().port + '/');
  await res.text();
  server.close();
  console.log(JSON.stringify({ grew: live() - before }));
`;
const growthOfFirstCall = (warm: boolean): number => {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script(warm)], { cwd: ROOT, encoding: 'utf8' });
  return (JSON.parse(out.trim().split('\n').pop()!) as { grew: number }).grew;
};

it('loads fetch at start: the first call out then adds little to the heap, where it adds over a megabyte cold', () => {
  const cold = growthOfFirstCall(false);
  const warmed = growthOfFirstCall(true);
  expect(cold).toBeGreaterThan(1024 * 1024);
  expect(warmed).toBeLessThan(cold / 3);
}, 30_000);
