// review-complete-conversation: POST /review-projects/{project_id}/complete-conversation (facts-shapes 2.14 RP10).
// Marks one of the project's linked simulations complete, or answers what blocks it (200 either way: the answer
// carries the blockers), our reading of the facts (docs/sandbox.md "Newer client (issue 30)"):
// - the simulation must be linked to the project and visible (404 on simulation_output_id); `assignee` must be one
//   of the project's assignees (400), and an individual project requires it (400): there each assignee completes
//   each conversation on their own labels; a collaborative project's conversation is completed once, on
//   everyone's labels.
// - blockers, per linked metric in order: MISSING_METRIC_VALUE (the simulation has no completed output with a
//   value for it, as its metric list shows: outputsOf), MISSING_REVIEW_LABEL (no label for it on this simulation
//   by the reviewers that count); then, under require_disagreement_notes, MISSING_DISAGREEMENT_NOTE once per metric
//   with an annotation (of those reviewers) flagged as a disagreement without a note.
// - success: the conversation is complete after the call; completed_conversation_count: linked simulations
//   complete (for the assignee, in an individual project); is_complete: all of them are.
// Progress (review-progress) still counts labels, not completions.
import { invalid, notFound } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord } from '../engine/records.js';
import { bodyOf } from '../engine/request-parts.js';
import type { Json } from '../storage/store.js';
import { outputsOf } from './conversation/outputs.js';
import { annotationsOf, projectOf, stringList } from './review/annotations.js';
import { completionsOf, recordCompletion } from './review/completions.js';

function blocker(code: string, message: string, metricId: string | null): Json {
  return { code, message, metric_id: metricId };
}

export const reviewCompleteConversation: Rule = {
  handle(ctx) {
    const project = projectOf(ctx);
    const body = bodyOf(ctx, 'completeReviewConversation');
    const individual = project.data.project_type === 'PROJECT_INDIVIDUAL';
    const assignees = stringList(project.data.assignees).map((a) => a.toLowerCase());
    const assignee = typeof body.assignee === 'string' ? body.assignee.toLowerCase() : null;
    if (assignee === null && individual) throw invalid('assignee', 'required in an individual project: each assignee completes each conversation');
    if (assignee !== null && !assignees.includes(assignee)) throw invalid('assignee', 'is not an assignee of the project');
    const linked = stringList(project.data.linked_simulation_ids);
    const simulationId = body.simulation_output_id;
    if (!linked.includes(simulationId)) throw notFound('simulation_output_id', 'conversation of the project');
    const simulation = findRecord(ctx, 'simulation', simulationId, { field: 'simulation_output_id' });

    // Whose labels count: the assignee's in an individual project, everyone's in a collaborative one.
    const mine = annotationsOf(ctx, project.id).filter((a) => a.simulation_id === simulationId && (!individual || a.reviewer === assignee));
    const valued = new Set(outputsOf('simulation', simulation).filter((o) => o.status === 'COMPLETED' && o.value !== null && o.value !== undefined).map((o) => String(o.metric_id)));
    const blockers: Json[] = [];
    for (const metric of stringList(project.data.linked_metric_ids)) {
      if (!valued.has(metric)) blockers.push(blocker('MISSING_METRIC_VALUE', `the conversation has no value for metric ${metric}`, metric));
      if (!mine.some((a) => a.metric_id === metric && a.label !== null)) blockers.push(blocker('MISSING_REVIEW_LABEL', `metric ${metric} has no review label on the conversation`, metric));
    }
    if (stringList(project.data.project_rules).includes('require_disagreement_notes')) {
      const unnoted = new Set(mine.filter((a) => a.disagreement && a.note === null).map((a) => a.metric_id));
      for (const metric of unnoted) blockers.push(blocker('MISSING_DISAGREEMENT_NOTE', metric === null ? 'a disagreement on the conversation has no note' : `a disagreement on metric ${metric} has no note`, metric));
    }
    if (blockers.length === 0) recordCompletion(ctx, project.id, simulationId, assignee);

    const linkedSet = new Set(linked);
    const done = new Set(completionsOf(ctx, project.id).filter((c) => linkedSet.has(c.simulation_id) && (!individual || c.assignee === assignee)).map((c) => c.simulation_id));
    return {
      body: {
        success: blockers.length === 0,
        is_complete: done.size === linkedSet.size,
        completed_conversation_count: done.size,
        blockers,
      },
    };
  },
};
