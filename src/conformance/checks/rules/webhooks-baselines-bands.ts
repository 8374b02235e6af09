// Rule baseline-sigma-bands (createBaseline, getBaseline, listBaselines, updateBaseline): a new baseline without
// statistics, an update keeping them, sigma_bands = mean ± n·sigma for the requested sigma_levels, and the
// metric in the path owning the baseline.
import { expectError, expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Check, CheckContext } from '../context.js';
import { completeRuns, createBaseline, ewma, expectEstimate, getBaseline, isRuleOperation, needControl, unusedMetricId, type BaselineRef, type Estimate } from './webhooks-baselines-support.js';

const RULE = 'baseline-sigma-bands';

/** The bands docs/sandbox.md states: for each level n, upper_<n>sigma = mean + n·sigma, lower_<n>sigma = mean − n·sigma. */
function expectedBands(estimate: Estimate, levels: number[]): Record<string, number> {
  const bands: Record<string, number> = {};
  for (const n of levels) {
    bands[`upper_${n}sigma`] = estimate.mean + n * estimate.sigma;
    bands[`lower_${n}sigma`] = estimate.mean - n * estimate.sigma;
  }
  return bands;
}

function expectBands(record: Record<string, unknown>, expected: Record<string, number>, what: string): void {
  const got = record.sigma_bands as Record<string, unknown> | null | undefined;
  const show = `expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`;
  if (got === null || typeof got !== 'object') fail(`${what}: ${show}`);
  if (Object.keys(got).sort().join() !== Object.keys(expected).sort().join()) fail(`${what}: other band keys: ${show}`);
  for (const [key, value] of Object.entries(expected)) {
    if (typeof got[key] !== 'number' || Math.abs((got[key] as number) - value) > 1e-9 * Math.max(1, Math.abs(value))) fail(`${what}: ${key}: ${show}`);
  }
}

/** A baseline of a fresh metric fed with two different observations (so sigma > 0). */
async function observedBaseline(ctx: CheckContext): Promise<{ baseline: BaselineRef; estimate: Estimate }> {
  const control = needControl(ctx, 'complete runs that give the baseline statistics');
  const metric = (await ctx.world.create('metric')).id;
  const baseline = await createBaseline(ctx, metric);
  const values = [10, 20];
  await completeRuns(control, metric, values);
  return { baseline, estimate: ewma(values) };
}

export const newBaseline: Check = {
  name: `rule ${RULE}: a new baseline has no statistics (zeros, sigma_bands null), null scope ids, and the metric's name as display_name unless one is given`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'create', RULE),
  async run(ctx) {
    const metric = await ctx.world.create('metric');
    const answer = await send(ctx.target, ctx.route, { path: { metric_id: metric.id }, body: {} });
    expectSuccess(answer, ctx.route, 'creating a baseline with an empty body');
    const record = answer.body as Record<string, unknown>;
    // Seed: sigma_bands null until baseline stats exist; agent_id null for organization-wide baselines,
    // test_set_id null for monitoring, persona_id null when all personas are covered.
    if (record.sigma_bands !== null) fail(`expected sigma_bands null on a new baseline, got ${JSON.stringify(record.sigma_bands)}`);
    for (const field of ['agent_id', 'test_set_id', 'persona_id']) if (record[field] !== null) fail(`expected ${field} null when omitted, got ${JSON.stringify(record[field])}`);
    // Sandbox's choice (docs/sandbox.md): no observations yet is mean 0, sigma 0, count 0 and no cursor.
    expectEstimate(record, ewma([]), 'a new baseline');
    if (record.last_processed_run_completed_at !== null) fail(`expected last_processed_run_completed_at null, got ${JSON.stringify(record.last_processed_run_completed_at)}`);
    // Sandbox's choice: an omitted display_name is the metric's metric_name; a given one is kept.
    if (typeof metric.record.metric_name === 'string' && record.display_name !== metric.record.metric_name) {
      fail(`expected display_name ${JSON.stringify(metric.record.metric_name)} (the metric's name), got ${JSON.stringify(record.display_name)}`);
    }
    const named = await createBaseline(ctx, metric.id, { display_name: 'Conformance named baseline' });
    if (named.record.display_name !== 'Conformance named baseline') fail(`expected the given display_name to be kept, got ${JSON.stringify(named.record.display_name)}`);
  },
};

export const bandsOnGet: Check = {
  name: `rule ${RULE}: sigma_bands are mean ± n·sigma for each requested level (default 1,2; a repeated level once)`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'get', RULE),
  async run(ctx) {
    const { baseline, estimate } = await observedBaseline(ctx);
    const plain = await getBaseline(ctx, baseline.path);
    expectEstimate(plain, estimate, 'the baseline after two runs');
    // Seed: sigma_bands keyed by level (upper_1sigma, lower_2sigma, ...), levels set by query sigma_levels.
    expectBands(plain, expectedBands(estimate, [1, 2]), 'without sigma_levels (default 1,2)');
    expectBands(await getBaseline(ctx, baseline.path, { sigma_levels: '1.25,3,3' }), expectedBands(estimate, [1.25, 3]), 'with sigma_levels=1.25,3,3');
  },
};

