// alert-events: what one recorded evaluation says (docs/sandbox.md "Alerts, issue 15 decisions"): created_at is
// the run's completion time; message_sent is the notification's message when TRIGGERED and null otherwise;
// dispatched_channels (TRIGGERED only) say `<TYPE> <where>` per channel with success true; each condition result
// names its metric by metric_name, carries its condition's ulid in metadata and, only when not met for want of
// data, a reason.
import { expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Check, CheckContext } from '../context.js';
import { AlertLab, condition, idOf, type Json, payloadOf } from './alerts-lab.js';
import { onRule, ruleRoute, show } from './records-support.js';

/** The channels of every type with the place docs/sandbox.md says their summary names. */
export function summarisedChannels(seed: number): { channels: Json[]; places: string[][] } {
  const recipients = [`oncall-${seed}@example.invalid`, `backup-${seed}@example.invalid`];
  return {
    channels: [
      { channel_type: 'SLACK', config: { channel_name: `#alerts-${seed}`, channel_id: `C${seed}` } },
      { channel_type: 'SLACK', config: { channel_id: `C0ONLYID${seed}` } },
      { channel_type: 'EMAIL', config: { recipients } },
      { channel_type: 'HUMAN_REVIEW', config: { project_id: `conformance-project-${seed}` } },
      { channel_type: 'WEBHOOK', config: { url: `ftp://alerts.example.invalid/${seed}` } },
    ],
    // Slack: the channel name, else its id; email: every recipient; review: the project; webhook: the URL.
    places: [[`#alerts-${seed}`], [`C0ONLYID${seed}`], recipients, [`conformance-project-${seed}`], [`ftp://alerts.example.invalid/${seed}`]],
  };
}

/** What is wrong with dispatched channels / dispatch results against the channels' types and places. */
export function dispatchProblems(what: string, dispatched: unknown, expected: { channels: Json[]; places: string[][] }): string[] {
  if (!Array.isArray(dispatched) || dispatched.length !== expected.channels.length) return [`${what}: expected ${expected.channels.length} entries, got ${show(dispatched)}`];
  const problems: string[] = [];
  (dispatched as Json[]).forEach((d, i) => {
    const type = String(expected.channels[i]!.channel_type);
    const words = String(d.channel_summary).split(/[\s,;]+/);
    const ok = d.channel_type === type && words[0] === type && expected.places[i]!.every((p) => words.includes(p)) && d.success === true;
    if (!ok) problems.push(`${what} ${i + 1}: expected ${type} naming ${expected.places[i]!.join(' and ')} with success true, got ${show(d)}`);
  });
  return problems;
}

async function listEvents(ctx: CheckContext, alert: Json): Promise<Json[]> {
  const route = ruleRoute(ctx.suite, 'alert-events')!;
  const answer = await send(ctx.target, route, { path: { alert_id: idOf(alert) } });
  expectSuccess(answer, route, 'listing the alert events');
  return (answer.body as { events: Json[] }).events;
}

