// Crash: a sandbox of its own on a database file, a write load of many concurrent requests (tag creates,
// alert PATCHes replacing conditions and channels, agent saves), kill -9 at a random moment, then a restart on
// the same file. Every write answered 2xx must be there, whole; a write cut off by the kill must be there
// whole or not at all; nothing else may be there (nothing half-written). Repeated for several rounds on the
// same file; SQLite's integrity check runs on a copy of the files as the kill left them.
import { copyFileSync, existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { recordOf } from '../src/conformance/world.js';
import { clip, DrillContext, Findings, sleep, type DrillResult, type Org } from './context.js';
import type { Answer } from './http.js';
import { mix, Rng } from './prng.js';
import { listAll } from './races.js';
import { SandboxProcess } from './sandbox-process.js';

type Rec = Record<string, unknown>;
type Outcome = 'acked' | 'refused' | 'unknown';

interface TagWrite {
  name: string;
  color: string;
  outcome: Outcome;
  id?: string;
}

interface AlertWrite {
  alert: string;
  name: string;
  conditions: Rec[];
  channels: Rec[];
  outcome: Outcome;
}

interface AgentWrite {
  agent: string;
  prompt: string;
  outcome: Outcome;
}

function outcomeOf(a: Answer, totals: { answered2xx: number; cutOff: number }): Outcome {
  const outcome: Outcome = a.status === 0 ? 'unknown' : a.status < 300 ? 'acked' : 'refused';
  if (outcome === 'acked') totals.answered2xx++;
  if (outcome === 'unknown') totals.cutOff++;
  return outcome;
}

function short(a: Answer): string {
  return a.status === 0 ? `no answer (${a.error})` : `${a.status} ${clip(a.text, 200)}`;
}

function alertBody(tag: string, k: number): { name: string; description: string; evaluation_type: string; conditions: Rec[]; channels: Rec[] } {
  const n = (k % 4) + 1;
  return {
    name: tag,
    description: tag,
    evaluation_type: 'ON_RUN_COMPLETE',
    conditions: Array.from({ length: n }, (_, j) => ({ metric_id: `crash${String(k).padStart(6, '0')}x${j}`.padEnd(22, 'Q'), aggregation: 'RUN_AVERAGE', operator: 'GT', threshold_float: k + j / 10 })),
    channels: Array.from({ length: k % 3 }, (_, j) => ({ channel_type: 'SLACK', config: { channel_id: `C${k}`, channel_name: `#${tag}-${j}` } })),
  };
}

/** SQLite's own check of the files as the kill left them (on a copy, so the sandbox's recovery is untouched). */
function integrityCheck(db: string, copyTo: string): string {
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(`${db}${suffix}`)) copyFileSync(`${db}${suffix}`, `${copyTo}${suffix}`);
  const conn = new Database(copyTo);
  try {
    const rows = conn.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    conn.close();
  }
}

