// alert-events and alert-test-evaluate: the evaluations evaluate-alerts records for an alert (one event per
// evaluation on a completed run: TRIGGERED, SUPPRESSED within the cooldown, NOT_MET; newest first; the outcome
// filter), and test-evaluate answering what an evaluation would do without counting, recording or sending.
import { expectSuccess, send } from '../../http.js';
import { fail, lacks } from '../../result.js';
import type { Check, CheckContext } from '../context.js';
import { onRule, ruleRoute } from './records-support.js';
import { AlertLab, condition, idOf, type Json, notesOf } from './alerts-lab.js';



async function events(ctx: CheckContext, alert: Json, outcome?: string): Promise<Json[]> {
  const route = ruleRoute(ctx.suite, 'alert-events')!;
  const answer = await send(ctx.target, route, { path: { alert_id: idOf(alert) }, ...(outcome ? { query: { outcome } } : {}) });
  expectSuccess(answer, route, 'listing the alert events');
  const list = (answer.body as { events?: Json[] }).events;
  if (!Array.isArray(list)) fail('the answer has no events list');
  return list;
}

export const eventsRecorded: Check = {
  name: 'rule alert-events: every evaluation is an event (TRIGGERED, SUPPRESSED in the cooldown, NOT_MET), newest first, filtered by outcome',
  applies: onRule('alert-events'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const metric = await lab.metric();
    const alert = await lab.alert({ cooldown_seconds: 3600, conditions: [condition(metric, 'SINGLE', 'GT', 0.5)] });
    await lab.complete({ [metric]: 0.9 });
    await lab.complete({ [metric]: 0.9 });
    const last = await lab.complete({ [metric]: 0.1 });
    const all = await events(ctx, alert);
    const outcomes = all.map((e) => e.outcome);
    if (JSON.stringify(outcomes) !== JSON.stringify(['NOT_MET', 'SUPPRESSED', 'TRIGGERED'])) fail(`expected NOT_MET, SUPPRESSED, TRIGGERED (newest first), got ${JSON.stringify(outcomes)}`);
    const problems: string[] = [];
    if (all.some((e) => e.alert_ulid !== idOf(alert))) problems.push('an event names another alert');
    const runId = String(last.run.run_id ?? last.run.id);
    if (all[0]!.run_id !== runId) problems.push(`the newest event is of run ${String(all[0]!.run_id)}, expected ${runId}`);
    const fired = all[2]!;
    const results = fired.condition_results as Json[] | undefined;
    if (!Array.isArray(results) || results[0]?.met !== true || results[0]?.computed_value !== 0.9) problems.push(`the TRIGGERED event's condition results are ${JSON.stringify(results)}`);
    if (!Array.isArray(fired.dispatched_channels) || fired.dispatched_channels.length !== 1) problems.push('the TRIGGERED event lists no dispatched channel');
    const suppressed = await events(ctx, alert, 'SUPPRESSED');
    if (suppressed.length !== 1) problems.push(`outcome=SUPPRESSED listed ${suppressed.length} events, expected 1`);
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const testEvaluate: Check = {
  name: 'rule alert-test-evaluate: answers whether a completed run triggers the alert, with condition results, and changes nothing',
  applies: onRule('alert-test-evaluate'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const route = ruleRoute(ctx.suite, 'alert-test-evaluate')!;
    if (!ruleRoute(ctx.suite, 'alert-events')) lacks('the spec lists no alert events to see that nothing was recorded');
    const metric = await lab.metric();
    // Cooldown 0 and not met at first: the run completing records NOT_MET only.
    const alert = await lab.alert({ conditions: [condition(metric, 'SINGLE', 'GT', 0.95)] });
    const done = await lab.complete({ [metric]: 0.9 });
    const runId = String(done.run.run_id ?? done.run.id);
    const ask = async (threshold: number): Promise<Json> => {
      const patch = ctx.suite.routes.find((r) => r.resource === 'alert' && r.action === 'update' && r.aliasOf === null)!;
      expectSuccess(await send(ctx.target, patch, { path: { alert_id: idOf(alert) }, body: { conditions: [condition(metric, 'SINGLE', 'GT', threshold)] } }), patch, 'changing the threshold');
      const answer = await send(ctx.target, route, { path: { alert_id: idOf(alert) }, body: { run_id: runId } });
      expectSuccess(answer, route, 'test-evaluating');
      return answer.body as Json;
    };
    const yes = await ask(0.5);
    const no = await ask(0.95);
    const problems: string[] = [];
    if (yes.triggered !== true || yes.alert_id !== idOf(alert) || yes.run_id !== runId) problems.push(`threshold 0.5: expected triggered true for the alert and run, got ${JSON.stringify(yes).slice(0, 200)}`);
    if (no.triggered !== false) problems.push(`threshold 0.95: expected triggered false, got ${JSON.stringify(no.triggered)}`);
    const results = yes.condition_results as Json[] | undefined;
    if (!Array.isArray(results) || results[0]?.computed_value !== 0.9) problems.push(`condition results ${JSON.stringify(results)}`);
    const after = await lab.get(alert);
    if (after.trigger_count !== 0) problems.push(`trigger_count became ${String(after.trigger_count)}`);
    const recorded = await events(ctx, alert);
    if (recorded.length !== 1) problems.push(`${recorded.length} events recorded, expected only the completion's NOT_MET`);
    if (notesOf(done, alert).length !== 0) problems.push('the completion notified');
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const checks: Check[] = [eventsRecorded, testEvaluate];