export const eventContents: Check = {
  name: 'rule alert-events: an event has the run\'s completion time, the sent message (TRIGGERED only), the channels it notified and named condition results with their ulids',
  applies: onRule('alert-events'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const metricRecord = (await ctx.world.create('metric')).record;
    const metric = String(metricRecord.ulid ?? metricRecord.id);
    const other = await lab.metric();
    // A built-in metric (docs/sandbox.md "Metrics": a platform record) is named by its metric_name too.
    const builtinName = `conformance built-in ${ctx.world.nextSeed()}`;
    const builtin = (await ctx.world.loadRecord('metric', { metric_name: builtinName, is_builtin: true }, { platform: true })).id;
    const expected = summarisedChannels(ctx.world.nextSeed());
    // The third condition has no metric and is never met (every run is a success: 1, not 0).
    const conditions = [condition(metric, 'SINGLE', 'GT', 0.5), condition(other, 'SINGLE', 'GT', 0.5), condition(metric, 'JOB_SUCCESS', 'EQ', 0, { metric_id: undefined }), condition(builtin, 'SINGLE', 'GT', 0.5)];
    const alert = await lab.alert({ match_mode: 'ANY', cooldown_seconds: 3600, channels: expected.channels, conditions });
    const fired = await lab.complete({ [metric]: 0.9 });
    const held = await lab.complete({ [metric]: 0.9 });
    const quiet = await lab.complete({ [metric]: 0.1 });
    const [notMet, suppressed, triggered] = await listEvents(ctx, alert);
    if (!triggered || triggered.outcome !== 'TRIGGERED' || suppressed?.outcome !== 'SUPPRESSED' || notMet?.outcome !== 'NOT_MET') fail('expected the events NOT_MET, SUPPRESSED, TRIGGERED (newest first)');
    const problems: string[] = [];
    const completions = [
      [triggered, fired],
      [suppressed, held],
      [notMet, quiet],
    ] as const;
    for (const [event, done] of completions) {
      if (Date.parse(String(event.created_at)) !== Date.parse(done.at)) problems.push(`${String(event.outcome)}: created_at ${show(event.created_at)}, expected the run's completion time ${done.at}`);
    }
    const message = payloadOf(fired, alert)?.message;
    if (typeof message !== 'string' || triggered.message_sent !== message) problems.push(`TRIGGERED: message_sent ${show(triggered.message_sent)}, expected the notification's message ${show(message)}`);
    for (const event of [suppressed, notMet]) {
      if (event.message_sent !== null) problems.push(`${String(event.outcome)}: message_sent ${show(event.message_sent)}, expected null (nothing sent)`);
      if (show(event.dispatched_channels) !== '[]') problems.push(`${String(event.outcome)}: dispatched_channels ${show(event.dispatched_channels)}, expected none`);
    }
    problems.push(...dispatchProblems('TRIGGERED dispatched channel', triggered.dispatched_channels, expected));
    const ulids = (alert.conditions as Json[]).map((c) => c.ulid);
    const results = triggered.condition_results as Json[];
    const metadata = results.map((r) => r.metadata as Json | undefined);
    if (show(metadata.map((m) => m?.condition_id)) !== show(ulids)) problems.push(`condition results name conditions ${show(metadata.map((m) => m?.condition_id))}, expected the alert's ${show(ulids)}`);
    // The first condition was evaluated (met): no reason; the second had no result in the run: a reason.
    if (metadata[0]?.reason !== undefined) problems.push(`an evaluated condition carries a reason ${show(metadata[0]?.reason)}`);
    if (typeof metadata[1]?.reason !== 'string' || metadata[1].reason === '') problems.push(`a condition without a result in the run has no reason: ${show(metadata[1])}`);
    if (results[2]?.metric_display_name !== 'JOB_SUCCESS' || results[2]?.metric_id !== '') problems.push(`a condition without metric is reported as ${show(results[2])}, expected metric_id "" and its aggregation as metric_display_name`);
    // Not met: the value compared is still reported (SINGLE: the run's result when none passes).
    const unmet = (notMet.condition_results as Json[] | undefined)?.[0];
    if (unmet?.met !== false || unmet.computed_value !== 0.1) problems.push(`NOT_MET: the SINGLE condition is reported as ${show(unmet)}, expected met false with the run's result 0.1`);
    if (results[3]?.metric_display_name !== builtinName) problems.push(`a built-in metric is named ${show(results[3]?.metric_display_name)}, expected its metric_name ${show(builtinName)}`);
    if (results[0]?.metric_display_name !== metricRecord.metric_name) problems.push(`metric_display_name ${show(results[0]?.metric_display_name)}, expected the metric's metric_name ${show(metricRecord.metric_name)}`);
    const first = results[0] ?? {};
    const want = { metric_id: metric, aggregation: 'SINGLE', operator: 'GT', computed_value: 0.9, threshold: 0.5, met: true };
    for (const [k, v] of Object.entries(want)) if (first[k] !== v) problems.push(`the met condition's ${k} is ${show(first[k])}, expected ${show(v)}`);
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const checks: Check[] = [eventContents];
