// Sandbox on PostgreSQL: the tag create and persona GET cases of bench/sandbox.ts (autocannon on loopback, 32
// connections) against 1, 2 and 3 sandbox instances over one PostgreSQL database, beside the sandbox on a SQLite
// file. With several instances the connections are spread evenly over them (what a round-robin load balancer
// does); requests/s adds up, p99 is taken over every answer, and CPU per request is the instances' CPU plus the
// PostgreSQL server's (every postgres process) divided by the answers. Needs SANDBOX_PG_URL (or the default
// local URL, test/sandbox/pg-env.ts); without a server the rows carry the reason instead of figures.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drillSchemaUrl, pgExec } from '../drill/instances.js';
import { procCpuMs, startServer, stats, tempDir, type ServerProcess } from './processes.js';
import { OPS, load, type Load, type Op } from './sandbox.js';
import type { BenchOptions, BenchResult, Row } from './types.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PG_URL = process.env.SANDBOX_PG_URL ?? 'postgres://sandbox:sandbox@127.0.0.1:5432/sandbox_test';
const CONNECTIONS = 32;
const INSTANCES = [1, 2, 3];
const CASES = OPS.filter((op) => op.key === 'create' || op.key === 'get');

interface Started {
  server: ServerProcess;
  base: string;
  key: string;
}

async function startSandbox(db: string): Promise<Started> {
  let info: { base_url: string; api_key: string } | undefined;
  const server = await startServer(process.execPath, ['--import', 'tsx', join(ROOT, 'src/sandbox/cli.ts'), '--port', '0', '--db', db, '--json'], {
    cwd: ROOT,
    ready: (line) => {
      if (line === undefined) return false;
      info = JSON.parse(line) as { base_url: string; api_key: string };
      return true;
    },
  });
  return { server, base: info!.base_url, key: info!.api_key };
}

/** CPU (ms) of every process named postgres: the database server's share of the work. */
function postgresCpuMs(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      total += procCpuMs(Number(pid)) ?? 0;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

/** One measurement: `connections` spread over the instances, run at once. */
async function spread(instances: Started[], url: (s: Started) => string, op: Op, seconds: number): Promise<Load & { pgCpuPerReq: number }> {
  const pg0 = postgresCpuMs();
  const cpu0 = instances.map((s) => procCpuMs(s.server.child.pid) ?? 0);
  const parts = await Promise.all(instances.map((s, i) => load(url(s), op, s.key, Math.floor(CONNECTIONS / instances.length) + (i < CONNECTIONS % instances.length ? 1 : 0), seconds)));
  const cpu = instances.reduce((sum, s, i) => sum + ((procCpuMs(s.server.child.pid) ?? 0) - cpu0[i]!), 0);
  const pg = postgresCpuMs() - pg0;
  const ok = parts.reduce((s, l) => s + l.ok, 0);
  const latencies = parts.flatMap((l) => l.latencies).sort((a, b) => a - b);
  const statuses: Record<number, number> = {};
  for (const l of parts) for (const [code, n] of Object.entries(l.statuses)) statuses[Number(code)] = (statuses[Number(code)] ?? 0) + n;
  return {
    latencies,
    rps: parts.reduce((s, l) => s + l.rps, 0),
    p99: latencies.length > 0 ? latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)]! : NaN,
    cpuPerReq: ok > 0 ? (cpu * 1000) / ok : NaN,
    pgCpuPerReq: ok > 0 ? (pg * 1000) / ok : NaN,
    ok,
    bad: parts.reduce((s, l) => s + l.bad, 0),
    errors: parts.reduce((s, l) => s + l.errors, 0),
    statuses,
  };
}

