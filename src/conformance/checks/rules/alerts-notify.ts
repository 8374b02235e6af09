// evaluate-alerts: what a firing does — one notification per channel (only WEBHOOK channels with an HTTP(S)
// url are POSTed, with their token), the message and its placeholders, trigger_count / last_triggered_at and
// the cooldown measured on run completion times.
import { send } from '../../http.js';
import { fail } from '../../result.js';
import type { Check } from '../context.js';
import { unansweredUrl } from '../unanswered-url.js';
import { AlertLab, condition, enumValues, expectFirings, fixtureUlid, idOf, notesOf, onAlertOperation, payloadOf, type Completion, type Json } from './alerts-lab.js';

const HOUR = 3_600_000;

function headerValue(note: Json, name: string): string | undefined {
  const headers = (note.headers ?? {}) as Record<string, string>;
  return Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
}

function channelOf(note: Json): Json {
  return (note.channel ?? {}) as Json;
}

/** Where a token shows up in a notification other than its request headers. */
function leaks(note: Json, tokens: string[]): string[] {
  const { headers: _headers, ...rest } = note;
  const text = JSON.stringify(rest);
  return tokens.filter((t) => text.includes(t));
}

/**
 * What is wrong with one notification: it must name its channel as the alert presents it (the sandbox's
 * entry: ulid, channel_type, config without secrets); a recorded one (no url) is `delivered` without any
 * call; a POST is JSON, attempted, with exactly the expected X-Webhook-Token (an empty token is no token:
 * the sandbox's choice); no token appears outside the request headers.
 */
function noteProblems(note: Json, channel: Json | undefined, token: string | undefined, tokens: string[]): string[] {
  const problems: string[] = [];
  const shown = channelOf(note);
  const type = String(shown.channel_type);
  if (JSON.stringify(shown.config) !== JSON.stringify(channel?.config)) problems.push(`a notification shows channel config ${JSON.stringify(shown.config)}, expected the alert's ${JSON.stringify(channel?.config)}`);
  if (shown.channel_type !== channel?.channel_type) problems.push(`a notification names channel_type ${type}, expected ${String(channel?.channel_type)}`);
  const attempts = Array.isArray(note.attempts) ? note.attempts.length : 0;
  if (note.url === undefined) {
    if (attempts > 0) problems.push(`a ${type} channel was called (${attempts} attempts), expected it recorded only`);
    if (note.status !== 'delivered') problems.push(`a recorded notification (${type}) has status ${String(note.status)}, expected delivered`);
  } else {
    if (!String(headerValue(note, 'content-type')).includes('application/json')) problems.push(`the POST to ${String(note.url)} has content-type ${String(headerValue(note, 'content-type'))}, expected JSON`);
    if (attempts === 0) problems.push(`the POST to ${String(note.url)} has no attempt recorded`);
  }
  const sent = headerValue(note, 'X-Webhook-Token');
  if (sent !== token) problems.push(`the notification of channel ${type} ${String(note.url ?? '')}: expected X-Webhook-Token ${String(token)}, got ${String(sent)}`);
  if (leaks(note, tokens).length > 0) problems.push(`a notification shows an auth_token outside its headers (channel ${type})`);
  return problems;
}

