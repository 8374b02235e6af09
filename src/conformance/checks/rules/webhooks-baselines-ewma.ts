// Rule update-baselines (handler of run.completed): the EWMA a completed run folds into a baseline, and
// which baselines a run feeds. Expected values come from the formula of docs/sandbox.md "EWMA baselines"
// (α = 0.3), computed here, never read back from the target.
import { expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Check, CheckContext } from '../context.js';
import {
  canonical,
  completeRuns,
  createBaseline,
  enumOf,
  ewma,
  expectEstimate,
  freshMetric,
  getBaseline,
  handles,
  needControl,
  observation,
  routeOf,
  type Estimate,
} from './webhooks-baselines-support.js';

const RULE = 'update-baselines';

function appliesToBaselineCreate(route: Parameters<Check['applies']>[0], suite: Parameters<Check['applies']>[1]): boolean {
  return route.id === canonical(suite, 'baseline', 'create')?.id && handles(suite, 'run.completed', RULE);
}

/** Completion times one hour apart, starting at `start` (ISO). */
function hourly(start: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => new Date(Date.parse(start) + i * 3_600_000).toISOString());
}

function expectCursor(record: Record<string, unknown>, expected: string, what: string): void {
  const got = record.last_processed_run_completed_at;
  if (typeof got !== 'string' || Date.parse(got) !== Date.parse(expected)) fail(`${what}: expected last_processed_run_completed_at ${expected}, got ${String(got)}`);
}

export const ewmaArithmetic: Check = {
  name: `rule ${RULE}: the first run sets mean = x and sigma 0, each later run folds in with α = 0.3 (a list of results is one observation, its mean)`,
  applies: appliesToBaselineCreate,
  async run(ctx) {
    const control = needControl(ctx, 'complete runs');
    const metric = await freshMetric(ctx);
    const baseline = await createBaseline(ctx, metric);
    const values: (number | number[])[] = [10, [12, 16, 17], 9, 20];
    const times = hourly('2025-11-03T08:00:00.000Z', values.length);
    const xs = values.map(observation);

    await completeRuns(control, metric, values.slice(0, 1), times);
    const first = await getBaseline(ctx, baseline.path);
    expectEstimate(first, ewma(xs.slice(0, 1)), 'after the first run (mean = x, variance = 0)');
    expectCursor(first, times[0]!, 'after the first run');

    await completeRuns(control, metric, values.slice(1), times.slice(1));
    const last = await getBaseline(ctx, baseline.path);
    expectEstimate(last, ewma(xs), `after runs observing ${xs.join(', ')}`);
    expectCursor(last, times.at(-1)!, 'after the last run');
  },
};

export const completionOrder: Check = {
  name: `rule ${RULE}: runs are folded in completion order whatever order they arrive in, and a run completed again replaces its observation (sandbox's choice)`,
  applies: appliesToBaselineCreate,
  async run(ctx) {
    const control = needControl(ctx, 'complete runs');
    const metric = await freshMetric(ctx);
    const baseline = await createBaseline(ctx, metric);
    const [t1, t2, t3] = hourly('2025-11-04T08:00:00.000Z', 3);
    // Decision of docs/sandbox.md / update-baselines: observations are kept in completion order and refolded.
    await control.completeRun({ metric_values: { [metric]: 5 }, completed_at: t1 });
    await control.completeRun({ metric_values: { [metric]: 30 }, completed_at: t3 });
    const late = await control.completeRun({ metric_values: { [metric]: 11 }, completed_at: t2 });
    expectEstimate(await getBaseline(ctx, baseline.path), ewma([5, 11, 30]), 'after runs completed at t1, t3, then t2 (values 5, 30, 11)');
    await control.completeRun({ run_id: String(late.run.run_id), metric_values: { [metric]: 17 }, completed_at: t2 });
    expectEstimate(await getBaseline(ctx, baseline.path), ewma([5, 17, 30]), 'after the t2 run was completed again with 17');
  },
};

interface Scope {
  agent: string;
  testSet: string;
  persona: string;
}

/** Two of each scope resource, the first being the run's. */
async function scopes(ctx: CheckContext): Promise<[Scope, Scope]> {
  const make = async (resource: string): Promise<[string, string]> => [(await ctx.world.create(resource)).id, (await ctx.world.create(resource)).id];
  const [agents, testSets, personas] = [await make('agent'), await make('test_set'), await make('persona')];
  return [
    { agent: agents[0], testSet: testSets[0], persona: personas[0] },
    { agent: agents[1], testSet: testSets[1], persona: personas[1] },
  ];
}

