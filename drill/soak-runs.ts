// Executed runs in the soak (issue 29: "and executed runs"): an organization of the soak's own, left in automatic
// execution, with a chat agent served here on loopback (the sandbox calls it for every agent turn), a persona, a
// test set of two cases, a judged and a computed metric and a job_complete webhook to a local receiver. A run is
// launched every `everyS` seconds through the instances in turn and followed to its end. At the end of the soak
// every launched run must have COMPLETED with both conversations and both metrics' values, and its webhook must
// have arrived exactly once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clip } from './context.js';
import { type Recorder, send } from './http.js';
import type { Receiver } from './receiver.js';
import type { Check } from './soak-judge.js';

/** Cases per test set, so conversations per run. */
const CASES = 2;

interface Launched {
  id: string;
  at: number;
  done?: { status: string; at: number; problem: string | null };
}

export interface SoakRuns {
  /** Launches one run (called by the soak's clock); never throws, problems are recorded. */
  launch(base: string): Promise<void>;
  /** Follows every unfinished run once (called by the soak's clock). */
  poll(base: string): Promise<void>;
  /** Waits up to `ms` for the runs still going, then judges. */
  finish(base: string, ms: number): Promise<{ check: Check; lines: string[] }>;
  close(): Promise<void>;
}

/** A chat agent on loopback answering every turn `echo: <what it heard>` (counted, not recorded). */
async function chatAgent(): Promise<{ url: string; calls: () => number; server: Server }> {
  let calls = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls++;
      let heard = '';
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages?: { role?: string; content?: unknown }[] };
        const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
        heard = typeof user?.content === 'string' ? user.content : '';
      } catch {
        // Answered all the same: the sandbox's request is what is under test, not this stand-in.
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'chatcmpl-soak', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: `echo: ${heard}` }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls, server };
}

