// Drills of the team sandbox: several instances over one PostgreSQL database behave as one sandbox.
//   races      concurrent creates and renames to one name, and concurrent versioned updates, spread over the
//              instances: exactly one create or rename wins (the rest 409), version numbers stay dense.
//   crash      writes and run completions (each delivering a webhook) through every instance; one instance is
//              killed -9 at a seeded moment while the others carry on: every acknowledged write is present and
//              every delivery of an acknowledged completion arrives, once.
//   isolation  another organization's key, through any instance, never sees or changes the first's records.
//   restart    PostgreSQL restarts in the middle of traffic: requests meanwhile answer 503 INTERNAL (never a
//              hang, another 5xx or a crash), every instance recovers by itself, no acknowledged write is lost.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import type { DrillResult } from './context.js';
import { Findings } from './context.js';
import type { Answer, Instances } from './instances.js';
import { Rng } from './prng.js';
import type { Receiver } from './receiver.js';
import type { SandboxProcess } from './sandbox-process.js';

export const SHARED_DRILLS = ['races', 'crash', 'isolation', 'restart'] as const;
export type SharedDrillName = (typeof SHARED_DRILLS)[number];

export interface SharedOptions {
  seed: number;
  raceSize: number;
  raceRounds: number;
  /** The command that restarts PostgreSQL, or null when it cannot be restarted from here. */
  restartCommand: string[] | null;
}

