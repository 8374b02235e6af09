// Rule checks of the newer client's operations (issue 30; facts-shapes MT31, 2.14; docs/sandbox.md "Newer client
// (issue 30)", the sandbox's choices): metric-output-batch-get (outputs by id, in the order asked, all or nothing),
// review-complete-conversation (blockers, completion counts, 400/404), the per-metric insights and
// criteria_view_mode of review-insights and review-metric-agreement, and tag-list-filters (search, tag_id,
// unused_only, include_usage). The alert list's conversation_source is the generic equality filter, which
// protocol-lists checks on every list.
import { fail } from '../../result.js';
import type { Route } from '../../suite-data.js';
import { recordOf } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { expectRefused, unique } from './personas-audio-shared.js';
import { controlOf, loadFixtures, onRule, operationWithRule, routeOf, ruleRoute, show, succeed, type FixtureEntry, type Json } from './records-support.js';

const A = 'a@example.com';
const B = 'b@example.com';

async function simulation(ctx: CheckContext, data: Json = {}): Promise<string> {
  return (await ctx.world.loadRecord('simulation', { run_id: 'ConformanceRunAAAAAAAA', status: 'COMPLETED', has_audio: false, ...data })).id;
}

function listOf(body: unknown, key: string): Json[] {
  const items = (body as Json | undefined)?.[key];
  if (!Array.isArray(items)) fail(`the answer has no ${key} list: ${show(body)}`);
  return items as Json[];
}

export const batchGet: Check = {
  name: 'rule metric-output-batch-get: the outputs the simulations list, by id, in the order asked (repeats too); an id naming no visible output is 404 on its item',
  applies: onRule('metric-output-batch-get'),
  async run(ctx) {
    const list = ruleRoute(ctx.suite, 'conversation-metric-outputs', (r) => r.resource === 'simulation' && r.params.path.length === 1);
    if (!list) fail('the spec has no metric output list of a simulation to read ids from');
    const [m1, m2] = [(await ctx.world.create('metric')).id, (await ctx.world.create('metric')).id];
    const sims = [await simulation(ctx, { metric_values: { [m1]: 0.25, [m2]: 0.75 } }), await simulation(ctx, { metric_values: { [m1]: 1 } })];
    const listed: Json[] = [];
    for (const id of sims) listed.push(...listOf((await succeed(ctx, list, { path: { [list.params.path[0]!.name]: id } }, 'listing a simulation’s metric outputs')).body, 'metrics'));
    if (listed.length !== 3) fail(`expected 3 listed outputs, got ${show(listed)}`);
    const order = [listed[2]!, listed[0]!, listed[1]!, listed[2]!];
    const got = listOf((await succeed(ctx, ctx.route, { body: { metric_output_ids: order.map((o) => o.metric_output_id) } }, 'reading the outputs in a batch')).body, 'metric_outputs');
    if (show(got) !== show(order)) fail(`expected the listed outputs in the order asked, ${show(order)}, got ${show(got)}`);
    const empty = listOf((await succeed(ctx, ctx.route, { body: { metric_output_ids: [] } }, 'an empty batch')).body, 'metric_outputs');
    if (empty.length !== 0) fail(`an empty batch answered ${show(empty)}`);
    await expectRefused(ctx, ctx.route, { body: { metric_output_ids: [listed[0]!.metric_output_id, `${sims[0]}_NoSuchMetricAAAAAAAAAA`] } }, 'metric_output_ids[1]', 'a batch with an output id the simulation does not have', 404);
    await expectRefused(ctx, ctx.route, { body: { metric_output_ids: ['no-such-output'] } }, 'metric_output_ids[0]', 'a batch with an id naming no simulation', 404);
    await expectRefused(ctx, ctx.route, { body: {} }, 'metric_output_ids', 'a batch without metric_output_ids');
  },
};

interface CompletionScene {
  project: Json;
  sims: string[];
  metrics: string[];
}

