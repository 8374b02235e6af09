// Client: overhead per call of the generated client (generated/client) over a bare fetch-style call, both against
// the same in-process sandbox handler (`sandbox.fetch(new Request(url, init))`, as test/support/sandbox.ts wires
// it), on getTag. The bare call builds the Request by hand (URL, X-API-Key header), awaits the handler, checks the
// status and parses the JSON: what any caller must do. The client adds URL building, headers, its retry / timeout
// / AbortSignal plumbing, error mapping and (optionally) response validation.
//
// Async calls, so not bench/measure.ts (synchronous loops): the same scheme here: warm-up, then rounds in which
// each subject runs for `runMs` of back-to-back awaited calls, subjects in an order rotated each round.
import { createClient } from '../generated/client/index.js';
import { createSandbox } from '../src/sandbox/index.js';
import { stats, type Stats } from './processes.js';
import type { BenchOptions, BenchResult, Row } from './types.js';

const BASE_URL = 'http://sandbox.test/v1';

interface Subject {
  label: string;
  call: () => Promise<unknown>;
  /** Wall-clock µs per call, one per run. */
  samples: number[];
  /** CPU µs (user + system of this process) per call, one per run. */
  cpu: number[];
}

/** Calls `call` back to back for `ms` milliseconds (wall); returns [wall µs per call, CPU µs per call]. */
async function timed(call: () => Promise<unknown>, ms: number): Promise<[number, number]> {
  let n = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let t = t0;
  do {
    for (let i = 0; i < 20; i++) await call();
    n += 20;
    t = performance.now();
  } while (t - t0 < ms);
  const c = process.cpuUsage(c0);
  return [((t - t0) * 1000) / n, (c.user + c.system) / n];
}

export async function benchClient(options: BenchOptions = {}): Promise<BenchResult> {
  // Smoke: one run of a few ms (proves the calls answer; the figures mean nothing).
  const runs = options.smoke ? 1 : 9;
  const runMs = options.smoke ? 20 : 400;
  const sandbox = await createSandbox({ db: ':memory:', log: () => {} });
  try {
    const handler = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => sandbox.fetch(new Request(input, init));
    const created = await handler(`${BASE_URL}/tags`, {
      method: 'POST',
      headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ tag_name: 'bench', color: '#00ff00' }),
    });
    if (created.status !== 201) throw new Error(`creating the tag answered ${created.status}`);
    const tagId = ((await created.json()) as { tag: { id: string } }).tag.id;

    const client = createClient({ baseUrl: BASE_URL, apiKey: sandbox.apiKey, fetch: handler });
    const validating = createClient({ baseUrl: BASE_URL, apiKey: sandbox.apiKey, fetch: handler, validateResponses: true });
    const url = `${BASE_URL}/tags/${tagId}`;
    const bare = async (): Promise<unknown> => {
      const res = await sandbox.fetch(new Request(url, { headers: { 'x-api-key': sandbox.apiKey } }));
      if (res.status !== 200) throw new Error(`getTag answered ${res.status}`);
      return res.json();
    };
    const subjects: Subject[] = [
      { label: 'bare', call: bare, samples: [], cpu: [] },
      { label: 'client', call: () => client.tags.getTag(tagId), samples: [], cpu: [] },
      { label: 'client+validate', call: () => validating.tags.getTag(tagId), samples: [], cpu: [] },
    ];
    // Same answer from all three.
    const expected = JSON.stringify(await bare());
    for (const s of subjects) {
      const got = JSON.stringify(await s.call());
      if (got !== expected) throw new Error(`${s.label} answered ${got.slice(0, 200)}, bare fetch ${expected.slice(0, 200)}`);
    }
    for (const s of subjects) await timed(s.call, runMs);
    for (let round = 0; round < runs; round++) {
      for (let j = 0; j < subjects.length; j++) {
        const s = subjects[(j + round) % subjects.length]!;
        const [wall, cpu] = await timed(s.call, runMs);
        s.samples.push(wall);
        s.cpu.push(cpu);
      }
    }
    const [b, c, v] = subjects.map((s) => stats(s.samples)) as [Stats, Stats, Stats];
    const [bc, cc, vc] = subjects.map((s) => stats(s.cpu)) as [Stats, Stats, Stats];
    const r2 = (x: number): number => Math.round(x * 100) / 100;
    const row = (name: string, ours: Stats, b: Stats): Row => ({
      name,
      unit: 'µs/call',
      better: 'lower',
      ours: r2(ours.median),
      peer: r2(b.median),
      peer_name: 'bare fetch (hand-built Request)',
      ratio: r2(b.median / ours.median),
      ours_min: r2(ours.min),
      ours_max: r2(ours.max),
      peer_min: r2(b.min),
      peer_max: r2(b.max),
      note: `overhead ${r2(ours.median - b.median)} µs/call (${Math.round(((ours.median - b.median) / b.median) * 100)}%)`,
    });
    const rows = [
      row('client: getTag per call (default options), wall time', c, b),
      row('client: getTag per call (validateResponses: true), wall time', v, b),
      row('client: getTag per call (default options), CPU time', cc, bc),
      row('client: getTag per call (validateResponses: true), CPU time', vc, bc),
    ];
    const notes = [
      `In one process: the sandbox on \`:memory:\` and its fetch handler \`sandbox.fetch(new Request(url, init))\`. **ours** is the generated client's \`client.tags.getTag(id)\` (createClient with that handler as \`fetch\`; default options, then \`validateResponses: true\`); **bare fetch** builds \`new Request(url, { headers: { 'x-api-key': key } })\`, calls the handler, checks the status and parses the JSON. Medians of ${runs} runs of ${runMs} ms of back-to-back awaited calls, after a ${runMs} ms warm-up, interleaved with the order rotated each round; min-max the range. Each run is timed on the wall clock and on this process's CPU time (user + system; everything runs in this process, so on a busy machine the CPU figures are the steadier ones). \`ratio\` = bare / ours (necessarily below 1: the client does the bare call's work plus its own).`,
      '',
      `Overhead of the client: ${r2(c.median - b.median)} µs per call with default options, ${r2(v.median - b.median)} µs with response validation (bare call ${r2(b.median)} µs), wall clock; in CPU time ${r2(cc.median - bc.median)} µs and ${r2(vc.median - bc.median)} µs (bare call ${r2(bc.median)} µs).`,
    ];
    return { rows, notes };
  } finally {
    await sandbox.close();
  }
}
