// evaluate-alerts: how a condition's value meets its threshold (operators, threshold_float vs threshold_string)
// and how several conditions combine (match_mode ALL / ANY).
import { fail } from '../../result.js';
import type { Check } from '../context.js';
import { AlertLab, condition, conditionsOf, enumValues, expectFirings, onAlertOperation, payloadOf, type Json } from './alerts-lab.js';

/** Which of the three runs (below, at, above the threshold) each operator passes, from its meaning. */
const OPERATOR_TRUTH: Record<string, [below: boolean, at: boolean, above: boolean]> = {
  GT: [false, false, true],
  GTE: [false, true, true],
  LT: [true, false, false],
  LTE: [true, true, false],
  EQ: [false, true, false],
  NEQ: [true, false, true],
};

function firingOperators(position: 0 | 1 | 2): string[] {
  return Object.entries(OPERATOR_TRUTH)
    .filter(([, truth]) => truth[position])
    .map(([op]) => op);
}

export const operatorsCompare: Check = {
  name: 'rule evaluate-alerts: operators GT, GTE, LT, LTE, EQ, NEQ compare the value with the threshold (below, at, above; EQ within float rounding)',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionOperator', Object.keys(OPERATOR_TRUTH));
    enumValues(ctx.suite, 'ConditionAggregation', ['SINGLE']);
    const metric = await lab.metric();
    const threshold = 0.3;
    const big = 1e12;
    const specs: Record<string, Json> = {};
    for (const op of Object.keys(OPERATOR_TRUTH)) specs[op] = { conditions: [condition(metric, 'SINGLE', op, threshold)] };
    specs['EQ 1e12'] = { conditions: [condition(metric, 'SINGLE', 'EQ', big)] };
    specs['GT 1e12'] = { conditions: [condition(metric, 'SINGLE', 'GT', big)] };
    specs['EQ 0'] = { conditions: [condition(metric, 'SINGLE', 'EQ', 0)] };
    const alerts = await lab.alerts(specs);
    const aboveSmall = firingOperators(2);
    // Docs (sandbox.md "Alerts"): the value is compared with the threshold by the operator. EQ / NEQ allow a
    // tolerance of 1e-9, relative above magnitude 1 (the sandbox's choice, recorded in the evaluate-alerts module).
    await expectFirings(lab, alerts, [
      { label: 'value 0.25 below 0.3', values: { [metric]: 0.25 }, fires: firingOperators(0) },
      { label: 'value 0.3 at 0.3', values: { [metric]: 0.3 }, fires: firingOperators(1) },
      { label: 'value 0.1 + 0.2 at 0.3 within float rounding', values: { [metric]: 0.1 + 0.2 }, fires: firingOperators(1) },
      { label: 'value 0.3 + 2e-9 above 0.3 beyond the tolerance', values: { [metric]: 0.3 + 2e-9 }, fires: aboveSmall },
      { label: 'value 0.75 above 0.3', values: { [metric]: 0.75 }, fires: aboveSmall },
      { label: 'value 1e12 + 1 at 1e12 within the relative tolerance', values: { [metric]: big + 1 }, fires: [...aboveSmall, 'EQ 1e12'] },
      { label: 'value 1e12 + 1e4 above 1e12', values: { [metric]: big + 1e4 }, fires: [...aboveSmall, 'GT 1e12'] },
      { label: 'value 1e-9 at 0 (exactly the tolerance)', values: { [metric]: 1e-9 }, fires: [...firingOperators(0), 'EQ 0'] },
    ]);
  },
};

