// review-insights: GET /review-projects/{project_id}/insights (facts-shapes 2.10 RP7). The project's
// annotations whose time lies in [start_date, end_date] (label_triage_time_basis label: the annotation's
// create_time; simulation: its simulation's create_time; an annotation without that time is outside every
// window) give label_overview, label_stats (per label, most frequent first) and metric_stats (per linked metric,
// with agreement as in review-metric-agreement). review_label_options are the labels of all the project's
// annotations (docs/sandbox.md "Review projects"). Each metric_stats item (facts-shapes 2.14 RP7') sorts the
// project's linked simulations into agreement, disagreement, unknown (one reviewer) and not reviewed (no label in
// the window), with their id lists in linked order; criteria_view_mode criteria compares labels criterion by
// criterion and adds criteria_agreement (docs/sandbox.md "Newer client (issue 30)").
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';
import type { Json } from '../storage/store.js';
import { annotationsOf, criteriaAgreementOf, projectOf, rate, stringList, verdictsOf, viewModeOf, type Annotation, type ViewMode } from './review/annotations.js';

/** Strings in code-unit order (the default sort's order for strings). */
function sortedText(values: Iterable<string>): string[] {
  return [...values].sort();
}

/** One metric_stats item: the linked simulations by verdict, in linked order, and the label counts. */
function metricStats(metric: string, linked: string[], inWindow: Annotation[], mode: ViewMode): Json {
  const linkedSet = new Set(linked);
  const labeled = inWindow.filter((a) => a.label !== null && a.metric_id === metric);
  const onLinked = labeled.filter((a) => linkedSet.has(a.simulation_id));
  const verdicts = verdictsOf(inWindow, metric, mode, linkedSet);
  const idsOf = (verdict: string): string[] => linked.filter((s) => (verdicts.get(s) ?? 'not_reviewed') === verdict);
  const agreementIds = idsOf('agreement');
  const disagreementIds = idsOf('disagreement');
  const unknownIds = idsOf('unknown');
  const notReviewedIds = idsOf('not_reviewed');
  let criteria: Json | null = null;
  if (mode === 'criteria') {
    criteria = {};
    const byCriterion = criteriaAgreementOf(inWindow, metric, linkedSet);
    // Criterion names in code-unit order, so the answer does not depend on the order labels were loaded in.
    for (const name of sortedText(byCriterion.keys())) {
      const { agreements, disagreements } = byCriterion.get(name)!;
      setOwn(criteria, name, { agreements, disagreements, agreement_rate: rate(agreements, disagreements) });
    }
  }
  return {
    metric_id: metric,
    conversations: linked.length,
    annotations: onLinked.length,
    agreements: agreementIds.length,
    disagreements: disagreementIds.length,
    not_reviewed: notReviewedIds.length,
    unknown: unknownIds.length,
    agreement_rate: rate(agreementIds.length, disagreementIds.length),
    criteria_agreement: criteria,
    simulation_output_ids: linked,
    agreement_simulation_output_ids: agreementIds,
    disagreement_simulation_output_ids: disagreementIds,
    not_reviewed_simulation_output_ids: notReviewedIds,
    unknown_simulation_output_ids: unknownIds,
    label_count: labeled.length,
    labeled_simulations: new Set(labeled.map((a) => a.simulation_id)).size,
  };
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
    const linked = stringList(project.data.linked_simulation_ids);
    const mode = viewModeOf(ctx.query.criteria_view_mode);
    const stats = stringList(project.data.linked_metric_ids).map((metric) => metricStats(metric, linked, inWindow, mode));
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
        metric_stats: stats,
      },
    };
  },
};
