// Review projects at the edges of docs/sandbox.md "Review projects" (the sandbox's choices; records-review-stats.ts
// has the main cases): a whole linked_simulation_ids or assignees list wins over its edits; progress is 0 without
// tasks and counts an individual assignee's labels whatever the case of the reviewer's address, and only labeled
// annotations of linked simulations and metrics; metric agreement looks at linked simulations only, each
// reviewer's last label; insights include labels at end_date.
import { fail } from '../../result.js';
import type { Route } from '../../suite-data.js';
import { recordOf } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { controlOf, loadFixtures, operationWithRule, routeOf, show, succeed, unusedLike, type FixtureEntry, type Json } from './records-support.js';

const A = 'a@example.com';
const B = 'b@example.com';

async function project(ctx: CheckContext, body: Json): Promise<Json> {
  const create = routeOf(ctx, 'review-project', 'create');
  return recordOf(create, await succeed(ctx, create, { body: { display_name: `Edges ${ctx.world.nextSeed()}`, ...body } }, 'creating a review project'))!;
}

/** Simulations of their own (loaded as fixtures, with `overrides` such as their create_time). */
async function simulations(ctx: CheckContext, n: number, overrides: Json = {}): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await ctx.world.create('simulation', { notes: null, ...overrides })).id);
  return out;
}

/** An annotation fixture; `extra` adds its disagreement state. */
function label(p: Json, sim: string, metric: string, reviewer: string | null, value: unknown, at = '2026-05-01T00:00:00Z', extra: Json = {}): FixtureEntry {
  return { kind: 'annotation', data: { project_id: p.id, simulation_id: sim, metric_id: metric, ...(reviewer === null ? {} : { reviewer }), label: value, create_time: at, ...extra } };
}

async function ask(ctx: CheckContext, route: Route, p: Json, query: Record<string, string> = {}): Promise<Json> {
  return (await succeed(ctx, route, { path: { project_id: String(p.id) }, query }, `${route.id} of a project`)).body as Json;
}

export const wholeListsWin: Check = {
  name: 'rule review-project-links: a whole linked_simulation_ids or assignees list in the update wins over add/remove and opted_out_assignees',
  applies: operationWithRule('review-project', 'update', 'review-project-links'),
  async run(ctx) {
    const sims = await simulations(ctx, 3);
    const metric = (await ctx.world.create('metric')).id;
    const p = await project(ctx, { assignees: [A, B], linked_simulation_ids: [sims[0]], linked_metric_ids: [metric] });
    const change = { linked_simulation_ids: [sims[2]], add_linked_simulation_ids: [sims[1]], assignees: [A, B], opted_out_assignees: [B] };
    const updated = recordOf(ctx.route, await succeed(ctx, ctx.route, { path: { project_id: String(p.id) }, body: change }, 'updating with whole lists and edits'))!;
    if (show(updated.linked_simulation_ids) !== show([sims[2]])) fail(`linked_simulation_ids: expected the whole list ${show([sims[2]])}, got ${show(updated.linked_simulation_ids)}`);
    if (show(updated.assignees) !== show([A, B])) fail(`assignees: expected the whole list ${show([A, B])}, got ${show(updated.assignees)}`);
  },
};

export const editsNotStored: Check = {
  name: 'rule review-project-links: the edit lists are not stored: a later update that sends none edits nothing; an id added that is already linked is linked once',
  applies: operationWithRule('review-project', 'update', 'review-project-links'),
  async run(ctx) {
    const sims = await simulations(ctx, 3);
    const metric = (await ctx.world.create('metric')).id;
    const p = await project(ctx, { assignees: [A, B], linked_simulation_ids: [sims[0]], linked_metric_ids: [metric] });
    const path = { project_id: String(p.id) };
    const update = async (body: Json, what: string): Promise<Json> => recordOf(ctx.route, await succeed(ctx, ctx.route, { path, body }, what))!;
    const edited = await update({ add_linked_simulation_ids: [sims[0], sims[1]], remove_linked_simulation_ids: [sims[2]], opted_out_assignees: [B] }, 'adding a linked and a new simulation, opting B out');
    if (show(edited.linked_simulation_ids) !== show([sims[0], sims[1]])) fail(`linked_simulation_ids after adding the linked s1 and s2: expected ${show([sims[0], sims[1]])}, got ${show(edited.linked_simulation_ids)}`);
    // Whole lists put back what the edits changed; a rename afterwards must not replay the earlier edits.
    await update({ linked_simulation_ids: [sims[2]], assignees: [A, B] }, 'replacing the lists whole');
    const renamed = await update({ display_name: `Renamed ${ctx.world.nextSeed()}` }, 'renaming the project');
    if (show(renamed.linked_simulation_ids) !== show([sims[2]]) || show(renamed.assignees) !== show([A, B])) {
      fail(`after a rename the project links ${show(renamed.linked_simulation_ids)} with assignees ${show(renamed.assignees)}, expected ${show([sims[2]])} and ${show([A, B])}: an earlier edit list was applied again`);
    }
  },
};

