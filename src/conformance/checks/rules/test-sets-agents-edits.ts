// Test-set agents and records beyond test-sets-agents-records.ts, as docs/sandbox.md ("Test-set agents", "Test-set
// records") decides them where the facts give the shapes only:
// - test-set-agents: agents:add checks every id first (404 on agent_ids, nothing changes), appends the test set
//   to each agent's test_set_ids where missing (keeping the others; the agent records a version) and answers
//   every attached agent in creation order as `agents/<id>`; DELETE answers {} also for an agent not attached;
//   an unknown agent is 404 on agent_id, an unknown test set 404 on test_set_id.
// - test-set-records: the fields test cases do not have are null or [] (input_type, description, user_notes,
//   expected_behaviors); expected_output and the times are the case's.
import { expectError, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Route } from '../../suite-data.js';
import type { Check, CheckContext } from '../context.js';
import { operationWithRule, read, routeOf, same, show, succeed, unusedLike, versionsOf, type Json } from './records-support.js';

const AGENTS = 'test-set-agents';
const RECORDS = 'test-set-records';

function agentsRoute(ctx: CheckContext, method: string): Route {
  return ctx.suite.routes.find((r) => r.rules.includes(AGENTS) && r.method === method) ?? fail(`the spec has no ${method} operation with rule ${AGENTS}`);
}

const attachMany: Check = {
  name: `rule ${AGENTS}: agents:add checks every agent first, appends the test set once (other test sets kept, one new agent version) and lists the attached agents in creation order as agents/<id>; DELETE keeps the agent's other test sets, and of an agent not attached is {}`,
  applies: (route) => route.rules.includes(AGENTS) && route.method === 'POST',
  async run(ctx) {
    const list = agentsRoute(ctx, 'GET');
    const remove = agentsRoute(ctx, 'DELETE');
    const [set, other] = [await ctx.world.create('test_set'), await ctx.world.create('test_set')];
    const first = await ctx.world.create('agent', { test_set_ids: [other.id] });
    const second = await ctx.world.create('agent');
    const missing = unusedLike(first.id);
    expectError(await send(ctx.target, ctx.route, { path: set.path, body: { agent_ids: [first.id, missing] } }), 404, 'NOT_FOUND', 'agent_ids', 'agents:add with one unknown agent');
    if (show((await read(ctx, 'agent', first.path)).test_set_ids) !== show([other.id])) fail('a refused agents:add changed the known agent');
    const versionsBefore = (await versionsOf(ctx, 'agent', first.path)).length;
    const body = (await succeed(ctx, ctx.route, { path: set.path, body: { agent_ids: [second.id, first.id] } }, 'attaching two agents')).body as { agents: Json[] };
    const want = [first, second].map((a) => ({ name: `agents/${a.id}`, agent_id: a.id, display_name: a.record.display_name }));
    if (show(body.agents) !== show(want)) fail(`agents:add answered ${show(body.agents)}, expected ${show(want)} (creation order)`);
    await succeed(ctx, ctx.route, { path: set.path, body: { agent_ids: [first.id] } }, 'attaching an attached agent again');
    const ids = (await read(ctx, 'agent', first.path)).test_set_ids;
    if (show(ids) !== show([other.id, set.id])) fail(`the agent's test_set_ids are ${show(ids)}, expected ${show([other.id, set.id])}`);
    const versionsAfter = (await versionsOf(ctx, 'agent', first.path)).length;
    if (versionsAfter !== versionsBefore + 1) fail(`attaching (then attaching again) made ${versionsAfter - versionsBefore} agent versions, expected 1`);
    const listed = ((await succeed(ctx, list, { path: set.path }, 'listing the attached agents')).body as { agents: Json[] }).agents;
    if (show(listed) !== show(want)) fail(`the list shows ${show(listed)}, expected ${show(want)}`);
    await succeed(ctx, remove, { path: { ...set.path, agent_id: second.id } }, 'detaching an agent');
    const detached = await read(ctx, 'agent', second.path);
    // A later millisecond, so that a needless save would show in update_time.
    await new Promise((r) => setTimeout(r, 5));
    const again = await send(ctx.target, remove, { path: { ...set.path, agent_id: second.id } });
    if (again.status !== remove.success.status || show(again.body) !== show({})) fail(`detaching an agent not attached answered ${again.status} ${show(again.body)}, expected {}`);
    // An agent not attached stays as it is: not even its update_time moves.
    const untouched = await read(ctx, 'agent', second.path);
    if (!same(untouched, detached)) fail(`detaching an agent not attached changed it: update_time ${show(detached.update_time)} became ${show(untouched.update_time)}`);
    if (show((await read(ctx, 'agent', first.path)).test_set_ids) !== show([other.id, set.id])) fail("detaching another agent changed this agent's test_set_ids");
    // Detaching takes this test set out of the agent's test_set_ids and keeps the others.
    await succeed(ctx, remove, { path: { ...set.path, agent_id: first.id } }, 'detaching the agent attached to two test sets');
    const kept = (await read(ctx, 'agent', first.path)).test_set_ids;
    if (show(kept) !== show([other.id])) fail(`after detaching, the agent's test_set_ids are ${show(kept)}, expected ${show([other.id])}`);
    expectError(await send(ctx.target, remove, { path: { ...set.path, agent_id: missing } }), 404, 'NOT_FOUND', 'agent_id', 'detaching an unknown agent');
    expectError(await send(ctx.target, list, { path: { test_set_id: unusedLike(set.id) } }), 404, 'NOT_FOUND', 'test_set_id', 'the agents of an unknown test set');
  },
};

