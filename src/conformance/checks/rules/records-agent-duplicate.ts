// agent-duplicate (facts-shapes 2.2 AG6; docs/sandbox.md "Resources", the sandbox's choices): a duplicate is a
// new agent with the source's configuration, "<name> (copy)", its own id, customer_agent_id and first version;
// associations (metric_ids, test_set_ids) only with include_associations; a deleted source is 404.
import { expectError, send } from '../../http.js';
import { fail } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check } from '../context.js';
import { operationWithRule, routeOf, show, succeed } from './records-support.js';

export const duplicate: Check = {
  name: 'rule agent-duplicate: a duplicate is a new agent "<name> (copy)" with the configuration, its own id and version 1; associations only with include_associations',
  applies: operationWithRule('agent', 'custom', 'agent-duplicate'),
  async run(ctx) {
    const metric = (await ctx.world.ensure('metric')).id;
    const source = await ctx.world.create('agent', { metric_ids: [metric], prompt: 'Copy me.' });
    const path = { agent_id: source.id };
    const copy = recordOf(ctx.route, await succeed(ctx, ctx.route, { path, body: {} }, 'duplicating an agent'))!;
    ctx.world.created.push({ resource: 'agent', id: String(copy.id), path: { agent_id: String(copy.id) }, record: copy });
    const want = { display_name: `${String(source.record.display_name)} (copy)`, prompt: 'Copy me.', model_type: source.record.model_type, metric_ids: [] };
    for (const [k, v] of Object.entries(want)) if (show(copy[k]) !== show(v)) fail(`copy ${k}: expected ${show(v)}, got ${show(copy[k])}`);
    if (copy.id === source.id || copy.customer_agent_id !== copy.id) fail(`the copy has id ${show(copy.id)} and customer_agent_id ${show(copy.customer_agent_id)}, expected its own id in both`);
    const version = copy.current_version as { version_number?: number } | undefined;
    if (version?.version_number !== 1) fail(`the copy starts at version ${show(version?.version_number)}, expected 1`);
    const full = recordOf(ctx.route, await succeed(ctx, ctx.route, { path, body: { include_associations: true } }, 'duplicating with its associations'))!;
    ctx.world.created.push({ resource: 'agent', id: String(full.id), path: { agent_id: String(full.id) }, record: full });
    if (show(full.metric_ids) !== show([metric])) fail(`with include_associations the copy has metric_ids ${show(full.metric_ids)}, expected ${show([metric])}`);
    await succeed(ctx, routeOf(ctx, 'agent', 'delete'), { path }, 'deleting the source');
    expectError(await send(ctx.target, ctx.route, { path, body: {} }), 404, 'NOT_FOUND', 'agent_id', 'duplicating a deleted agent');
  },
};

export const checks: Check[] = [duplicate];
