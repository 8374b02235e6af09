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
import { clone, findRecord, inScope, setOwn, stampUpdated } from '../engine/records.js';
import { bodyOf } from '../engine/request-parts.js';
import { recordVersion, trackedChanged } from '../engine/versions.js';
import { asResource, listRecords, type RecordOf } from '../storage/typed.js';

// An agent's test_set_ids is always a list: the create default is [] and a null in an update leaves it unchanged.
function idsOf(record: RecordOf<'agent'>): string[] {
  return record.data.test_set_ids as string[];
}

function linked(record: RecordOf<'agent'>, testSetId: string): boolean {
  return idsOf(record).includes(testSetId);
}

function attachedAgents(ctx: RequestContext, testSetId: string): RecordOf<'agent'>[] {
  const resource = ctx.runtime.resource('agent');
  // store.list leaves deleted agents out (agents have no hidden lifecycle state); inScope keeps the workspace's.
  return listRecords(ctx.runtime.store, 'agent', { org: ctx.org }).filter((r) => inScope(ctx, resource, r) && linked(r, testSetId));
}

/** Writes the agent's new test_set_ids like a save: stamped, and versioned when the field is tracked. */
function saveLinks(ctx: RequestContext, agent: RecordOf<'agent'>, ids: string[]): void {
  const resource = ctx.runtime.resource('agent');
  const previous = clone(agent.data);
  setOwn(agent.data, 'test_set_ids', ids);
  stampUpdated(resource, agent.data, ctx.now);
  // Agents are versioned (seed Versioning).
  if (trackedChanged(resource, previous, agent.data)) recordVersion(ctx.runtime, resource, agent, 'save');
  ctx.runtime.store.update(agent);
}

function listing(ctx: RequestContext, testSetId: string) {
  return {
    // display_name is required of every agent (the create body and the Agent schema).
    agents: attachedAgents(ctx, testSetId).map((a) => ({ name: `agents/${a.id}`, agent_id: a.id, display_name: a.data.display_name })),
  };
}

// Named on listTestSetAgents, addTestSetAgents and removeTestSetAgent only.
export const testSetAgents: Rule = {
  handle(ctx) {
    const testSet = findRecord(ctx, 'test_set', ctx.path.test_set_id, { field: 'test_set_id' });
    if (ctx.route.method === 'GET') return { body: listing(ctx, testSet.id) };
    if (ctx.route.method === 'DELETE') {
      const agent = asResource('agent', findRecord(ctx, 'agent', ctx.path.agent_id, { field: 'agent_id' }));
      if (linked(agent, testSet.id)) saveLinks(ctx, agent, idsOf(agent).filter((id) => id !== testSet.id));
      return { body: {} };
    }
    // agents:add: all agents are checked before any changes.
    const agents = bodyOf(ctx, 'addTestSetAgents').agent_ids.map((id) => asResource('agent', findRecord(ctx, 'agent', id, { field: 'agent_ids' })));
    for (const agent of agents) {
      if (linked(agent, testSet.id)) continue;
      saveLinks(ctx, agent, [...idsOf(agent), testSet.id]);
    }
    return { body: listing(ctx, testSet.id) };
  },
};