export async function startSoakRuns(rec: Recorder, key: string, base: string, receiver: Receiver, hookPath: string): Promise<SoakRuns> {
  const agentServer = await chatAgent();
  const headers = { 'X-API-Key': key, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown, at = base): Promise<Record<string, unknown>> => {
    const a = await send(rec, 'soak', `runs set-up ${path}`, 'POST', `${at}${path}`, { headers, body: JSON.stringify(body), timeoutMs: 30_000 });
    if (a.status < 200 || a.status > 299) throw new Error(`soak runs set-up: POST ${path} answered ${a.status} ${clip(a.text, 200)}`);
    return a.body as Record<string, unknown>;
  };
  const agent = (await post('/agents', { display_name: 'Soak chat agent', model_type: 'MODEL_TYPE_CHAT', metadata: { chat_endpoint: `${agentServer.url}/chat` } })).agent as { id: string };
  const persona = (await post('/personas', { name: 'Soak caller', voice_name: 'hans', language_code: 'de-DE' })).persona as { id: string };
  const testSet = (await post('/test-sets', { display_name: 'Soak cases' })).test_set as { id: string };
  for (let i = 0; i < CASES; i++) await post('/test-cases', { test_set_id: testSet.id, input_str: `Soak question ${i + 1}` });
  const judged = (await post('/metrics', { metric_name: 'Soak polite', description: 'Polite?', metric_type: 'METRIC_LLM_BINARY', prompt: 'Polite?' })).metric as { id: string };
  const computed = (await post('/metrics', { metric_name: 'Soak echoes', description: 'Echoes?', metric_type: 'METRIC_TRANSCRIPT_REGEX', regex_pattern: '^echo: ', role: 'agent' })).metric as { id: string };
  await post('/webhooks', { type: 'job_complete', url: `${receiver.url}${hookPath}` });
  const metricIds = [judged.id, computed.id];

  const launched: Launched[] = [];
  const problems: string[] = [];
  const read = async (at: string, run: Launched): Promise<void> => {
    const a = await send(rec, 'soak', 'runs getRun', 'GET', `${at}/runs/${run.id}`, { headers, timeoutMs: 30_000 });
    if (a.status !== 200) return; // judged at the end: a run never finished is a failure there
    const r = (a.body as { run?: { status?: string; progress?: { completed_test_cases?: number; failed_test_cases?: number }; results?: { metrics?: Record<string, { values?: unknown[] }> } } }).run;
    const status = r?.status ?? '?';
    if (status !== 'COMPLETED' && status !== 'FAILED') return;
    let problem: string | null = null;
    if (status !== 'COMPLETED') problem = `ended ${status}`;
    else if (r?.progress?.completed_test_cases !== CASES || (r.progress.failed_test_cases ?? 0) !== 0) problem = `progress ${JSON.stringify(r?.progress)}`;
    else {
      const missing = metricIds.filter((m) => (r.results?.metrics?.[m]?.values?.length ?? 0) !== CASES);
      if (missing.length > 0) problem = `metric values missing for ${missing.join(', ')}`;
    }
    run.done = { status, at: performance.now(), problem };
  };

  return {
    async launch(at) {
      const a = await send(rec, 'soak', 'runs launchRun', 'POST', `${at}/runs`, { headers, body: JSON.stringify({ agent_id: agent.id, persona_id: persona.id, test_set_id: testSet.id, metric_ids: metricIds }), timeoutMs: 30_000 });
      const id = (a.body as { run?: { run_id?: string } } | undefined)?.run?.run_id;
      if (a.status === 200 && id) launched.push({ id, at: performance.now() });
      else problems.push(`launch answered ${a.status} ${clip(a.text, 200)}`);
    },
    async poll(at) {
      for (const run of launched.filter((r) => !r.done)) await read(at, run);
    },
    async finish(at, ms) {
      const deadline = performance.now() + ms;
      while (launched.some((r) => !r.done) && performance.now() < deadline) {
        for (const run of launched.filter((r) => !r.done)) await read(at, run);
        await new Promise((r) => setTimeout(r, 500));
      }
      await new Promise((r) => setTimeout(r, 1500)); // a webhook sent twice would arrive by now
      const hooks = new Map<string, number>();
      for (const x of receiver.received.filter((x) => x.path === hookPath)) {
        const runId = (JSON.parse(x.body) as { run_id?: string }).run_id ?? '?';
        hooks.set(runId, (hooks.get(runId) ?? 0) + 1);
      }
      for (const run of launched) {
        if (!run.done) problems.push(`run ${run.id}: not finished ${Math.round(ms / 1000)} s after the traffic stopped`);
        else if (run.done.problem) problems.push(`run ${run.id}: ${run.done.problem}`);
        const n = hooks.get(run.id) ?? 0;
        if (run.done?.status === 'COMPLETED' && n !== 1) problems.push(`run ${run.id}: job_complete delivered ${n} times`);
      }
      const seconds = launched.filter((r) => r.done).map((r) => (r.done!.at - r.at) / 1000).sort((a, b) => a - b);
      const pct = (p: number): string => (seconds.length === 0 ? '-' : seconds[Math.min(seconds.length - 1, Math.floor(seconds.length * p))]!.toFixed(1));
      const completed = launched.filter((r) => r.done?.status === 'COMPLETED' && !r.done.problem).length;
      const detail = `${launched.length} runs launched, ${completed} completed with ${CASES} conversations and both metrics' values each, job_complete once each; launch to completion seen ${pct(0.5)} s median, ${pct(0.99)} s p99; the agent answered ${agentServer.calls()} turns`;
      return {
        check: { name: 'runs executed', ok: launched.length > 0 && problems.length === 0, detail: problems.length === 0 ? detail : `${detail}; ${problems.length} problems` },
        lines: problems.slice(0, 50),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        agentServer.server.closeAllConnections();
        agentServer.server.close(() => resolve());
      }),
  };
}
