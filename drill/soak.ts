// The soak (issue 29): `npm run drill -- --soak <seconds> [--rate 20] [--interval S] [--instances 3 --db URL]
// [--report FILE]`. Mixed traffic over every operation of the route table (so every operation family) at a
// steady rate, from valid requests the conformance World prepares: creates store new records (unique fields made
// unique), duplicates make records too, deletes remove records the soak made, updates change them, version listings
// read their histories, everything else runs as prepared. The stored data is held steady where the API lets it:
// at most POPULATION_CAP live records per kind (past it the oldest is deleted next), creates of what the API cannot
// delete stop at the cap, a restorable kind (metrics) is made up to the cap and then restored and deleted again,
// and the mix's runs are not executed (the executed runs are the soak's own, beside it).
// Every interval (a minute; shorter soaks: a thirtieth of the run, at least 5 s) it reports requests, p50, p99,
// RSS and heap of the sandbox processes (a probe loaded into them, drill/memory-probe.mjs) and the records
// stored; every 5xx and every request without an answer is an error, listed. Beside the mix, runs are launched and
// executed against a chat agent on loopback (drill/soak-runs.ts). At the end every acknowledged create is read
// back (present, or 404 when an acknowledged delete removed it) with the fields its last acknowledged update
// answered; every run must have completed. Verdict: drill/soak-judge.ts.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { prepare } from '../src/conformance/checks/happy.js';
import { fillPath, type RequestSpec } from '../src/conformance/http.js';
import type { Route } from '../src/conformance/suite-data.js';
import { ownParam } from '../src/conformance/world.js';
import { clip, DrillContext, pool } from './context.js';
import { Recorder, send, type Answer } from './http.js';
import { drillSchemaUrl, Instances, pgExec } from './instances.js';
import { mix, Rng } from './prng.js';
import { Receiver } from './receiver.js';
import { SandboxLog, SandboxProcess } from './sandbox-process.js';
import { type Check, judgeFlatness, percentile, type SoakSample } from './soak-judge.js';
import { type LiveCounter, type LiveCounts, pgLiveCounter, sqliteLiveCounter, totalOf } from './soak-live-count.js';
import { type SoakRuns, startSoakRuns } from './soak-runs.js';
import { type MadeRecord, readBackByList } from './soak-list-read.js';

export interface SoakOptions {
  seconds: number;
  /** Requests started per second. */
  rate: number;
  /** Seconds per sample (default: 60, or a thirtieth of a shorter soak, at least 5). */
  interval?: number;
  seed: number;
  db?: string;
  instances?: number;
  dbDir: string;
  quiet: boolean;
}

export interface SoakOutcome {
  ok: boolean;
  report: string;
  /** Every check the report gives, in its order. */
  checks: Check[];
  /** What the database held at the last sample, per kind (live records, versions, sent entries); null: unreadable. */
  stored: LiveCounts | null;
  /** The same when the traffic started (after the set-up). */
  storedBefore: LiveCounts | null;
  /** The mix's own live records per kind (acknowledged creates and duplicates not deleted) at the end. */
  made: Record<string, number>;
}

/** Requests in flight at most; a tick that finds them all busy is counted as skipped (the rate is not met). */
const MAX_IN_FLIGHT = 32;
/** A run launched every this many seconds (a shorter soak: at least five runs), followed every RUN_POLL_MS. */
const RUN_EVERY_S = 30;
const RUN_POLL_MS = 2_000;
/**
 * Records the mix keeps alive per kind at most: past it, the next request deletes the kind's oldest. Creates and
 * duplicates each round outnumber the one delete per round, so without it the stored data (and every unpaged
 * listing over it) grows all hour; with it the soak measures the sandbox in a steady state, not the traffic's growth.
 */
export const POPULATION_CAP = 10;

/**
 * V8's young generation at its largest from the start (16 MB semi-spaces: Node's own maximum on 64-bit), in every
 * process of the soak's sandboxes (pool workers inherit node's options). Left to itself V8 grows it when the
 * allocation rate asks, once, by up to 24 MB of RSS: the hour of 2026-12-07 19:44 failed on RSS by 2.4 MB after
 * such a step at minute 35 (V8's committed heap 35 -> 60 MB, the heap it kept after a full collection flat at
 * 22.8-22.9 MB, native memory flat at 47 MB from minute 20). That is V8 sizing its allocation space, neither a
 * leak nor stored data; pinned, the reference window already holds it and the verdict still counts all of RSS.
 */
