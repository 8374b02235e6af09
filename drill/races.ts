// Races: many requests in flight at once on the same records, then the stored state read back.
// - Tag renames: N different tags renamed to one name at once (in different letter cases; names are stored
//   lower case and unique among active tags): exactly one 200, the rest 409 ALREADY_EXISTS, and afterwards
//   exactly one active tag has the name; the losers keep their names. Also N concurrent creates of one name,
//   and renames and creates of one name mixed.
// - Alert PATCHes replacing conditions and channels (with name and description from the same request): every
//   read during and after the storm shows exactly one request's set, whole (never a mix of two requests, never
//   a partial set), with fresh distinct ulids.
// - Agent saves: N concurrent saves (and reverts) of one agent: every save answered 200 recorded exactly one
//   version; version numbers are 1..n, dense and unique; the agent's current version is the newest.
import { recordOf } from '../src/conformance/world.js';
import { clip, DrillContext, Findings, type DrillResult, type Org } from './context.js';
import { envelopeProblem, type Answer } from './http.js';
import { mix, Rng } from './prng.js';

type Rec = Record<string, unknown>;

function record(ctx: DrillContext, routeId: string, answer: Answer): Rec | undefined {
  const route = ctx.suite.routes.find((r) => r.id === routeId)!;
  return recordOf(route, { status: answer.status, body: answer.body, text: answer.text, headers: new Headers() });
}

function short(a: Answer): string {
  return a.status === 0 ? `no answer (${a.error})` : `${a.status} ${clip(a.text, 200)}`;
}

/** Every item of a paginated list. */
export async function listAll(ctx: DrillContext, drill: string, path: string, key: string, itemsKey: string): Promise<Rec[]> {
  const out: Rec[] = [];
  let token: string | undefined;
  for (let page = 0; page < 200; page++) {
    const a = await ctx.api(drill, `list ${path}`, 'GET', `${path}?page_size=100${token ? `&page_token=${encodeURIComponent(token)}` : ''}`, { key });
    if (a.status !== 200) throw new Error(`listing ${path}: ${short(a)}`);
    out.push(...(((a.body as Rec)[itemsKey] as Rec[] | undefined) ?? []));
    token = (a.body as Rec).next_page_token as string | undefined;
    if (!token) break;
  }
  return out;
}

function caseVariant(name: string, i: number): string {
  if (i % 3 === 0) return name.toUpperCase();
  if (i % 3 === 1) return name;
  return name
    .split('')
    .map((c, j) => (j % 2 === 0 ? c.toUpperCase() : c))
    .join('');
}

