// evaluate-alerts: the BASELINE_DEVIATION options of issue 15 (docs/sandbox.md "Alerts, issue 15 decisions"):
// baseline_id names the baseline (its metric when metric_id is absent; one that names no baseline makes the
// evaluation an ERROR event); warm_up_count needs that many observations first; sigma_threshold is met when the
// deviation exceeds it in `direction` (above: > s, below: < -s, both or absent: |d| > s), operator and
// threshold unused. The deviations here are far from the thresholds (several sigma), so the check does not
// depend on the EWMA arithmetic (alerts-baseline.ts computes it exactly).
import { expectSuccess, send } from '../../http.js';
import { fail, lacks } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check } from '../context.js';
import { AlertLab, condition, enumValues, fixtureUlid, idOf, notesOf, onAlertOperation, type Json } from './alerts-lab.js';
import { show } from './records-support.js';

export const baselineOptions: Check = {
  name: 'rule evaluate-alerts: BASELINE_DEVIATION with baseline_id, warm_up_count and sigma_threshold in a direction, never met without a threshold or a result; an unknown baseline_id is an ERROR event',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['BASELINE_DEVIATION']);
    const metric = await lab.metric();
    const create = ctx.world.route('baseline', 'create') ?? lacks('the spec has no baseline create operation');
    const made = await send(ctx.target, create, { path: { metric_id: metric }, body: { display_name: `conformance options ${ctx.world.nextSeed()}` } });
    expectSuccess(made, create, 'creating a baseline');
    const baseline = String(recordOf(create, made)!.ulid);
    // Observations 0.5 and 0.7: mean 0.56, sigma about 0.09 (alpha 0.3) before the third run.
    await lab.complete({ [metric]: 0.5 });
    await lab.complete({ [metric]: 0.7 });
    const deviation = (extra: Json): Json => {
      const c = condition(metric, 'BASELINE_DEVIATION', 'GT', 1000, { baseline_id: baseline, ...extra });
      delete c.metric_id;
      return { conditions: [c] };
    };
    const alerts = {
      above: await lab.alert(deviation({ sigma_threshold: 2, direction: 'above' })),
      below: await lab.alert(deviation({ sigma_threshold: 2, direction: 'below' })),
      both: await lab.alert(deviation({ sigma_threshold: 2 })),
      warming: await lab.alert(deviation({ sigma_threshold: 0, warm_up_count: 5 })),
      // Exactly the two observations it asks for: evaluated.
      warm: await lab.alert(deviation({ sigma_threshold: 0, warm_up_count: 2 })),
      // The mean of the last two runs with a result for the metric (a run without one is not in the window).
      windowed: await lab.alert(deviation({ sigma_threshold: 0, window_size_runs: 2 })),
      // Neither sigma_threshold nor a threshold: nothing to compare with, never met.
      'no threshold': await lab.alert({ conditions: [condition(metric, 'BASELINE_DEVIATION', 'GTE', null, { baseline_id: baseline })] }),
      missing: await lab.alert({ conditions: [condition(metric, 'BASELINE_DEVIATION', 'GT', 0, { baseline_id: fixtureUlid() })] }),
    };
    // Without metric_id: an unknown baseline_id is an ERROR too, even beside a condition that is met; without
    // a baseline_id as well, the matching baseline of no metric does not exist: not met.
    const missingBaseline = (): Json => {
      const c = condition(metric, 'BASELINE_DEVIATION', 'GT', 0, { baseline_id: fixtureUlid() });
      delete c.metric_id;
      return c;
    };
    const noMetric = condition(metric, 'BASELINE_DEVIATION', 'GTE', -1e9);
    delete noMetric.metric_id;
    const quiet = {
      'missing, no metric': await lab.alert({ conditions: [missingBaseline()] }),
      'missing beside a met condition': await lab.alert({ match_mode: 'ANY', conditions: [missingBaseline(), condition(metric, 'SINGLE', 'GTE', -1e9)] }),
      'no metric, no baseline_id': await lab.alert({ conditions: [noMetric] }),
    };
    const fired = (done: Awaited<ReturnType<typeof lab.complete>>): string[] => Object.entries(alerts).filter(([, a]) => notesOf(done, a).length > 0).map(([label]) => label);
    const high = fired(await lab.complete({ [metric]: 0.95 }));
    if (show(high) !== show(['above', 'both', 'warm', 'windowed'])) fail(`a run far above the baseline fired ${show(high)}, expected above, both, warm and windowed`);
    const low = fired(await lab.complete({ [metric]: 0.05 }));
    if (show(low) !== show(['below', 'both', 'warm', 'windowed'])) fail(`a run far below the baseline fired ${show(low)}, expected below, both, warm and windowed`);
    // A run without a result for the metric: no deviation to compare (docs/sandbox.md "Alerts": the run's mean).
    const without = fired(await lab.complete({ [await lab.metric()]: 0.95 }));
    if (show(without) !== show([])) fail(`a run without the metric fired ${show(without)}, expected none`);
    // A run near the baseline's mean (about 0.49 after 0.5, 0.7, 0.95, 0.05; sigma above 0.2): well within 2
    // sigma either way, so only the sigma_threshold-0 alerts fire.
    const near = fired(await lab.complete({ [metric]: 0.5 }));
    if (show(near) !== show(['warm', 'windowed'])) fail(`a run near the baseline's mean fired ${show(near)}, expected warm and windowed only`);
    const events = ctx.suite.routes.find((r) => r.rules.includes('alert-events') && r.aliasOf === null);
    if (events) {
      const answer = await send(ctx.target, events, { path: { alert_id: idOf(alerts.missing) } });
      expectSuccess(answer, events, 'listing the events of the alert with an unknown baseline');
      const outcomes = ((answer.body as Json).events as Json[]).map((e) => e.outcome);
      if (show(outcomes) !== show(['ERROR', 'NOT_MET', 'ERROR', 'ERROR'])) fail(`the alert naming no baseline recorded ${show(outcomes)}, expected ERROR for each run with the metric, NOT_MET for the run without it`);
      const expected: Record<string, string[]> = {
        'missing, no metric': ['ERROR', 'ERROR', 'ERROR', 'ERROR'],
        'missing beside a met condition': ['ERROR', 'ERROR', 'ERROR', 'ERROR'],
        'no metric, no baseline_id': ['NOT_MET', 'NOT_MET', 'NOT_MET', 'NOT_MET'],
      };
      for (const [label, want] of Object.entries(expected)) {
        const listed = await send(ctx.target, events, { path: { alert_id: idOf(quiet[label as keyof typeof quiet]) } });
        expectSuccess(listed, events, `listing the events of the alert ${label}`);
        const got = ((listed.body as Json).events as Json[]).map((e) => e.outcome);
        if (show(got) !== show(want)) fail(`the alert ${label} recorded ${show(got)}, expected ${show(want)}`);
      }
    }
  },
};

export const checks: Check[] = [baselineOptions];
