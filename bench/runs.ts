// Runs at work (issue 25): a launched run against a local chat agent (node:http on 127.0.0.1, answering at once)
// in the same process as the sandbox (a SQLite file in a temp folder, pace 0, concurrency 10). Measured per round:
// conversations per second from launch to COMPLETED, the process's CPU per conversation minus the agent's own
// handler time (the sandbox's time per conversation) beside the agent's time per conversation. Then one run of
// 1,000 test cases: resident memory and heap before the launch and after completion (with a GC when exposed), so
// memory growing with finished conversations would show.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '../generated/client/index.js';
import { createSandbox, type Sandbox } from '../src/sandbox/index.js';
import type { BenchResult, Row, Target } from './types.js';

const ROUNDS = 3;
const CASES = 100;
const BIG = 1000;
const CONCURRENCY = 10;

interface Agent {
  url: string;
  /** Milliseconds spent in the handler, summed. */
  busyMs: () => number;
  close(): Promise<void>;
}

async function startAgent(): Promise<Agent> {
  let busy = 0;
  const server = createServer((req, res) => {
    const t0 = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { content: string }[] };
      const text = JSON.stringify({ choices: [{ message: { role: 'assistant', content: `ok: ${body.messages.at(-1)?.content ?? ''}` } }] });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text);
      busy += performance.now() - t0;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat`,
    busyMs: () => busy,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function prepare(sandbox: Sandbox, client: Client, agentUrl: string, cases: number): Promise<{ agent_id: string; persona_id: string; test_set_id: string }> {
  const { agent } = await client.agents.createAgent({ display_name: `Bench ${Math.random()}`, model_type: 'MODEL_TYPE_CHAT', metadata: { chat_endpoint: agentUrl } });
  const { persona } = await client.personas.createPersona({ name: `Bench ${Math.random()}`, voice_name: 'hans', language_code: 'de-DE' });
  const setId = (await client.testSets.createTestSet({ display_name: `Bench ${Math.random()}` })).test_set!.id!;
  // The test cases as fixtures in one control-plane call: creating them one by one through the API is quadratic in
  // the test set's size (grid positions), which is not what this bench measures.
  const records = Array.from({ length: cases }, (_, i) => ({ kind: 'test_case', data: { test_set_id: setId, input_str: `Question number ${i}`, position: i, attributes: {} } }));
  const res = await sandbox.fetch(new Request(`http://sandbox.bench/control/organizations/${sandbox.organizationId}/fixtures`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ records }) }));
  if (res.status !== 201) throw new Error(`loading ${cases} test cases failed: HTTP ${res.status} ${await res.text()}`);
  return { agent_id: agent.id, persona_id: persona.id, test_set_id: setId };
}

async function runToEnd(client: Client, launch: { agent_id: string; persona_id: string; test_set_id: string }): Promise<void> {
  const { run } = await client.runs.launchRun({ ...launch, options: { concurrency: CONCURRENCY } });
  for (;;) {
    const now = (await client.runs.getRun(run.run_id)).run;
    if (now.status === 'COMPLETED') return;
    if (now.status === 'FAILED' || now.status === 'CANCELLED') throw new Error(`the bench run ended ${now.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number): number => bytes / 1024 / 1024;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

export async function benchRuns(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-runs-'));
  const agent = await startAgent();
  let sandbox: Sandbox | undefined;
  try {
    sandbox = await createSandbox({ db: join(dir, 'runs.db'), log: () => {}, runs: { paceMs: 0, maxConcurrency: CONCURRENCY } });
    const s = sandbox;
    const client = createClient({ baseUrl: 'http://sandbox.bench/v1', apiKey: s.apiKey, fetch: (input: RequestInfo | URL, init?: RequestInit) => s.fetch(new Request(input, init)), retry: false });
    const rates: number[] = [];
    const sandboxMs: number[] = [];
    const agentMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const launch = await prepare(s, client, agent.url, CASES);
      const busy0 = agent.busyMs();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await runToEnd(client, launch);
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const agentTotal = agent.busyMs() - busy0;
      rates.push(CASES / (wall / 1000));
      sandboxMs.push(((cpu.user + cpu.system) / 1000 - agentTotal) / CASES);
      agentMs.push(agentTotal / CASES);
    }
    const big = await prepare(s, client, agent.url, BIG);
    gc();
    const before = process.memoryUsage();
    const t0 = performance.now();
    await runToEnd(client, big);
    const bigSeconds = (performance.now() - t0) / 1000;
    gc();
    const after = process.memoryUsage();
    const row = (name: string, unit: Row['unit'], xs: number[], peer: number[] | null, peerName: string, better?: 'lower'): Row => ({
      name: `runs: ${name}`,
      unit,
      ours: median(xs),
      ours_min: Math.min(...xs),
      ours_max: Math.max(...xs),
      peer: peer ? median(peer) : null,
      peer_min: peer ? Math.min(...peer) : null,
      peer_max: peer ? Math.max(...peer) : null,
      peer_name: peerName,
      ratio: null,
      ...(peer ? {} : { note: 'no peer: the sandbox alone' }),
      ...(better ? { better } : {}),
    });
    const rows: Row[] = [
      row(`conversations per second (${CASES} test cases, concurrency ${CONCURRENCY}, pace 0)`, 'ops/s', rates, null, '-'),
      row('time per conversation: the sandbox (CPU) beside the agent (handler)', 'ms', sandboxMs, agentMs, 'the local chat agent', 'lower'),
      row(`RSS before / after a run of ${BIG} test cases`, 'MB', [mb(before.rss)], [mb(after.rss)], `after the run (${bigSeconds.toFixed(1)} s)`, 'lower'),
      row(`heap used before / after a run of ${BIG} test cases`, 'MB', [mb(before.heapUsed)], [mb(after.heapUsed)], 'after the run', 'lower'),
    ];
    const grew = mb(after.heapUsed) - mb(before.heapUsed);
    const targets: Target[] = [
      { text: 'a run of a few test cases finishes within a couple of seconds (default pace)', met: null, detail: 'see test/sandbox/runs/run-flow.test.ts (3 cases, pace 5 ms); this bench runs at pace 0' },
      { text: `a run of ${BIG} test cases completes without heap growing with finished conversations`, met: grew < 50, detail: `heap ${mb(before.heapUsed).toFixed(0)} MB before, ${mb(after.heapUsed).toFixed(0)} MB after (${grew >= 0 ? '+' : ''}${grew.toFixed(1)} MB); RSS ${mb(before.rss).toFixed(0)} -> ${mb(after.rss).toFixed(0)} MB` },
    ];
    return {
      rows,
      targets,
      notes: [
        `In process: the sandbox on a SQLite file (temp folder), a node:http chat agent on 127.0.0.1 that answers at once; ${ROUNDS} rounds of a run of ${CASES} test cases (one persona turn each: one agent call per conversation), concurrency ${CONCURRENCY}, pace 0, no metrics.`,
        'The sandbox\'s time per conversation is the process CPU during the run minus the agent handler\'s time, divided by the conversations (it includes the HTTP client and the polling of the run).',
        `Memory: one run of ${BIG} test cases; figures after a GC when node runs with --expose-gc (otherwise without).`,
      ],
    };
  } finally {
    await sandbox?.close();
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
