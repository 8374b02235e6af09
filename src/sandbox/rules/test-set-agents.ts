// test-set-agents: which agents a test set is attached to. The link is the agent's own test_set_ids (the seed's
// agent field), so attaching here is the same as listing the test set on the agent, and the other way round.
// - GET: {agents: [{name, agent_id, display_name}]}, the workspace's live agents whose test_set_ids hold the
//   test set, in creation order.
// - agents:add: every agent_ids entry must be a live agent in scope (404 on agent_ids, nothing changes);
//   the test set is appended to each one's test_set_ids (already attached: unchanged); answers the GET list.
// - DELETE .../agents/{agent_id}: removes the test set from that agent's test_set_ids (an agent not attached
//   stays as it is); an unknown agent is 404 on agent_id; answers {}.
// The test set in the path must be live and in scope (404 on test_set_id). An agent whose test_set_ids change
// records a version when test_set_ids is tracked (as a save of the agent would).
//
// Decisions (docs/sandbox.md "Test sets"): the link, the order, the 404s, `agents/<id>` as the item's name.
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { clone, findRecord, inScope, isHidden, setOwn, stampUpdated } from '../engine/records.js';
import { bodyOf } from '../engine/request-parts.js';
import { recordVersion, trackedChanged } from '../engine/versions.js';
import { asResource, listRecords, type RecordOf } from '../storage/typed.js';

function linked(record: RecordOf<'agent'>, testSetId: string): boolean {
  return Array.isArray(record.data.test_set_ids) && record.data.test_set_ids.includes(testSetId);
}

function attachedAgents(ctx: RequestContext, testSetId: string): RecordOf<'agent'>[] {
  const resource = ctx.runtime.resource('agent');
  return listRecords(ctx.runtime.store, 'agent', { org: ctx.org }).filter((r) => inScope(ctx, resource, r) && !isHidden(resource, r) && linked(r, testSetId));
}

/** Writes the agent's new test_set_ids like a save: stamped, and versioned when the field is tracked. */
function saveLinks(ctx: RequestContext, agent: RecordOf<'agent'>, ids: string[]): void {
  const resource = ctx.runtime.resource('agent');
  const previous = clone(agent.data);
  setOwn(agent.data, 'test_set_ids', ids);
  stampUpdated(resource, agent.data, ctx.now);
  if (resource.versioned && trackedChanged(resource, previous, agent.data)) recordVersion(ctx.runtime, resource, agent, 'save');
  ctx.runtime.store.update(agent);
}

function listing(ctx: RequestContext, testSetId: string) {
  return {
    agents: attachedAgents(ctx, testSetId).map((a) => ({ name: `agents/${a.id}`, agent_id: a.id, display_name: typeof a.data.display_name === 'string' ? a.data.display_name : '' })),
  };
}

// Named on listTestSetAgents, addTestSetAgents and removeTestSetAgent only.
export const testSetAgents: Rule = {
  handle(ctx) {
    const testSet = findRecord(ctx, 'test_set', ctx.path.test_set_id, { field: 'test_set_id' });
    if (ctx.route.method === 'GET') return { body: listing(ctx, testSet.id) };
    if (ctx.route.method === 'DELETE') {
      const agent = asResource('agent', findRecord(ctx, 'agent', ctx.path.agent_id, { field: 'agent_id' }));
      if (linked(agent, testSet.id)) saveLinks(ctx, agent, (agent.data.test_set_ids ?? []).filter((id) => id !== testSet.id));
      return { body: {} };
    }
    // agents:add: all agents are checked before any changes.
    const agents = bodyOf(ctx, 'addTestSetAgents').agent_ids.map((id) => asResource('agent', findRecord(ctx, 'agent', id, { field: 'agent_ids' })));
    for (const agent of agents) {
      if (linked(agent, testSet.id)) continue;
      const ids = Array.isArray(agent.data.test_set_ids) ? agent.data.test_set_ids : [];
      saveLinks(ctx, agent, [...ids, testSet.id]);
    }
    return { body: listing(ctx, testSet.id) };
  },
};