export const progressEdges: Check = {
  name: 'rule review-progress: 0% without tasks; each individual assignee counts in any case; unlabeled annotations, unlinked simulations and other reviewers do not count',
  applies: operationWithRule('review-project', 'custom', 'review-progress'),
  async run(ctx) {
    const control = controlOf(ctx, 'load annotations');
    const empty = await ask(ctx, ctx.route, await project(ctx, { assignees: [A], linked_simulation_ids: [], linked_metric_ids: [] }));
    if (empty.total_tasks !== 0 || empty.completion_percentage !== 0 || empty.completed_tasks !== 0) fail(`a project without linked simulations answered ${show(empty)}, expected 0 tasks and 0%`);
    const sims = await simulations(ctx, 3);
    const metric = (await ctx.world.create('metric')).id;
    const p = await project(ctx, { assignees: [A, B], linked_simulation_ids: sims.slice(0, 2), linked_metric_ids: [metric], project_type: 'PROJECT_INDIVIDUAL' });
    await loadFixtures(control, [
      label(p, sims[0]!, metric, 'A@Example.COM', 'good'),
      label(p, sims[0]!, metric, B, 'good'),
      label(p, sims[1]!, metric, B, null),
      label(p, sims[2]!, metric, B, 'good'),
      label(p, sims[1]!, metric, 'c@example.com', 'bad'),
    ]);
    const got = await ask(ctx, ctx.route, p);
    const want = { project_id: p.id, display_name: p.display_name, project_type: 'PROJECT_INDIVIDUAL', simulation_count: 2, metric_count: 1, assignee_count: 2, total_tasks: 4, completed_tasks: 2, completion_percentage: 50 };
    for (const [k, v] of Object.entries(want)) if (got[k] !== v) fail(`${k}: expected ${show(v)}, got ${show(got[k])}`);
  },
};

export const agreementEdges: Check = {
  name: "rule review-metric-agreement: only linked simulations count, with each reviewer's last label",
  applies: operationWithRule('review-project', 'custom', 'review-metric-agreement'),
  async run(ctx) {
    const control = controlOf(ctx, 'load annotations');
    const sims = await simulations(ctx, 3);
    const metric = (await ctx.world.create('metric')).id;
    const p = await project(ctx, { assignees: [A, B], linked_simulation_ids: sims.slice(0, 2), linked_metric_ids: [metric] });
    await loadFixtures(control, [
      // s1: A changes her label to B's: an agreement.
      label(p, sims[0]!, metric, A, 'bad'),
      label(p, sims[0]!, metric, B, 'good'),
      label(p, sims[0]!, metric, A, 'good'),
      // s2: numbers compare as text: 1 and "1" agree.
      label(p, sims[1]!, metric, A, 1),
      label(p, sims[1]!, metric, B, '1'),
      // s3 is not linked.
      label(p, sims[2]!, metric, A, 'good'),
      label(p, sims[2]!, metric, B, 'bad'),
    ]);
    const got = ((await ask(ctx, ctx.route, p)).agreement_by_metric_id as Json)[metric];
    const want = { metric_id: metric, agreements: 2, disagreements: 0, agreement_rate: 1 };
    if (show(got) !== show(want)) fail(`expected ${show(want)}, got ${show(got)}`);
  },
};