async function tagRaces(ctx: DrillContext, org: Org, rng: Rng, findings: Findings, numbers: Map<string, number>): Promise<void> {
  const n = ctx.options.raceSize;
  const add = (k: string, v = 1): void => void numbers.set(k, (numbers.get(k) ?? 0) + v);
  for (let round = 1; round <= ctx.options.raceRounds; round++) {
    // 1. N tags renamed to one name at once.
    const tags: { id: string; name: string }[] = [];
    await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const name = `race-${round}-${i}-${rng.word(6)}`;
        const a = await ctx.api('races', 'createTag', 'POST', '/tags', { key: org.key, json: { tag_name: name } });
        const tag = record(ctx, 'createTag', a);
        if (a.status !== 201 || typeof tag?.id !== 'string') throw new Error(`creating tag ${name}: ${short(a)}`);
        tags[i] = { id: tag.id, name };
      }),
    );
    const target = `race-target-${round}-${rng.word(8)}`;
    const answers = await Promise.all(tags.map((t, i) => ctx.api('races', 'updateTag (rename race)', 'PATCH', `/tags/${t.id}`, { key: org.key, json: { tag_name: caseVariant(target, i) } })));
    add('tag renames sent', answers.length);
    const won = answers.map((a, i) => ({ a, t: tags[i]! })).filter((x) => x.a.status === 200);
    const lost = answers.filter((a) => a.status === 409);
    add('tag renames answered 200', won.length);
    add('tag renames answered 409', lost.length);
    if (won.length !== 1) findings.add('rename race: not exactly one winner', `round ${round}: ${won.length} of ${n} renames to "${target}" answered 200 (${answers.filter((a) => a.status !== 200 && a.status !== 409).map(short).slice(0, 3).join(' | ')})`);
    for (const a of answers) if (a.status !== 200 && a.status !== 409) findings.add('rename race: neither 200 nor 409', `round ${round}: ${short(a)}`);
    for (const a of lost) {
      const code = (a.body as { error?: { code?: string } } | undefined)?.error?.code;
      if (code !== 'ALREADY_EXISTS' || envelopeProblem(a)) findings.add('rename race: 409 without ALREADY_EXISTS', short(a));
    }
    const listed = await listAll(ctx, 'races', '/tags', org.key, 'tags');
    const holders = listed.filter((t) => t.tag_name === target.toLowerCase());
    if (holders.length !== 1) findings.add('two active tags with one name', `round ${round}: ${holders.length} listed tags are named "${target.toLowerCase()}": ${holders.map((h) => h.id).join(', ')}`);
    else if (won.length === 1 && holders[0]!.id !== won[0]!.t.id) findings.add('rename race: the stored winner is not the one answered 200', `round ${round}: 200 for ${won[0]!.t.id}, stored on ${String(holders[0]!.id)}`);
    const byId = new Map(listed.map((t) => [t.id, t]));
    for (const [i, a] of answers.entries()) {
      if (a.status === 200) continue;
      const t = byId.get(tags[i]!.id);
      if (t?.tag_name !== tags[i]!.name) findings.add('rename race: a refused rename changed the tag', `round ${round}: tag ${tags[i]!.id} is now ${JSON.stringify(t?.tag_name)}, was ${tags[i]!.name}`);
    }

    // 2. N creates of one name at once.
    const same = `race-create-${round}-${rng.word(8)}`;
    const creates = await Promise.all(Array.from({ length: n }, (_, i) => ctx.api('races', 'createTag (create race)', 'POST', '/tags', { key: org.key, json: { tag_name: caseVariant(same, i) } })));
    add('tag creates sent', creates.length);
    const created = creates.filter((a) => a.status === 201).length;
    add('tag creates answered 201', created);
    if (created !== 1 || creates.some((a) => a.status !== 201 && a.status !== 409)) findings.add('create race: not exactly one 201 and the rest 409', `round ${round}: ${creates.map((a) => a.status).join(',')}`);

    // 3. Renames and creates of one name, mixed.
    const mixed = `race-mixed-${round}-${rng.word(8)}`;
    const fresh = await Promise.all(Array.from({ length: Math.floor(n / 2) }, (_, i) => ctx.api('races', 'createTag', 'POST', '/tags', { key: org.key, json: { tag_name: `race-mixed-src-${round}-${i}-${rng.word(5)}` } })));
    const ids = fresh.map((a) => record(ctx, 'createTag', a)?.id as string);
    const mixedAnswers = await Promise.all([
      ...ids.map((id, i) => ctx.api('races', 'updateTag (mixed race)', 'PATCH', `/tags/${id}`, { key: org.key, json: { tag_name: caseVariant(mixed, i) } })),
      ...Array.from({ length: n - ids.length }, (_, i) => ctx.api('races', 'createTag (mixed race)', 'POST', '/tags', { key: org.key, json: { tag_name: caseVariant(mixed, i + 1) } })),
    ]);
    add('mixed renames and creates sent', mixedAnswers.length);
    const mixedWon = mixedAnswers.filter((a) => a.status === 200 || a.status === 201).length;
    if (mixedWon !== 1) findings.add('mixed race: not exactly one success', `round ${round}: ${mixedWon} successes: ${mixedAnswers.map((a) => a.status).join(',')}`);
    const after = await listAll(ctx, 'races', '/tags', org.key, 'tags');
    for (const name of [same, mixed]) {
      const count = after.filter((t) => t.tag_name === name.toLowerCase()).length;
      if (count !== 1) findings.add('two active tags with one name', `round ${round}: ${count} tags named "${name.toLowerCase()}"`);
    }
  }
}

