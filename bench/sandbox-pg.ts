// Sandbox on PostgreSQL: the tag create and persona GET cases of bench/sandbox.ts (autocannon on loopback, 32
// connections) against 1, 2 and 3 sandbox instances over one PostgreSQL database, beside the sandbox on a SQLite
// file. With several instances the connections are spread evenly over them (what a round-robin load balancer
// does); requests/s adds up, p99 is taken over every answer, and CPU per request is the instances' CPU plus the
// PostgreSQL server's (every postgres process) divided by the answers; an instance on PostgreSQL is a pool of
// worker processes (src/sandbox/pool), whose CPU counts as the instance's. Two more cases (issue 28): tag
// creates by two organizations at once (16 connections each), and persona GETs while one request's statement
// waits (a transaction held open from outside on that request's organization's lock: a slow query on purpose),
// beside the same GETs without it. Needs SANDBOX_PG_URL (or the default local URL, test/sandbox/pg-env.ts);
// without a server the rows carry the reason instead of figures.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drillSchemaUrl, pgExec } from '../drill/instances.js';
import { finishPq, newPq } from '../src/sandbox/storage/pg-connection.js';
import { scopeLockKey } from '../src/sandbox/storage/pg-schema.js';
import { procCpuMs, startServer, stats, tempDir, type ServerProcess } from './processes.js';
import { OPS, load, type Load, type Op } from './sandbox.js';
import type { BenchOptions, BenchResult, Row } from './types.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PG_URL = process.env.SANDBOX_PG_URL ?? 'postgres://sandbox:sandbox@127.0.0.1:5432/sandbox_test';
const CONNECTIONS = 32;
const INSTANCES = [1, 2, 3];
const CASES = OPS.filter((op) => op.key === 'create' || op.key === 'get');
/** Result keys of the two extra cases (issue 28). */
const TWO_ORGS = { key: 'create-two-orgs', label: 'tag create by two organizations at once' };
const SLOW = { key: 'get-while-slow', label: 'persona GET while another request waits on a held lock' };

interface Started {
  server: ServerProcess;
  base: string;
  key: string;
  control: string;
  admin: string;
}

/** A second organization of a sandbox: its id and a key with every permission. */
interface OtherOrg {
  id: string;
  key: string;
}

async function startSandbox(db: string): Promise<Started> {
  let info: { base_url: string; api_key: string; control_url: string; admin_token: string } | undefined;
  const server = await startServer(process.execPath, ['--import', 'tsx', join(ROOT, 'src/sandbox/cli.ts'), '--port', '0', '--db', db, '--json'], {
    cwd: ROOT,
    ready: (line) => {
      if (line === undefined) return false;
      info = JSON.parse(line) as typeof info;
      return true;
    },
  });
  return { server, base: info!.base_url, key: info!.api_key, control: info!.control_url, admin: info!.admin_token };
}

async function otherOrganization(s: Started): Promise<OtherOrg> {
  const res = await fetch(`${s.control}/organizations`, { method: 'POST', headers: { authorization: `Bearer ${s.admin}`, 'content-type': 'application/json' }, body: '{"display_name":"second bench organization"}' });
  if (res.status !== 201) throw new Error(`creating the second organization answered ${res.status}`);
  const created = (await res.json()) as { organization: { id: string }; api_key: { key: string } };
  return { id: created.organization.id, key: created.api_key.key };
}

