// Sandbox: requests per second and p99 latency on loopback (autocannon, 127.0.0.1 only, bounded in time) for a
// validated persona PATCH, a persona GET and a tag create, with 1 and 32 connections, on three servers:
//   - ours: the sandbox CLI on a SQLite database file in a temp folder (WAL, synchronous=NORMAL: every 2xx write
//     has committed);
//   - Prism (@stoplight/prism-cli mock, logging at error level) on the sandbox's own served documents
//     (GET /v1/openapi/personas and /tags: bundled, standalone), one Prism process per document;
//   - a bare node:http server (bench/bare-server.ts) that reads and parses the body and answers the sandbox's JSON:
//     the ceiling of a Node HTTP server on this machine.
// Every server gets the same requests (unique names per request). Measurements are
// interleaved: for each round, case and connection count, the servers run one after the other (order rotated).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { freePort, packageVersion, procCpuMs, startServer, stats, tempDir, type ServerProcess, type Stats } from './processes.js';
import type { BenchOptions, BenchResult, Row, Target } from './types.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

// autocannon ships no types; the little used here.
interface AutocannonInstance {
  on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): void;
  on(event: 'reqError', listener: (error: Error) => void): void;
  stop(): void;
}
interface AutocannonResult {
  errors: number;
  timeouts: number;
  duration: number;
}
interface RequestParams {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
type Autocannon = (
  opts: {
    url: string;
    method: string;
    headers: Record<string, string>;
    body?: string;
    requests?: { setupRequest: (req: RequestParams) => RequestParams }[];
    connections: number;
    duration: number;
    pipelining?: number;
    timeout?: number;
  },
  cb: (err: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;
const autocannon = require('autocannon') as Autocannon;

type ServerKey = 'ours' | 'prism' | 'bare';
type OpKey = 'patch' | 'get' | 'create';

export interface Op {
  key: OpKey;
  label: string;
  method: string;
  body?: string;
  status: number;
}

export const OPS: Op[] = [
  { key: 'patch', label: 'persona PATCH (validated)', method: 'PATCH', body: '{"name":"bench persona [<id>]","voice_speed":1.1,"background_sound":"office"}', status: 200 },
  { key: 'get', label: 'persona GET', method: 'GET', status: 200 },
  { key: 'create', label: 'tag create', method: 'POST', body: '{"tag_name":"bench-[<id>]","color":"#00ff00"}', status: 201 },
];
const CONNECTIONS = [1, 32];
/** Issue 31's goal: ours at least this many times Prism's requests/s in every row. */
const PRISM_GOAL = 3;

export interface Load {
  /** Latencies (ms) of the answers with the expected status, sorted. */
  latencies: number[];
  rps: number;
  p99: number;
  /** CPU time of the server process per answered request, in µs (NaN when it cannot be read). */
  cpuPerReq: number;
  ok: number;
  bad: number;
  errors: number;
  statuses: Record<number, number>;
}

let runCounter = 0;

/**
 * One bounded autocannon run. Latencies come from every response (fractional ms), not autocannon's 1-ms histogram.
 * `[<id>]` in the body becomes a unique id per request (through setupRequest: autocannon 8's own idReplacement
 * announces a wrong Content-Length, so the server waits for bytes that never come).
 */
export function load(url: string, op: Op, apiKey: string, connections: number, seconds: number, serverPid?: number): Promise<Load> {
  return new Promise((resolvePromise, reject) => {
    const latencies: number[] = [];
    const statuses: Record<number, number> = {};
    let ok = 0;
    let bad = 0;
    const headers: Record<string, string> = { 'x-api-key': apiKey };
    if (op.body !== undefined) headers['content-type'] = 'application/json';
    const prefix = `${process.pid.toString(36)}-${(++runCounter).toString(36)}-`;
    let n = 0;
    const template = op.body;
    const requests = template === undefined ? undefined : [{ setupRequest: (req: RequestParams): RequestParams => ({ ...req, body: template.replace('[<id>]', `${prefix}${++n}`) }) }];
    const cpu0 = procCpuMs(serverPid);
    const t0 = performance.now();
    const instance = autocannon(
      { url, method: op.method, headers, ...(requests ? { requests } : {}), connections, duration: seconds, pipelining: 1, timeout: 10 },
      (err, result) => {
        if (err) return reject(err);
        const elapsed = (performance.now() - t0) / 1000;
        const cpu1 = procCpuMs(serverPid);
        const cpuPerReq = cpu0 !== undefined && cpu1 !== undefined && ok > 0 ? ((cpu1 - cpu0) * 1000) / ok : NaN;
        latencies.sort((a, b) => a - b);
        const p99 = latencies.length > 0 ? latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)]! : NaN;
        resolvePromise({ latencies, rps: ok / elapsed, p99, cpuPerReq, ok, bad, errors: result.errors + result.timeouts, statuses });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === op.status) {
        ok++;
        latencies.push(ms);
      } else bad++;
    });
  });
}