interface AlertSet {
  i: number;
  name: string;
  conditions: Rec[];
  channels: Rec[];
}

function alertSet(i: number, round: number): AlertSet {
  const aggregations = ['SINGLE', 'RUN_AVERAGE', 'RUN_FRACTION', 'JOB_SUCCESS', 'BASELINE_DEVIATION'];
  const operators = ['GT', 'GTE', 'LT', 'LTE', 'EQ', 'NEQ'];
  const conditions = Array.from({ length: (i % 5) + 1 }, (_, j) => ({
    metric_id: `m${String(round).padStart(2, '0')}x${String(i).padStart(3, '0')}x${j}`.padEnd(22, 'Z'),
    aggregation: aggregations[(i + j) % aggregations.length],
    operator: operators[(i + j) % operators.length],
    threshold_float: i * 1000 + j,
    window_size_runs: j + 1,
  }));
  const channels = Array.from({ length: i % 4 }, (_, j) => ({ channel_type: 'SLACK', config: { channel_id: `C${i}x${j}`, channel_name: `#set-${i}-${j}` } }));
  return { i, name: `set-${round}-${i}`, conditions, channels };
}

/** Which set a stored alert shows, or why it is none of them. */
function matchSet(alert: Rec, sets: AlertSet[]): { set?: AlertSet; problem?: string } {
  const set = sets.find((s) => s.name === alert.name);
  if (!set) return { problem: `name ${JSON.stringify(alert.name)} is no request's` };
  if (alert.description !== set.name) return { problem: `name from ${set.name} but description ${JSON.stringify(alert.description)}` };
  const conditions = (alert.conditions as Rec[] | undefined) ?? [];
  const channels = (alert.channels as Rec[] | undefined) ?? [];
  const strip = (items: Rec[], keys: string[]): string => JSON.stringify(items.map((c) => Object.fromEntries(keys.map((k) => [k, c[k]]))));
  const ck = ['metric_id', 'aggregation', 'operator', 'threshold_float', 'window_size_runs'];
  if (strip(conditions, ck) !== strip(set.conditions, ck)) return { problem: `name ${set.name} but conditions ${clip(strip(conditions, ck), 200)}` };
  const chk = ['channel_type'];
  if (strip(channels, chk) !== strip(set.channels, chk) || JSON.stringify(channels.map((c) => c.config)) !== JSON.stringify(set.channels.map((c) => c.config))) return { problem: `name ${set.name} but channels ${clip(JSON.stringify(channels), 200)}` };
  const ulids = [...conditions, ...channels].map((c) => c.ulid);
  if (new Set(ulids).size !== ulids.length || ulids.some((u) => typeof u !== 'string')) return { problem: `item ulids missing or repeated: ${ulids.join(',')}` };
  return { set };
}

