// review-metric-agreement: GET /review-projects/{project_id}/metric-agreement (facts-shapes 2.10 RP8). Per linked
// metric, the linked simulations two or more reviewers labeled: all alike is an agreement, else a disagreement;
// agreement_rate = agreements / (agreements + disagreements), 0 when there are neither (docs/sandbox.md).
// criteria_view_mode criteria (facts-shapes 2.14 RP8') compares the labels criterion by criterion (review/annotations.ts).
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';
import type { Json } from '../storage/store.js';
import { agreementOf, annotationsOf, projectOf, rate, stringList, viewModeOf } from './review/annotations.js';

export const reviewMetricAgreement: Rule = {
  handle(ctx) {
    const project = projectOf(ctx);
    const annotations = annotationsOf(ctx, project.id);
    const simulations = new Set(stringList(project.data.linked_simulation_ids));
    const mode = viewModeOf(ctx.query.criteria_view_mode);
    const byMetric: Json = {};
    for (const metric of stringList(project.data.linked_metric_ids)) {
      const { agreements, disagreements } = agreementOf(annotations, metric, simulations, mode);
      setOwn(byMetric, metric, { metric_id: metric, agreements, disagreements, agreement_rate: rate(agreements, disagreements) });
    }
    return { body: { agreement_by_metric_id: byMetric } };
  },
};