/** The metric's baselines (one page of 100), by ulid. */
async function baselinesOf(ctx: CheckContext, metric: string): Promise<Map<string, Record<string, unknown>>> {
  const list = routeOf(ctx, 'baseline', 'list');
  const answer = await send(ctx.target, list, { path: { metric_id: metric }, query: { page_size: '100' } });
  expectSuccess(answer, list, 'listing the baselines');
  const key = list.success.shape.kind === 'list' ? list.success.shape.items : 'baselines';
  const items = ((answer.body as Record<string, unknown>)[key] ?? []) as Record<string, unknown>[];
  return new Map(items.map((b) => [String(b.ulid), b]));
}

export const matchingBaselines: Check = {
  name: `rule ${RULE}: a run feeds the ACTIVE baselines of its workspace and metric whose agent, test set and persona are unset or the run's`,
  applies: appliesToBaselineCreate,
  async run(ctx) {
    const control = needControl(ctx, 'complete runs and load a legacy baseline');
    const metric = await freshMetric(ctx);
    const [mine, other] = await scopes(ctx);
    const frozen = enumOf(ctx.suite, 'BaselineStatus').filter((s) => s !== 'ACTIVE');
    // Seed, Metric baseline: agent_id null for organization-wide, test_set_id null for monitoring,
    // persona_id null when all personas are covered; docs/sandbox.md: only ACTIVE baselines are fed.
    const fedScopes: Record<string, Record<string, unknown>> = {
      'organization-wide': {},
      "the run's agent": { agent_id: mine.agent },
      "the run's test set": { test_set_id: mine.testSet },
      "the run's persona": { persona_id: mine.persona },
      "the run's agent, test set and persona": { agent_id: mine.agent, test_set_id: mine.testSet, persona_id: mine.persona },
    };
    const starvedScopes: Record<string, Record<string, unknown>> = {
      'another agent': { agent_id: other.agent },
      'another test set': { test_set_id: other.testSet },
      'another persona': { persona_id: other.persona },
      "the run's agent with another persona": { agent_id: mine.agent, persona_id: other.persona },
      ...Object.fromEntries(frozen.map((status) => [`status ${status}`, { status }])),
    };
    const fed = new Map<string, string>();
    const starved = new Map<string, string>();
    for (const [label, overrides] of Object.entries(fedScopes)) fed.set((await createBaseline(ctx, metric, overrides)).path.baseline_id, label);
    for (const [label, overrides] of Object.entries(starvedScopes)) starved.set((await createBaseline(ctx, metric, overrides)).path.baseline_id, label);
    // Sandbox's choice: a baseline without workspace (legacy) counts as the default workspace's.
    const [legacy] = await control.loadFixtures([{ kind: 'baseline', workspace_id: null, data: legacyBaseline(metric) }]);
    fed.set(legacy!.id, 'without workspace (legacy, sandbox choice)');
    // A run of another workspace (the API cannot put a baseline there: baselines take no workspace header).
    const elsewhere = (await ctx.world.create('workspace')).id;

    const run = await ctx.world.create('run', { agent_id: mine.agent, test_set_id: mine.testSet, persona_id: mine.persona, metric_ids: [metric] });
    const results = [2, 4, 9];
    await control.completeRun({ run_id: run.id, metric_values: { [metric]: results } });
    await control.completeRun({ workspace_id: elsewhere, metric_values: { [metric]: 100 } });

    const seen = await baselinesOf(ctx, metric);
    const expectFed = (id: string, label: string, expected: Estimate): void => {
      const record = seen.get(id);
      if (!record) fail(`the baseline scoped to ${label} is missing from the list`);
      expectEstimate(record, expected, `the baseline scoped to ${label} (one run of this workspace with results ${results.join(', ')}, one run of another workspace)`);
    };
    for (const [id, label] of fed) expectFed(id, label, ewma([observation(results)]));
    for (const [id, label] of starved) expectFed(id, label, ewma([]));
  },
};

/** A baseline stored before workspaces existed (loaded without workspace). */
function legacyBaseline(metric: string): Record<string, unknown> {
  return {
    metric_id: metric,
    agent_id: null,
    test_set_id: null,
    persona_id: null,
    display_name: 'Conformance legacy baseline',
    status: 'ACTIVE',
    detection_method: 'EWMA',
    sigma_threshold: 2,
    direction: 'BOTH',
    baseline_float: 0,
    baseline_sigma: 0,
    observation_count: 0,
    sigma_bands: null,
    last_processed_run_completed_at: null,
  };
}

export const ewmaChecks: Check[] = [ewmaArithmetic, completionOrder, matchingBaselines];