/** A project over two simulations (the second without a value for the second metric) and two metrics. */
async function completionScene(ctx: CheckContext, extra: Json): Promise<CompletionScene> {
  const metrics = [(await ctx.world.create('metric')).id, (await ctx.world.create('metric')).id];
  const [m1, m2] = metrics as [string, string];
  const sims = [await simulation(ctx, { metric_values: { [m1]: 1, [m2]: 0 } }), await simulation(ctx, { metric_values: { [m1]: 1 } }), await simulation(ctx)];
  const create = routeOf(ctx, 'review-project', 'create');
  const body = { display_name: `Complete ${unique(ctx)}`, assignees: [A, B], linked_simulation_ids: sims.slice(0, 2), linked_metric_ids: metrics, ...extra };
  const project = recordOf(create, await succeed(ctx, create, { body }, 'creating a review project'))!;
  return { project, sims, metrics };
}

function annotation(project: Json, sim: string, metric: string, reviewer: string, label: unknown, extra: Json = {}): FixtureEntry {
  return { kind: 'annotation', data: { project_id: project.id, simulation_id: sim, metric_id: metric, reviewer, label, create_time: '2026-02-01T00:00:00Z', ...extra } };
}

export const completeConversation: Check = {
  name: 'rule review-complete-conversation: blockers (no metric value, no label, a disagreement without a note under require_disagreement_notes) or completion counted once; assignee 400, unlinked simulation 404',
  applies: operationWithRule('review-project', 'custom', 'review-complete-conversation'),
  async run(ctx) {
    const control = controlOf(ctx, 'load simulations and annotations');
    const { project, sims, metrics } = await completionScene(ctx, { project_rules: ['require_disagreement_notes'] });
    const [s1, s2, s3] = sims as [string, string, string];
    const [m1, m2] = metrics as [string, string];
    const path = { project_id: String(project.id) };
    const complete = async (body: Json, what: string): Promise<Json> => (await succeed(ctx, ctx.route, { path, body }, what)).body as Json;
    const codes = (answer: Json): string => show((answer.blockers as Json[]).map((b) => [b.code, b.metric_id]));
    const bare = await complete({ simulation_output_id: s2 }, 'completing a conversation nobody labeled');
    const wantBare = show([['MISSING_REVIEW_LABEL', m1], ['MISSING_METRIC_VALUE', m2], ['MISSING_REVIEW_LABEL', m2]]);
    if (bare.success !== false || bare.completed_conversation_count !== 0 || codes(bare) !== wantBare) fail(`an unlabeled conversation without a value for ${m2}: expected blockers ${wantBare}, got ${show(bare)}`);
    await loadFixtures(control, [annotation(project, s1, m1, A, 'good'), annotation(project, s1, m2, B, 'bad', { disagreement: true })]);
    const unnoted = await complete({ simulation_output_id: s1 }, 'completing a conversation with a disagreement without a note');
    if (unnoted.success !== false || codes(unnoted) !== show([['MISSING_DISAGREEMENT_NOTE', m2]])) fail(`a disagreement without a note: expected one MISSING_DISAGREEMENT_NOTE on ${m2}, got ${show(unnoted)}`);
    // Without the rule, the same labels complete the conversation; twice counts once.
    const patch = routeOf(ctx, 'review-project', 'update');
    await succeed(ctx, patch, { path, body: { project_rules: null } }, 'dropping require_disagreement_notes');
    const done = await complete({ simulation_output_id: s1, assignee: A }, 'completing a labeled conversation');
    const want = { success: true, is_complete: false, completed_conversation_count: 1, blockers: [] };
    if (show(done) !== show(want)) fail(`a labeled conversation with values: expected ${show(want)}, got ${show(done)}`);
    const again = await complete({ simulation_output_id: s1 }, 'completing it again');
    if (show(again) !== show(want)) fail(`completing again: expected ${show(want)}, got ${show(again)}`);
    await expectRefused(ctx, ctx.route, { path, body: { simulation_output_id: s1, assignee: 'stranger@example.com' } }, 'assignee', 'an assignee the project does not have');
    await expectRefused(ctx, ctx.route, { path, body: { simulation_output_id: s3 } }, 'simulation_output_id', 'a simulation the project does not link', 404);
    // An individual project: each assignee completes on their own labels, and must be named.
    const solo = await completionScene(ctx, { project_type: 'PROJECT_INDIVIDUAL' });
    await expectRefused(ctx, ctx.route, { path: { project_id: String(solo.project.id) }, body: { simulation_output_id: solo.sims[0] } }, 'assignee', 'an individual project without an assignee');
  },
};

