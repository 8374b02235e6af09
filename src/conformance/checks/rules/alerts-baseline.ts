// evaluate-alerts: BASELINE_DEVIATION, (run mean − baseline mean) / baseline sigma against the ACTIVE baseline
// of the metric that matches the run. The expected value is computed from the baseline as GET shows it just
// before the run (baseline_float, baseline_sigma), so the EWMA arithmetic itself is not re-implemented here.
import { expectSuccess, send } from '../../http.js';
import { fail, lacks } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check } from '../context.js';
import { AlertLab, condition, conditionsOf, enumValues, near, notesOf, onAlertOperation, payloadOf, type Json } from './alerts-lab.js';

interface BaselineStep {
  label: string;
  value: number;
  agent?: string;
  /** Launch the run through the API with these fields (test set, persona) before completing it. */
  launch?: Json;
  /** The baseline the deviation must be computed against; null: the alerts must not fire. */
  against: string | null;
}

class Baselines {
  readonly ids: Record<string, string> = {};

  constructor(
    private readonly lab: AlertLab,
    private readonly metric: string,
  ) {}

  async create(label: string, body: Json): Promise<void> {
    const route = this.lab.ctx.world.route('baseline', 'create');
    if (!route) lacks('the spec has no baseline create operation');
    const answer = await send(this.lab.ctx.target, route, { path: { metric_id: this.metric }, body: { display_name: `conformance ${label}`, ...body } });
    expectSuccess(answer, route, `creating the ${label} baseline`);
    this.ids[label] = String(recordOf(route, answer)!.ulid);
  }

  /** baseline_float and baseline_sigma as presented now. */
  async estimates(label: string): Promise<{ mean: number; sigma: number }> {
    const route = this.lab.ctx.world.route('baseline', 'get');
    if (!route) lacks('the spec has no baseline get operation');
    const answer = await send(this.lab.ctx.target, route, { path: { metric_id: this.metric, baseline_id: this.ids[label]! } });
    expectSuccess(answer, route, `getting the ${label} baseline`);
    const record = recordOf(route, answer)!;
    if (typeof record.baseline_float !== 'number' || typeof record.baseline_sigma !== 'number') fail(`the ${label} baseline has no estimates yet (baseline_float ${JSON.stringify(record.baseline_float)})`);
    return { mean: record.baseline_float, sigma: record.baseline_sigma };
  }
}

