// review-disagreement: per requested project that has the require_disagreement_notes rule (project_rules), the simulations
// with unresolved reviewer disagreement. Annotations are fixtures (kind annotation, data { project_id,
// simulation_id, disagreement, resolved }). Ids are listed only with include_unresolved_ids, and then only
// for selected_project_id when it is given.
import type { Rule } from '../engine/hooks.js';
import { bodyOf } from '../engine/request-parts.js';

export const reviewDisagreement: Rule = {
  handle(ctx) {
    // project_ids is required (1-1000 ids, the generated validator).
    const body = bodyOf(ctx, 'getReviewDisagreementState');
    const ids = body.project_ids;
    const withIds = body.include_unresolved_ids === true;
    const selected = typeof body.selected_project_id === 'string' ? body.selected_project_id : null;
    const annotations = ctx.runtime.store.list('annotation', { org: ctx.org }).filter((a) => a.org === ctx.org);
    const projects = [];
    for (const id of [...new Set(ids)]) {
      const project = ctx.runtime.store.get('review-project', id);
      if (!project || project.deleted || project.org !== ctx.org) continue;
      if (!Array.isArray(project.data.project_rules) || !project.data.project_rules.includes('require_disagreement_notes')) continue;
      const open = annotations.filter((a) => a.data.project_id === id && a.data.disagreement === true && a.data.resolved !== true);
      const simulations = [...new Set(open.map((a) => String(a.data.simulation_id)))];
      const entry: Record<string, unknown> = { project_id: id, unresolved_simulation_count: simulations.length };
      if (withIds && (selected === null || selected === id)) {
        entry.unresolved_simulation_ids = simulations;
        entry.unresolved_annotation_ids = open.map((a) => a.id);
      }
      projects.push(entry);
    }
    return { body: { projects } };
  },
};
