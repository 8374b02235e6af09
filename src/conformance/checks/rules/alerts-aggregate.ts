// evaluate-alerts: what each aggregation computes (SINGLE, RUN_AVERAGE, RUN_FRACTION, JOB_SUCCESS) and which
// runs a window holds (window_size_runs, window_size_days, both). Values are pinned with EQ thresholds: the
// alert fires exactly when the aggregate equals the documented value.
import { fail } from '../../result.js';
import type { Check } from '../context.js';
import { AlertLab, condition, conditionsOf, enumValues, expectFirings, onAlertOperation, payloadOf } from './alerts-lab.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const singleAggregation: Check = {
  name: 'rule evaluate-alerts: SINGLE passes when any single result of the window passes; a run without the metric is not met',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['SINGLE']);
    const [metric, other] = [await lab.metric(), await lab.metric()];
    // Docs (sandbox.md "Alerts"): SINGLE — any single result passes. Without a window the completing run's
    // results are looked at; a run without a result for the metric does not meet the condition (sandbox's
    // choice, evaluate-alerts module).
    const alerts = await lab.alerts({
      'this run': { conditions: [condition(metric, 'SINGLE', 'GT', 0.5)] },
      'last 2 runs': { conditions: [condition(metric, 'SINGLE', 'GT', 0.5, { window_size_runs: 2 })] },
    });
    const done = await expectFirings(lab, alerts, [
      { label: 'results 0.1, 0.9, 0.7', values: { [metric]: [0.1, 0.9, 0.7] }, fires: ['this run', 'last 2 runs'] },
      { label: 'a run without the metric', values: { [other]: 1 }, fires: [] },
      { label: 'results 0.1, 0.2 after 0.9 two runs back (the run without the metric not counted)', values: { [metric]: [0.1, 0.2] }, fires: ['last 2 runs'] },
      { label: 'result 0.3 after 0.1, 0.2', values: { [metric]: 0.3 }, fires: [] },
    ]);
    // The sandbox reports the first single result that passes (evaluate-alerts module).
    const value = conditionsOf(payloadOf(done[0]!, alerts['this run']!))[0]?.value;
    if (value !== 0.9) fail(`SINGLE reported value ${JSON.stringify(value)}, expected 0.9 (the first result above 0.5)`);
    const windowed = conditionsOf(payloadOf(done[2]!, alerts['last 2 runs']!))[0]?.value;
    if (windowed !== 0.9) fail(`SINGLE over the last 2 runs reported value ${JSON.stringify(windowed)}, expected the earlier run's single result 0.9`);
  },
};

export const runAverage: Check = {
  name: 'rule evaluate-alerts: RUN_AVERAGE averages the per-run means of the window',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['RUN_AVERAGE']);
    enumValues(ctx.suite, 'ConditionOperator', ['EQ']);
    const metric = await lab.metric();
    // Docs (sandbox.md "Alerts"): RUN_AVERAGE — mean of per-run means over the window. Last run [0, 0.5]
    // (mean 0.25) after [1]: (0.25 + 1) / 2 = 0.625 (not the mean of the results, 0.5, nor with [10], 3.75).
    const alerts = await lab.alerts({
      'this run = 0.25': { conditions: [condition(metric, 'RUN_AVERAGE', 'EQ', 0.25)] },
      'last 2 runs = 0.625': { conditions: [condition(metric, 'RUN_AVERAGE', 'EQ', (0.25 + 1) / 2, { window_size_runs: 2 })] },
    });
    await expectFirings(lab, alerts, [
      { label: 'result 10', values: { [metric]: 10 }, fires: [] },
      { label: 'result 1', values: { [metric]: [1] }, fires: [] },
      { label: 'results 0, 0.5', values: { [metric]: [0, 0.5] }, fires: ['this run = 0.25', 'last 2 runs = 0.625'] },
    ]);
  },
};