/** A project over four simulations and one metric: s1 agreed, s2 disagreed, s3 one reviewer, s4 none. */
async function verdictScene(ctx: CheckContext): Promise<{ project: Json; sims: string[]; metric: string }> {
  const control = controlOf(ctx, 'load simulations and annotations');
  const sims = [await simulation(ctx), await simulation(ctx), await simulation(ctx), await simulation(ctx)];
  const metric = (await ctx.world.create('metric')).id;
  const create = routeOf(ctx, 'review-project', 'create');
  const body = { display_name: `Verdicts ${unique(ctx)}`, assignees: [A, B], linked_simulation_ids: sims, linked_metric_ids: [metric] };
  const project = recordOf(create, await succeed(ctx, create, { body }, 'creating a review project'))!;
  const [s1, s2, s3] = sims as [string, string, string];
  await loadFixtures(control, [
    annotation(project, s1, metric, A, { tone: 'good' }),
    annotation(project, s1, metric, B, { tone: 'good', accuracy: 'bad' }),
    annotation(project, s2, metric, A, { tone: 'good' }),
    annotation(project, s2, metric, B, { tone: 'bad' }),
    annotation(project, s3, metric, A, { tone: 'good' }),
  ]);
  return { project, sims, metric };
}

const WINDOW = { start_date: '2026-01-01T00:00:00Z', end_date: '2026-12-31T00:00:00Z' };

async function statsOf(ctx: CheckContext, route: Route, project: Json, query: Record<string, string>): Promise<Json> {
  const body = (await succeed(ctx, route, { path: { project_id: String(project.id) }, query }, `${route.id} with ${show(query)}`)).body as Json;
  return listOf(body, 'metric_stats')[0]!;
}

export const insightsPerMetric: Check = {
  name: 'rule review-insights: each metric_stats item sorts the linked simulations into agreement, disagreement, unknown and not reviewed with their ids; criteria_view_mode criteria compares criteria and adds criteria_agreement',
  applies: operationWithRule('review-project', 'custom', 'review-insights'),
  async run(ctx) {
    const { project, sims } = await verdictScene(ctx);
    const [s1, s2, s3, s4] = sims as [string, string, string, string];
    const score = await statsOf(ctx, ctx.route, project, WINDOW);
    const want = {
      conversations: 4, annotations: 5, agreements: 0, disagreements: 2, not_reviewed: 1, unknown: 1, agreement_rate: 0, criteria_agreement: null,
      simulation_output_ids: sims, agreement_simulation_output_ids: [], disagreement_simulation_output_ids: [s1, s2], not_reviewed_simulation_output_ids: [s4], unknown_simulation_output_ids: [s3],
    };
    const problems: string[] = [];
    for (const [k, v] of Object.entries(want)) if (show(score[k]) !== show(v)) problems.push(`score mode ${k}: expected ${show(v)}, got ${show(score[k])}`);
    const criteria = await statsOf(ctx, ctx.route, project, { ...WINDOW, criteria_view_mode: 'criteria' });
    const wantCriteria = {
      agreements: 1, disagreements: 1, agreement_rate: 0.5, agreement_simulation_output_ids: [s1], disagreement_simulation_output_ids: [s2],
      criteria_agreement: { tone: { agreements: 1, disagreements: 1, agreement_rate: 0.5 } },
    };
    for (const [k, v] of Object.entries(wantCriteria)) if (show(criteria[k]) !== show(v)) problems.push(`criteria mode ${k}: expected ${show(v)}, got ${show(criteria[k])}`);
    if (problems.length > 0) fail(problems.join('; '));
    await expectRefused(ctx, ctx.route, { path: { project_id: String(project.id) }, query: { ...WINDOW, criteria_view_mode: 'rubric' } }, 'criteria_view_mode', 'an unknown criteria_view_mode');
  },
};

