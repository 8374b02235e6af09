// review-metric-agreement: GET /review-projects/{project_id}/metric-agreement (facts-shapes 2.10 RP8). Per linked
// metric, the linked simulations two or more reviewers labeled: all alike is an agreement, else a disagreement;
// agreement_rate = agreements / (agreements + disagreements), 0 when there are neither (docs/sandbox.md).
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';
import type { Json } from '../storage/store.js';
import { agreementOf, annotationsOf, projectOf, rate, stringList } from './review/annotations.js';

export const reviewMetricAgreement: Rule = {
  handle(ctx) {
    const project = projectOf(ctx);
    const annotations = annotationsOf(ctx, project.id);
    const simulations = new Set(stringList(project.data.linked_simulation_ids));
    const byMetric: Json = {};
    for (const metric of stringList(project.data.linked_metric_ids)) {
      const { agreements, disagreements } = agreementOf(annotations, metric, simulations);
      setOwn(byMetric, metric, { metric_id: metric, agreements, disagreements, agreement_rate: rate(agreements, disagreements) });
    }
    return { body: { agreement_by_metric_id: byMetric } };
  },
};