async function alertRaces(ctx: DrillContext, org: Org, findings: Findings, numbers: Map<string, number>): Promise<void> {
  const n = ctx.options.raceSize;
  const add = (k: string, v = 1): void => void numbers.set(k, (numbers.get(k) ?? 0) + v);
  for (let round = 1; round <= ctx.options.raceRounds; round++) {
    const initial = alertSet(999, round);
    const created = await ctx.api('races', 'createAlert', 'POST', '/alerts', { key: org.key, json: { name: initial.name, description: initial.name, evaluation_type: 'ON_RUN_COMPLETE', conditions: initial.conditions, channels: initial.channels } });
    const alert = record(ctx, 'createAlert', created);
    if (created.status !== 201 || typeof alert?.ulid !== 'string') throw new Error(`creating an alert: ${short(created)}`);
    const sets = Array.from({ length: n }, (_, i) => alertSet(i, round));
    const known = [initial, ...sets];
    const reads: Promise<Answer>[] = [];
    const patches = Promise.all(
      sets.map(async (s, i) => {
        if (i % 2 === 0) reads.push(ctx.api('races', 'getAlert (during race)', 'GET', `/alerts/${alert.ulid as string}`, { key: org.key }));
        return ctx.api('races', 'updateAlert (replace race)', 'PATCH', `/alerts/${alert.ulid as string}`, { key: org.key, json: { name: s.name, description: s.name, conditions: s.conditions, channels: s.channels } });
      }),
    );
    const answers = await patches;
    const during = await Promise.all(reads);
    add('alert PATCHes sent', answers.length);
    add('alert PATCHes answered 200', answers.filter((a) => a.status === 200).length);
    for (const a of answers) {
      if (a.status !== 200) {
        findings.add('alert race: a PATCH failed', short(a));
        continue;
      }
      const r = matchSet(record(ctx, 'updateAlert', a) ?? {}, known);
      if (r.problem) findings.add('alert race: a PATCH answer mixes sets', r.problem);
    }
    add('alert reads during the storm', during.length);
    for (const a of during) {
      const r = matchSet(record(ctx, 'getAlert', a) ?? {}, known);
      if (a.status !== 200 || r.problem) findings.add('alert race: a read during the storm shows no single set', a.status !== 200 ? short(a) : r.problem!);
    }
    const final = await ctx.api('races', 'getAlert (after race)', 'GET', `/alerts/${alert.ulid as string}`, { key: org.key });
    const r = matchSet(record(ctx, 'getAlert', final) ?? {}, known);
    if (final.status !== 200 || r.problem || r.set === initial) findings.add('alert race: the stored alert is not exactly one request\'s set', final.status !== 200 ? short(final) : (r.problem ?? 'still the initial set'));
    else add('alert races ending on exactly one request\'s set');
  }
}

