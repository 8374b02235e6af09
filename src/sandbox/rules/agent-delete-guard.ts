// agent-delete-guard: an agent that an active run template references cannot be deleted (400, field agent_id).
// Run templates are loaded by fixture (kind run_template, data { agent_id | agent_ids, active }).
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';

export const agentDeleteGuard: Rule = {
  before(ctx) {
    const param = ctx.route.params.path[0]!.name;
    const agentId = ctx.path[param];
    const blocking = ctx.runtime.store
      .list('run_template', { org: ctx.org })
      .filter((t) => t.data.active !== false)
      .some((t) => t.data.agent_id === agentId || (Array.isArray(t.data.agent_ids) && t.data.agent_ids.includes(agentId)));
    if (blocking) throw invalid(param, 'the agent is referenced by an active run template and cannot be deleted');
  },
};
