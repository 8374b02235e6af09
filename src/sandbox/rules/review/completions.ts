// Completed review conversations (POST /review-projects/{project_id}/complete-conversation, facts-shapes 2.14
// RP10), stored as records of kind `review_completion`: { project_id, simulation_id, assignee (lower-case e-mail,
// null when a collaborative project's conversation was completed without naming one), complete_time }. The id
// is made of the three, so completing again finds the same record (docs/sandbox.md "Newer client (issue 30)").
import type { RequestContext } from '../../engine/context.js';

const KIND = 'review_completion';

export interface Completion {
  simulation_id: string;
  assignee: string | null;
}

function idOf(projectId: string, simulationId: string, assignee: string | null): string {
  return JSON.stringify([projectId, simulationId, assignee]);
}

/** The project's completions. */
export function completionsOf(ctx: RequestContext, projectId: string): Completion[] {
  return ctx.runtime.store
    .list(KIND, { org: ctx.org })
    .filter((r) => r.org === ctx.org && !r.deleted && r.data.project_id === projectId)
    .map((r) => ({ simulation_id: String(r.data.simulation_id), assignee: typeof r.data.assignee === 'string' ? r.data.assignee : null }));
}

/** Records the completion once; a second call for the same conversation and assignee changes nothing. */
export function recordCompletion(ctx: RequestContext, projectId: string, simulationId: string, assignee: string | null): void {
  const id = idOf(projectId, simulationId, assignee);
  if (ctx.runtime.store.get(KIND, id)) return;
  ctx.runtime.store.insert({
    kind: KIND,
    id,
    org: ctx.org,
    workspace: null,
    deleted: false,
    data: { project_id: projectId, simulation_id: simulationId, assignee, complete_time: ctx.now },
  });
}