export async function crashDrill(ctx: DrillContext, db: string): Promise<DrillResult> {
  const started = performance.now();
  const deadline = started + ctx.options.caps.crash * 1000;
  const findings = new Findings(5);
  const rng = new Rng(mix(ctx.options.seed, 3));
  const main = ctx.sandbox;
  const totals = { writes: 0, answered2xx: 0, cutOff: 0, cutOffCommitted: 0, tagsChecked: 0, alertsChecked: 0, versionsChecked: 0 };
  const rounds: string[] = [];
  let proc: SandboxProcess | undefined;
  try {
    proc = await SandboxProcess.launch(db, ctx.log);
    ctx.sandbox = proc;
    const adminToken = proc.info.admin_token;
    const org: Org = await ctx.createOrganization('drill crash');
    // The records the PATCH load works on.
    const alerts: string[] = [];
    const agents: string[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await ctx.api('crash', 'createAlert', 'POST', '/alerts', { key: org.key, json: alertBody(`crash-initial-${i}`, 1000 + i) });
      if (a.status !== 201) throw new Error(`creating an alert: ${short(a)}`);
      alerts.push((a.body as Rec).ulid as string);
      const g = await ctx.api('crash', 'createAgent', 'POST', '/agents', { key: org.key, json: { display_name: `crash agent ${i}`, model_type: 'VOICE', prompt: `initial ${i}`, phone_number: '+14155550100' } });
      if (g.status !== 201) throw new Error(`creating an agent: ${short(g)}`);
      agents.push(((g.body as Rec).agent as Rec).id as string);
    }
    const tagWrites: TagWrite[] = [];
    const alertWrites: AlertWrite[] = alerts.map((alert, i) => ({ alert, ...alertBody(`crash-initial-${i}`, 1000 + i), outcome: 'acked' as Outcome }));
    const agentWrites: AgentWrite[] = agents.map((agent, i) => ({ agent, prompt: `initial ${i}`, outcome: 'acked' as Outcome }));
    let counter = 0;

    for (let round = 1; round <= ctx.options.crashRounds && performance.now() < deadline; round++) {
      const roundStart = { writes: totals.writes, answered2xx: totals.answered2xx, cutOff: totals.cutOff };
      let killed = false;
      const concurrency = 24;
      const load = Array.from({ length: concurrency }, async (_, w) => {
        const wr = new Rng(mix(ctx.options.seed, round, w));
        while (!killed) {
          const k = counter++;
          const pick = wr.float();
          if (pick < 0.6) {
            const write: TagWrite = { name: `crash-${round}-${w}-${k}-${wr.word(4)}`, color: `#${wr.int(0xffffff).toString(16).padStart(6, '0')}`, outcome: 'unknown' };
            tagWrites.push(write);
            const a = await ctx.api('crash', 'createTag (load)', 'POST', '/tags', { key: org.key, json: { tag_name: write.name, color: write.color }, timeoutMs: 20_000 });
            write.outcome = outcomeOf(a, totals);
            if (write.outcome === 'acked') write.id = ((a.body as Rec).tag as Rec).id as string;
            if (write.outcome === 'refused') findings.add('a write was refused', `createTag ${write.name}: ${short(a)}`);
          } else if (pick < 0.8) {
            const alert = alerts[k % alerts.length]!;
            const body = alertBody(`crash-set-${k}`, k);
            const write: AlertWrite = { alert, ...body, outcome: 'unknown' };
            alertWrites.push(write);
            const a = await ctx.api('crash', 'updateAlert (load)', 'PATCH', `/alerts/${alert}`, { key: org.key, json: body, timeoutMs: 20_000 });
            write.outcome = outcomeOf(a, totals);
            if (write.outcome === 'refused') findings.add('a write was refused', `updateAlert: ${short(a)}`);
          } else {
            const agent = agents[k % agents.length]!;
            const write: AgentWrite = { agent, prompt: `crash prompt ${k}`, outcome: 'unknown' };
            agentWrites.push(write);
            const a = await ctx.api('crash', 'updateAgent (load)', 'PATCH', `/agents/${agent}`, { key: org.key, json: { prompt: write.prompt }, timeoutMs: 20_000 });
            write.outcome = outcomeOf(a, totals);
            if (write.outcome === 'refused') findings.add('a write was refused', `updateAgent: ${short(a)}`);
          }
          totals.writes++;
        }
      });
      const delay = 400 + rng.int(1600);
      await sleep(delay);
      killed = true;
      await proc.kill9();
      await Promise.all(load);
      const integrity = integrityCheck(db, `${db}.copy-${round}`);
      if (integrity !== 'ok') findings.add('database damaged', `round ${round}: integrity_check says ${integrity}`);

      proc = await SandboxProcess.launch(db, ctx.log);
      ctx.sandbox = proc;
      if (proc.info.admin_token !== adminToken) findings.add('restart lost the admin token', `round ${round}`);

      // Tags: every acknowledged create is there with its fields; every listed tag is one we sent, whole.
      const listed = await listAll(ctx, 'crash', '/tags', org.key, 'tags');
      const byName = new Map(listed.map((t) => [t.tag_name as string, t]));
      const sentByName = new Map(tagWrites.map((t) => [t.name, t]));
      for (const t of tagWrites) {
        const stored = byName.get(t.name);
        if (t.outcome === 'acked' && (!stored || stored.id !== t.id || stored.color !== t.color)) findings.add('an acknowledged write is missing', `round ${round}: tag ${t.name} (${t.id}) answered 201, after the restart: ${stored ? clip(JSON.stringify(stored), 200) : 'absent'}`);
        if (t.outcome === 'unknown' && stored) {
          t.outcome = 'acked';
          t.id = stored.id as string;
          totals.cutOffCommitted++;
        } else if (t.outcome === 'unknown') t.outcome = 'refused'; // not committed: it will never appear
      }
      for (const stored of listed) {
        const sent = sentByName.get(stored.tag_name as string);
        if (!sent) findings.add('a record nobody wrote', `round ${round}: tag ${clip(JSON.stringify(stored), 200)}`);
        else if (stored.color !== sent.color || typeof stored.id !== 'string' || typeof stored.create_time !== 'string') findings.add('a half-written record', `round ${round}: tag ${clip(JSON.stringify(stored), 200)} (sent color ${sent.color})`);
      }
      totals.tagsChecked += tagWrites.length;

      // Alerts: each shows exactly one request's whole set (name, description, conditions, channels together).
      for (const alert of alerts) {
        const a = await ctx.api('crash', 'getAlert (after restart)', 'GET', `/alerts/${alert}`, { key: org.key });
        const stored = recordOf(ctx.suite.routes.find((r) => r.id === 'getAlert')!, { status: a.status, body: a.body, text: a.text, headers: new Headers() }) ?? {};
        const writes = alertWrites.filter((w) => w.alert === alert);
        const match = writes.find((w) => w.name === stored.name);
        const strip = (items: unknown, keys: string[]): string => JSON.stringify(((items as Rec[] | undefined) ?? []).map((c) => Object.fromEntries(keys.map((k) => [k, c[k]]))));
        if (a.status !== 200) findings.add('an acknowledged write is missing', `round ${round}: alert ${alert}: ${short(a)}`);
        else if (!match) findings.add('a record nobody wrote', `round ${round}: alert ${alert} is named ${JSON.stringify(stored.name)}`);
        else if (match.outcome === 'refused') findings.add('a refused write is there', `round ${round}: alert ${alert} shows ${match.name}`);
        else if (stored.description !== match.name || strip(stored.conditions, ['metric_id', 'threshold_float']) !== strip(match.conditions, ['metric_id', 'threshold_float']) || strip(stored.channels, ['channel_type']) !== strip(match.channels, ['channel_type']) || JSON.stringify(((stored.channels as Rec[]) ?? []).map((c) => c.config)) !== JSON.stringify(match.channels.map((c) => c.config)))
          findings.add('a half-written record', `round ${round}: alert ${alert} named ${match.name} shows ${clip(JSON.stringify({ description: stored.description, conditions: stored.conditions, channels: stored.channels }), 300)}`);
        else {
          if (match.outcome === 'unknown') totals.cutOffCommitted++;
          // Its writes cut off by the kill that are not the stored one never committed (a later write would
          // have replaced the set, so any of them could be: they are only "not shown now").
          for (const w of writes) if (w.outcome === 'unknown') w.outcome = w === match ? 'acked' : 'refused';
        }
        totals.alertsChecked++;
      }

      // Agents: versions dense and unique; every acknowledged save is exactly one version; nothing else.
      for (const agent of agents) {
        const v = await ctx.api('crash', 'listAgentVersions (after restart)', 'GET', `/agents/${agent}/versions`, { key: org.key });
        const g = await ctx.api('crash', 'getAgent (after restart)', 'GET', `/agents/${agent}`, { key: org.key });
        const versions = ((v.body as Rec | undefined)?.versions as Rec[] | undefined) ?? [];
        const nums = versions.map((x) => x.version_number as number).sort((a, b) => a - b);
        if (v.status !== 200 || g.status !== 200) {
          findings.add('an acknowledged write is missing', `round ${round}: agent ${agent}: ${short(v)} / ${short(g)}`);
          continue;
        }
        if (!nums.every((x, i) => x === i + 1)) findings.add('versions not dense and unique after the crash', `round ${round}: agent ${agent}: [${nums.join(',')}]`);
        const writes = agentWrites.filter((w) => w.agent === agent);
        const prompts = versions.map((x) => x.prompt as string);
        for (const w of writes) {
          const count = prompts.filter((p) => p === w.prompt).length;
          if (w.outcome === 'acked' && count !== 1) findings.add('an acknowledged write is missing', `round ${round}: agent ${agent} save "${w.prompt}" answered 200, in ${count} versions`);
          if (w.outcome === 'refused' && count > 0) findings.add('a refused write is there', `round ${round}: agent ${agent} "${w.prompt}"`);
          if (w.outcome === 'unknown') {
            if (count > 1) findings.add('a half-written record', `round ${round}: agent ${agent} "${w.prompt}" in ${count} versions`);
            w.outcome = count === 1 ? 'acked' : 'refused';
            if (count === 1) totals.cutOffCommitted++;
          }
        }
        for (const p of prompts) if (!writes.some((w) => w.prompt === p)) findings.add('a record nobody wrote', `round ${round}: agent ${agent} has a version with prompt ${JSON.stringify(p)}`);
        const agentRec = (g.body as Rec).agent as Rec;
        const newest = versions.find((x) => x.version_number === nums[nums.length - 1]);
        if (agentRec.prompt !== newest?.prompt || (agentRec.current_version as Rec | undefined)?.version_number !== nums[nums.length - 1]) findings.add('a half-written record', `round ${round}: agent ${agent} shows prompt ${JSON.stringify(agentRec.prompt)} / version ${JSON.stringify((agentRec.current_version as Rec | undefined)?.version_number)}, newest version ${nums[nums.length - 1]} has ${JSON.stringify(newest?.prompt)}`);
        totals.versionsChecked += versions.length;
      }
      rounds.push(`kill -9 after ${delay} ms: ${totals.writes - roundStart.writes} writes, ${totals.answered2xx - roundStart.answered2xx} answered 2xx, ${totals.cutOff - roundStart.cutOff} cut off by the kill; integrity_check ${integrity}`);
    }
  } finally {
    await proc?.stop();
    ctx.sandbox = main;
  }
  const ms = performance.now() - started;
  return {
    name: 'crash',
    ok: findings.total === 0,
    ms,
    numbers: [
      ['rounds (kill -9, restart on the same file)', rounds.length],
      ['concurrent writers', 24],
      ['writes sent (tag creates 60%, alert set replacements 20%, agent saves 20%)', totals.writes],
      ['writes answered 2xx (every one found, whole, after the restart)', totals.answered2xx],
      ['writes cut off by a kill (no answer)', totals.cutOff],
      ['of those, committed before the kill (found whole; the rest absent)', totals.cutOffCommitted],
      ['tags / alerts / agent versions checked', `${totals.tagsChecked} / ${totals.alertsChecked} / ${totals.versionsChecked}`],
      ...rounds.map((r, i) => [`round ${i + 1}`, r] as [string, string]),
    ],
    findings: findings.kept,
    findingCounts: findings.counts,
    notes: [],
  };
}