export const thresholdChoice: Check = {
  name: 'rule evaluate-alerts: threshold_float wins over threshold_string, a numeric threshold_string is used, no numeric threshold never fires',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionOperator', ['GT', 'GTE', 'NEQ']);
    const metric = await lab.metric();
    const single = (operator: string, thresholds: Json): Json => ({ conditions: [condition(metric, 'SINGLE', operator, null, thresholds)] });
    // Docs (sandbox.md "Alerts"): "Threshold: threshold_float, else a numeric threshold_string"; without a
    // numeric threshold there is nothing to compare with, so the condition is not met.
    const alerts = await lab.alerts({
      'float 0.5 over string 0.9': single('GT', { threshold_float: 0.5, threshold_string: '0.9' }),
      'string 0.5': single('GT', { threshold_string: '0.5' }),
      'null float, string 0.5': single('GT', { threshold_float: null, threshold_string: '0.5' }),
      'string 0.9': single('GT', { threshold_string: '0.9' }),
      'string "high" with NEQ': single('NEQ', { threshold_string: 'high' }),
      'blank string with GTE': single('GTE', { threshold_string: '   ' }),
      'empty string with GTE': single('GTE', { threshold_string: '' }),
      'no threshold with NEQ': single('NEQ', {}),
      'ANY of no threshold and string 0.5': { match_mode: 'ANY', conditions: [condition(metric, 'SINGLE', 'NEQ', null), condition(metric, 'SINGLE', 'GT', null, { threshold_string: '0.5' })] },
    });
    const done = await expectFirings(lab, alerts, [
      { label: 'value 0.7', values: { [metric]: 0.7 }, fires: ['float 0.5 over string 0.9', 'string 0.5', 'null float, string 0.5', 'ANY of no threshold and string 0.5'] },
      { label: 'value 0.4', values: { [metric]: 0.4 }, fires: [] },
    ]);
    const reported = conditionsOf(payloadOf(done[0]!, alerts['string 0.5']!))[0]?.threshold;
    // The sandbox's payload (evaluate-alerts module) reports the threshold it compared with.
    if (reported !== 0.5) fail(`the notification reports threshold ${JSON.stringify(reported)}, expected 0.5 from threshold_string "0.5"`);
    const unmet = conditionsOf(payloadOf(done[0]!, alerts['ANY of no threshold and string 0.5']!))[0];
    if (unmet?.metric_id !== metric || unmet.met !== false || unmet.threshold !== null) fail(`the condition without a threshold is reported as ${JSON.stringify(unmet)}, expected its metric, met false, threshold null`);
    // The default message's {{conditions}} summary (evaluate-alerts module) shows a condition without threshold
    // or value as such, never as "null" or "undefined".
    const message = String(payloadOf(done[0]!, alerts['ANY of no threshold and string 0.5']!)?.message);
    if (!message.includes(metric) || /null|undefined/.test(message)) fail(`the default message is "${message}"`);
  },
};

export const matchModes: Check = {
  name: 'rule evaluate-alerts: match_mode ALL needs every condition met, ANY at least one',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'AlertMatchMode', ['ALL', 'ANY']);
    const [m1, m2] = [await lab.metric(), await lab.metric()];
    const conditions = [condition(m1, 'SINGLE', 'GT', 0.5), condition(m2, 'SINGLE', 'GT', 0.5)];
    // Seed (Alert): match_mode ALL, ANY — "how conditions combine"; the schema: ALL needs every condition, ANY one.
    const alerts = await lab.alerts({ ALL: { match_mode: 'ALL', conditions }, ANY: { match_mode: 'ANY', conditions } });
    const done = await expectFirings(lab, alerts, [
      { label: 'first met, second not', values: { [m1]: 1, [m2]: 0 }, fires: ['ANY'] },
      { label: 'second met, first not', values: { [m1]: 0, [m2]: 1 }, fires: ['ANY'] },
      { label: 'neither met', values: { [m1]: 0, [m2]: 0 }, fires: [] },
      { label: 'both met', values: { [m1]: 1, [m2]: 1 }, fires: ['ALL', 'ANY'] },
      { label: 'first met, no result for the second', values: { [m1]: 1 }, fires: ['ANY'] },
    ]);
    // The sandbox's payload lists every condition with its value and whether it was met.
    const results = conditionsOf(payloadOf(done[0]!, alerts.ANY!));
    const got = results.map((r) => `${String(r.metric_id)}=${String(r.value)}:${String(r.met)}`).join(', ');
    const want = `${m1}=1:true, ${m2}=0:false`;
    if (got !== want) fail(`the ANY notification lists conditions ${got}, expected ${want}`);
    const named = results.map((r) => `${String(r.condition_id)} ${String(r.aggregation)} ${String(r.operator)}`).join(', ');
    const presented = (alerts.ANY!.conditions as Json[]).map((c) => `${String(c.ulid)} ${String(c.aggregation)} ${String(c.operator)}`).join(', ');
    if (named !== presented) fail(`the ANY notification names conditions ${named}, expected the alert's ${presented}`);
  },
};

export const checks: Check[] = [operatorsCompare, thresholdChoice, matchModes];