async function persona(s: Started): Promise<string> {
  const res = await fetch(`${s.base}/personas`, {
    method: 'POST',
    headers: { 'x-api-key': s.key, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench persona', voice_name: 'alloy', language_code: 'en-US' }),
  });
  if (res.status !== 201) throw new Error(`creating the persona answered ${res.status}`);
  return ((await res.json()) as { persona: { id: string } }).persona.id;
}

export async function benchSandboxPg(options: BenchOptions = {}): Promise<BenchResult> {
  const seconds = options.sandboxSeconds ?? (options.smoke ? 0.3 : 3);
  const rounds = options.sandboxRounds ?? (options.smoke ? 1 : 3);
  const warmupS = Math.min(1, seconds);
  const log = (s: string): void => console.log(`  ${s}`);
  const { url, schema } = drillSchemaUrl(PG_URL, process.pid);
  const running: ServerProcess[] = [];
  const results = new Map<string, (Load & { pgCpuPerReq?: number })[]>();
  const at = (store: string, op: Op): (Load & { pgCpuPerReq?: number })[] => results.get(`${store}|${op.key}`) ?? (results.set(`${store}|${op.key}`, []), results.get(`${store}|${op.key}`)!);
  try {
    const sqlite = await startSandbox(join(tempDir('sandbox-pg'), 'sandbox.db'));
    running.push(sqlite.server);
    const pgs: Started[] = [];
    for (let i = 0; i < Math.max(...INSTANCES); i++) {
      pgs.push(await startSandbox(url));
      running.push(pgs[i]!.server);
    }
    const sqlitePersona = await persona(sqlite);
    const pgPersona = await persona(pgs[0]!);
    const target = (personaId: string) => (op: Op) => (s: Started) => (op.key === 'create' ? `${s.base}/tags` : `${s.base}/personas/${personaId}`);
    for (const op of CASES) {
      await spread([sqlite], target(sqlitePersona)(op), op, warmupS); // warm-up
      await spread(pgs, target(pgPersona)(op), op, warmupS);
    }
    for (let round = 0; round < rounds; round++) {
      for (const op of CASES) {
        const l = await spread([sqlite], target(sqlitePersona)(op), op, seconds);
        at('sqlite', op).push(l);
        log(`round ${round + 1} ${op.key} SQLite: ${Math.round(l.rps)} req/s, p99 ${l.p99.toFixed(1)} ms, ${Math.round(l.cpuPerReq)} µs CPU/req`);
        for (const n of INSTANCES) {
          const m = await spread(pgs.slice(0, n), target(pgPersona)(op), op, seconds);
          at(`pg${n}`, op).push(m);
          log(`round ${round + 1} ${op.key} PostgreSQL x${n}: ${Math.round(m.rps)} req/s, p99 ${m.p99.toFixed(1)} ms, ${Math.round(m.cpuPerReq)} + ${Math.round(m.pgCpuPerReq)} µs CPU/req (instances + PostgreSQL)${m.bad + m.errors > 0 ? `, ${m.bad} unexpected ${JSON.stringify(m.statuses)}, ${m.errors} errors` : ''}`);
        }
      }
    }
  } finally {
    for (const s of running) await s.stop(3000);
    try {
      pgExec(PG_URL, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } catch {
      // The server was never reachable.
    }
  }

  const rows: Row[] = [];
  const r2 = (x: number): number => Math.round(x * 100) / 100;
  for (const op of CASES) {
    const base = results.get(`sqlite|${op.key}`)!;
    for (const n of INSTANCES) {
      const pg = results.get(`pg${n}|${op.key}`)!;
      const name = `sandbox on PostgreSQL: ${op.label}, ${CONNECTIONS} connections, ${n} instance${n === 1 ? '' : 's'}`;
      const bad = pg.reduce((s, l) => s + l.bad + l.errors, 0);
      const row = (metric: string, unit: Row['unit'], o: number[], p: number[], better: 'higher' | 'lower'): Row => {
        const so = stats(o);
        const sp = stats(p);
        return {
          name: `${name}, ${metric}`,
          unit,
          ...(better === 'lower' ? { better } : {}),
          ours: r2(so.median),
          peer: r2(sp.median),
          peer_name: 'sandbox on SQLite (1 process)',
          ratio: r2(better === 'higher' ? so.median / sp.median : sp.median / so.median),
          ours_min: r2(so.min),
          ours_max: r2(so.max),
          peer_min: r2(sp.min),
          peer_max: r2(sp.max),
          ...(bad > 0 ? { error: `${bad} unexpected statuses or errors on PostgreSQL` } : {}),
        };
      };
      rows.push(row('requests/s', 'req/s', pg.map((l) => l.rps), base.map((l) => l.rps), 'higher'));
      rows.push(row('p99 latency', 'ms', pg.map((l) => l.p99), base.map((l) => l.p99), 'lower'));
      rows.push(row('server CPU per request (instances + PostgreSQL)', 'µs/req', pg.map((l) => l.cpuPerReq + (l.pgCpuPerReq ?? 0)), base.map((l) => l.cpuPerReq), 'lower'));
    }
  }
  const notes = [
    `autocannon in the bench process, ${CONNECTIONS} connections spread evenly over the instances, ${rounds} rounds of ${seconds} s per case and configuration after a 1 s warm-up; medians with min-max. Ours: the sandbox CLI with \`--db ${PG_URL.replace(/:[^:@/]*@/, ':***@')}?schema=<temporary>\`, 1, 2 and 3 instances; peer: the same CLI on a SQLite file. CPU per request on PostgreSQL counts the instances and every postgres process of the machine.`,
    '',
    'Capacity (see README, "A shared team sandbox"): every statement is one synchronous round trip to PostgreSQL (libpq), during which an instance waits; writes are serialized across instances by one advisory lock. On this 2-core machine the instances, PostgreSQL and autocannon share two cores, so a second instance adds little and a third nothing: the cores, not the sandbox, are the limit.',
  ];
  return { rows, notes };
}
