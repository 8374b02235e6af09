// agent-duplicate: POST /agents/{agent_id}/duplicate (facts-shapes 2.2 AG6) creates a new agent from the
// configuration of one the caller can see, through the create operation's own path (defaults, normalisation,
// first version): display_name "<name> (copy)" (cut to 200 characters), its own id and customer_agent_id (the
// copy is another agent), tags copied; metric_ids, test_set_ids and knowledge_base_ids only with
// include_associations (default false). Version history is not copied: the copy starts at version 1.
import type { RequestContext } from '../engine/context.js';
import type { Hooks, Rule } from '../engine/hooks.js';
import type { Route } from '../engine/tables.js';
import { createAction } from '../engine/actions.js';
import { clone, findRecord, setOwn } from '../engine/records.js';
import type { Json } from '../storage/store.js';
import { agentNormalize } from './agent-normalize.js';

const ASSOCIATIONS = ['metric_ids', 'test_set_ids', 'knowledge_base_ids'];
const NOT_COPIED = ['customer_agent_id', ...ASSOCIATIONS];
const NAME_MAX = 200;

/** The create operation of the duplicated resource (the canonical one, not a legacy alias): the copy goes through it. */
function createRouteOf(ctx: RequestContext): Route {
  const create = ctx.runtime.tables.routes.find((r) => r.resource === ctx.route.resource && r.action === 'create' && r.aliasOf === null);
  if (!create) throw new Error(`agent-duplicate: ${ctx.route.resource ?? 'the resource'} has no create operation`);
  return create;
}

export const agentDuplicate: Rule = {
  handle(ctx) {
    const source = findRecord(ctx, 'agent', ctx.path.agent_id, { field: 'agent_id' });
    const create = createRouteOf(ctx);
    const withAssociations = ctx.body.include_associations === true;
    const body: Json = {};
    for (const field of create.body?.properties ?? []) {
      const value = source.data[field];
      if (value === undefined || value === null || (NOT_COPIED.includes(field) && !(withAssociations && ASSOCIATIONS.includes(field)))) continue;
      setOwn(body, field, clone(value));
    }
    setOwn(body, 'display_name', `${String(source.data.display_name)}`.slice(0, NAME_MAX - ' (copy)'.length) + ' (copy)');
    const hooks: Hooks = { write: (c, next, previous) => agentNormalize.write!(c, next, previous) };
    return createAction({ ...ctx, route: create, body }, hooks);
  },
};
