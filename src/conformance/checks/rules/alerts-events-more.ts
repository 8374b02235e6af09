// alert-events and alert-test-evaluate beyond alerts-events.ts (docs/sandbox.md "Alerts, issue 15 decisions"):
// the events page like every list with total_count, and are 404 with an unknown alert; test-evaluate says
// `suppressed` when the cooldown would hold a trigger back (then no dispatch_results), lists the channels a
// trigger would notify, finds no result on a run that has not completed, and is 404 on run_id for an unknown run.
import { expectError, expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Check } from '../context.js';
import { AlertLab, condition, fixtureUlid, idOf, type Json } from './alerts-lab.js';
import { onRule, show } from './records-support.js';



export const eventsPaged: Check = {
  name: 'rule alert-events: events page by page_size with next_page_token and total_count; a forged page token is 400; an unknown alert is 404',
  applies: onRule('alert-events'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const metric = await lab.metric();
    const alert = await lab.alert({ conditions: [condition(metric, 'SINGLE', 'GT', 0.5)] });
    for (const value of [0.9, 0.1, 0.9]) await lab.complete({ [metric]: value });
    const path = { alert_id: idOf(alert) };
    const read = async (query: Record<string, string>): Promise<Json> => {
      const answer = await send(ctx.target, ctx.route, { path, query });
      expectSuccess(answer, ctx.route, `listing events ${show(query)}`);
      return answer.body as Json;
    };
    const first = await read({ page_size: '2' });
    const firstEvents = first.events as Json[];
    if (firstEvents.length !== 2 || first.total_count !== 3 || typeof first.next_page_token !== 'string') fail(`page_size=2 answered ${firstEvents.length} events, total_count ${show(first.total_count)}, next_page_token ${show(first.next_page_token)}; expected 2, 3 and a token`);
    const second = await read({ page_size: '2', page_token: String(first.next_page_token) });
    const outcomes = [...firstEvents, ...(second.events as Json[])].map((e) => e.outcome);
    if (show(outcomes) !== show(['TRIGGERED', 'NOT_MET', 'TRIGGERED']) || second.next_page_token !== undefined) fail(`the two pages hold ${show(outcomes)} (next_page_token ${show(second.next_page_token)}), expected TRIGGERED, NOT_MET, TRIGGERED and no further page`);
    const met = await read({ outcome: 'NOT_MET' });
    if (met.total_count !== 1) fail(`outcome=NOT_MET counts ${show(met.total_count)} events, expected 1`);
    expectError(await send(ctx.target, ctx.route, { path: { alert_id: fixtureUlid() } }), 404, 'NOT_FOUND', 'alert_id', 'the events of an unknown alert');
    // docs/sandbox.md "Protocol": a page token the list did not issue is 400 on page_token.
    expectError(await send(ctx.target, ctx.route, { path, query: { page_token: `${String(first.next_page_token)}AAAA` } }), 400, 'INVALID_ARGUMENT', 'page_token', 'a page token the events list did not issue');
  },
};

export const testEvaluateCooldown: Check = {
  name: 'rule alert-test-evaluate: a match lists the channels a trigger would notify, within the cooldown it is suppressed with none; a run not completed has no result; an unknown run is 404',
  applies: onRule('alert-test-evaluate'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const metric = await lab.metric();
    const channels = [{ channel_type: 'SLACK', config: { channel_name: '#alerts' } }, { channel_type: 'EMAIL', config: { recipients: ['oncall@example.com'] } }];
    const alert = await lab.alert({ cooldown_seconds: 3600, channels, conditions: [condition(metric, 'SINGLE', 'GT', 0.5)] });
    const ask = async (runId: string): Promise<Json> => {
      const answer = await send(ctx.target, ctx.route, { path: { alert_id: idOf(alert) }, body: { run_id: runId } });
      expectSuccess(answer, ctx.route, 'test-evaluating');
      return answer.body as Json;
    };
    const idOfRun = (done: { run: Json }): string => String(done.run.run_id ?? done.run.id);
    // Not met when it completed; with a lower threshold it would trigger (the alert never triggered).
    const early = await lab.complete({ [metric]: 0.1 });
    const patch = ctx.suite.routes.find((r) => r.resource === 'alert' && r.action === 'update' && r.aliasOf === null) ?? fail('the spec has no alert update');
    expectSuccess(await send(ctx.target, patch, { path: { alert_id: idOf(alert) }, body: { conditions: [condition(metric, 'SINGLE', 'GT', 0.05)] } }), patch, 'lowering the threshold');
    const free = await ask(idOfRun(early));
    const dispatched = free.dispatch_results as Json[];
    if (free.triggered !== true || free.suppressed !== false || !Array.isArray(dispatched) || dispatched.length !== 2) fail(`a match of an alert that never triggered answered ${show(free).slice(0, 300)}, expected triggered, not suppressed, with both channels`);
    if (typeof free.message !== 'string' || free.message === '') fail('a trigger has no message');
    // It triggers on the next run; a run completed a minute later is within the hour's cooldown.
    const fired = await lab.complete({ [metric]: 0.9 });
    const soon = await lab.complete({ [metric]: 0.8 }, { completed_at: new Date(Date.parse(fired.at) + 60_000).toISOString() });
    const held = await ask(idOfRun(soon));
    if (held.triggered !== true || held.suppressed !== true || show(held.dispatch_results) !== show([])) fail(`a match within the cooldown answered ${show(held).slice(0, 300)}, expected triggered and suppressed with no dispatch_results`);
    const launched = await lab.launch({ agent_id: await lab.agent() });
    const pending = await ask(launched);
    const results = pending.condition_results as Json[];
    if (pending.triggered !== false || results[0]?.met !== false) fail(`a run that has not completed answered ${show(pending).slice(0, 300)}, expected nothing met`);
    expectError(await send(ctx.target, ctx.route, { path: { alert_id: idOf(alert) }, body: { run_id: 'NoSuchRunAAAAAAAAAAAAA' } }), 404, 'NOT_FOUND', 'run_id', 'an unknown run');
  },
};

export const checks: Check[] = [eventsPaged, testEvaluateCooldown];