export const agreementModes: Check = {
  name: 'rule review-metric-agreement: criteria_view_mode score compares whole labels, criteria compares the criteria two or more reviewers labeled',
  applies: operationWithRule('review-project', 'custom', 'review-metric-agreement'),
  async run(ctx) {
    const { project, metric } = await verdictScene(ctx);
    const path = { project_id: String(project.id) };
    const of = async (query: Record<string, string>): Promise<unknown> => ((await succeed(ctx, ctx.route, { path, query }, `metric agreement with ${show(query)}`)).body as Json).agreement_by_metric_id;
    const score = { [metric]: { metric_id: metric, agreements: 0, disagreements: 2, agreement_rate: 0 } };
    const criteria = { [metric]: { metric_id: metric, agreements: 1, disagreements: 1, agreement_rate: 0.5 } };
    const [gotScore, gotDefault, gotCriteria] = [await of({ criteria_view_mode: 'score' }), await of({}), await of({ criteria_view_mode: 'criteria' })];
    if (show(gotScore) !== show(score) || show(gotDefault) !== show(score)) fail(`score mode (and the default): expected ${show(score)}, got ${show(gotScore)} and ${show(gotDefault)}`);
    if (show(gotCriteria) !== show(criteria)) fail(`criteria mode: expected ${show(criteria)}, got ${show(gotCriteria)}`);
  },
};

export const tagFilters: Check = {
  name: 'rule tag-list-filters: search (without case), tag_id, unused_only and include_usage (records carrying the tag) on the tag list',
  applies: onRule('tag-list-filters'),
  async run(ctx) {
    const create = routeOf(ctx, 'tag', 'create');
    const stem = `cf${unique(ctx)}`.toLowerCase();
    const used = recordOf(create, await succeed(ctx, create, { body: { tag_name: `${stem}-used` } }, 'creating a tag'))!;
    const spare = recordOf(create, await succeed(ctx, create, { body: { tag_name: `${stem}-spare` } }, 'creating a tag'))!;
    await ctx.world.create('metric', { tags: [`${stem}-USED`] });
    const list = async (query: Record<string, string>): Promise<Json[]> => listOf((await succeed(ctx, ctx.route, { query: { page_size: '100', ...query } }, `listing tags with ${show(query)}`)).body, 'tags');
    const ids = (tags: Json[]): string => show(tags.map((t) => t.id).sort());
    const problems: string[] = [];
    const searched = await list({ search: stem.toUpperCase() });
    if (ids(searched) !== ids([used, spare])) problems.push(`search ${stem.toUpperCase()}: expected the two tags, got ${show(searched.map((t) => t.tag_name))}`);
    const byId = await list({ tag_id: String(spare.id) });
    if (ids(byId) !== ids([spare])) problems.push(`tag_id: expected only that tag, got ${show(byId.map((t) => t.tag_name))}`);
    const unused = await list({ search: stem, unused_only: 'true' });
    if (ids(unused) !== ids([spare])) problems.push(`unused_only: expected only the tag no record carries, got ${show(unused.map((t) => t.tag_name))}`);
    const usage = await list({ search: stem, include_usage: 'true' });
    const counts = Object.fromEntries(usage.map((t) => [t.tag_name, t.usage_count]));
    const wantCounts = { [`${stem}-used`]: 1, [`${stem}-spare`]: 0 };
    if (show(Object.fromEntries(Object.entries(counts).sort())) !== show(Object.fromEntries(Object.entries(wantCounts).sort()))) problems.push(`include_usage: expected usage_count ${show(wantCounts)}, got ${show(counts)}`);
    const plain = await list({ search: stem });
    if (plain.some((t) => 'usage_count' in t)) problems.push('usage_count answered without include_usage');
    if (problems.length > 0) fail(problems.join('; '));
    await expectRefused(ctx, ctx.route, { query: { tag_id: 'short' } }, 'tag_id', 'a malformed tag_id');
  },
};

export const checks: Check[] = [batchGet, completeConversation, insightsPerMetric, agreementModes, tagFilters];