export const levelLimits: Check = {
  name: `rule ${RULE}: up to 20 distinct sigma levels are answered; more, a level of 0 or one without a plain decimal form is 400 on sigma_levels`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'get', RULE),
  async run(ctx) {
    const metric = (await ctx.world.create('metric')).id;
    const baseline = await createBaseline(ctx, metric);
    const levels = (count: number): string => Array.from({ length: count }, (_, i) => String(i + 1)).join(',');
    // docs/sandbox.md: invalid levels (0, negative, more than 20) are 400 on sigma_levels (sandbox's choice).
    // A repeated level counts once, so 20 distinct levels with a repeat are still 20.
    await getBaseline(ctx, baseline.path, { sigma_levels: `${levels(20)},1` });
    expectError(await send(ctx.target, ctx.route, { path: baseline.path, query: { sigma_levels: levels(21) } }), 400, 'INVALID_ARGUMENT', 'sigma_levels', 'with 21 sigma levels');
    expectError(await send(ctx.target, ctx.route, { path: baseline.path, query: { sigma_levels: '0' } }), 400, 'INVALID_ARGUMENT', 'sigma_levels', 'with sigma level 0');
    // The spec's band keys are `(upper|lower)_<decimal>sigma`: a level JavaScript writes with an exponent
    // (1e-7) cannot be named, so the sandbox refuses it.
    expectError(await send(ctx.target, ctx.route, { path: baseline.path, query: { sigma_levels: '0.0000001' } }), 400, 'INVALID_ARGUMENT', 'sigma_levels', 'with sigma level 0.0000001');
  },
};

export const ownerMetric: Check = {
  name: `rule ${RULE}: a baseline is found only under its own metric (404 on baseline_id), an unknown metric is 404 on metric_id`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'get', RULE),
  async run(ctx) {
    const metric = (await ctx.world.create('metric')).id;
    const baseline = await createBaseline(ctx, metric);
    const another = (await ctx.world.create('metric')).id;
    // Seed: baseline get errors 404 (metric not found); the field each 404 names is the sandbox's choice.
    expectError(await send(ctx.target, ctx.route, { path: { metric_id: another, baseline_id: baseline.path.baseline_id } }), 404, 'NOT_FOUND', 'baseline_id', "the baseline under another metric's path");
    expectError(await send(ctx.target, ctx.route, { path: { metric_id: unusedMetricId(), baseline_id: baseline.path.baseline_id } }), 404, 'NOT_FOUND', 'metric_id', 'the baseline under an unknown metric');
  },
};

export const bandsOnList: Check = {
  name: `rule ${RULE}: listed baselines carry sigma_bands for the requested levels, null before observations`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'list', RULE),
  async run(ctx) {
    const { baseline, estimate } = await observedBaseline(ctx);
    const empty = await createBaseline(ctx, baseline.path.metric_id);
    const answer = await send(ctx.target, ctx.route, { path: { metric_id: baseline.path.metric_id }, query: { sigma_levels: '2.5' } });
    expectSuccess(answer, ctx.route, 'listing the baselines with sigma_levels=2.5');
    const key = ctx.route.success.shape.kind === 'list' ? ctx.route.success.shape.items : 'baselines';
    const items = ((answer.body as Record<string, unknown>)[key] ?? []) as Record<string, unknown>[];
    const observed = items.find((b) => b.ulid === baseline.path.baseline_id);
    const fresh = items.find((b) => b.ulid === empty.path.baseline_id);
    if (!observed || !fresh) fail(`expected both baselines of the metric in the list, got ${items.length} items`);
    expectBands(observed, expectedBands(estimate, [2.5]), 'the listed baseline with observations');
    if (fresh.sigma_bands !== null) fail(`expected sigma_bands null for the listed baseline without observations, got ${JSON.stringify(fresh.sigma_bands)}`);
    expectError(await send(ctx.target, ctx.route, { path: { metric_id: unusedMetricId() } }), 404, 'NOT_FOUND', 'metric_id', 'listing the baselines of an unknown metric');
  },
};

export const updateKeepsStatistics: Check = {
  name: `rule ${RULE}: an update keeps the baseline's statistics and answers its sigma_bands`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'update', RULE),
  async run(ctx) {
    const { baseline, estimate } = await observedBaseline(ctx);
    // docs/sandbox.md "Baselines": PATCH changes display_name, sigma_threshold, direction, status and keeps the statistics.
    const answer = await send(ctx.target, ctx.route, { path: baseline.path, body: { display_name: 'Conformance renamed baseline' } });
    expectSuccess(answer, ctx.route, 'renaming a baseline with observations');
    const updated = answer.body as Record<string, unknown>;
    expectEstimate(updated, estimate, 'the update answer');
    expectBands(updated, expectedBands(estimate, [1, 2]), 'the update answer (default levels)');
    expectEstimate(await getBaseline(ctx, baseline.path), estimate, 'the baseline read after the update');
  },
};

export const sigmaBandChecks: Check[] = [newBaseline, bandsOnGet, levelLimits, ownerMetric, bandsOnList, updateKeepsStatistics];