const METRIC = 'MetricDDDDDDDDDDDDDDDD';
/** The sandbox's default delivery attempts (createSandbox delivery.attempts). */
const ATTEMPTS = 4;
const AGENT = { display_name: 'Drill agent', model_type: 'VOICE', prompt: 'Prompt 0.', phone_number: '+14155550100' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function result(name: string, started: number, numbers: DrillResult['numbers'], findings: Findings, notes: string[] = []): DrillResult {
  return { name: `shared ${name}` as DrillResult['name'], ok: findings.kept.length === 0, ms: performance.now() - started, numbers, findings: findings.kept, findingCounts: findings.counts, notes };
}

/** A 5xx other than 503, a hang, or a 503 without the envelope: what no request may get. */
function badAnswer(a: Answer): string | null {
  if (a.status === 0) return a.error === 'timeout' ? 'hang (no answer within 20 s)' : null;
  if (a.status === 503) return (a.body?.error as { code?: string } | undefined)?.code === 'INTERNAL' ? null : '503 without the INTERNAL envelope';
  return a.status >= 500 ? `${a.status}` : null;
}

async function organization(inst: Instances, p: SandboxProcess, name: string): Promise<{ id: string; key: string }> {
  const a = await inst.call(p, 'POST', '/control/organizations', { display_name: name });
  if (a.status !== 201) throw new Error(`creating an organization answered ${a.status}`);
  return { id: (a.body!.organization as { id: string }).id, key: (a.body!.api_key as { key: string }).key };
}

export async function sharedRaces(inst: Instances, o: SharedOptions): Promise<DrillResult> {
  const started = performance.now();
  const f = new Findings();
  const ps = inst.alive();
  const org = await organization(inst, ps[0]!, 'shared races');
  let creates = 0;
  let renames = 0;
  let updates = 0;
  for (let round = 0; round < o.raceRounds; round++) {
    // Creates of one name (case and spacing varied) through every instance at once.
    const name = `race ${o.seed} ${round}`;
    const made = await Promise.all(Array.from({ length: o.raceSize }, (_, i) => inst.call(ps[i % ps.length]!, 'POST', '/v1/tags', { tag_name: i % 2 ? name.toUpperCase() : name }, org.key)));
    creates += made.length;
    const won = made.filter((a) => a.status === 201).length;
    const lost = made.filter((a) => a.status === 409).length;
    if (won !== 1 || lost !== made.length - 1) f.add('create race', `round ${round}: ${won} created, ${lost} refused with 409, others ${made.filter((a) => a.status !== 201 && a.status !== 409).map((a) => a.status).join(',')}`);
    // Renames of distinct tags to one name through every instance at once.
    const ids: string[] = [];
    for (let i = 0; i < Math.min(o.raceSize, 20); i++) {
      const a = await inst.call(ps[i % ps.length]!, 'POST', '/v1/tags', { tag_name: `rename ${o.seed} ${round} ${i}` }, org.key);
      if (a.status === 201) ids.push((a.body!.tag as { id: string }).id);
    }
    const target = `renamed ${o.seed} ${round}`;
    const renamed = await Promise.all(ids.map((id, i) => inst.call(ps[i % ps.length]!, 'PATCH', `/v1/tags/${id}`, { tag_name: target }, org.key)));
    renames += renamed.length;
    const rwon = renamed.filter((a) => a.status === 200).length;
    if (rwon !== 1 || renamed.filter((a) => a.status === 409).length !== renamed.length - 1) f.add('rename race', `round ${round}: ${rwon} renames won of ${renamed.length}: ${renamed.map((a) => a.status).join(',')}`);
    // Versioned updates of one agent through every instance at once: numbers stay dense.
    const agent = await inst.call(ps[0]!, 'POST', '/v1/agents', AGENT, org.key);
    const agentId = (agent.body?.agent as { id?: string } | undefined)?.id;
    if (!agentId) {
      f.add('set-up', `creating an agent answered ${agent.status}`);
      continue;
    }
    const changed = await Promise.all(Array.from({ length: Math.min(o.raceSize, 20) }, (_, i) => inst.call(ps[i % ps.length]!, 'PATCH', `/v1/agents/${agentId}`, { prompt: `Prompt ${round}.${i + 1}` }, org.key)));
    updates += changed.length;
    const versions = await inst.call(ps[ps.length - 1]!, 'GET', `/v1/agents/${agentId}/versions`, undefined, org.key);
    const numbers = ((versions.body?.versions as { version_number: number }[] | undefined) ?? []).map((v) => v.version_number).sort((x, y) => x - y);
    const expected = 1 + changed.filter((a) => a.status === 200).length;
    if (numbers.length !== expected || numbers.some((n, i) => n !== i + 1)) f.add('versions', `round ${round}: ${expected} versions expected (1..${expected}), got ${numbers.join(',')}`);
    for (const a of [...made, ...renamed, ...changed]) {
      const bad = badAnswer(a);
      if (bad) f.add('bad answer', bad);
    }
  }
  return result('races', started, [
    ['instances', ps.length],
    ['rounds', o.raceRounds],
    ['concurrent creates of one name (exactly one 201 per round)', creates],
    ['concurrent renames to one name (exactly one 200 per round)', renames],
    ['concurrent versioned updates (versions dense)', updates],
  ], f);
}

export async function sharedIsolation(inst: Instances): Promise<DrillResult> {
  const started = performance.now();
  const f = new Findings();
  const ps = inst.alive();
  const a = await organization(inst, ps[0]!, 'isolation A');
  const b = await organization(inst, ps[ps.length - 1]!, 'isolation B');
  const made = await inst.call(ps[0]!, 'POST', '/v1/tags', { tag_name: 'private to A' }, a.key);
  const id = (made.body?.tag as { id?: string } | undefined)?.id;
  let checks = 0;
  if (!id) f.add('set-up', `creating a tag answered ${made.status}`);
  else
    for (const p of ps) {
      checks += 3;
      const got = await inst.call(p, 'GET', `/v1/tags/${id}`, undefined, b.key);
      if (got.status !== 404) f.add('read across organizations', `GET of A's tag with B's key answered ${got.status}`);
      const patched = await inst.call(p, 'PATCH', `/v1/tags/${id}`, { tag_name: 'taken over' }, b.key);
      if (patched.status !== 404) f.add('write across organizations', `PATCH of A's tag with B's key answered ${patched.status}`);
      const listed = await inst.call(p, 'GET', '/v1/tags', undefined, b.key);
      if (JSON.stringify(listed.body).includes(id)) f.add('list across organizations', "B's list shows A's tag");
    }
  return result('isolation', started, [['instances', ps.length], ['cross-organization requests (each through every instance)', checks]], f);
}

interface Traffic {
  tags: Map<string, string>;
  runs: Set<string>;
  answers: Answer[];
}

/** Writes (tags) and, with `org.hook`, run completions through the live instances until `stop` is set. */
async function traffic(inst: Instances, org: { id: string; key: string }, rng: Rng, stop: { done: boolean }, workers: number, completions: boolean): Promise<Traffic> {
  const out: Traffic = { tags: new Map(), runs: new Set(), answers: [] };
  let n = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (!stop.done) {
        const live = inst.alive();
        if (live.length === 0) return;
        const p = live[rng.int(live.length)]!;
        const i = n++;
        if (completions && i % 4 === 0) {
          const a = await inst.call(p, 'POST', `/control/organizations/${org.id}/run-completions`, { metric_values: { [METRIC]: 1 } });
          out.answers.push(a);
          if (a.status === 200) out.runs.add((a.body!.run as { run_id: string }).run_id);
        } else {
          const name = `traffic ${w} ${i}`;
          const a = await inst.call(p, 'POST', '/v1/tags', { tag_name: name }, org.key);
          out.answers.push(a);
          if (a.status === 201) out.tags.set((a.body!.tag as { id: string }).id, name);
        }
      }
    }),
  );
  return out;
}