export const insightsEdges: Check = {
  name: 'rule review-insights: labels at start_date and at end_date are in the window, a second later or earlier not; label_stats most frequent first',
  applies: operationWithRule('review-project', 'custom', 'review-insights'),
  async run(ctx) {
    const control = controlOf(ctx, 'load annotations');
    const sims = await simulations(ctx, 2);
    const metric = (await ctx.world.create('metric')).id;
    const p = await project(ctx, { assignees: [A, B], linked_simulation_ids: sims, linked_metric_ids: [metric] });
    await loadFixtures(control, [
      label(p, sims[0]!, metric, A, 'ok', '2026-06-01T00:00:00Z'),
      label(p, sims[0]!, metric, B, 'great', '2026-06-02T00:00:00Z'),
      label(p, sims[1]!, metric, A, 'great', '2026-06-03T00:00:00Z'),
      label(p, sims[1]!, metric, B, 'great', '2026-06-04T00:00:00Z'),
    ]);
    const window = async (start: string, end: string): Promise<Json> => ask(ctx, ctx.route, p, { start_date: start, end_date: end });
    const both = await window('2026-06-01T00:00:00Z', '2026-06-04T00:00:00Z');
    if (show(both.label_stats) !== show([{ label: 'great', count: 3 }, { label: 'ok', count: 1 }])) fail(`label_stats over the whole window: ${show(both.label_stats)}, expected great 3 then ok 1`);
    const inner = await window('2026-06-01T00:00:01Z', '2026-06-03T23:59:59Z');
    if ((inner.label_overview as Json).total_labels !== 2) fail(`a window a second inside the first and last labels holds ${show((inner.label_overview as Json).total_labels)} labels, expected 2`);
    const stats = (inner.metric_stats as Json[])[0];
    // Each linked simulation has one label in the window: reviewed by one reviewer, so unknown (issue 30).
    const want = { metric_id: metric, label_count: 2, labeled_simulations: 2, agreements: 0, disagreements: 0, agreement_rate: 0, unknown: 2, not_reviewed: 0 };
    const got = Object.fromEntries(Object.keys(want).map((k) => [k, stats?.[k]]));
    if (show(got) !== show(want)) fail(`metric_stats inside the window: ${show(got)}, expected ${show(want)}`);
  },
};

export const insightsDisagreements: Check = {
  name: 'rule review-insights: annotations without a label count as disagreements only; review_label_options hold every label once, sorted; by simulation time, an annotation of an unknown simulation is outside the window',
  applies: operationWithRule('review-project', 'custom', 'review-insights'),
  async run(ctx) {
    const control = controlOf(ctx, 'load annotations');
    const simulationTime = '2026-09-01T00:00:00Z';
    const sims = await simulations(ctx, 2, { create_time: simulationTime });
    const metric = (await ctx.world.create('metric')).id;
    const p = await project(ctx, { assignees: [A, B], linked_simulation_ids: sims, linked_metric_ids: [metric] });
    const [s1, s2] = sims as [string, string];
    const ghost = unusedLike(s1);
    const open = { disagreement: true };
    await loadFixtures(control, [
      label(p, s1, metric, A, 'fine', '2026-07-01T00:00:00Z'),
      label(p, s1, metric, B, 'fine', '2026-07-02T00:00:00Z', { disagreement: true, resolved: true }),
      label(p, s2, metric, A, 'poor', '2026-07-03T00:00:00Z'),
      label(p, s2, metric, B, null, '2026-07-03T00:00:00Z', open),
      label(p, s1, metric, null, null, '2026-07-04T00:00:00Z', open),
      label(p, ghost, metric, A, 'fine', '2026-07-05T00:00:00Z'),
      label(p, s2, metric, A, 'late', '2026-08-01T00:00:00Z', open),
    ]);
    // docs/sandbox.md "Review projects": the window holds the annotations of July by their create_time; labels
    // count only annotations holding one, disagreements every annotation (disagreement true, resolved not true).
    const july = await ask(ctx, ctx.route, p, { start_date: '2026-07-01T00:00:00Z', end_date: '2026-07-31T23:59:59Z' });
    const overview = { total_labels: 4, labeled_simulations: 3, reviewers: 2, disagreements: 3, unresolved_disagreements: 2 };
    if (show(july.label_overview) !== show(overview)) fail(`label_overview for July: expected ${show(overview)}, got ${show(july.label_overview)}`);
    const stats = [{ label: 'fine', count: 3 }, { label: 'poor', count: 1 }];
    if (show(july.label_stats) !== show(stats)) fail(`label_stats for July: expected ${show(stats)}, got ${show(july.label_stats)}`);
    const options = ['fine', 'late', 'poor'];
    if (show((july.project as Json).review_label_options) !== show(options)) fail(`review_label_options: expected ${show(options)}, got ${show((july.project as Json).review_label_options)}`);
    // By simulation time every annotation of s1 and s2 is in a window at their create_time; the unknown
    // simulation has no time, so its annotation is in none.
    const bySimulation = await ask(ctx, ctx.route, p, { start_date: simulationTime, end_date: simulationTime, label_triage_time_basis: 'simulation' });
    const want = { total_labels: 4, labeled_simulations: 2, reviewers: 2, disagreements: 4, unresolved_disagreements: 3 };
    if (show(bySimulation.label_overview) !== show(want)) fail(`label_overview at the simulations' create_time: expected ${show(want)}, got ${show(bySimulation.label_overview)}`);
  },
};

export const checks: Check[] = [wholeListsWin, editsNotStored, progressEdges, agreementEdges, insightsEdges, insightsDisagreements];
