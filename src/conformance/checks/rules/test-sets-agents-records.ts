// Test-set agents (test-set-agents) and records (test-set-records), as the spec's operations document them:
// - listTestSetAgents: "the agents this test set is attached to (agents whose test_set_ids hold it)";
//   addTestSetAgents attaches (adds it to each agent's test_set_ids), removeTestSetAgent detaches.
// - listTestSetRecords: "the test set's test cases as records, in grid order" (input = the case's input_str).
import { send } from '../../http.js';
import { fail } from '../../result.js';
import type { Check } from '../context.js';
import { operationWithRule, read, routeOf, show, succeed, type Json } from './records-support.js';

const AGENTS = 'test-set-agents';
const RECORDS = 'test-set-records';

const attachDetach: Check = {
  name: `rule ${AGENTS}: agents:add puts the test set in the agents' test_set_ids and lists them; removing takes it out`,
  applies: (route) => route.rules.includes(AGENTS) && route.method === 'POST',
  async run(ctx) {
    const list = ctx.suite.routes.find((r) => r.rules.includes(AGENTS) && r.method === 'GET');
    const remove = ctx.suite.routes.find((r) => r.rules.includes(AGENTS) && r.method === 'DELETE');
    if (!list || !remove) fail(`the spec lacks the GET or DELETE operation with rule ${AGENTS}`);
    const set = await ctx.world.create('test_set');
    const agent = await ctx.world.create('agent');
    const listed = async () => ((await succeed(ctx, list, { path: set.path }, 'listing the attached agents')).body as { agents: Json[] }).agents.map((a) => a.agent_id);
    if ((await listed()).includes(agent.id)) fail('a new agent is listed before it was attached');
    const added = ((await succeed(ctx, ctx.route, { path: set.path, body: { agent_ids: [agent.id] } }, 'attaching the agent')).body as { agents: Json[] }).agents;
    const entry = added.find((a) => a.agent_id === agent.id);
    if (!entry || entry.display_name !== agent.record.display_name) fail(`agents:add answered ${show(added)}, expected the agent with its display_name`);
    const ids = (await read(ctx, 'agent', agent.path)).test_set_ids as unknown[] | undefined;
    if (!Array.isArray(ids) || !ids.includes(set.id)) fail(`the agent's test_set_ids are ${show(ids)}, expected them to hold ${set.id}`);
    if (!(await listed()).includes(agent.id)) fail('the attached agent is not listed');
    await succeed(ctx, remove, { path: { ...set.path, agent_id: agent.id } }, 'detaching the agent');
    if ((await listed()).includes(agent.id)) fail('the detached agent is still listed');
    const after = (await read(ctx, 'agent', agent.path)).test_set_ids as unknown[] | undefined;
    if (Array.isArray(after) && after.includes(set.id)) fail(`after detaching, the agent's test_set_ids still hold ${set.id}`);
    const unknown = await send(ctx.target, ctx.route, { path: set.path, body: { agent_ids: ['AAAAAAAAAAAAAAAAAAAAAA'] } });
    if (unknown.status !== 404) fail(`attaching an unknown agent answered ${unknown.status}, expected 404`);
  },
};

const recordsInGridOrder: Check = {
  name: `rule ${RECORDS}: the records are the test cases in grid order, input = input_str, with the test set's id`,
  applies: operationWithRule('test_set', 'custom', RECORDS),
  async run(ctx) {
    const update = routeOf(ctx, 'test_set', 'update');
    const set = await ctx.world.create('test_set');
    await succeed(ctx, update, { path: set.path, body: { test_cases: ['third case', 'fourth case', 'fifth case'].map((input_str) => ({ input_str })) } }, 'saving a grid');
    // Rows added above the saved ones (the spec's CreateTestCaseRequest.position: later rows move down), so the
    // grid order differs from the order the rows were made in.
    const create = routeOf(ctx, 'test_case', 'create');
    for (const [input_str, position] of [['first case', 0], ['second case', 1]] as const) {
      await succeed(ctx, create, { body: { test_set_id: set.id, input_str, position } }, `adding ${input_str} at position ${position}`);
    }
    const inputs = ['first case', 'second case', 'third case', 'fourth case', 'fifth case'];
    const grid = ((await read(ctx, 'test_set', set.path)).test_cases as Json[]).map((c) => c.id);
    const records = ((await succeed(ctx, ctx.route, { path: set.path }, 'listing the records')).body as { records: Json[] }).records;
    const got = records.map((r) => [r.id, r.input, r.test_set_id]);
    const expected = inputs.map((input, i) => [grid[i], input, set.id]);
    if (JSON.stringify(got) !== JSON.stringify(expected)) fail(`the records are ${show(got)}, expected ${show(expected)}`);
  },
};

export const checks: Check[] = [attachDetach, recordsInGridOrder];
