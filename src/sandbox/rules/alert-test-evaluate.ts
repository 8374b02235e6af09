// alert-test-evaluate (testEvaluateAlert and its legacy alias): what evaluate-alerts would do with the alert on
// one completed run, without side effects: nothing is counted, recorded or sent. The run must exist in the
// caller's organization and workspace (404 on run_id otherwise). Decisions (docs/sandbox.md):
// - the run's own stored results are used (its completion, else its presented metric_values); a run that has
//   not completed has none, so every condition needing a result is not met;
// - the alert's scope (conversation source, agents, tags, scheduled runs) and `enabled` are not applied: the
//   caller asks about these conditions on this run;
// - triggered = the conditions match (match_mode applied); suppressed = they match but the cooldown since
//   last_triggered_at has not passed; dispatch_results = the channels a trigger would notify (only when
//   triggered and not suppressed), none of them contacted; message = the notification text.
import { notFound } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, firstPathParam, inScope as visible } from '../engine/records.js';
import { asResource, getRecord } from '../storage/typed.js';
import type { RunView } from './evaluate-alerts.js';
import { assess, channelReport, conditionReport, Evaluation, viewOf } from './evaluate-alerts.js';

export const alertTestEvaluate: Rule = {
  handle(ctx) {
    const param = firstPathParam(ctx.route)!;
    const alert = asResource('alert', findRecord(ctx, 'alert', ctx.path[param], { field: param }));
    const runId = String(ctx.body.run_id);
    const run = getRecord(ctx.runtime.store, 'run', runId);
    if (!run || !visible(ctx, ctx.runtime.resource('run'), run)) throw notFound('run_id', 'run');
    const completed = viewOf(run);
    const current: RunView = completed ?? {
      id: run.id,
      time: Date.parse(ctx.now),
      agent_id: run.data.agent_id,
      tags: run.data.tags,
      scheduled_run_id: null,
      conversation_source: 'SIMULATED',
      values: {},
      seq: run.seq,
    };
    const evaluation = new Evaluation(ctx.runtime, { org: ctx.org, workspace: run.workspace }, current);
    const { results, outcome, message } = assess(evaluation, alert, completed === null ? ctx.now : (run.data.complete_time ?? ''));
    const triggered = outcome === 'TRIGGERED' || outcome === 'SUPPRESSED';
    return {
      body: {
        alert_id: alert.id,
        run_id: run.id,
        triggered,
        suppressed: outcome === 'SUPPRESSED',
        condition_results: results.map((r) => conditionReport(ctx.runtime, ctx.org, r)),
        dispatch_results: outcome === 'TRIGGERED' ? alert.data.channels.map(channelReport) : [],
        message,
      },
    };
  },
};
