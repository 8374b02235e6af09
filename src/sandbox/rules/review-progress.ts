// review-progress: GET /review-projects/{project_id}/progress (facts-shapes 2.10 RP9, unwrapped). A task is a
// linked simulation and linked metric (collaborative projects: done once any reviewer labels it) or that per
// assignee (individual projects: done once that assignee labels it); completion_percentage is completed / total
// × 100 to two decimals, 0 without tasks (docs/sandbox.md "Review projects").
import type { Rule } from '../engine/hooks.js';
import { annotationsOf, projectOf, stringList } from './review/annotations.js';

export const reviewProgress: Rule = {
  handle(ctx) {
    const project = projectOf(ctx);
    const simulations = new Set(stringList(project.data.linked_simulation_ids));
    // Holds strings only; typed to take an annotation's metric_id, null when it names none (never linked).
    const metrics = new Set<string | null>(stringList(project.data.linked_metric_ids));
    const assignees = new Set(stringList(project.data.assignees).map((a) => a.toLowerCase()));
    const individual = project.data.project_type === 'PROJECT_INDIVIDUAL';
    const done = new Set<string>();
    for (const a of annotationsOf(ctx, project.id)) {
      if (a.label === null || !simulations.has(a.simulation_id) || !metrics.has(a.metric_id)) continue;
      if (individual && !assignees.has(a.reviewer)) continue;
      // A task: simulation, metric and, in an individual project, the assignee.
      done.add(JSON.stringify([a.simulation_id, a.metric_id, individual && a.reviewer]));
    }
    const total = simulations.size * metrics.size * (individual ? assignees.size : 1);
    return {
      body: {
        project_id: project.id,
        display_name: project.data.display_name,
        project_type: project.data.project_type,
        simulation_count: simulations.size,
        metric_count: metrics.size,
        assignee_count: assignees.size,
        total_tasks: total,
        completed_tasks: done.size,
        completion_percentage: total === 0 ? 0 : Math.round((done.size / total) * 10000) / 100,
      },
    };
  },
};