export const channelNotifications: Check = {
  name: 'rule evaluate-alerts: one notification per channel; only WEBHOOK channels with an HTTP(S) url are POSTed, with config.auth_token in X-Webhook-Token and never shown',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ChannelType', ['SLACK', 'EMAIL', 'HUMAN_REVIEW', 'WEBHOOK']);
    const metric = await lab.metric();
    const seed = ctx.world.nextSeed();
    const [tokenHttps, tokenFtp, tokenStored] = ['https', 'ftp', 'stored'].map((k) => `conformance-alert-token-${k}-${seed}`) as [string, string, string];
    const urls = { https: unansweredUrl('https', `${seed}/hook`), http: unansweredUrl('http', `${seed}/plain`), ftp: `ftp://alerts.example.invalid/${seed}/x` };
    const channels = [
      // A SLACK channel with an HTTPS url (an incoming-webhook address) is still only recorded.
      { channel_type: 'SLACK', config: { channel_id: 'C0CONFORM', channel_name: '#alerts', url: `${urls.https}/slack` } },
      { channel_type: 'EMAIL', config: { recipients: ['oncall@example.invalid'] } },
      { channel_type: 'HUMAN_REVIEW', config: { project_id: 'conformance-project', sample_rate: 0.5 } },
      { channel_type: 'WEBHOOK', config: { url: urls.https, method: 'POST', auth_token: tokenHttps } },
      { channel_type: 'WEBHOOK', config: { url: urls.http, method: 'POST' } },
      { channel_type: 'WEBHOOK', config: { url: urls.ftp, method: 'POST', auth_token: tokenFtp } },
      { channel_type: 'WEBHOOK', config: { method: 'POST' } },
      { channel_type: 'WEBHOOK', config: { url: `${urls.https}/empty-token`, method: 'POST', auth_token: '' } },
    ];
    const alert = await lab.alert({ conditions: [condition(metric, 'SINGLE', 'GT', 0.5)], channels });
    // A stored alert whose channel config still holds its token (loaded as it is, as a fixture).
    const { stored } = await lab.stored({
      stored: {
        data: {
          ...{ name: 'conformance stored webhook alert', status: 'ACTIVE', evaluation_type: 'ON_RUN_COMPLETE', conversation_source: 'ALL', match_mode: 'ALL', cooldown_seconds: 0, trigger_count: 0 },
          ...{ agent_ids: [], required_tags: [lab.tag], scheduled_run_ids: [], conditions: [condition(metric, 'SINGLE', 'GT', 0.5, { ulid: fixtureUlid(), match_mode: 'exact' })] },
          channels: [{ ulid: fixtureUlid(), channel_type: 'WEBHOOK', config: { url: urls.https, auth_token: tokenStored } }],
        },
      },
    });
    const tokens = [tokenHttps, tokenFtp, tokenStored];
    const problems: string[] = [];
    // Seed (ChannelConfig): auth_token is "never returned".
    const got = await send(ctx.target, lab.route('get'), { path: { alert_id: idOf(alert) } });
    for (const t of tokens) if (JSON.stringify(alert).includes(t) || got.text.includes(t)) problems.push('the alert answer shows a channel auth_token');
    const done = await lab.complete({ [metric]: 1 });
    // Docs (sandbox.md "Alerts"): one alert_notification per channel; SLACK, EMAIL, HUMAN_REVIEW recorded,
    // not called; a WEBHOOK channel with an HTTP(S) config.url POSTed with its token in X-Webhook-Token.
    const notes = notesOf(done, alert);
    const presented = (alert.channels as Json[]).map((c) => String(c.ulid));
    const noted = notes.map((n) => String(channelOf(n).ulid)).sort();
    if (JSON.stringify(noted) !== JSON.stringify([...presented].sort())) problems.push(`expected one notification for each of the ${presented.length} channels, got ${notes.length} naming ${noted.join(', ')}`);
    const posted = notes.filter((n) => typeof n.url === 'string').map((n) => n.url).sort();
    const postable = [urls.http, urls.https, `${urls.https}/empty-token`].sort();
    if (JSON.stringify(posted) !== JSON.stringify(postable)) problems.push(`expected POSTs to ${postable.join(', ')} only, got ${JSON.stringify(posted)}`);
    const presentedChannels = new Map((alert.channels as Json[]).map((c) => [String(c.ulid), c]));
    for (const note of notes) problems.push(...noteProblems(note, presentedChannels.get(String(channelOf(note).ulid)), urls.https === note.url ? tokenHttps : undefined, tokens));
    const storedNote = done.sent.find((s) => s.kind === 'alert_notification' && s.alert_id === idOf(stored!));
    if (!storedNote) problems.push('the stored alert did not fire');
    else {
      if (headerValue(storedNote, 'X-Webhook-Token') !== tokenStored) problems.push(`the stored alert's POST carried X-Webhook-Token ${String(headerValue(storedNote, 'X-Webhook-Token'))}, expected its config.auth_token`);
      if (leaks(storedNote, tokens).length > 0) problems.push("the stored alert's notification shows its config.auth_token");
    }
    await lab.remove([stored!]);
    if (problems.length > 0) fail(problems.join('; '));
  },
};