/** Acknowledged tags that a live instance does not find (by name and id). */
async function missingTags(inst: Instances, org: { key: string }, tags: Map<string, string>): Promise<string[]> {
  const p = inst.alive()[0]!;
  const missing: string[] = [];
  for (const [id, name] of tags) {
    const a = await inst.call(p, 'GET', `/v1/tags/${id}`, undefined, org.key);
    if (a.status !== 200 || (a.body?.tag as { tag_name?: string } | undefined)?.tag_name !== name) missing.push(`${id} (${a.status})`);
  }
  return missing;
}

export async function sharedCrash(inst: Instances, receiver: Receiver, o: SharedOptions): Promise<DrillResult> {
  const started = performance.now();
  const f = new Findings();
  const rng = new Rng(o.seed ^ 0x5eed);
  const ps = inst.alive();
  const org = await organization(inst, ps[0]!, 'shared crash');
  // One webhook whose receiver accepts (each delivery arrives once), one whose receiver always answers 500 (each
  // delivery is attempted exactly `attempts` times in all, across the instance that dies and the one that takes
  // it over, then fails).
  const hookPath = `/shared-crash/${o.seed}`;
  const failPath = `/shared-crash/${o.seed}/fail`;
  for (const path of [hookPath, failPath]) {
    const hook = await inst.call(ps[0]!, 'POST', '/v1/webhooks', { type: 'job_complete', url: `${receiver.url}${path}` }, org.key);
    if (hook.status < 200 || hook.status > 299) f.add('set-up', `creating a webhook answered ${hook.status}`);
  }
  const victimIndex = rng.int(ps.length);
  const killAfterMs = 1500 + rng.int(3000);
  const stop = { done: false };
  const running = traffic(inst, org, rng, stop, ps.length * 2, true);
  await sleep(killAfterMs);
  const killedAt = Date.now();
  await inst.all[victimIndex]!.kill9();
  await sleep(3000);
  stop.done = true;
  const t = await running;
  for (const a of t.answers) {
    const bad = badAnswer(a);
    if (bad) f.add('bad answer', bad);
  }
  // Deliveries the dead instance held are taken over once its claims run out (about 12 s).
  const byRun = (path = hookPath): Map<string, { id: string; at: number }[]> => {
    const m = new Map<string, { id: string; at: number }[]>();
    for (const r of receiver.received.filter((x) => x.path === path)) {
      const body = JSON.parse(r.body) as { run_id: string; delivery_id: string };
      m.set(body.run_id, [...(m.get(body.run_id) ?? []), { id: body.delivery_id, at: r.at }]);
    }
    return m;
  };
  const deadline = Date.now() + 60_000;
  const attemptsDone = (): boolean => [...t.runs].every((r) => (byRun(failPath).get(r)?.length ?? 0) >= ATTEMPTS);
  while (Date.now() < deadline && ([...t.runs].some((r) => !byRun().has(r)) || !attemptsDone())) await sleep(500);
  await sleep(2000); // anything sent twice would arrive by now
  const received = byRun();
  const failing = byRun(failPath);
  // An attempt in flight at the kill (made, not yet recorded) is made again by the instance that takes over. Its
  // first copy may be stamped after the kill: the receiver shares this process's event loop with the traffic of
  // three instances, and at the kill every cut connection lands on it at once (60-110 ms seen in CI, once 537 ms on
  // a loaded run). The killed instance's workers die with it (the kernel kills them: setpriv --pdeathsig), so
  // nothing they send starts after the kill; a copy stamped within a second of it was in flight
  // (test/sandbox/pool/workers-die-with-listener.test.ts and listener-alive.test.ts test the workers apart).
  const nearKill = (l: { at: number }[]): boolean => l.some((x) => x.at - killedAt <= 1000 && killedAt - x.at < 2000);
  const repeatedAtKill = [...t.runs].filter((r) => failing.get(r)?.length === ATTEMPTS + 1 && nearKill(failing.get(r)!)).length;
  const wrongAttempts = [...t.runs].filter((r) => {
    const n = failing.get(r)?.length ?? 0;
    return n !== ATTEMPTS && !(n === ATTEMPTS + 1 && nearKill(failing.get(r)!));
  });
  if (wrongAttempts.length > 0) {
    f.add('attempts', `${wrongAttempts.length} failing deliveries not attempted exactly ${ATTEMPTS} times, e.g. ${wrongAttempts.slice(0, 3).map((r) => `${r}: ${failing.get(r)?.length ?? 0}`).join(', ')}`);
  }
  const undelivered = [...t.runs].filter((r) => !received.has(r));
  if (undelivered.length > 0) f.add('delivery lost', `${undelivered.length} acknowledged run completions never delivered, e.g. ${undelivered.slice(0, 3).join(', ')}`);
  // A delivery in flight at the instant of the kill (sent, not yet recorded) is sent again by the instance that
  // takes it over, with the same delivery_id: counted apart; any other second arrival is a finding.
  let inFlightTwice = 0;
  for (const [run, list] of received) {
    if (list.length < 2) continue;
    if (list.length === 2 && list[0]!.id === list[1]!.id && nearKill(list)) inFlightTwice++;
    else f.add('delivered twice', `run ${run}: ${list.length} deliveries (${list.map((x) => `${x.id} at ${x.at - killedAt} ms from the kill`).join(', ')})`);
  }
  const missing = await missingTags(inst, org, t.tags);
  if (missing.length > 0) f.add('acknowledged write lost', `${missing.length} acknowledged tags missing, e.g. ${missing.slice(0, 3).join(', ')}`);
  // Taken over: attempts of one delivery more than the backoff apart by the claim's length (the victim's claim ran out).
  const takenOver = [...failing.values()].filter((l) => l.some((x, i) => i > 0 && x.at - l[i - 1]!.at > 5000)).length;
  const unacknowledged = t.answers.filter((a) => a.status === 0).length;
  await inst.restart(victimIndex);
  return result('crash', started, [
    ['instances (one killed -9)', ps.length],
    ['kill -9 of instance', `${victimIndex + 1} after ${killAfterMs} ms of traffic (seeded)`],
    ['acknowledged writes (tags), all present afterwards', `${t.tags.size - missing.length} of ${t.tags.size}`],
    ['acknowledged run completions, delivered', `${t.runs.size - undelivered.length} of ${t.runs.size}`],
    ['deliveries received exactly once', `${[...received.values()].filter((l) => l.length === 1).length}`],
    ['deliveries in flight at the kill received twice (same delivery_id)', inFlightTwice],
    [`failing deliveries attempted ${ATTEMPTS} times in all (across the takeover)`, `${t.runs.size - wrongAttempts.length - repeatedAtKill} of ${t.runs.size}`],
    [`failing deliveries whose attempt in flight at the kill was made again (${ATTEMPTS + 1} in all)`, repeatedAtKill],
    ['failing deliveries whose attempts spanned two instances (taken over)', takenOver],
    ['requests cut by the kill (not acknowledged)', unacknowledged],
    ['seconds from the kill to the last delivery', ((Math.max(killedAt, ...[...received.values()].flat().map((x) => x.at)) - killedAt) / 1000).toFixed(1)],
  ], f);
}

