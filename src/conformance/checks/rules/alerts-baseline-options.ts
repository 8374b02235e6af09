// evaluate-alerts: the BASELINE_DEVIATION options of issue 15 (docs/sandbox.md "Alerts, issue 15 decisions"):
// baseline_id names the baseline (its metric when metric_id is absent; one that names no baseline makes the
// evaluation an ERROR event); warm_up_count needs that many observations first; sigma_threshold is met when the
// deviation exceeds it in `direction` (above: > s, below: < -s, both or absent: |d| > s), operator and
// threshold unused. The deviations here are far from the thresholds (several sigma), so the check does not
// depend on the EWMA arithmetic (alerts-baseline.ts computes it exactly).
import { expectSuccess, send } from '../../http.js';
import { fail, skip } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check } from '../context.js';
import { AlertLab, condition, enumValues, fixtureUlid, idOf, notesOf, onAlertOperation, type Json } from './alerts-lab.js';
import { show } from './records-support.js';

export const baselineOptions: Check = {
  name: 'rule evaluate-alerts: BASELINE_DEVIATION with baseline_id, warm_up_count and sigma_threshold in a direction; an unknown baseline_id is an ERROR event',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['BASELINE_DEVIATION']);
    const metric = await lab.metric();
    const create = ctx.world.route('baseline', 'create') ?? skip('the spec has no baseline create operation');
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
      missing: await lab.alert({ conditions: [condition(metric, 'BASELINE_DEVIATION', 'GT', 0, { baseline_id: fixtureUlid() })] }),
    };
    const fired = (done: Awaited<ReturnType<typeof lab.complete>>): string[] => Object.entries(alerts).filter(([, a]) => notesOf(done, a).length > 0).map(([label]) => label);
    const high = fired(await lab.complete({ [metric]: 0.95 }));
    if (show(high) !== show(['above', 'both'])) fail(`a run far above the baseline fired ${show(high)}, expected above and both`);
    const low = fired(await lab.complete({ [metric]: 0.05 }));
    if (show(low) !== show(['below', 'both'])) fail(`a run far below the baseline fired ${show(low)}, expected below and both`);
    const events = ctx.suite.routes.find((r) => r.rules.includes('alert-events') && r.aliasOf === null);
    if (events) {
      const answer = await send(ctx.target, events, { path: { alert_id: idOf(alerts.missing) } });
      expectSuccess(answer, events, 'listing the events of the alert with an unknown baseline');
      const outcomes = ((answer.body as Json).events as Json[]).map((e) => e.outcome);
      if (show(outcomes) !== show(['ERROR', 'ERROR'])) fail(`the alert naming no baseline recorded ${show(outcomes)}, expected ERROR twice`);
    }
  },
};

export const checks: Check[] = [baselineOptions];