export const baselineDeviation: Check = {
  name: 'rule evaluate-alerts: BASELINE_DEVIATION is (mean − baseline mean) / sigma of the most specific ACTIVE baseline (the oldest among equals), not met without spread',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['BASELINE_DEVIATION']);
    enumValues(ctx.suite, 'BaselineStatus', ['ACTIVE', 'STANDBY']);
    const metric = await lab.metric();
    const [agentA, agentB] = [await lab.agent(), await lab.agent()];
    const baselines = new Baselines(lab, metric);
    // Baselines that must never be used for this metric's runs, made first (so the oldest): another metric's,
    // one of another workspace, and ones scoped to a test set or a persona these runs do not have.
    await new Baselines(lab, await lab.metric()).create('another metric', {});
    const workspace = await ctx.world.create('workspace');
    const unscoped = { metric_id: metric, status: 'ACTIVE', agent_id: null, test_set_id: null, persona_id: null, observation_count: 0 };
    // workspace_id and deleted: FixtureRecord fields (src/sandbox/control/openapi.yaml).
    const elsewhere = [{ kind: 'baseline', workspace_id: workspace.id, data: unscoped }, { kind: 'baseline', deleted: true, data: unscoped }];
    await lab.control.loadFixtures(elsewhere);
    const [testSet, persona, agentC] = [(await ctx.world.ensure('test_set')).id, (await ctx.world.ensure('persona')).id, await lab.agent()];
    await baselines.create('test set', { test_set_id: testSet });
    await baselines.create('persona', { persona_id: persona });
    const any = -1e9; // GTE any: the alert fires exactly when a deviation can be computed
    const alerts = await lab.alerts({
      'this run': { conditions: [condition(metric, 'BASELINE_DEVIATION', 'GTE', any)] },
      'last 2 runs': { conditions: [condition(metric, 'BASELINE_DEVIATION', 'GTE', any, { window_size_runs: 2 })] },
      // Fires on every run (its second condition always holds) and lists the deviation condition's outcome.
      'any of deviation, single': { match_mode: 'ANY', conditions: [condition(metric, 'BASELINE_DEVIATION', 'GTE', any), condition(metric, 'SINGLE', 'GTE', any)] },
    });
    const history: number[] = [];
    const problems: string[] = [];
    // Docs (sandbox.md "Alerts"): BASELINE_DEVIATION ((mean − baseline mean) / sigma against the matching
    // baseline). Which baseline matches (agent / test set / persona when set, the most specific, then the
    // oldest; ACTIVE only) and "not met without a baseline or with sigma 0" are the sandbox's choice
    // (evaluate-alerts module), consistent with update-baselines' scope rules in sandbox.md "Events".
    const step = async (s: BaselineStep): Promise<void> => {
      const estimates = s.against === null ? null : await baselines.estimates(s.against);
      const run = s.launch ? { run_id: await lab.launch(s.launch) } : s.agent ? { agent_id: s.agent } : {};
      const done = await lab.complete({ [metric]: s.value }, run);
      history.unshift(s.value);
      const listed = conditionsOf(payloadOf(done, alerts['any of deviation, single']!))[0];
      if (listed?.metric_id !== metric || listed.met !== (estimates !== null)) problems.push(`${s.label}: the always-firing ANY alert lists the deviation condition as ${JSON.stringify(listed)}, expected met ${String(estimates !== null)}`);
      for (const [label, runs] of [['this run', 1], ['last 2 runs', 2]] as const) {
        const alert = alerts[label]!;
        const fired = notesOf(done, alert).length > 0;
        if (estimates === null) {
          if (fired) problems.push(`${s.label}, ${label}: expected no deviation, fired with ${String(conditionsOf(payloadOf(done, alert))[0]?.value)}`);
          continue;
        }
        const window = history.slice(0, runs);
        const expected = (window.reduce((a, x) => a + x, 0) / window.length - estimates.mean) / estimates.sigma;
        const value = conditionsOf(payloadOf(done, alert))[0]?.value;
        if (!fired) problems.push(`${s.label}, ${label}: expected a deviation of ${expected} against the ${s.against} baseline, the alert did not fire`);
        else if (!near(value, expected)) problems.push(`${s.label}, ${label}: expected a deviation of ${expected} against the ${s.against} baseline, got ${JSON.stringify(value)}`);
      }
    };
    await step({ label: 'no baseline of the run\'s scope yet', value: 5, against: null });
    await baselines.create('general', {});
    await step({ label: 'the baseline without observations', value: 4, against: null });
    await step({ label: 'the baseline with one observation (sigma 0)', value: 8, against: null });
    await step({ label: 'the baseline with spread', value: 10, against: 'general' });
    await baselines.create('agent B', { agent_id: agentB });
    await baselines.create('agent A on standby', { agent_id: agentA, status: 'STANDBY' });
    await step({ label: 'agent A: another agent\'s and a STANDBY baseline left out', value: 12, agent: agentA, against: 'general' });
    await baselines.create('agent A', { agent_id: agentA });
    await step({ label: 'agent A: its own baseline without observations wins', value: 20, agent: agentA, against: null });
    await step({ label: 'agent A: its own baseline with one observation', value: 30, agent: agentA, against: null });
    await step({ label: 'agent A: its own baseline with spread', value: 25, agent: agentA, against: 'agent A' });
    await baselines.create('second general', {});
    await step({ label: 'two general baselines: the oldest', value: 40, against: 'general' });
    await step({ label: 'two general baselines, the newer with one observation: the oldest', value: 50, against: 'general' });
    await step({ label: 'two general baselines with spread: the oldest', value: 45, against: 'general' });
    for (const [label, launch] of [['test set', { agent_id: agentC, test_set_id: testSet }], ['persona', { agent_id: agentC, persona_id: persona }]] as const) {
      await step({ label: `a run of the ${label}: its baseline without observations wins`, value: 60, launch, against: null });
      await step({ label: `a run of the ${label}: its baseline with one observation`, value: 70, launch, against: null });
      await step({ label: `a run of the ${label}: its baseline with spread`, value: 65, launch, against: label });
    }
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const checks: Check[] = [baselineDeviation];