async function agentRaces(ctx: DrillContext, org: Org, findings: Findings, numbers: Map<string, number>): Promise<void> {
  const n = ctx.options.raceSize;
  const add = (k: string, v = 1): void => void numbers.set(k, (numbers.get(k) ?? 0) + v);
  for (let round = 1; round <= ctx.options.raceRounds; round++) {
    const created = await ctx.api('races', 'createAgent', 'POST', '/agents', { key: org.key, json: { display_name: `race agent ${round}`, model_type: 'VOICE', prompt: 'v1', phone_number: '+14155550100' } });
    const agent = record(ctx, 'createAgent', created);
    if (created.status !== 201 || typeof agent?.id !== 'string') throw new Error(`creating an agent: ${short(created)}`);
    const id = agent.id;
    const v1 = (agent.current_version as Rec | undefined)?.ulid as string | undefined;
    // Rounds after the first mix reverts to version 1 into the saves.
    const withReverts = round > 1 && v1 !== undefined;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        withReverts && i % 5 === 4
          ? ctx.api('races', 'revertAgentVersion (race)', 'POST', `/agents/${id}/versions/${v1}/revert`, { key: org.key })
          : ctx.api('races', 'updateAgent (save race)', 'PATCH', `/agents/${id}`, { key: org.key, json: { prompt: `prompt ${round}-${i}` } }),
      ),
    );
    const saves = answers.filter((_, i) => !(withReverts && i % 5 === 4));
    const reverts = answers.filter((_, i) => withReverts && i % 5 === 4);
    add('agent saves sent', saves.length);
    add('agent reverts sent', reverts.length);
    for (const a of saves) if (a.status !== 200) findings.add('agent race: a save failed', short(a));
    // A revert to the version that is current at that moment is 400 by design; others succeed.
    for (const a of reverts) if (a.status !== 200 && a.status !== 400) findings.add('agent race: a revert answered neither 200 nor 400', short(a));
    const okSaves = saves.filter((a) => a.status === 200).length;
    const okReverts = reverts.filter((a) => a.status === 200).length;
    const versionsAnswer = await ctx.api('races', 'listAgentVersions (after race)', 'GET', `/agents/${id}/versions`, { key: org.key });
    const versions = ((versionsAnswer.body as Rec | undefined)?.versions as Rec[] | undefined) ?? [];
    const numbersSeen = versions.map((v) => v.version_number as number).sort((a, b) => a - b);
    const expected = 1 + okSaves + okReverts;
    const dense = numbersSeen.every((v, i) => v === i + 1);
    const unique = new Set(numbersSeen).size === numbersSeen.length;
    add('agent versions checked', versions.length);
    if (!dense || !unique || numbersSeen.length !== expected) findings.add('agent race: version numbers not dense and unique', `round ${round}: expected 1..${expected} (${okSaves} saves + ${okReverts} reverts answered 200), got [${numbersSeen.join(',')}]`);
    const ulids = versions.map((v) => v.ulid);
    if (new Set(ulids).size !== ulids.length) findings.add('agent race: repeated version ulids', `round ${round}`);
    // Every save answered 200 is in exactly one version; the answers' version numbers are unique too.
    const prompts = versions.filter((v) => v.change_type === 'save').map((v) => v.prompt);
    for (const [i, a] of answers.entries()) {
      if (a.status !== 200 || (withReverts && i % 5 === 4)) continue;
      const count = prompts.filter((p) => p === `prompt ${round}-${i}`).length;
      if (count !== 1) findings.add('agent race: an acknowledged save is not exactly one version', `round ${round}: "prompt ${round}-${i}" is in ${count} versions`);
    }
    const answered = answers.filter((a) => a.status === 200).map((a) => ((record(ctx, 'updateAgent', a)?.current_version as Rec | undefined)?.version_number as number | undefined) ?? -1);
    if (new Set(answered).size !== answered.length) findings.add('agent race: two answers name the same version number', `round ${round}: ${answered.sort((a, b) => a - b).join(',')}`);
    const got = await ctx.api('races', 'getAgent (after race)', 'GET', `/agents/${id}`, { key: org.key });
    const current = (record(ctx, 'getAgent', got)?.current_version as Rec | undefined)?.version_number;
    if (current !== numbersSeen[numbersSeen.length - 1]) findings.add('agent race: current version is not the newest', `round ${round}: current ${String(current)}, newest ${numbersSeen[numbersSeen.length - 1]}`);
  }
}

export async function racesDrill(ctx: DrillContext): Promise<DrillResult> {
  const started = performance.now();
  const findings = new Findings(5);
  const numbers = new Map<string, number>();
  const org = await ctx.createOrganization('drill races');
  const rng = new Rng(mix(ctx.options.seed, 2));
  const timings: [string, number][] = [];
  for (const [name, run] of [
    ['tags', () => tagRaces(ctx, org, rng, findings, numbers)],
    ['alerts', () => alertRaces(ctx, org, findings, numbers)],
    ['agents', () => agentRaces(ctx, org, findings, numbers)],
  ] as const) {
    const t = performance.now();
    try {
      await run();
    } catch (error) {
      findings.add('drill error', `${name}: ${(error as Error).message}`);
    }
    timings.push([name, performance.now() - t]);
  }
  if (!ctx.sandbox.alive()) findings.add('process gone', JSON.stringify(ctx.log.unexpectedExits));
  return {
    name: 'races',
    ok: findings.total === 0,
    ms: performance.now() - started,
    numbers: [
      ['concurrent requests per race', ctx.options.raceSize],
      ['rounds', ctx.options.raceRounds],
      ...[...numbers.entries()].map(([k, v]) => [k, v] as [string, number]),
      ['time per part', timings.map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`).join(', ')],
    ],
    findings: findings.kept,
    findingCounts: findings.counts,
    notes: [],
  };
}
