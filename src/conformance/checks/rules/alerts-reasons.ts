// evaluate-alerts / alert-events: a condition not met for want of data says why (docs/sandbox.md "Alerts, issue 15
// decisions": `condition_results[].metadata` holds `condition_id` and, when not met for want of data, `reason`):
// no result for the metric in the run, no baseline (none matching, or a baseline_id naming none), a baseline
// warming up or without spread yet, no numeric threshold. An evaluated condition has no reason. The wording is
// not checked, only that a reason is there.
import { expectSuccess, send } from '../../http.js';
import { fail, lacks } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check } from '../context.js';
import { AlertLab, condition, fixtureUlid, idOf, type Json } from './alerts-lab.js';
import { onRule, ruleRoute, show } from './records-support.js';

/** A BASELINE_DEVIATION condition; without metric_id when `metric` is null. */
function deviation(metric: string | null, extra: Json): Json {
  const c = condition(metric ?? '', 'BASELINE_DEVIATION', 'GTE', -1e9, extra);
  if (metric === null) delete c.metric_id;
  return c;
}

export const notMetReasons: Check = {
  name: 'rule alert-events: a condition not met for want of data (no result, no baseline, warming up, no spread, no threshold) carries a reason; an evaluated one none',
  applies: onRule('alert-events'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const [metric, unbaselined] = [await lab.metric(), await lab.metric()];
    const create = ctx.world.route('baseline', 'create') ?? lacks('the spec has no baseline create operation');
    const made = await send(ctx.target, create, { path: { metric_id: metric }, body: { display_name: `conformance reasons ${ctx.world.nextSeed()}` } });
    expectSuccess(made, create, 'creating a baseline');
    const baseline = String(recordOf(create, made)!.ulid);
    const alerts = {
      'no baseline for the metric': await lab.alert({ conditions: [deviation(unbaselined, {})] }),
      'baseline without spread until the third run': await lab.alert({ conditions: [deviation(null, { baseline_id: baseline })] }),
      'baseline warming up': await lab.alert({ conditions: [deviation(null, { baseline_id: baseline, sigma_threshold: 0, warm_up_count: 99 })] }),
      'deviation without threshold': await lab.alert({ conditions: [deviation(null, { baseline_id: baseline, threshold_float: undefined })] }),
      'unknown baseline_id': await lab.alert({ conditions: [deviation(null, { baseline_id: fixtureUlid() })] }),
      'unknown baseline_id with metric_id': await lab.alert({ conditions: [deviation(metric, { baseline_id: fixtureUlid() })] }),
      'neither metric nor baseline_id': await lab.alert({ conditions: [deviation(null, {})] }),
      'SINGLE without threshold': await lab.alert({ conditions: [condition(metric, 'SINGLE', 'GT', null)] }),
    };
    // Three runs: the baseline has 0, 1, then 2 observations before each; the last one has the other metric too.
    await lab.complete({ [metric]: 0.5 });
    await lab.complete({ [metric]: 0.7 });
    await lab.complete({ [metric]: 0.9, [unbaselined]: 0.5 });
    const route = ruleRoute(ctx.suite, 'alert-events')!;
    // The condition result of each run's event, oldest first, per alert.
    const results: Record<string, Json[]> = {};
    for (const [label, alert] of Object.entries(alerts)) {
      const answer = await send(ctx.target, route, { path: { alert_id: idOf(alert) } });
      expectSuccess(answer, route, `listing the events of the alert ${label}`);
      results[label] = ((answer.body as Json).events as Json[]).map((e) => (e.condition_results as Json[])[0]!).reverse();
    }
    const reasoned = (r: Json | undefined): boolean => r?.met === false && typeof (r.metadata as Json | undefined)?.reason === 'string' && (r.metadata as Json).reason !== '';
    // Which runs (1-3) leave each alert's condition unmet for want of data; the others were evaluated.
    const wanting: Record<keyof typeof alerts, number[]> = {
      'no baseline for the metric': [1, 2, 3],
      'baseline without spread until the third run': [1, 2],
      'baseline warming up': [1, 2, 3],
      'deviation without threshold': [1, 2, 3],
      'unknown baseline_id': [1, 2, 3],
      'unknown baseline_id with metric_id': [1, 2, 3],
      'neither metric nor baseline_id': [1, 2, 3],
      'SINGLE without threshold': [1, 2, 3],
    };
    const problems: string[] = [];
    for (const [label, runs] of Object.entries(wanting)) {
      const got = results[label]!;
      if (got.length !== 3) {
        problems.push(`${label}: ${got.length} events, expected one per run`);
        continue;
      }
      got.forEach((r, i) => {
        const wants = runs.includes(i + 1);
        if (wants && !reasoned(r)) problems.push(`${label}, run ${i + 1}: expected not met with a reason, got ${show(r)}`);
        if (!wants && (r.metadata as Json | undefined)?.reason !== undefined) problems.push(`${label}, run ${i + 1}: an evaluated condition carries a reason: ${show(r)}`);
      });
    }
    // A condition naming its baseline only is reported under the baseline's metric.
    if (results['baseline warming up']![2]?.metric_id !== metric) problems.push(`a condition with baseline_id only names metric ${show(results['baseline warming up']![2]?.metric_id)}, expected the baseline's ${metric}`);
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const checks: Check[] = [notMetReasons];
