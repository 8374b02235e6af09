// alert-test-evaluate beyond alerts-events*.ts (docs/sandbox.md "Alerts, issue 15 decisions"): the answer is what
// an evaluation of the run would do, without doing it: the alert's scope and `enabled` are not applied, the
// message is the notification's text for that run, dispatch_results say where each channel would go; nothing
// is counted, recorded or sent (trigger_count, last_triggered_at, events, a WEBHOOK channel's endpoint). A run
// of another workspace is unknown to the caller (404 on run_id).
import { expectError, expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Check } from '../context.js';
import { dispatchProblems, summarisedChannels } from './alerts-events-contents.js';
import { AlertLab, condition, fixtureUlid, idOf, type Json } from './alerts-lab.js';
import { onRule, ruleRoute, show } from './records-support.js';

export const testEvaluateAnswer: Check = {
  name: 'rule alert-test-evaluate: evaluates outside the alert\'s scope and enabled, answers the notification\'s message and channels, windows over the earlier runs, counts, records and sends nothing; another workspace\'s run is 404',
  applies: onRule('alert-test-evaluate'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const metric = await lab.metric();
    const agent = await lab.agent();
    const expected = summarisedChannels(ctx.world.nextSeed());
    const hook = ctx.target.receiver?.endpoint();
    const channels = hook ? [...expected.channels, { channel_type: 'WEBHOOK', config: { url: hook } }] : expected.channels;
    const template = '{{run_id}}|{{agent_id}}|{{triggered_at}}|{{value}}|{{trigger_count}}|{{conversation_source}}|{{metric_id}}';
    // Triggered once (by the first run), then disabled and scoped away from the runs below: a real evaluation
    // would not look at them, test-evaluate does.
    const alert = await lab.alert({ channels, custom_message_template: template, conditions: [condition(metric, 'SINGLE', 'GT', 0.5)] });
    const first = await lab.complete({ [metric]: 0.9 });
    const update = lab.route('update');
    const agents = [await lab.agent()];
    expectSuccess(await send(ctx.target, update, { path: { alert_id: idOf(alert) }, body: { enabled: false, agent_ids: agents, required_tags: [`${lab.tag}-elsewhere`] } }), update, 'disabling and re-scoping the alert');
    const before = await lab.get(alert);
    const done = await lab.complete({ [metric]: [0.2, 0.7] }, { agent_id: agent, conversation_source: 'UPLOADED' });
    const runId = String(done.run.run_id);
    const answer = await send(ctx.target, ctx.route, { path: { alert_id: idOf(alert) }, body: { run_id: runId } });
    expectSuccess(answer, ctx.route, 'test-evaluating a run outside the scope of a disabled alert');
    const body = answer.body as Json;
    const problems: string[] = [];
    if (body.triggered !== true || body.suppressed !== false) problems.push(`expected triggered and not suppressed (scope and enabled not applied), got triggered ${show(body.triggered)}, suppressed ${show(body.suppressed)}`);
    // The message a trigger on this run would send: its run, agent, completion time, first passing value and
    // the count the trigger would make.
    const sameMessage = (message: unknown, want: string[], at: (ms: number) => boolean): boolean => {
      const parts = String(message).split('|');
      return parts.length === want.length && parts.every((p, i) => (i === 2 ? at(Date.parse(p)) : p === want[i]));
    };
    const wantParts = [runId, agent, done.at, '0.7', '2', 'UPLOADED', metric];
    if (!sameMessage(body.message, wantParts, (ms) => ms === Date.parse(done.at))) problems.push(`message ${show(body.message)}, expected ${wantParts.join('|')}`);
    // A run launched and not completed: nothing to evaluate; a trigger would be now, on a SIMULATED run (the
    // spec: runs launched through POST /runs are SIMULATED).
    const pending = await lab.launch({ agent_id: agent });
    const started = Date.now();
    const asked = await send(ctx.target, ctx.route, { path: { alert_id: idOf(alert) }, body: { run_id: pending } });
    expectSuccess(asked, ctx.route, 'test-evaluating a run not completed');
    const ended = Date.now();
    const pendingBody = asked.body as Json;
    const nowish = (ms: number): boolean => ms >= started - 300_000 && ms <= ended + 300_000;
    if (pendingBody.triggered !== false || !sameMessage(pendingBody.message, [pending, agent, '', '', '2', 'SIMULATED', ''], nowish)) problems.push(`a run not completed answered ${show(pendingBody).slice(0, 300)}, expected not triggered and the message ${pending}|${agent}|<now>||2|SIMULATED| (no value, no metric met)`);
    expectError(await send(ctx.target, ctx.route, { path: { alert_id: fixtureUlid() }, body: { run_id: runId } }), 404, 'NOT_FOUND', 'alert_id', 'an unknown alert');
    // A window looks at the run's earlier completed runs as an evaluation would: the first run (0.9) and this
    // one (mean 0.45).
    const windowed = await lab.alert({ conditions: [condition(metric, 'RUN_AVERAGE', 'GTE', -1e9, { window_size_runs: 2 })] });
    const averaged = await send(ctx.target, ctx.route, { path: { alert_id: idOf(windowed) }, body: { run_id: runId } });
    expectSuccess(averaged, ctx.route, 'test-evaluating a windowed alert');
    const value = ((averaged.body as Json).condition_results as Json[] | undefined)?.[0]?.computed_value;
    if (typeof value !== 'number' || Math.abs(value - (0.9 + 0.45) / 2) > 1e-9) problems.push(`a window of the last 2 runs computed ${show(value)}, expected ${(0.9 + 0.45) / 2}`);
    problems.push(...dispatchProblems('dispatch result', (body.dispatch_results as Json[] | undefined)?.slice(0, expected.channels.length), expected));
    const after = await lab.get(alert);
    if (after.trigger_count !== before.trigger_count || after.last_triggered_at !== before.last_triggered_at) problems.push(`trigger_count / last_triggered_at changed: ${show([before.trigger_count, before.last_triggered_at])} -> ${show([after.trigger_count, after.last_triggered_at])}`);
    const events = ruleRoute(ctx.suite, 'alert-events');
    if (events) {
      const listed = await send(ctx.target, events, { path: { alert_id: idOf(alert) } });
      expectSuccess(listed, events, 'listing the alert events');
      const runs = ((listed.body as Json).events as Json[]).map((e) => e.run_id);
      if (show(runs) !== show([first.run.run_id])) problems.push(`events of runs ${show(runs)}, expected only the first completion's`);
    }
    if (hook) {
      const calls = await ctx.target.receiver!.calls(hook);
      if (calls.length !== 1) problems.push(`the WEBHOOK channel was called ${calls.length} times, expected once (the first completion only)`);
    }
    // A run of another workspace: the caller's workspace does not hold it.
    const workspace = await ctx.world.create('workspace');
    const elsewhere = await lab.complete({ [metric]: 0.9 }, { workspace_id: workspace.id });
    expectError(await send(ctx.target, ctx.route, { path: { alert_id: idOf(alert) }, body: { run_id: String(elsewhere.run.run_id) } }), 404, 'NOT_FOUND', 'run_id', 'a run of another workspace');
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const checks: Check[] = [testEvaluateAnswer];