export const YOUNG_GENERATION_PINNED = ['--min-semi-space-size=16', '--max-semi-space-size=16'];

interface Live {
  route: Route;
  spec: RequestSpec;
}

interface Stored extends MadeRecord {
  /** An update of it is in flight: the next update waits, so the last acknowledged one is the one stored. */
  busy?: boolean;
  /** The fields the last acknowledged update sent, as its answer showed them: the read-back must show the same. */
  updated?: Record<string, unknown>;
}

/** The record in a create or update answer, by the route's success shape. */
function recordIn(route: Route, body: unknown): Record<string, unknown> | undefined {
  const shape = route.success.shape;
  const b = body as Record<string, unknown> | undefined;
  return shape.kind === 'resource' ? b : shape.kind === 'wrapped' ? (b?.[shape.key] as Record<string, unknown> | undefined) : undefined;
}

export async function runSoak(o: SoakOptions, command: string): Promise<SoakOutcome> {
  const interval = o.interval ?? Math.min(60, Math.max(5, Math.round(o.seconds / 30)));
  const say = (line: string): void => {
    if (!o.quiet) process.stderr.write(`${line}\n`);
  };
  const dir = mkdtempSync(join(o.dbDir, 'soak-'));
  process.env.DRILL_MEMORY_DIR = dir;
  const probe = ['--import', './drill/memory-probe.mjs', ...YOUNG_GENERATION_PINNED];
  const log = new SandboxLog();
  const rec = new Recorder();
  // The context's drill options are not used by the soak (it has its own); they only type the context.
  const ctx = new DrillContext({ seed: o.seed, requests: 0, concurrency: 1, raceSize: 2, raceRounds: 1, crashRounds: 1, caps: { fuzz: 0, races: 0, crash: 0, isolation: 0, secrets: 0 }, only: [], quiet: o.quiet, dbDir: o.dbDir }, rec, log);
  let processes: SandboxProcess[] = [];
  let instances: Instances | undefined;
  const receiver = new Receiver();
  let runs: SoakRuns | undefined;
  let schema: string | undefined;
  let liveCounter: LiveCounter | undefined;
  let lastCounts: LiveCounts | null = null;
  const loadBefore = loadavg();
  try {
    if (o.db) {
      const target = drillSchemaUrl(o.db, o.seed);
      schema = target.schema;
      instances = await Instances.launch(target.url, o.instances ?? 3, log, probe);
      processes = instances.all;
    } else processes = [await SandboxProcess.launch(join(dir, 'soak.db'), log, 60_000, probe)];
    ctx.sandbox = processes[0]!;
    say(`soak: ${processes.length} sandbox process(es) (pids ${processes.map((p) => p.pid).join(', ')}), ${o.seconds} s at ${o.rate} requests/s, samples every ${interval} s, seed ${o.seed}`);

    // Set-up: one prepared valid request per operation, in an organization of the soak's own.
    const org = await ctx.createOrganization('soak');
    const world = ctx.world('soak', org);
    const routes = [...ctx.suite.routes].sort((a, b) => (a.id < b.id ? -1 : 1));
    const live: Live[] = [];
    const unprepared: string[] = [];
    for (const route of routes) {
      try {
        live.push({ route, spec: await prepare({ target: world.target, suite: ctx.suite, world, route }) });
      } catch (error) {
        unprepared.push(`${route.id}: ${clip((error as Error).message, 120)}`);
      }
    }
    const idField = new Map(ctx.suite.resources.map((r) => [r.name, r.id]));
    const deletes = new Map(live.filter((l) => l.route.action === 'delete' && l.route.resource).map((l) => [l.route.resource!, l]));
    // A collection POST of a kind the API cannot delete (background sounds) makes records nothing removes: it runs
    // until POPULATION_CAP of them are made, then leaves the mix.
    const undeletable = (route: Route): boolean => route.method === 'POST' && route.params.path.length === 0 && typeof route.resource === 'string' && !deletes.has(route.resource);
    const undeletableMade = new Map<string, number>();
    // The mix's launchRun makes run records (deleted as the others); its runs are not executed here, where each
    // would leave its conversations behind for good (no operation deletes a run's simulations with it): the
    // executed runs are the soak's own, beside the mix (soak-runs.ts), in an organization of their own.
    await ctx.control('PUT', `/organizations/${org.id}/run-execution`, { mode: 'manual' });
    // Executed runs, in an organization of their own (automatic execution, its own chat agent and webhook).
    await receiver.start();
    const runsOrg = await ctx.createOrganization('soak runs');
    runs = await startSoakRuns(rec, runsOrg.key, processes[0]!.info.base_url, receiver, `/soak-runs/${o.seed}`);
    const stored = new Map<string, Stored[]>();
    let recordBytes = 0;
    let recordCount = 0;
    /** The mix's live records per kind (acknowledged creates and duplicates not deleted). */
    const madeNow = (): Record<string, number> => Object.fromEntries([...stored].map(([kind, list]) => [kind, list.filter((s) => !s.deleted).length]));
    const acknowledgedNow = (): number => Object.values(madeNow()).reduce((a, b) => a + b, 0);
    // Everything the sandbox holds, counted by its database (soak-live-count.ts); the acknowledged creates only
    // when the database cannot be read.
    liveCounter = o.db && schema ? pgLiveCounter(o.db, schema) : sqliteLiveCounter(join(dir, 'soak.db'));
    const storedNow = (): number => {
      const counts = liveCounter!.count();
      if (counts === null) return acknowledgedNow();
      lastCounts = counts;
      return totalOf(counts);
    };

    // The traffic.
    const errors: string[] = [];
    const errorCounts: Record<string, number> = {};
    const perFamily = new Map<string, Record<string, number>>();
    let latencies: number[] = [];
    /** The slowest requests of the current sample (a few kept), to say which operations a p99 comes from. */
    let slowest: { ms: number; id: string }[] = [];
    let requests = 0;
    let skipped = 0;
    let inFlight = 0;
    const samples: (SoakSample & Breakdown & { processes: number; errors: number; fourxx: number; skipped: number; dbBytes: number | null; slowest: string })[] = [];
    let sampleErrors = 0;
    let sampleFourxx = 0;
    const rng = new Rng(mix(o.seed, 0x50a4));
    let order: Live[] = [];
    const next = (): Live => {
      if (order.length === 0) {
        // Every operation once per round, in a seeded order.
        order = [...live];
        for (let i = order.length - 1; i > 0; i--) {
          const j = rng.int(i + 1);
          [order[i], order[j]] = [order[j]!, order[i]!];
        }
      }
      return order.pop()!;
    };
    const base = (n: number): string => processes[n % processes.length]!.info.base_url;

    const liveMade = (resource: string | null | undefined): Stored[] => (stored.get(resource ?? '') ?? []).filter((s) => !s.deleted && !s.busy);
    const deletedMade = (resource: string | null | undefined): Stored[] => (stored.get(resource ?? '') ?? []).filter((s) => s.deleted && !s.busy);
    /** Works on a record the soak made (a delete, an update, a history read): with none, another operation runs. */
    const needsOwn = (route: Route): boolean => route.action === 'delete' || route.action === 'update' || route.action === 'versions';
    // A kind that can be restored (metrics) keeps its deleted records, listed as recently deleted until their purge
    // time, 30 days on: the mix makes at most POPULATION_CAP of them, live or deleted, and then restores what it
    // deleted and deletes it again.
    const restorable = new Set(live.filter((l) => l.route.action === 'restore' && l.route.resource).map((l) => l.route.resource!));
    /** This operation has nothing to work on, or would grow what the mix holds steady: another one runs. */
    const idle = (route: Route): boolean =>
      (needsOwn(route) && liveMade(route.resource).length === 0) ||
      (route.action === 'restore' && deletedMade(route.resource).length === 0) ||
      ((route.action === 'create' || route.action === 'duplicate') && restorable.has(route.resource ?? '') && (stored.get(route.resource!) ?? []).length >= POPULATION_CAP) ||
      (undeletable(route) && (undeletableMade.get(route.id) ?? 0) >= POPULATION_CAP);
    const one = async (n: number): Promise<void> => {
      // A kind past its cap has its oldest record deleted first.
      const crowded = [...stored.keys()].find((resource) => deletes.has(resource) && liveMade(resource).length > POPULATION_CAP);
      let item = crowded === undefined ? next() : deletes.get(crowded)!;
      for (let tries = 0; tries < 5 && idle(item.route); tries++) item = next();
      if (idle(item.route)) return;
      const { route } = item;
      const spec: RequestSpec = { ...item.spec, path: { ...item.spec.path }, ...(item.spec.body === undefined ? {} : { body: JSON.parse(JSON.stringify(item.spec.body)) as unknown }) };
      let target: Stored | undefined;
      if (route.action === 'create' && spec.body && typeof spec.body === 'object' && !Array.isArray(spec.body)) world.makeUnique(spec.body as Record<string, unknown>, route);
      // The soak's own record the request works on: the oldest live one for a delete, a live one for an update or a
      // history read, a deleted one for a restore; never what the set-up prepared. A history read on the set-up's
      // shared record, whose history every prepared test-case change lengthens, would answer a longer history each
      // minute (unpaged, by the facts): the traffic growing, not the sandbox slowing (the hour's soak of 2026-12-07
      // 13:03: listTestSetVersions 10 -> 30-75 ms).
      if (needsOwn(route) || route.action === 'restore') {
        const candidates = route.action === 'restore' ? deletedMade(route.resource) : liveMade(route.resource);
        const own = ownParam(route);
        if (candidates.length === 0 || !own) return;
        const chosen = route.action === 'delete' ? candidates[0]! : candidates[rng.int(candidates.length)]!;
        spec.path![own] = chosen.id;
        if (route.action === 'delete') chosen.deleted = true; // no second delete of it meanwhile
        else if (route.action !== 'versions') chosen.busy = true; // the next update or restore of it waits
        if (route.action !== 'versions') target = chosen;
      }
      const query = spec.query && Object.keys(spec.query).length > 0 ? `?${new URLSearchParams(spec.query).toString()}` : '';
      const headers: Record<string, string> = { ...spec.headers, 'X-API-Key': org.key };
      if (spec.body !== undefined) headers['content-type'] = 'application/json';
      const answer: Answer = await send(rec, 'soak', route.id, route.method, `${base(n)}${fillPath(route, spec.path ?? {})}${query}`, { headers, ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }), timeoutMs: 30_000 });
      requests++;
      latencies.push(answer.ms);
      slowest.push({ ms: answer.ms, id: route.id });
      if (slowest.length > 6) slowest = slowest.sort((a, b) => b.ms - a.ms).slice(0, 3);
      const family = route.resource ?? route.path.split('/')[1] ?? '-';
      const cls = answer.status === 0 ? 'no answer' : `${Math.floor(answer.status / 100)}xx`;
      const counts = perFamily.get(family) ?? perFamily.set(family, {}).get(family)!;
      counts[cls] = (counts[cls] ?? 0) + 1;
      if (answer.status === 0 || answer.status >= 500) {
        sampleErrors++;
        errorCounts[`${route.id} ${cls}`] = (errorCounts[`${route.id} ${cls}`] ?? 0) + 1;
        if (errors.length < 200) errors.push(`${new Date().toISOString()} ${route.method} ${route.path} (${route.id}) -> ${answer.status === 0 ? `no answer (${answer.error})` : `${answer.status} ${clip(answer.text, 200)}`}`);
      } else if (answer.status >= 400) sampleFourxx++;
      const ok = answer.status >= 200 && answer.status < 300;
      if (target && route.action === 'delete' && !ok) target.deleted = answer.status === 404; // refused: still there
      if (target && route.action === 'restore') {
        target.busy = false;
        if (ok) target.deleted = false;
      }
      if (target && route.action === 'update') {
        target.busy = false;
        const record = ok ? recordIn(route, answer.body) : undefined;
        if (record && spec.body && typeof spec.body === 'object' && !Array.isArray(spec.body)) {
          // Only what this update sent and its answer shows: the rest may be changed by other operations.
          const sent = Object.keys(spec.body as object).filter((k) => k in record);
          if (sent.length > 0) target.updated = { ...target.updated, ...Object.fromEntries(sent.map((k) => [k, record[k]])) };
        }
      }
      if (ok && undeletable(route)) undeletableMade.set(route.id, (undeletableMade.get(route.id) ?? 0) + 1);
      // A duplicate is a create too: it makes a record the mix then owns (updates, deletes, history reads).
      if (ok && (route.action === 'create' || route.action === 'duplicate') && route.resource) {
        const record = recordIn(route, answer.body);
        const id = record?.[idField.get(route.resource) ?? 'id'];
        if (typeof id === 'string') {
          (stored.get(route.resource) ?? stored.set(route.resource, []).get(route.resource)!).push({ id, deleted: false, parent: { ...spec.path } });
          recordBytes += Buffer.byteLength(answer.text);
          recordCount++;
        }
      }
    };

    // SQLite: the database file (with its WAL), everything the store holds (versions, sent log included).
    const dbBytes = (): number | null => {
      if (o.db) return null;
      let total = 0;
      for (const suffix of ['', '-wal']) {
        try {
          total += statSync(join(dir, `soak.db${suffix}`)).size;
        } catch {
          // No WAL file (yet).
        }
      }
      return total;
    };
    // Every process of the sandbox: the probe is loaded into each one node starts with it (the instances' pool
    // workers, which hold the store, and the SQL metric runner's children too), each writing <pid>.json here. A file
    // not rewritten for 10 s is a process that ended (a worker replaced, a runner done): not counted.
    const memory = (): { rss: number; heap: number; processes: number } & Breakdown => {
      let rss = 0;
      let heap = 0;
      let anon: number | null = 0;
      let v8: number | null = 0;
      let file: number | null = 0;
      let external: number | null = 0;
      let counted = 0;
      const seen = new Set<number>();
      for (const name of readdirSync(dir).filter((f) => /^\d+\.json$/.test(f))) {
        let m: { rss: number; heapUsed: number; heapLive?: number | null; heapTotal?: number; external?: number; rssByKind?: { anon: number; file: number; shmem: number } | null; at: number };
        try {
          m = JSON.parse(readFileSync(join(dir, name), 'utf8')) as typeof m;
        } catch {
          continue; // being replaced (written to .tmp, then renamed)
        }
        if (Date.now() - m.at > 10_000) continue;
        seen.add(Number(name.slice(0, -5)));
        counted++;
        rss += m.rss;
        // What the last full collection kept (memory-probe.mjs); the heap at this moment until one has run.
        heap += typeof m.heapLive === 'number' ? m.heapLive : m.heapUsed;
        anon = m.rssByKind && anon !== null ? anon + m.rssByKind.anon : null;
        v8 = typeof m.heapTotal === 'number' && v8 !== null ? v8 + m.heapTotal : null;
        file = m.rssByKind && file !== null ? file + m.rssByKind.file + m.rssByKind.shmem : null;
        external = typeof m.external === 'number' && external !== null ? external + m.external : null;
      }
      // A sandbox process whose probe has not written (yet): its RSS from the system, no breakdown.
      for (const p of processes.filter((x) => !seen.has(x.pid))) {
        rss += (p.rssKb() ?? 0) * 1024;
        counted++;
        anon = v8 = file = external = null;
      }
      return { rss, heap, anon, v8, file, external, processes: counted };
    };

    const storedBefore = liveCounter.count();
    say(`soak: ${live.length} of ${routes.length} operations prepared; traffic starts`);
    const started = performance.now();
    const end = started + o.seconds * 1000;
    let nextSample = started + interval * 1000;
    let n = 0;
    const running = new Set<Promise<void>>();
    // The runs beside the mix: launched through the instances in turn, followed until they end.
    const runEvery = Math.min(RUN_EVERY_S, Math.max(1, Math.floor(o.seconds / 5)));
    const runsLoop = (async () => {
      let launchedRuns = 0;
      while (performance.now() < end) {
        if (performance.now() >= started + launchedRuns * runEvery * 1000) await runs!.launch(base(launchedRuns++));
        await runs!.poll(base(launchedRuns));
        await new Promise((r) => setTimeout(r, Math.max(0, Math.min(RUN_POLL_MS, end - performance.now()))));
      }
    })();
    // One sample of the interval ending at nextSample: its latencies, memory and stored rows.
    const takeSample = () => {
      const sorted = latencies.sort((a, b) => a - b);
      const m = memory();
      const sample = { t: Math.round((nextSample - started) / 1000), requests: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), rss: m.rss, heap: m.heap, processes: m.processes, anon: m.anon, v8: m.v8, file: m.file, external: m.external, stored: storedNow(), dbBytes: dbBytes(), errors: sampleErrors, fourxx: sampleFourxx, skipped, slowest: slowest.sort((a, b) => b.ms - a.ms).slice(0, 3).map((x) => `${x.id} ${Math.round(x.ms)}`).join(', ') };
      slowest = [];
      samples.push(sample);
      say(`soak: ${sample.t} s: ${sample.requests} requests, p50 ${sample.p50.toFixed(1)} ms, p99 ${sample.p99.toFixed(1)} ms, RSS ${(sample.rss / 2 ** 20).toFixed(1)} MB, heap ${(sample.heap / 2 ** 20).toFixed(1)} MB, ${sample.stored} records stored, ${sample.errors} errors`);
      latencies = [];
      sampleErrors = 0;
      sampleFourxx = 0;
      skipped = 0;
      nextSample += interval * 1000;
    };
    while (performance.now() < end) {
      const due = started + (n * 1000) / o.rate;
      const now = performance.now();
      if (due > now) await new Promise((resolve) => setTimeout(resolve, Math.min(due - now, nextSample - now)));
      if (performance.now() >= nextSample || performance.now() >= end) {
        takeSample();
        if (performance.now() >= end) break;
      }
      if (performance.now() < due) continue;
      const i = n++;
      if (inFlight >= MAX_IN_FLIGHT) {
        skipped++;
        continue;
      }
      inFlight++;
      const p: Promise<void> = one(i)
        .catch((error: unknown) => {
          sampleErrors++;
          errors.push(`drill error (seed ${o.seed}, request #${i}): ${clip((error as Error)?.stack ?? String(error), 400)}`);
        })
        .finally(() => {
          inFlight--;
          running.delete(p);
        });
      running.add(p);
    }
    // A busy machine can leave the loop through its condition, past the end, before the last interval's sample.
    if (nextSample <= end + 1) takeSample();
    await Promise.all(running);
    await runsLoop;
    const trafficS = (performance.now() - started) / 1000;
    say('soak: waiting for the runs still going');
    const runsVerdict = await runs.finish(base(0), 120_000);

    // Read back every acknowledged create: present unless an acknowledged delete removed it.
    say('soak: reading back every acknowledged write');
    const getRoutes = new Map(ctx.suite.routes.filter((r) => r.action === 'get' && r.aliasOf === null && r.params.path.length === 1).map((r) => [r.resource!, r]));
    const checks: { route: Route; s: Stored }[] = [];
    for (const [resource, list] of stored) {
      const get = getRoutes.get(resource);
      if (get) for (const s of list) checks.push({ route: get, s });
    }
    const lost: string[] = [];
    let readBack = 0;
    let updatesRead = 0;
    const prepared = new Map(live.map((l) => [l.route.id, l.spec]));
    await pool(checks, 8, async ({ route, s }) => {
      const spec = prepared.get(route.id);
      const headers: Record<string, string> = { ...spec?.headers, 'X-API-Key': org.key };
      const answer = await send(rec, 'soak', `read back ${route.id}`, 'GET', `${base(readBack)}${fillPath(route, { [route.params.path[0]!.name]: s.id })}`, { headers, timeoutMs: 30_000 });
      readBack++;
      const want = s.deleted ? 404 : 200;
      if (answer.status !== want) lost.push(`${route.resource} ${s.id}: ${s.deleted ? 'deleted' : 'created'} (acknowledged), read back ${answer.status === 0 ? `no answer (${answer.error})` : answer.status}`);
      else if (!s.deleted && s.updated) {
        updatesRead++;
        const record = recordIn(route, answer.body) ?? {};
        const differs = Object.keys(s.updated).filter((k) => JSON.stringify(record[k]) !== JSON.stringify(s.updated![k]));
        if (differs.length > 0) lost.push(`${route.resource} ${s.id}: the last acknowledged update's ${differs.join(', ')} read back as ${clip(JSON.stringify(Object.fromEntries(differs.map((k) => [k, record[k]]))), 200)}, answered ${clip(JSON.stringify(Object.fromEntries(differs.map((k) => [k, s.updated![k]]))), 200)}`);
      }
    });
    // Kinds without a get operation: read back through their list (soak-list-read.ts).
    const lists = new Map(live.filter((l) => l.route.action === 'list' && l.route.aliasOf === null && l.route.resource).map((l) => [l.route.resource!, l]));
    const unread: string[] = [];
    let listed = 0;
    const withoutGet = [...stored.keys()].filter((r) => !getRoutes.has(r));
    for (const resource of withoutGet) {
      const list = lists.get(resource);
      const made = stored.get(resource) ?? [];
      if (!list) {
        unread.push(`${resource} (no list either)`);
        continue;
      }
      const read = await readBackByList(rec, base(0), org.key, list, idField.get(resource) ?? 'id', made);
      listed += read.checked;
      lost.push(...read.lost);
      if (read.elsewhere > 0) unread.push(`${read.elsewhere} ${resource} made under another parent than ${list.route.id} lists`);
    }

    const flat = judgeFlatness(samples, o.seconds, recordCount > 0 ? recordBytes / recordCount : 0);
    const checksAll: Check[] = [
      { name: 'no errors', ok: errors.length === 0, detail: errors.length === 0 ? 'no 5xx, no request without an answer' : `${errors.length} errors: ${Object.entries(errorCounts).map(([k, v]) => `${k} x${v}`).join(', ')}` },
      { name: 'nothing lost', ok: lost.length === 0, detail: `${checks.length} acknowledged writes read back (${checks.filter((c) => c.s.deleted).length} of them deleted, ${updatesRead} with the fields of their last acknowledged update), ${listed} more through their list (no get operation: ${withoutGet.join(', ') || 'none'}), ${lost.length} wrong${unread.length > 0 ? `; not readable: ${unread.join(', ')}` : ''}` },
      runsVerdict.check,
      ...flat,
      { name: 'sandbox up', ok: processes.every((p) => p.alive()) && log.unexpectedExits.length === 0, detail: log.unexpectedExits.length === 0 ? 'every process ran to the end' : JSON.stringify(log.unexpectedExits) },
    ];
    const ok = checksAll.every((c) => c.ok);
    const report = soakReport({ o, command, interval, samples, checks: checksAll, errors, lost, runProblems: runsVerdict.lines, perFamily, unprepared, prepared: live.length, routes: routes.length, trafficS, requests, recordBytes: recordCount > 0 ? recordBytes / recordCount : 0, load: [loadBefore, loadavg()], processes: processes.length, liveCounts: lastCounts, acknowledged: acknowledgedNow(), ok });
    return { ok, report, checks: checksAll, stored: lastCounts, storedBefore, made: madeNow() };
  } finally {
    liveCounter?.close();
    await runs?.close();
    await receiver.stop().catch(() => {});
    await (instances ? instances.stop() : Promise.all(processes.map((p) => p.stop())));
    if (o.db && schema) {
      try {
        pgExec(o.db, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } catch {
        // Left behind: named drill_<seed>_..., harmless.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Where RSS is (drill/memory-probe.mjs, summed over the processes; null where the kernel does not say): anonymous
 * memory (V8's heap, malloc: SQLite's page cache), mapped files and shared memory (code, the mapped database, the
 * WAL index), and V8's external memory (buffers). Reported beside RSS, not judged: they say what a growth is.
 */
interface Breakdown {
  anon: number | null;
  /** Of `anon`, what V8 has committed for its heap (heapTotal): the rest is native (malloc, SQLite's page cache). */
  v8: number | null;
  file: number | null;
  external: number | null;
}

interface ReportInput {
  o: SoakOptions;
  /** The last sample's count of what the database holds, per kind (null when it could not be read). */
  liveCounts: LiveCounts | null;
  /** Records the soak's own creates left live (acknowledged creates minus acknowledged deletes). */
  acknowledged: number;
  command: string;
  interval: number;
  samples: (SoakSample & Breakdown & { processes: number; errors: number; fourxx: number; skipped: number; dbBytes: number | null; slowest: string })[];
  checks: Check[];
  errors: string[];
  lost: string[];
  runProblems: string[];
  perFamily: Map<string, Record<string, number>>;
  unprepared: string[];
  prepared: number;
  routes: number;
  trafficS: number;
  requests: number;
  recordBytes: number;
  load: [number[], number[]];
  processes: number;
  ok: boolean;
}

function soakReport(r: ReportInput): string {
  const mb = (b: number): string => (b / 2 ** 20).toFixed(1);
  const lines = [
    `# Soak report (${r.o.db ? `PostgreSQL, ${r.processes} instances` : 'SQLite'})`,
    '',
    `\`${r.command}\`: **${r.ok ? 'pass' : 'FAIL'}**. ${r.requests} requests in ${Math.round(r.trafficS)} s (target ${r.o.rate}/s) over ${r.prepared} of ${r.routes} operations, seed ${r.o.seed}. Node ${process.version}, load average ${r.load[0].map((x) => x.toFixed(1)).join(' ')} at the start and ${r.load[1].map((x) => x.toFixed(1)).join(' ')} at the end (other work on the machine shows in the latencies), ${new Date().toISOString().slice(0, 10)}.`,
    '',
    `The runs beside the mix (one launched every ${Math.min(RUN_EVERY_S, Math.max(1, Math.floor(r.o.seconds / 5)))} s, executed by the sandbox against a chat agent on loopback, followed with GET every ${RUN_POLL_MS / 1000} s) are not in the latency samples; their check is below. The test: the run is cut into samples; the reference window is the samples ending in [T/6, T/3], the final window those ending after 5T/6 (for an hour: minutes 10-20 against the last ten minutes). The mix holds its stored data steady where the API lets it: at most ${POPULATION_CAP} live records per kind made by its creates and duplicates (past that the kind's oldest is deleted next), creates of a kind the API cannot delete (background sounds) stop after ${POPULATION_CAP}, a kind whose deleted records stay listed until a purge 30 days on (metrics, restorable) is made ${POPULATION_CAP} times, live or deleted, and then restored and deleted again, and its own launchRun requests make runs that are not executed (its organization is in manual execution), because the API has no way to delete a run's conversations; what still grows (versions, sent webhooks and notifications, events, the runs beside the mix) is counted below. The final median p99 must be within 10% (or 5 ms) of the reference median, and the final median RSS and heap (the heap V8 kept after its last full collection, so garbage not yet collected does not count; both summed over every process of the sandbox alive at the sample: instances, their pool workers, SQL metric runners) within 10% of the reference plus the data stored in between (rows the database holds more between the windows (every live record, version and sent entry, whatever made it) times a record's mean size as answered; RSS also the database file's growth in between, where the sandbox maps its SQLite file). The sandbox's processes run with V8's young generation at its largest from the start (\`${YOUNG_GENERATION_PINNED.join(' ')}\`), so V8 growing it once, by itself, does not read as growth. Every acknowledged create must read back (404 when an acknowledged delete removed it); no 5xx and no request without an answer.`,
    '',
    '| check | result | detail |',
    '|---|---|---|',
    ...r.checks.map((c) => `| ${c.name} | ${c.ok ? 'pass' : '**FAIL**'} | ${c.detail} |`),
    '',
    `## Every ${r.interval} s`,
    '',
    '| t (s) | requests | p50 (ms) | p99 (ms) | processes | RSS (MB) | RSS anonymous (of it V8 heap) / mapped files (MB) | external (MB) | heap after the last full collection (MB) | rows stored (database count) | database (MB) | errors | 4xx | ticks skipped (busy) | slowest (operation ms) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...r.samples.map((s) => `| ${s.t} | ${s.requests} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.processes} | ${mb(s.rss)} | ${s.anon === null || s.file === null ? '-' : `${mb(s.anon)}${s.v8 === null ? '' : ` (${mb(s.v8)})`} / ${mb(s.file)}`} | ${s.external === null ? '-' : mb(s.external)} | ${mb(s.heap)} | ${s.stored} | ${s.dbBytes === null ? '-' : mb(s.dbBytes)} | ${s.errors} | ${s.fourxx} | ${s.skipped} | ${s.slowest} |`),
    '',
    '## Operation families',
    '',
    '| family | answers |',
    '|---|---|',
    ...[...r.perFamily.entries()].sort().map(([f, c]) => `| ${f} | ${Object.entries(c).sort().map(([k, v]) => `${k}: ${v}`).join(', ')} |`),
    '',
    `Rows stored: every live record, version and sent entry the sandbox holds, counted by its database each sample (drill/soak-live-count.ts), whatever made them (the mix, the runs, duplicates, events); at the end ${r.liveCounts === null ? 'not readable' : Object.entries(r.liveCounts).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}; of them ${r.acknowledged} live records made by the mix's acknowledged creates.`,
    '',
    `Mean stored record size (as answered): ${Math.round(r.recordBytes)} B. 4xx answers are the API refusing a request the mix made invalid over time (a record another request deleted, a state change already made); they are counted, not errors.`,
  ];
  if (r.unprepared.length > 0) lines.push('', '## Operations without a prepared request (not in the mix)', '', ...r.unprepared.map((u) => `- ${u}`));
  if (r.errors.length > 0) lines.push('', '## Errors (the first 200)', '', ...r.errors.map((e) => `- ${e}`));
  if (r.lost.length > 0) lines.push('', '## Lost writes', '', ...r.lost.slice(0, 200).map((e) => `- ${e}`));
  if (r.runProblems.length > 0) lines.push('', '## Runs that did not end as they should (the first 50)', '', ...r.runProblems.map((e) => `- ${e}`));
  return `${lines.join('\n')}\n`;
}