/** CPU (ms) of an instance: its process and its pool's worker processes (children started with the worker flag). */
function instanceCpuMs(s: Started): number {
  const pid = s.server.child.pid;
  let total = procCpuMs(pid) ?? 0;
  for (const child of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      if (readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('--sandbox-pool-worker')) total += procCpuMs(Number(child)) ?? 0;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
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

/**
 * One measurement: `connections` spread over the instances (and over the keys given, one organization each:
 * default the instance's development key), run at once.
 */
async function spread(instances: Started[], url: (s: Started) => string, op: Op, seconds: number, keys: (s: Started) => string[] = (s) => [s.key]): Promise<Load & { pgCpuPerReq: number }> {
  const pg0 = postgresCpuMs();
  const cpu0 = instances.map(instanceCpuMs);
  const jobs = instances.flatMap((s) => keys(s).map((key) => ({ s, key })));
  const parts = await Promise.all(jobs.map((job, i) => load(url(job.s), op, job.key, Math.floor(CONNECTIONS / jobs.length) + (i < CONNECTIONS % jobs.length ? 1 : 0), seconds)));
  const cpu = instances.reduce((sum, s, i) => sum + (instanceCpuMs(s) - cpu0[i]!), 0);
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

/**
 * Runs `measure` while one tag create of `other`'s organization waits in the database: a transaction on another
 * connection holds that organization's lock (the sandbox's statement timeout, 10 s, is longer than a round).
 * Checks that the waiting request was still waiting when the measurement ended and completed once released.
 */
async function whileOneWaits<T>(url: string, schema: string, s: Started, other: OtherOrg, measure: () => Promise<T>): Promise<T> {
  const clean = new URL(url);
  clean.searchParams.delete('schema');
  const holder = newPq();
  holder.connectSync(clean.href);
  try {
    holder.exec(`BEGIN; SELECT pg_advisory_xact_lock(${scopeLockKey(schema, other.id)})`);
    if (holder.resultErrorMessage()) throw new Error(`holding the lock failed: ${holder.resultErrorMessage()}`);
    let settled = false;
    const waiting = fetch(`${s.base}/tags`, { method: 'POST', headers: { 'x-api-key': other.key, 'content-type': 'application/json' }, body: JSON.stringify({ tag_name: `held ${Date.now()}` }) }).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 200));
    const result = await measure();
    if (settled) throw new Error('the held request finished before the lock was released');
    holder.exec('COMMIT');
    const res = await waiting;
    if (res.status !== 201) throw new Error(`the held request answered ${res.status} after the release`);
    return result;
  } finally {
    finishPq(holder);
  }
}

export async function benchSandboxPg(options: BenchOptions = {}): Promise<BenchResult> {
  const seconds = options.sandboxSeconds ?? (options.smoke ? 0.3 : 3);
  const rounds = options.sandboxRounds ?? (options.smoke ? 1 : 3);
  const warmupS = Math.min(1, seconds);
  const log = (s: string): void => console.log(`  ${s}`);
  const { url, schema } = drillSchemaUrl(PG_URL, process.pid);
  const running: ServerProcess[] = [];
  const results = new Map<string, (Load & { pgCpuPerReq?: number })[]>();
  const at = (store: string, op: { key: string }): (Load & { pgCpuPerReq?: number })[] => results.get(`${store}|${op.key}`) ?? (results.set(`${store}|${op.key}`, []), results.get(`${store}|${op.key}`)!);
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
    const sqliteOther = await otherOrganization(sqlite);
    const pgOther = await otherOrganization(pgs[0]!);
    const createOp = CASES.find((op) => op.key === 'create')!;
    const getOp = CASES.find((op) => op.key === 'get')!;
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
      // Two organizations writing at once, one instance (and SQLite the same way).
      const twoOrgs = (other: OtherOrg) => (s: Started) => [s.key, other.key];
      const sqliteTwo = await spread([sqlite], () => `${sqlite.base}/tags`, createOp, seconds, twoOrgs(sqliteOther));
      at('sqlite', TWO_ORGS).push(sqliteTwo);
      const pgTwo = await spread([pgs[0]!], () => `${pgs[0]!.base}/tags`, createOp, seconds, twoOrgs(pgOther));
      at('pg1', TWO_ORGS).push(pgTwo);
      log(`round ${round + 1} two organizations writing: SQLite ${Math.round(sqliteTwo.rps)} req/s, PostgreSQL x1 ${Math.round(pgTwo.rps)} req/s, p99 ${pgTwo.p99.toFixed(1)} ms`);
      // Reads while one request's statement waits on a lock held open from outside (a slow query on purpose). It
      // follows the two-organization load, whose abandoned writes of the held organization used to take every
      // worker of the pool (no read completed): a caller's writes now hold at most half the workers
      // (src/sandbox/pool/write-share.ts).
      const held = await whileOneWaits(url, schema, pgs[0]!, pgOther, () => spread([pgs[0]!], () => `${pgs[0]!.base}/personas/${pgPersona}`, getOp, seconds));
      at('pg1', SLOW).push(held);
      log(`round ${round + 1} persona GET while a write waits: PostgreSQL x1 ${Math.round(held.rps)} req/s, p99 ${held.p99.toFixed(1)} ms${held.bad + held.errors > 0 ? `, ${held.bad} unexpected ${JSON.stringify(held.statuses)}, ${held.errors} errors or timeouts` : ''}`);
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
  {
    const two = (store: string): number[] => results.get(`${store}|${TWO_ORGS.key}`)!.map((l) => l.rps);
    const so = stats(two('pg1'));
    const sp = stats(two('sqlite'));
    const bad = results.get(`pg1|${TWO_ORGS.key}`)!.reduce((n, l) => n + l.bad + l.errors, 0);
    rows.push({
      name: `sandbox on PostgreSQL: ${TWO_ORGS.label}, ${CONNECTIONS} connections (half each), 1 instance, requests/s`,
      unit: 'req/s',
      ours: r2(so.median),
      peer: r2(sp.median),
      peer_name: 'sandbox on SQLite (1 process), the same two organizations',
      ratio: r2(so.median / sp.median),
      ours_min: r2(so.min),
      ours_max: r2(so.max),
      peer_min: r2(sp.min),
      peer_max: r2(sp.max),
      ...(bad > 0 ? { error: `${bad} unexpected statuses or errors on PostgreSQL` } : {}),
    });
    const held = results.get(`pg1|${SLOW.key}`) ?? [];
    const slow = held.length > 0 ? stats(held.map((l) => l.p99)) : null;
    const usual = stats(results.get(`pg1|get`)!.map((l) => l.p99));
    if (slow) rows.push({
      name: `sandbox on PostgreSQL: ${SLOW.label}, ${CONNECTIONS} connections, 1 instance, p99 latency`,
      unit: 'ms',
      better: 'lower',
      ours: r2(slow.median),
      peer: r2(usual.median),
      peer_name: 'the same instance, persona GET with no request waiting',
      ratio: r2(usual.median / slow.median),
      ours_min: r2(slow.min),
      ours_max: r2(slow.max),
      peer_min: r2(usual.min),
      peer_max: r2(usual.max),
    });
  }
  const notes = [
    `autocannon in the bench process, ${CONNECTIONS} connections spread evenly over the instances, ${rounds} rounds of ${seconds} s per case and configuration after a 1 s warm-up; medians with min-max. Ours: the sandbox CLI with \`--db ${PG_URL.replace(/:[^:@/]*@/, ':***@')}?schema=<temporary>\`, 1, 2 and 3 instances; peer: the same CLI on a SQLite file. CPU per request on PostgreSQL counts the instances and every postgres process of the machine.`,
    '',
    'Capacity (see README, "A shared team sandbox"): every statement is one synchronous round trip to PostgreSQL (libpq), during which a worker waits; an instance is a pool of worker processes (default two per core), so it keeps that many requests in flight; writes are serialized per organization by an advisory lock, so organizations do not wait for each other. On this 2-core machine the instances, their workers, PostgreSQL and autocannon share two cores: the cores, not the sandbox, are the limit, more instances add processes to the same two cores, and forwarding each request to a worker process costs CPU that a saturated machine does not have (docs/sandbox.md, "Team sandbox at speed (issue 28)").',
    '',
    `Two organizations: ${CONNECTIONS / 2} connections create tags in each of two organizations of one instance at once (SQLite: the same on one process). While a write waits: a transaction on another connection holds the second organization's lock while one tag create of that organization waits in a worker and ${CONNECTIONS} connections read a persona of the development organization; peer: the same instance's persona GET p99 of the same round without a waiting request.`,
  ];
  return { rows, notes };
}