/** The placeholders of sandbox.md "Alerts", in the order the template below uses them. */
const TEMPLATE = '{{alert_name}}|{{alert_id}}|{{run_id}}|{{agent_id}}|{{conversation_source}}|{{triggered_at}}|{{trigger_count}}|{{metric_id}}|{{value}}|{{ alert_name }}|{{not_a_placeholder}}|{{conditions}}';

function messageOf(done: Completion, alert: Json): string {
  const message = payloadOf(done, alert)?.message;
  if (typeof message !== 'string') fail(`the notification has no message: ${JSON.stringify(payloadOf(done, alert)).slice(0, 200)}`);
  return message;
}

function compareParts(what: string, parts: string[], expected: (string | ((s: string) => boolean))[], problems: string[]): void {
  const names = TEMPLATE.split('|');
  if (parts.length !== expected.length) {
    problems.push(`${what}: expected ${expected.length} parts separated by |, got "${parts.join('|')}"`);
    return;
  }
  expected.forEach((want, i) => {
    const ok = typeof want === 'string' ? parts[i] === want : want(parts[i]!);
    if (!ok) problems.push(`${what}: ${names[i]} became "${parts[i]}"${typeof want === 'string' ? `, expected "${want}"` : ''}`);
  });
}

export const messagePlaceholders: Check = {
  name: 'rule evaluate-alerts: custom_message_template placeholders are filled from the firing (first met condition, empty agent, counts); the payload names alert, run and trigger',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'AlertMatchMode', ['ANY']);
    const [m1, m2] = [await lab.metric(), await lab.metric()];
    const agent = await lab.agent();
    const conditions = [condition(m1, 'SINGLE', 'GT', 5), condition(m2, 'SINGLE', 'GT', 0.5)];
    const alerts = await lab.alerts({
      templated: { name: `conformance templated ${lab.tag}`, match_mode: 'ANY', conditions, custom_message_template: TEMPLATE },
      plain: { name: `conformance plain ${lab.tag}`, conditions: [condition(m2, 'SINGLE', 'GT', 0.5)] },
      'empty template': { name: `conformance empty template ${lab.tag}`, conditions: [condition(m2, 'SINGLE', 'GT', 0.5)], custom_message_template: '' },
    });
    const { templated, plain } = alerts as { templated: Json; plain: Json };
    const [first, second] = await expectFirings(lab, alerts, [
      { label: 'agent run, uploaded', values: { [m1]: 1, [m2]: 0.75 }, run: { agent_id: agent, conversation_source: 'UPLOADED' }, fires: ['templated', 'plain', 'empty template'] },
      { label: 'run without agent, simulated', values: { [m2]: 1 }, run: { conversation_source: 'SIMULATED' }, fires: ['templated', 'plain', 'empty template'] },
    ]);
    const problems: string[] = [];
    const sameTime = (at: string) => (s: string) => Date.parse(s) === Date.parse(at);
    // {{conditions}}: one line naming each condition in order with its aggregation, operator, threshold and value
    // (the evaluate-alerts module's summary); a condition without a result shows no "null" or "undefined".
    const summary =
      (...values: string[]) =>
      (s: string): boolean =>
        !s.includes('\n') && s.includes(m1) && s.indexOf(m1) < s.indexOf(m2) && ['SINGLE', 'GT', '5', '0.5', ...values].every((v) => s.includes(v)) && !/null|undefined/.test(s);
    // Docs (sandbox.md "Alerts"): the placeholders; {{metric_id}} / {{value}} of the first met condition,
    // {{conditions}} a summary naming each, unknown placeholders left as written, blanks around a name allowed
    // and an absent agent empty (the sandbox's choices, evaluate-alerts module).
    const name = String(templated.name);
    compareParts('first message', messageOf(first!, templated).split('|'), [name, idOf(templated), String(first!.run.run_id), agent, 'UPLOADED', sameTime(first!.at), '1', m2, '0.75', name, '{{not_a_placeholder}}', summary('0.75')], problems);
    compareParts('second message', messageOf(second!, templated).split('|'), [name, idOf(templated), String(second!.run.run_id), '', 'SIMULATED', sameTime(second!.at), '2', m2, '1', name, '{{not_a_placeholder}}', summary()], problems);
    // The sandbox's payload: alert_id, alert_name, run_id, agent_id, conversation_source, triggered_at, trigger_count.
    const payload = payloadOf(first!, templated)!;
    const want: Json = { alert_id: idOf(templated), alert_name: name, run_id: first!.run.run_id, agent_id: agent, conversation_source: 'UPLOADED', trigger_count: 1 };
    for (const [k, v] of Object.entries(want)) if (payload[k] !== v) problems.push(`payload ${k}: expected ${JSON.stringify(v)}, got ${JSON.stringify(payload[k])}`);
    if (Date.parse(String(payload.triggered_at)) !== Date.parse(first!.at)) problems.push(`payload triggered_at ${String(payload.triggered_at)}, expected the completion time ${first!.at}`);
    const secondPayload = payloadOf(second!, templated)!;
    if (secondPayload.agent_id !== null || secondPayload.trigger_count !== 2) problems.push(`second payload: expected agent_id null and trigger_count 2, got ${JSON.stringify(secondPayload.agent_id)} and ${JSON.stringify(secondPayload.trigger_count)}`);
    // Without a template the sandbox writes `Alert "<name>" triggered on run <run_id>: <summary>`.
    for (const alert of [plain, alerts['empty template']!]) {
      const message = messageOf(first!, alert);
      if (!message.startsWith(`Alert "${String(alert.name)}" triggered on run ${String(first!.run.run_id)}: `) || !message.includes(m2)) problems.push(`the default message is "${message}"`);
    }
    if (problems.length > 0) fail(problems.join('; '));
  },
};