export async function sharedRestart(inst: Instances, o: SharedOptions): Promise<DrillResult> {
  const started = performance.now();
  const f = new Findings();
  if (!o.restartCommand) {
    f.add('not run', 'no way to restart PostgreSQL from here (give --pg-restart "command")');
    return result('restart', started, [], f);
  }
  const rng = new Rng(o.seed ^ 0xdb);
  const ps = inst.alive();
  const org = await organization(inst, ps[0]!, 'shared restart');
  const stop = { done: false };
  const running = traffic(inst, org, rng, stop, ps.length * 2, false);
  await sleep(1500);
  const restartStarted = performance.now();
  try {
    // Asynchronously: the traffic goes on while the server stops and starts.
    await promisify(execFile)(o.restartCommand[0]!, o.restartCommand.slice(1), { timeout: 60_000 });
  } catch (error) {
    f.add('restart failed', (error as Error).message.split('\n')[0]!);
  }
  const restartMs = performance.now() - restartStarted;
  await sleep(1500);
  stop.done = true;
  const t = await running;
  for (const a of t.answers) {
    const bad = badAnswer(a);
    if (bad) f.add('bad answer', bad);
  }
  const unavailable = t.answers.filter((a) => a.status === 503).length;
  // Every instance recovers by itself: a read through each succeeds within 10 s.
  const recovery: number[] = [];
  for (const p of ps) {
    const t0 = performance.now();
    let ok = false;
    while (!ok && performance.now() - t0 < 10_000) {
      ok = (await inst.call(p, 'GET', '/v1/tags?page_size=1', undefined, org.key)).status === 200;
      if (!ok) await sleep(200);
    }
    if (!ok) f.add('no recovery', `instance pid ${p.pid} still failing 10 s after the restart`);
    recovery.push(performance.now() - t0);
  }
  for (const p of ps) if (!p.alive()) f.add('crash', `instance pid ${p.pid} exited`);
  const missing = await missingTags(inst, org, t.tags);
  if (missing.length > 0) f.add('acknowledged write lost', `${missing.length} acknowledged tags missing, e.g. ${missing.slice(0, 3).join(', ')}`);
  return result('restart', started, [
    ['instances', ps.length],
    ['PostgreSQL restart took (ms)', Math.round(restartMs)],
    ['requests during the drill', t.answers.length],
    ['answered 503 INTERNAL while the database was away', unavailable],
    ['acknowledged writes, all present afterwards', `${t.tags.size - missing.length} of ${t.tags.size}`],
    ['slowest instance back to a 200 after the restart (ms)', Math.round(Math.max(...recovery))],
  ], f);
}

/** `pg_ctlcluster <version> <name> restart` for the local cluster serving `port`, when there is one. */
export function localRestartCommand(url: string): string[] | null {
  const u = new URL(url);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(u.hostname)) return null;
  try {
    const port = u.port || '5432';
    const line = execFileSync('pg_lsclusters', ['-h'], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .find((cols) => cols[2] === port);
    return line ? ['pg_ctlcluster', line[0]!, line[1]!, 'restart'] : null;
  } catch {
    return null;
  }
}