const recordFields: Check = {
  name: `rule ${RECORDS}: a record carries the case's expected_output and times, input_type, description and user_notes null and expected_behaviors []; an unknown test set is 404`,
  applies: operationWithRule('test_set', 'custom', RECORDS),
  async run(ctx) {
    const update = routeOf(ctx, 'test_set', 'update');
    const set = await ctx.world.create('test_set');
    await succeed(ctx, update, { path: set.path, body: { test_cases: [{ input_str: 'ask for a refund', expected_output: 'a refund is offered' }, { input_str: 'say hello' }] } }, 'saving a grid of two cases');
    const testCase = ((await read(ctx, 'test_set', set.path)).test_cases as Json[])[0]!;
    const [record, plain] = ((await succeed(ctx, ctx.route, { path: set.path }, 'listing the records')).body as { records: Json[] }).records;
    if (plain?.expected_output !== null) fail(`a case without expected_output gives a record with expected_output ${show(plain?.expected_output)}, expected null`);
    const want: Json = { id: testCase.id, input: 'ask for a refund', input_type: null, expected_behaviors: [], expected_output: 'a refund is offered', description: null, user_notes: null, test_set_id: set.id };
    for (const [k, v] of Object.entries(want)) if (show(record?.[k]) !== show(v)) fail(`the record shows ${k} ${show(record?.[k])}, expected ${show(v)}`);
    for (const k of ['create_time', 'update_time']) if (typeof record?.[k] !== 'string' || (testCase[k] !== undefined && record[k] !== testCase[k])) fail(`the record's ${k} is ${show(record?.[k])}, expected the case's ${show(testCase[k])}`);
    expectError(await send(ctx.target, ctx.route, { path: { test_set_id: unusedLike(set.id) } }), 404, 'NOT_FOUND', 'test_set_id', 'the records of an unknown test set');
  },
};


const revertRows: Check = {
  // docs/sandbox.md (Revert): a test set's revert brings its test-case rows back to the version's snapshot (same
  // ids; rows the snapshot lacks are deleted) and records no second version.
  name: 'rule test-set-snapshot: a revert brings the test-case rows of the version back with their ids and drops the others',
  applies: operationWithRule('test_set', 'revert', 'test-set-snapshot'),
  async run(ctx) {
    const update = routeOf(ctx, 'test_set', 'update');
    const set = await ctx.world.create('test_set');
    await succeed(ctx, update, { path: set.path, body: { test_cases: [{ input_str: 'first' }, { input_str: 'second' }] } }, 'saving a grid of two');
    const before = ((await read(ctx, 'test_set', set.path)).test_cases as Json[]).map((c) => [c.id, c.input_str]);
    const version = (await versionsOf(ctx, 'test_set', set.path))[0]!;
    await succeed(ctx, update, { path: set.path, body: { test_cases: [{ input_str: 'only' }] } }, 'replacing the grid');
    const count = (await versionsOf(ctx, 'test_set', set.path)).length;
    await succeed(ctx, ctx.route, { path: { ...set.path, version_id: String(version.ulid ?? version.version_id ?? version.id) } }, 'reverting to the grid of two');
    const after = ((await read(ctx, 'test_set', set.path)).test_cases as Json[]).map((c) => [c.id, c.input_str]);
    if (show(after) !== show(before)) fail(`after the revert the grid is ${show(after)}, expected the rows ${show(before)} back`);
    const versions = (await versionsOf(ctx, 'test_set', set.path)).length;
    if (versions !== count + 1) fail(`the revert recorded ${versions - count} versions, expected 1`);
  },
};

export const checks: Check[] = [attachMany, recordFields, revertRows];