interface CounterState {
  count: number;
  last: string | null;
}

export const cooldownCounters: Check = {
  name: 'rule evaluate-alerts: cooldown_seconds counts from the last trigger\'s run completion; trigger_count and last_triggered_at follow the triggers',
  applies: onAlertOperation('get'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const metric = await lab.metric();
    const conditions = [condition(metric, 'SINGLE', 'GT', 0.5)];
    const alerts = await lab.alerts({ 'cooldown 1h': { cooldown_seconds: 3600, conditions }, 'no cooldown': { cooldown_seconds: 0, conditions } });
    const state: Record<string, CounterState> = { 'cooldown 1h': { count: 0, last: null }, 'no cooldown': { count: 0, last: null } };
    const problems: string[] = [];
    const compareState = async (label: string): Promise<void> => {
      for (const [name, alert] of Object.entries(alerts)) {
        const record = await lab.get(alert);
        const want = state[name]!;
        const last = record.last_triggered_at;
        const sameLast = want.last === null ? last === null || last === undefined : typeof last === 'string' && Date.parse(last) === Date.parse(want.last);
        if (record.trigger_count !== want.count || !sameLast) problems.push(`${label}, ${name}: expected trigger_count ${want.count} and last_triggered_at ${String(want.last)}, got ${String(record.trigger_count)} and ${String(last)}`);
      }
    };
    // Seed (Events 4): matching alerts increment trigger_count and set last_triggered_at, subject to
    // cooldown_seconds ("minimum seconds between triggers"). Docs (sandbox.md "Alerts"): cooldown is measured
    // on run completion times; last_triggered_at is the triggering run's completion time (sandbox's choice).
    await compareState('before any run');
    const steps: { label: string; ms: number; value: number; fire: string[] }[] = [
      { label: 'first run', ms: 0, value: 1, fire: ['cooldown 1h', 'no cooldown'] },
      { label: '30 minutes later', ms: HOUR / 2, value: 1, fire: ['no cooldown'] },
      { label: 'a millisecond short of an hour later', ms: HOUR - 1, value: 1, fire: ['no cooldown'] },
      { label: 'exactly an hour later', ms: HOUR, value: 1, fire: ['cooldown 1h', 'no cooldown'] },
      { label: 'a value below the threshold', ms: HOUR + 1000, value: 0, fire: [] },
      { label: 'an hour and a second after the last trigger', ms: 2 * HOUR + 1000, value: 1, fire: ['cooldown 1h', 'no cooldown'] },
    ];
    for (const step of steps) {
      const at = lab.iso(step.ms);
      await expectFirings(lab, alerts, [{ label: step.label, values: { [metric]: step.value }, run: { completed_at: at }, fires: step.fire }]).catch((e: Error) => problems.push(e.message));
      for (const name of step.fire) state[name] = { count: state[name]!.count + 1, last: at };
      await compareState(step.label);
    }
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const checks: Check[] = [channelNotifications, messagePlaceholders, cooldownCounters];
