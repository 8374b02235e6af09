// Review projects beyond the disagreement state (facts-shapes 2.10 RP2-RP9; docs/sandbox.md "Review projects",
// the sandbox's choices): the linked-simulation edits of an update (review-project-links), progress
// (review-progress), metric agreement (review-metric-agreement) and insights (review-insights), all computed from
// annotation fixtures.
import { fail } from '../../result.js';
import type { Route } from '../../suite-data.js';
import type { Check, CheckContext } from '../context.js';
import { recordOf } from '../../world.js';
import { expectRefused } from './personas-audio-shared.js';
import { controlOf, loadFixtures, operationWithRule, routeOf, show, succeed, type FixtureEntry, type Json } from './records-support.js';

interface Scene {
  project: Json;
  solo: Json;
  sims: string[];
  metrics: string[];
}

/** A simulation of its own: with an override the world loads a new fixture instead of reusing a listed one. */
async function freshSimulation(ctx: CheckContext): Promise<string> {
  return (await ctx.world.create('simulation', { notes: null })).id;
}

const A = 'a@example.com';
const B = 'b@example.com';

/** Two projects (collaborative and individual) over three simulations and two metrics, with labels. */
async function labeledScene(ctx: CheckContext): Promise<Scene> {
  const control = controlOf(ctx, 'load simulations and annotations');
  const sims = [await freshSimulation(ctx), await freshSimulation(ctx), await freshSimulation(ctx)];
  const metrics = [(await ctx.world.create('metric')).id, (await ctx.world.create('metric')).id];
  const create = routeOf(ctx, 'review-project', 'create');
  const base = { display_name: `Labels ${ctx.world.nextSeed()}`, assignees: [A, B], linked_simulation_ids: sims.slice(0, 2), linked_metric_ids: metrics };
  const project = recordOf(create, await succeed(ctx, create, { body: base }, 'creating a collaborative review project'))!;
  const solo = recordOf(create, await succeed(ctx, create, { body: { ...base, project_type: 'PROJECT_INDIVIDUAL' } }, 'creating an individual review project'))!;
  const [s1, s2, s3] = sims as [string, string, string];
  const [m1, m2] = metrics as [string, string];
  const label = (p: Json, sim: string, metric: string, reviewer: string, value: unknown, at: string): FixtureEntry => ({
    kind: 'annotation',
    data: { project_id: p.id, simulation_id: sim, metric_id: metric, reviewer, label: value, create_time: at },
  });
  await loadFixtures(control, [
    label(project, s1, m1, A, 'good', '2026-02-01T00:00:00Z'),
    label(project, s1, m1, B, 'good', '2026-02-02T00:00:00Z'),
    label(project, s2, m1, A, 'good', '2026-02-03T00:00:00Z'),
    label(project, s2, m1, B, 'bad', '2026-02-04T00:00:00Z'),
    label(project, s1, m2, A, 'yes', '2026-03-01T00:00:00Z'),
    label(project, s3, m2, A, 'no', '2026-03-02T00:00:00Z'),
    label(solo, s1, m1, A, 'good', '2026-02-01T00:00:00Z'),
    label(solo, s1, m1, 'c@example.com', 'good', '2026-02-01T00:00:00Z'),
  ]);
  return { project, solo, sims, metrics };
}

async function ask(ctx: CheckContext, route: Route, project: Json, query: Record<string, string> = {}): Promise<Json> {
  return (await succeed(ctx, route, { path: { project_id: String(project.id) }, query }, `${route.id} of a labeled project`)).body as Json;
}

export const links: Check = {
  name: 'rule review-project-links: an update links add_linked_simulation_ids once, then unlinks remove_linked_simulation_ids, drops opted_out_assignees; blind-labeling metrics must be linked (400)',
  applies: operationWithRule('review-project', 'update', 'review-project-links'),
  async run(ctx) {
    const sims = [await freshSimulation(ctx), await freshSimulation(ctx)];
    const metrics = [(await ctx.world.create('metric')).id, (await ctx.world.create('metric')).id];
    const create = routeOf(ctx, 'review-project', 'create');
    const body = { display_name: `Links ${ctx.world.nextSeed()}`, assignees: [A, B], linked_simulation_ids: [sims[0]], linked_metric_ids: [metrics[0]] };
    const project = recordOf(create, await succeed(ctx, create, { body }, 'creating a review project'))!;
    const path = { project_id: String(project.id) };
    const change = { add_linked_simulation_ids: [sims[1], sims[0]], remove_linked_simulation_ids: [sims[0]], opted_out_assignees: ['B@Example.com'] };
    const updated = recordOf(ctx.route, await succeed(ctx, ctx.route, { path, body: change }, 'editing the linked simulations'))!;
    if (show(updated.linked_simulation_ids) !== show([sims[1]])) fail(`linked_simulation_ids after add [s2, s1] and remove [s1]: expected ${show([sims[1]])}, got ${show(updated.linked_simulation_ids)}`);
    if (show(updated.assignees) !== show([A])) fail(`assignees after B opted out: expected ${show([A])}, got ${show(updated.assignees)}`);
    for (const key of Object.keys(change)) if (key in updated) fail(`the answer carries the edit list ${key}`);
    await expectRefused(ctx, ctx.route, { path, body: { blind_labeling_shown_metric_ids: [metrics[1]] } }, 'blind_labeling_shown_metric_ids[0]', 'a blind-labeling metric the project does not link');
    const ok = recordOf(ctx.route, await succeed(ctx, ctx.route, { path, body: { linked_metric_ids: metrics, blind_labeling_shown_metric_ids: [metrics[1]] } }, 'linking the metric and showing it'))!;
    if (show(ok.blind_labeling_shown_metric_ids) !== show([metrics[1]])) fail(`blind_labeling_shown_metric_ids: expected ${show([metrics[1]])}, got ${show(ok.blind_labeling_shown_metric_ids)}`);
  },
};

