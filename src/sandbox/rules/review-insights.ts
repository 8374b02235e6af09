// review-insights: GET /review-projects/{project_id}/insights (facts-shapes 2.10 RP7). The project's
// annotations whose time lies in [start_date, end_date] (label_triage_time_basis label: the annotation's
// create_time; simulation: its simulation's create_time; an annotation without that time is outside every
// window) give label_overview, label_stats (per label, most frequent first) and metric_stats (per linked metric,
// with agreement as in review-metric-agreement). review_label_options are the labels of all the project's
// annotations (docs/sandbox.md "Review projects").
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { agreementOf, annotationsOf, projectOf, rate, stringList, type Annotation } from './review/annotations.js';

/** Strings in code-unit order (the default sort's order for strings). */
function sortedText(values: Iterable<string>): string[] {
  return [...values].sort();
}

export const reviewInsights: Rule = {
  handle(ctx) {
    const project = projectOf(ctx);
    // start_date and end_date are required date-times (the generated validator).
    const from = Date.parse(String(ctx.query.start_date));
    const to = Date.parse(String(ctx.query.end_date));
    if (to < from) throw invalid('end_date', 'must not be before start_date');
    const bySimulation = ctx.query.label_triage_time_basis === 'simulation';
    const timeOf = (a: Annotation): number => {
      const at = bySimulation ? ctx.runtime.store.get('simulation', a.simulation_id)?.data.create_time : a.create_time;
      return typeof at === 'string' ? Date.parse(at) : Number.NaN;
    };
    const all = annotationsOf(ctx, project.id);
    const inWindow = all.filter((a) => {
      const t = timeOf(a);
      return t >= from && t <= to;
    });
    const labeled = inWindow.filter((a) => a.label !== null);
    const counts = new Map<string, number>();
    for (const a of labeled) counts.set(a.label!, (counts.get(a.label!) ?? 0) + 1);
    // Most frequent first; ties stay in label order (the sort is stable).
    const labelStats = sortedText(counts.keys())
      .map((label) => ({ label, count: counts.get(label)! }))
      .sort((p, q) => q.count - p.count);
    const metricStats = stringList(project.data.linked_metric_ids).map((metric) => {
      const mine = labeled.filter((a) => a.metric_id === metric);
      const { agreements, disagreements } = agreementOf(inWindow, metric);
      return { metric_id: metric, label_count: mine.length, labeled_simulations: new Set(mine.map((a) => a.simulation_id)).size, agreements, disagreements, agreement_rate: rate(agreements, disagreements) };
    });
    return {
      body: {
        project: {
          ulid: project.id,
          name: project.data.name,
          linked_metric_ids: stringList(project.data.linked_metric_ids),
          review_label_options: sortedText(new Set(all.flatMap((a) => (a.label === null ? [] : [a.label])))),
        },
        label_overview: {
          total_labels: labeled.length,
          labeled_simulations: new Set(labeled.map((a) => a.simulation_id)).size,
          reviewers: new Set(labeled.map((a) => a.reviewer)).size,
          disagreements: inWindow.filter((a) => a.disagreement).length,
          unresolved_disagreements: inWindow.filter((a) => a.disagreement && !a.resolved).length,
        },
        label_stats: labelStats,
        metric_stats: metricStats,
      },
    };
  },
};