export const runFraction: Check = {
  name: 'rule evaluate-alerts: RUN_FRACTION is the share of results equal to match_value (exact, contains, contains_case_insensitive), or non-zero without one',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['RUN_FRACTION']);
    enumValues(ctx.suite, 'ConditionMatchMode', ['exact', 'contains', 'contains_case_insensitive']);
    const [binary, exact, contains, cased, windowed] = [await lab.metric(), await lab.metric(), await lab.metric(), await lab.metric(), await lab.metric()];
    const fraction = (metric: string, share: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ conditions: [condition(metric, 'RUN_FRACTION', 'EQ', share, extra)] });
    // Docs (sandbox.md "Alerts"): RUN_FRACTION — share of results equal to match_value, or non-zero. The
    // match modes (exact: same text or same number; contains / contains_case_insensitive on the result written
    // as text) are the sandbox's choice (evaluate-alerts module).
    const alerts = await lab.alerts({
      'non-zero = 0.5': fraction(binary, 0.5),
      'exact "1" = 0.5': fraction(exact, 0.5, { match_value: '1', match_mode: 'exact' }),
      'exact "1.0" = 0.5 (same number)': fraction(exact, 0.5, { match_value: '1.0', match_mode: 'exact' }),
      'exact "" = 0': fraction(exact, 0, { match_value: '', match_mode: 'exact' }),
      'exact " " = 0': fraction(exact, 0, { match_value: ' ', match_mode: 'exact' }),
      'contains "5" = 0.5': fraction(contains, 0.5, { match_value: '5', match_mode: 'contains' }),
      'contains_case_insensitive "E+" = 0.5': fraction(cased, 0.5, { match_value: 'E+', match_mode: 'contains_case_insensitive' }),
      'contains "E+" = 0': fraction(cased, 0, { match_value: 'E+', match_mode: 'contains' }),
      'last 2 runs non-zero = 2/3': fraction(windowed, 2 / 3, { window_size_runs: 2 }),
    });
    await expectFirings(lab, alerts, [
      { label: 'windowed metric results 1, 0', values: { [windowed]: [1, 0] }, fires: [] },
      {
        label: 'one run with every metric',
        values: { [binary]: [0, 1, 2, 0], [exact]: [1, 2, 1, 0], [contains]: [0.5, 1.5, 2, 3], [cased]: [1e21, 2e21, 1, 2], [windowed]: [1] },
        fires: Object.keys(alerts),
      },
    ]);
  },
};

export const jobSuccess: Check = {
  name: 'rule evaluate-alerts: JOB_SUCCESS is the share of the window\'s runs with a result for the metric (1 or 0 without a window), every run without a metric',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['JOB_SUCCESS']);
    const [metric, other] = [await lab.metric(), await lab.metric()];
    const share = (value: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ conditions: [condition(metric, 'JOB_SUCCESS', 'EQ', value, extra)] });
    // Docs (sandbox.md "Alerts"): JOB_SUCCESS — share of runs with results; the window counts every run of
    // the alert's scope (here: the lab's tag), with or without the metric.
    const alerts = await lab.alerts({
      'this run = 1': share(1),
      'this run = 0': share(0),
      'last 4 runs = 0.5': share(0.5, { window_size_runs: 4 }),
      'last 4 runs = 0.75': share(0.75, { window_size_runs: 4 }),
      // Docs (sandbox.md "Alerts, issue 15 decisions"): without a metric every completed run is a success.
      'no metric_id, last 4 runs = 1': { conditions: [condition(metric, 'JOB_SUCCESS', 'EQ', 1, { window_size_runs: 4, metric_id: undefined })] },
      'metric_id null, this run = 1': { conditions: [condition(metric, 'JOB_SUCCESS', 'EQ', 1, { metric_id: null })] },
    });
    const always = ['no metric_id, last 4 runs = 1', 'metric_id null, this run = 1'];
    await expectFirings(lab, alerts, [
      { label: 'run 1 with the metric (1/1)', values: { [metric]: 1 }, fires: ['this run = 1', ...always] },
      { label: 'run 2 without it (1/2)', values: { [other]: 1 }, fires: ['this run = 0', 'last 4 runs = 0.5', ...always] },
      { label: 'run 3 with result 0 (2/3)', values: { [metric]: 0 }, fires: ['this run = 1', ...always] },
      { label: 'run 4 with it (3/4)', values: { [metric]: 5 }, fires: ['this run = 1', 'last 4 runs = 0.75', ...always] },
      { label: 'run 5 without it (runs 2-5: 2/4)', values: { [other]: 1 }, fires: ['this run = 0', 'last 4 runs = 0.5', ...always] },
    ]);
  },
};