export const progress: Check = {
  name: 'rule review-progress: tasks are linked simulations × linked metrics (× assignees when individual); a task is done once labeled (by that assignee)',
  applies: operationWithRule('review-project', 'custom', 'review-progress'),
  async run(ctx) {
    const scene = await labeledScene(ctx);
    const collab = await ask(ctx, ctx.route, scene.project);
    const want = { project_id: scene.project.id, simulation_count: 2, metric_count: 2, assignee_count: 2, total_tasks: 4, completed_tasks: 3, completion_percentage: 75 };
    for (const [k, v] of Object.entries(want)) if (collab[k] !== v) fail(`collaborative project: ${k} expected ${show(v)}, got ${show(collab[k])}`);
    const solo = await ask(ctx, ctx.route, scene.solo);
    const soloWant = { total_tasks: 8, completed_tasks: 1, completion_percentage: 12.5 };
    for (const [k, v] of Object.entries(soloWant)) if (solo[k] !== v) fail(`individual project: ${k} expected ${show(v)}, got ${show(solo[k])}`);
  },
};

export const agreement: Check = {
  name: 'rule review-metric-agreement: per linked metric, simulations two or more reviewers labeled alike (agreement) or not (disagreement), and their rate',
  applies: operationWithRule('review-project', 'custom', 'review-metric-agreement'),
  async run(ctx) {
    const scene = await labeledScene(ctx);
    const [m1, m2] = scene.metrics as [string, string];
    const got = (await ask(ctx, ctx.route, scene.project)).agreement_by_metric_id;
    const want = { [m1]: { metric_id: m1, agreements: 1, disagreements: 1, agreement_rate: 0.5 }, [m2]: { metric_id: m2, agreements: 0, disagreements: 0, agreement_rate: 0 } };
    if (show(got) !== show(want)) fail(`expected ${show(want)}, got ${show(got)}`);
  },
};

export const insights: Check = {
  name: 'rule review-insights: labels in the window (by label or simulation time) give the overview, label counts and per-metric statistics; end before start is 400',
  applies: operationWithRule('review-project', 'custom', 'review-insights'),
  async run(ctx) {
    const scene = await labeledScene(ctx);
    const [m1, m2] = scene.metrics as [string, string];
    const feb = await ask(ctx, ctx.route, scene.project, { start_date: '2026-02-01T00:00:00Z', end_date: '2026-02-28T23:59:59Z' });
    const overview = { total_labels: 4, labeled_simulations: 2, reviewers: 2, disagreements: 0, unresolved_disagreements: 0 };
    if (show(feb.label_overview) !== show(overview)) fail(`label_overview for February: expected ${show(overview)}, got ${show(feb.label_overview)}`);
    const stats = [{ label: 'good', count: 3 }, { label: 'bad', count: 1 }];
    if (show(feb.label_stats) !== show(stats)) fail(`label_stats for February: expected ${show(stats)}, got ${show(feb.label_stats)}`);
    // Per metric over the linked simulations s1, s2 (docs/sandbox.md "Newer client (issue 30)"), then the earlier counts.
    const [s1, s2] = scene.sims as [string, string];
    const metricStats = [
      {
        metric_id: m1, conversations: 2, annotations: 4, agreements: 1, disagreements: 1, not_reviewed: 0, unknown: 0, agreement_rate: 0.5, criteria_agreement: null,
        simulation_output_ids: [s1, s2], agreement_simulation_output_ids: [s1], disagreement_simulation_output_ids: [s2], not_reviewed_simulation_output_ids: [], unknown_simulation_output_ids: [],
        label_count: 4, labeled_simulations: 2,
      },
      {
        metric_id: m2, conversations: 2, annotations: 0, agreements: 0, disagreements: 0, not_reviewed: 2, unknown: 0, agreement_rate: 0, criteria_agreement: null,
        simulation_output_ids: [s1, s2], agreement_simulation_output_ids: [], disagreement_simulation_output_ids: [], not_reviewed_simulation_output_ids: [s1, s2], unknown_simulation_output_ids: [],
        label_count: 0, labeled_simulations: 0,
      },
    ];
    if (show(feb.metric_stats) !== show(metricStats)) fail(`metric_stats for February: expected ${show(metricStats)}, got ${show(feb.metric_stats)}`);
    const options = ['bad', 'good', 'no', 'yes'];
    if (show((feb.project as Json).review_label_options) !== show(options)) fail(`review_label_options: expected ${show(options)}, got ${show((feb.project as Json).review_label_options)}`);
    // The simulations were loaded now: by their time, February 2026 holds no label.
    const bySimulation = await ask(ctx, ctx.route, scene.project, { start_date: '2026-02-01T00:00:00Z', end_date: '2026-02-28T00:00:00Z', label_triage_time_basis: 'simulation' });
    if ((bySimulation.label_overview as Json).total_labels !== 0) fail(`by simulation time, February 2026 holds ${show((bySimulation.label_overview as Json).total_labels)} labels, expected 0`);
    await expectRefused(ctx, ctx.route, { path: { project_id: String(scene.project.id) }, query: { start_date: '2026-02-01T00:00:00Z', end_date: '2026-01-01T00:00:00Z' } }, 'end_date', 'an end_date before start_date');
  },
};

export const checks: Check[] = [links, progress, agreement, insights];
