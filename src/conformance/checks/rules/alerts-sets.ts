// alert-replace-sets: conditions and channels are whole sets — created with an id per item, replaced as a
// whole by PATCH (new ids, the old items gone, also for evaluation), kept when omitted; an empty conditions
// list is refused. Channel tokens travel with their channels and are never shown.
import { expectError, expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { unansweredUrl } from '../unanswered-url.js';
import { AlertLab, condition, enumValues, idOf, notesOf, onReplaceSets, type Completion, type Json } from './alerts-lab.js';

function items(record: Json, set: 'conditions' | 'channels'): Json[] {
  return Array.isArray(record[set]) ? (record[set] as Json[]) : [];
}

function ulids(record: Json, set: 'conditions' | 'channels'): string[] {
  return items(record, set).map((i) => String(i.ulid));
}

function tokenOf(done: Completion, alert: Json): (string | undefined)[] {
  return notesOf(done, alert).map((n) => Object.entries((n.headers ?? {}) as Record<string, string>).find(([k]) => k.toLowerCase() === 'x-webhook-token')?.[1]);
}

/** Properties of a schema of suite.defs. */
function propertiesOf(ctx: CheckContext, def: string): string[] {
  return Object.keys(((ctx.suite.defs[def] as { properties?: Json } | undefined)?.properties ?? {}) as Json);
}

export const createSets: Check = {
  name: 'rule alert-replace-sets: create gives each condition and channel its own ulid, condition match_mode exact by default, trigger_count 0, last_triggered_at null, no auth_token shown',
  applies: onReplaceSets('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionMatchMode', ['exact', 'contains']);
    const metric = await lab.metric();
    const token = `conformance-alert-token-${ctx.world.nextSeed()}`;
    const route = lab.route('create');
    const body = {
      name: `conformance sets ${lab.tag}`,
      evaluation_type: 'ON_RUN_COMPLETE',
      conditions: [condition(metric, 'SINGLE', 'GT', 0.5), condition(metric, 'RUN_FRACTION', 'GTE', 0.5, { match_value: '1', match_mode: 'contains' })],
      channels: [
        { channel_type: 'SLACK', config: { channel_name: '#alerts' } },
        { channel_type: 'WEBHOOK', config: { url: ctx.target.receiver?.endpoint() ?? unansweredUrl('https', 'sets'), auth_token: token } },
      ],
    };
    const answer = await send(ctx.target, route, { body });
    expectSuccess(answer, route, 'creating an alert with two conditions and two channels');
    const alert = recordOf(route, answer)!;
    ctx.world.created.push({ resource: 'alert', id: idOf(alert), path: { alert_id: idOf(alert) }, record: alert });
    const problems: string[] = [];
    // Seed (Alert): conditions and channels are items with a ulid; CreateAlertRequest's defaults (match_mode
    // exact for a condition, empty lists); trigger_count counts triggers (none yet), last_triggered_at is null
    // until the first; ChannelConfig.auth_token is "never returned".
    for (const set of ['conditions', 'channels'] as const) {
      const ids = ulids(alert, set);
      if (ids.length !== 2 || new Set(ids).size !== 2 || ids.some((id) => !/^[0-9A-Z]{26}$/.test(id))) problems.push(`${set}: expected two distinct ulids, got ${JSON.stringify(ids)}`);
    }
    const modes = items(alert, 'conditions').map((c) => c.match_mode);
    if (JSON.stringify(modes) !== JSON.stringify(['exact', 'contains'])) problems.push(`condition match_mode: expected ["exact","contains"] (exact by default), got ${JSON.stringify(modes)}`);
    const channelFields = propertiesOf(ctx, 'AlertChannel');
    for (const c of items(alert, 'channels')) {
      const extra = Object.keys(c).filter((k) => !channelFields.includes(k));
      if (channelFields.length > 0 && extra.length > 0) problems.push(`a channel carries fields outside AlertChannel: ${extra.join(', ')}`);
    }
    if (alert.trigger_count !== 0) problems.push(`trigger_count: expected 0, got ${JSON.stringify(alert.trigger_count)}`);
    // Alert.last_triggered_at: "null if it never has" (triggered) — present and null, not left out.
    if (alert.last_triggered_at !== null) problems.push(`last_triggered_at: expected null, got ${JSON.stringify(alert.last_triggered_at)}`);
    for (const list of ['agent_ids', 'required_tags', 'scheduled_run_ids']) if (JSON.stringify(alert[list]) !== '[]') problems.push(`${list}: expected [] by default, got ${JSON.stringify(alert[list])}`);
    if (answer.text.includes(token)) problems.push('the answer shows the channel auth_token');
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const patchSets: Check = {
  name: 'rule alert-replace-sets: PATCH replaces conditions / channels as whole sets (new ulids, old items no longer evaluated or notified), keeps omitted sets and counters, refuses empty conditions',
  applies: onReplaceSets('update'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const [m1, m2] = [await lab.metric(), await lab.metric()];
    const seed = ctx.world.nextSeed();
    const [tokenA, tokenB] = [`conformance-alert-token-a-${seed}`, `conformance-alert-token-b-${seed}`];
    const hook = (path: string, token?: string): Json => ({ channel_type: 'WEBHOOK', config: { url: ctx.target.receiver?.endpoint() ?? unansweredUrl('https', `${seed}/${path}`), ...(token ? { auth_token: token } : {}) } });
    const route = ctx.route;
    const path = { alert_id: '' };
    const problems: string[] = [];
    const patch = async (what: string, body: Json): Promise<Json> => {
      const answer = await send(ctx.target, route, { path, body });
      expectSuccess(answer, route, what);
      for (const t of [tokenA, tokenB]) if (answer.text.includes(t)) problems.push(`${what}: the answer shows a channel auth_token`);
      return recordOf(route, answer)!;
    };
    const fired = (done: Completion, alert: Json, label: string, notes: number, tokens: (string | undefined)[]): void => {
      const got = tokenOf(done, alert);
      const sorted = (list: (string | undefined)[]): string => JSON.stringify(list.map((t) => t ?? '').sort());
      if (got.length !== notes || sorted(got) !== sorted(tokens)) problems.push(`${label}: expected ${notes} notification(s) with X-Webhook-Token ${JSON.stringify(tokens)}, got ${got.length} with ${JSON.stringify(got)}`);
    };

    const created = await lab.alert({ match_mode: 'ANY', conditions: [condition(m1, 'SINGLE', 'GT', 0.5), condition(m1, 'SINGLE', 'LT', -100)], channels: [hook('a', tokenA)] });
    path.alert_id = idOf(created);
    fired(await lab.complete({ [m1]: 1 }), created, 'before any PATCH', 1, [tokenA]);

    // Seed (PATCH /alerts): "When conditions or channels are given, the whole set replaces the existing set
    // atomically (old deleted, new created)"; "omitted fields keep their values".
    const conditionsReplaced = await patch('PATCH conditions', { conditions: [condition(m2, 'SINGLE', 'GT', 0.5)] });
    const newConditions = ulids(conditionsReplaced, 'conditions');
    if (newConditions.length !== 1 || ulids(created, 'conditions').includes(newConditions[0]!)) problems.push(`PATCH conditions: expected one condition with a new ulid, got ${JSON.stringify(newConditions)}`);
    if (items(conditionsReplaced, 'conditions')[0]?.match_mode !== 'exact') problems.push(`PATCH conditions: match_mode expected exact by default, got ${JSON.stringify(items(conditionsReplaced, 'conditions')[0]?.match_mode)}`);
    if (JSON.stringify(ulids(conditionsReplaced, 'channels')) !== JSON.stringify(ulids(created, 'channels'))) problems.push('PATCH conditions: the omitted channels changed');
    if (conditionsReplaced.trigger_count !== 1 || typeof conditionsReplaced.last_triggered_at !== 'string') problems.push(`PATCH conditions: trigger_count / last_triggered_at not kept (${JSON.stringify(conditionsReplaced.trigger_count)}, ${JSON.stringify(conditionsReplaced.last_triggered_at)})`);
    fired(await lab.complete({ [m1]: 1 }), created, 'a run meeting only the replaced conditions', 0, []);
    fired(await lab.complete({ [m2]: 1 }), created, 'a run meeting the new condition (channel and token kept)', 1, [tokenA]);

    const channelsReplaced = await patch('PATCH channels', { channels: [hook('b', tokenB), { channel_type: 'SLACK', config: { channel_name: '#alerts' } }] });
    const newChannels = ulids(channelsReplaced, 'channels');
    if (newChannels.length !== 2 || newChannels.some((id) => ulids(created, 'channels').includes(id))) problems.push(`PATCH channels: expected two channels with new ulids, got ${JSON.stringify(newChannels)}`);
    if (JSON.stringify(ulids(channelsReplaced, 'conditions')) !== JSON.stringify(newConditions)) problems.push('PATCH channels: the omitted conditions changed');
    fired(await lab.complete({ [m2]: 1 }), created, 'after PATCH channels (the new token only)', 2, [tokenB, undefined]);

    await patch('PATCH channels without token', { channels: [hook('c')] });
    fired(await lab.complete({ [m2]: 1 }), created, 'after PATCH channels without a token (the old token gone)', 1, [undefined]);

    const renamed = await patch('PATCH name only', { name: `conformance renamed ${seed}` });
    if (JSON.stringify(ulids(renamed, 'conditions')) !== JSON.stringify(newConditions) || ulids(renamed, 'channels').length !== 1) problems.push('PATCH name: the conditions or channels changed');

    // Sending the presented items back (ulids included) still replaces them: new items, new ulids.
    const echoed = await patch('PATCH with the presented items sent back', { conditions: items(renamed, 'conditions'), channels: items(renamed, 'channels') });
    for (const set of ['conditions', 'channels'] as const) {
      if (ulids(echoed, set).length !== items(renamed, set).length || ulids(echoed, set).some((id) => ulids(renamed, set).includes(id))) problems.push(`PATCH ${set} sent back with their ulids: expected new ulids, got ${JSON.stringify(ulids(echoed, set))} for ${JSON.stringify(ulids(renamed, set))}`);
    }

    const emptied = await patch('PATCH channels []', { channels: [] });
    if (items(emptied, 'channels').length !== 0) problems.push(`PATCH channels []: expected no channels, got ${items(emptied, 'channels').length}`);
    const before = Number(emptied.trigger_count);
    fired(await lab.complete({ [m2]: 1 }), created, 'without channels', 0, []);
    const after = await lab.get(created);
    if (after.trigger_count !== before + 1) problems.push(`without channels the alert still triggers: expected trigger_count ${before + 1}, got ${JSON.stringify(after.trigger_count)}`);

    // Seed (Errors 3): an empty conditions list on alert update is 400 on field conditions.
    expectError(await send(ctx.target, route, { path, body: { conditions: [] } }), 400, 'INVALID_ARGUMENT', 'conditions', 'PATCH conditions []');
    if (JSON.stringify(ulids(await lab.get(created), 'conditions')) !== JSON.stringify(ulids(echoed, 'conditions'))) problems.push('a refused PATCH changed the conditions');
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const checks: Check[] = [createSets, patchSets];