interface Subject {
  key: ServerKey;
  label: string;
  url(op: Op): string;
  /** The server process answering `op`. */
  pid(op: Op): number | undefined;
  apiKey: string;
}

async function ask(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
}

export async function benchSandbox(options: BenchOptions = {}): Promise<BenchResult> {
  // Smoke: one round of a fraction of a second per case (proves every case answers as expected).
  const seconds = options.sandboxSeconds ?? (options.smoke ? 0.3 : 3);
  const rounds = options.sandboxRounds ?? (options.smoke ? 1 : 3);
  const warmupS = Math.min(1, seconds);
  const dir = tempDir('sandbox');
  const dbPath = join(dir, 'sandbox.db');
  const log = (s: string): void => console.log(`  ${s}`);
  const servers: ServerProcess[] = [];
  const prismVersion = packageVersion('@stoplight/prism-cli');

  try {
    // Ours.
    let info: { base_url: string; api_key: string } | undefined;
    const sandbox = await startServer(process.execPath, ['--import', 'tsx', join(ROOT, 'src/sandbox/cli.ts'), '--port', '0', '--db', dbPath, '--json'], {
      cwd: ROOT,
      ready: (line) => {
        if (line === undefined) return false;
        info = JSON.parse(line) as { base_url: string; api_key: string };
        return true;
      },
    });
    servers.push(sandbox);
    const base = info!.base_url;
    const key = info!.api_key;
    const json = { 'x-api-key': key, 'content-type': 'application/json' };
    const created = await ask(`${base}/personas`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'bench persona', voice_name: 'alloy', language_code: 'en-US' }) });
    if (created.status !== 201) throw new Error(`sandbox: creating the persona answered ${created.status}: ${await created.text()}`);
    const personaId = ((await created.json()) as { persona: { id: string } }).persona.id;
    // The answers the bare server replays: the sandbox's own persona after the PATCH, and a created tag.
    const patched = await ask(`${base}/personas/${personaId}`, { method: 'PATCH', headers: json, body: '{"name":"bench persona 0","voice_speed":1.1,"background_sound":"office"}' });
    if (patched.status !== 200) throw new Error(`sandbox: PATCH answered ${patched.status}: ${await patched.text()}`);
    const tagged = await ask(`${base}/tags`, { method: 'POST', headers: json, body: '{"tag_name":"bench-setup","color":"#00ff00"}' });
    if (tagged.status !== 201) throw new Error(`sandbox: tag create answered ${tagged.status}: ${await tagged.text()}`);
    const answers = { persona: ((await patched.json()) as { persona: unknown }).persona, tag: ((await tagged.json()) as { tag: unknown }).tag };
    writeFileSync(join(dir, 'answers.json'), JSON.stringify(answers));

    // The served documents, for Prism.
    const docs: Record<string, string> = {};
    for (const name of ['personas', 'tags']) {
      const r = await ask(`${base}/openapi/${name}`);
      if (r.status !== 200) throw new Error(`sandbox: GET /openapi/${name} answered ${r.status}`);
      docs[name] = join(dir, `${name}.yaml`);
      writeFileSync(docs[name]!, await r.text());
    }
    const prismPorts: Record<string, number> = {};
    const prismPids: Record<string, number | undefined> = {};
    for (const name of ['personas', 'tags']) {
      const port = await freePort();
      prismPorts[name] = port;
      const prism = await startServer(process.execPath, [join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js'), 'mock', '-p', String(port), '-h', '127.0.0.1', '-v', 'error', docs[name]!], {
        cwd: dir,
        poll: true,
        timeoutMs: 180_000,
        ready: async () => (await ask(`http://127.0.0.1:${port}/${name === 'tags' ? 'tags' : 'personas'}`)).status > 0,
      });
      servers.push(prism);
      prismPids[name] = prism.child.pid;
    }

    // The bare ceiling.
    let barePort = 0;
    const bare = await startServer(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/bare-server.ts'), join(dir, 'answers.json')], {
      cwd: ROOT,
      ready: (line) => {
        if (line === undefined) return false;
        barePort = (JSON.parse(line) as { port: number }).port;
        return true;
      },
    });
    servers.push(bare);

    const subjects: Subject[] = [
      { key: 'ours', label: 'ours', apiKey: key, pid: () => sandbox.child.pid, url: (op) => (op.key === 'create' ? `${base}/tags` : `${base}/personas/${personaId}`) },
      {
        key: 'prism',
        label: `Prism ${prismVersion}`,
        apiKey: key,
        pid: (op) => (op.key === 'create' ? prismPids.tags : prismPids.personas),
        url: (op) => (op.key === 'create' ? `http://127.0.0.1:${prismPorts.tags}/tags` : `http://127.0.0.1:${prismPorts.personas}/personas/${personaId}`),
      },
      { key: 'bare', label: 'bare node:http', apiKey: key, pid: () => bare.child.pid, url: (op) => (op.key === 'create' ? `http://127.0.0.1:${barePort}/v1/tags` : `http://127.0.0.1:${barePort}/v1/personas/${personaId}`) },
    ];

    // Each server answers each case as expected before anything is measured.
    for (const s of subjects) {
      for (const op of OPS) {
        const r = await ask(s.url(op).replace('[<id>]', 'x'), {
          method: op.method,
          headers: op.body !== undefined ? json : { 'x-api-key': key },
          ...(op.body !== undefined ? { body: op.body.replace('[<id>]', `probe-${s.key}`) } : {}),
        });
        if (r.status !== op.status) throw new Error(`${s.label} answered ${r.status} to ${op.label} (expected ${op.status}): ${(await r.text()).slice(0, 300)}`);
      }
    }

    let created201 = 1 + 1; // the setup tag and the probe
    // Creates sent but not counted: at most one per connection, in flight when a run stops.
    let inFlightMax = 0;
    const count = (s: Subject, op: Op, l: Load, connections: number): void => {
      if (s.key !== 'ours' || op.key !== 'create') return;
      created201 += l.statuses[201] ?? 0;
      inFlightMax += connections;
    };

    // Warm-up: 1 s per server and case at 32 connections.
    for (const s of subjects) {
      for (const op of OPS) {
        const l = await load(s.url(op), op, s.apiKey, 32, warmupS);
        count(s, op, l, 32);
      }
    }

    const results = new Map<string, Load[]>();
    const k = (s: ServerKey, op: OpKey, c: number): string => `${s}|${op}|${c}`;
    for (let round = 0; round < rounds; round++) {
      for (const op of OPS) {
        for (const c of CONNECTIONS) {
          for (let j = 0; j < subjects.length; j++) {
            const s = subjects[(j + round) % subjects.length]!;
            const l = await load(s.url(op), op, s.apiKey, c, seconds, s.pid(op));
            count(s, op, l, c);
            const list = results.get(k(s.key, op.key, c)) ?? [];
            list.push(l);
            results.set(k(s.key, op.key, c), list);
            log(`round ${round + 1} ${op.key} c=${c} ${s.key}: ${Math.round(l.rps)} req/s, p99 ${l.p99.toFixed(2)} ms, server CPU ${Math.round(l.cpuPerReq)} µs/req${l.bad + l.errors > 0 ? `, ${l.bad} unexpected statuses ${JSON.stringify(l.statuses)}, ${l.errors} errors` : ''}`);
          }
        }
      }
    }

    // Stop everything; then check that the database holds every tag the sandbox answered 201 for.
    const peaks: Record<string, number | undefined> = {};
    const names = ['ours (sandbox)', 'Prism (personas)', 'Prism (tags)', 'bare node:http'];
    for (let i = 0; i < servers.length; i++) peaks[names[i]!] = (await servers[i]!.stop()).peakRssMb;
    servers.length = 0;
    const db = new Database(dbPath, { readonly: true });
    const storedTags = (db.prepare("SELECT count(*) AS n FROM records WHERE kind = 'tag' AND deleted = 0").get() as { n: number }).n;
    db.close();

    // Rows.
    const rows: Row[] = [];
    const targets: Target[] = [];
    const r2 = (x: number): number => Math.round(x * 100) / 100;
    const problems = (ls: Load[]): string | undefined => {
      const bad = ls.reduce((s, l) => s + l.bad, 0);
      const errors = ls.reduce((s, l) => s + l.errors, 0);
      if (bad + errors === 0) return undefined;
      const statuses: Record<number, number> = {};
      for (const l of ls) for (const [code, n] of Object.entries(l.statuses)) statuses[Number(code)] = (statuses[Number(code)] ?? 0) + n;
      return `${bad} unexpected statuses ${JSON.stringify(statuses)}, ${errors} connection errors/timeouts`;
    };
    for (const op of OPS) {
      for (const c of CONNECTIONS) {
        const ours = results.get(k('ours', op.key, c))!;
        const oRps = stats(ours.map((l) => l.rps));
        const oP99 = stats(ours.map((l) => l.p99));
        const oCpu = stats(ours.map((l) => l.cpuPerReq));
        for (const peerKey of ['prism', 'bare'] as const) {
          const peer = results.get(k(peerKey, op.key, c))!;
          const peerLabel = subjects.find((s) => s.key === peerKey)!.label;
          const pRps = stats(peer.map((l) => l.rps));
          const pP99 = stats(peer.map((l) => l.p99));
          const pCpu = stats(peer.map((l) => l.cpuPerReq));
          const err = [problems(ours) && `ours: ${problems(ours)}`, problems(peer) && `${peerKey}: ${problems(peer)}`].filter(Boolean).join('; ');
          const base = `sandbox: ${op.label}, ${c} connection${c === 1 ? '' : 's'}`;
          const row = (metric: string, unit: 'req/s' | 'ms' | 'µs/req', o: Stats, p: Stats, better: 'higher' | 'lower'): Row => ({
            name: `${base}, ${metric}`,
            unit,
            ...(better === 'lower' ? { better } : {}),
            ours: r2(o.median),
            peer: r2(p.median),
            peer_name: peerLabel,
            ratio: r2(better === 'higher' ? o.median / p.median : p.median / o.median),
            ours_min: r2(o.min),
            ours_max: r2(o.max),
            peer_min: r2(p.min),
            peer_max: r2(p.max),
            ...(err ? { error: err } : {}),
          });
          rows.push(row('requests/s', 'req/s', oRps, pRps, 'higher'));
          rows.push(row('p99 latency', 'ms', oP99, pP99, 'lower'));
          rows.push(row('server CPU per request', 'µs/req', oCpu, pCpu, 'lower'));
          const ratio = oRps.median / pRps.median;
          targets.push(
            peerKey === 'prism'
              ? { text: `${op.label}, ${c} conn.: at least ${PRISM_GOAL}x Prism (req/s)`, met: ratio >= PRISM_GOAL, detail: `${Math.round(oRps.median)} vs ${Math.round(pRps.median)} req/s: ${ratio.toFixed(1)}x` }
              : { text: `${op.label}, ${c} conn.: at least 60% of bare node:http (req/s)`, met: ratio >= 0.6, detail: `${Math.round(oRps.median)} vs ${Math.round(pRps.median)} req/s: ${Math.round(ratio * 100)}%` },
          );
        }
      }
    }

    targets.push({
      text: 'persisting every write (every tag create answered 201 is in the database file after the sandbox stops)',
      met: storedTags >= created201 && storedTags - created201 <= inFlightMax,
      detail: `${created201} answered 201, ${storedTags} stored (at most ${inFlightMax} more could have been in flight when runs stopped)`,
    });

    // Does the cost of a create grow with the number of records? (Rounds run in order, so tags accumulate.)
    const growth = CONNECTIONS.map((c) => {
      const ls = results.get(k('ours', 'create', c))!;
      return ls.length > 1 ? `${c} connection${c === 1 ? '' : 's'}: ${ls.map((l) => Math.round(l.cpuPerReq)).join(' → ')} µs` : '';
    }).filter(Boolean);
    const first = results.get(k('ours', 'create', 1))![0]!.cpuPerReq;
    const last = results.get(k('ours', 'create', 1))!.at(-1)!.cpuPerReq;

    const notes = [
      `autocannon ${packageVersion('autocannon')} in the bench process (pipelining 1, 127.0.0.1), ${rounds} rounds of ${seconds} s per server, case and connection count, interleaved (servers rotated each round), after a 1 s warm-up of each server and case; medians with min-max over the rounds. requests/s counts only answers with the expected status (200, or 201 for the create); p99 is computed from every such answer's latency (fractional ms); server CPU per request is the CPU time (user + system, /proc/<pid>/stat, 10 ms ticks) the answering server process used during the run divided by the answers counted, which depends far less on other load on the machine than requests/s. \`ratio\` is ours / peer for requests/s and peer / ours for p99 and CPU per request: above 1 means ours is better.`,
      '',
      `Servers, each its own process: **ours** \`node --import tsx src/sandbox/cli.ts --port 0 --db <temp>/sandbox.db\` (SQLite file, WAL, synchronous=NORMAL: every 2xx write has committed before it is answered); **Prism** ${prismVersion} \`prism mock -v error\` on the sandbox's served documents (personas and tags, one process each; static examples, request validation on); **bare node:http** (bench/bare-server.ts) reads and JSON.parses the body and answers the sandbox's own JSON (merged with the request fields), no validation, no storage. The PATCH renames the persona (a unique name per request, plus \`voice_speed\` and \`background_sound\`, all validated and checked by the persona rules); the create makes a tag with a unique name.`,
      '',
      `Persistence: the sandbox answered 201 to ${created201} tag creates in this run (setup, probe, warm-up and timed runs); after it stopped, its database file held ${storedTags} tag records${
        storedTags >= created201
          ? `: every answered create is stored${storedTags > created201 ? ` (the ${storedTags - created201} more, of at most ${inFlightMax} possible, are creates still in flight when autocannon stopped a run: committed, answered after the run ended, not counted)` : ''}`
          : ' (**fewer than answered: writes were lost**)'
      }.`,
      '',
      ...(growth.length > 0
        ? [
            `Our server CPU per tag create, round by round (tags accumulating, ${storedTags} at the end): ${growth.join('; ')}.${last > 1.5 * first ? ' The cost of a create grows with the number of tags already stored.' : ''}`,
            '',
          ]
        : []),
      `Peak RSS of the servers over the run: ${Object.entries(peaks)
        .map(([n, v]) => `${n} ${v === undefined ? '?' : `${Math.round(v)} MB`}`)
        .join(', ')}.`,
    ];
    return { rows, targets, notes };
  } finally {
    for (const s of servers) await s.stop(3000);
  }
}