export const windowRuns: Check = {
  name: 'rule evaluate-alerts: window_size_runs takes the newest runs by completion time, never runs completed after the completing one',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['RUN_AVERAGE']);
    const metric = await lab.metric();
    const average = (value: number): Record<string, unknown> => ({ conditions: [condition(metric, 'RUN_AVERAGE', 'EQ', value, { window_size_runs: 2 })] });
    // Docs (sandbox.md "Alerts"): windows over completed runs; newest first by completion time, the completing
    // run included, ties by creation order (the sandbox's choice, evaluate-alerts module).
    const alerts = await lab.alerts({ '= 6': average(6), '= 100': average(100), '= 7.5': average(7.5), '= 3': average(3) });
    const at = (hours: number): { completed_at: string } => ({ completed_at: lab.iso(hours * HOUR) });
    await expectFirings(lab, alerts, [
      { label: 'result 10 at +2h', values: { [metric]: 10 }, run: at(2), fires: null },
      { label: 'result 0 at +1h', values: { [metric]: 0 }, run: at(1), fires: null },
      { label: 'result 2 at +3h: with the +2h run (6), not the last completed (1)', values: { [metric]: 2 }, run: at(3), fires: ['= 6'] },
      { label: 'result 100 at +0.5h: alone, the later runs left out', values: { [metric]: 100 }, run: at(0.5), fires: ['= 100'] },
      { label: 'result 0 at +4h', values: { [metric]: 0 }, run: at(4), fires: null },
      { label: 'result 10 at +4h (same time, completed later)', values: { [metric]: 10 }, run: at(4), fires: null },
      { label: 'result 5 at +5h: with the later of the two +4h runs (7.5)', values: { [metric]: 5 }, run: at(5), fires: ['= 7.5'] },
      { label: 'result 1 at +5h: with the run completed at the same time (3)', values: { [metric]: 1 }, run: at(5), fires: ['= 3'] },
    ]);
  },
};

export const windowDays: Check = {
  name: 'rule evaluate-alerts: window_size_days holds the runs completed that many days before the completing run; with window_size_runs both limits apply',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['RUN_AVERAGE']);
    const metric = await lab.metric();
    const average = (value: number, window: Record<string, unknown>): Record<string, unknown> => ({ conditions: [condition(metric, 'RUN_AVERAGE', 'EQ', value, window)] });
    // Docs (sandbox.md "Alerts"): window_size_days over completed runs. Runs: 100 a day and a second before,
    // 10 exactly a day before (inside: the sandbox's choice), 30 two hours before, 0 now.
    const alerts = await lab.alerts({
      '1 day = 40/3': average((0 + 30 + 10) / 3, { window_size_days: 1 }),
      '1 day, 4 runs = 40/3 (days cut)': average((0 + 30 + 10) / 3, { window_size_days: 1, window_size_runs: 4 }),
      '1 day, 2 runs = 15 (runs cut)': average((0 + 30) / 2, { window_size_days: 1, window_size_runs: 2 }),
      '4 runs = 35': average((0 + 30 + 10 + 100) / 4, { window_size_runs: 4 }),
    });
    const now = 10 * DAY;
    await expectFirings(lab, alerts, [
      { label: 'result 100 a day and a second earlier', values: { [metric]: 100 }, run: { completed_at: lab.iso(now - DAY - 1000) }, fires: null },
      { label: 'result 10 a day earlier', values: { [metric]: 10 }, run: { completed_at: lab.iso(now - DAY) }, fires: null },
      { label: 'result 30 two hours earlier', values: { [metric]: 30 }, run: { completed_at: lab.iso(now - 2 * HOUR) }, fires: null },
      { label: 'result 0 now', values: { [metric]: 0 }, run: { completed_at: lab.iso(now) }, fires: Object.keys(alerts) },
    ]);
  },
};

export const checks: Check[] = [singleAggregation, runAverage, runFraction, jobSuccess, windowRuns, windowDays];
