// Re-run metrics and re-simulate beyond personas-audio-conversations-outputs.ts, as docs/sandbox.md "Conversations
// and simulations, issue 15 decisions" decides them:
// - simulation-rerun-metrics: an unknown metric is 404 on metric_ids; a deleted, unknown or other workspace's
//   simulation is NOT_FOUND with an error text, a queued one has error null; the counts follow the results. Each
//   queued simulation is delivered to the job_complete webhooks as a run wave of its run, with its values of the
//   re-run metrics (deliver-webhooks).
// - simulation-resimulate (issue 25: in place, facts 2.17 and facts-shapes 2.14 SC7'): the same simulation keeps its
//   agent, persona, test set, test case, endpoints and mutation and loses its audio and values; a simulation without
//   run_id is 400 on simulation_id.
import { expectError, expectStatus, send } from '../../http.js';
import { fail } from '../../result.js';
import { ownParam } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { ruleRoute, show, succeed, type Json } from './records-support.js';
import { expectDelivery, subscribe, within } from './webhooks-baselines-deliveries.js';
import { handles, needReceiver } from './webhooks-baselines-support.js';

const RERUN = 'simulation-rerun-metrics';
const RESIMULATE = 'simulation-resimulate';
const RUN = 'ConformanceRunAAAAAAAA';
const OTHER_RUN = 'ConformanceRunBBBBBBBB';


async function simulation(ctx: CheckContext, data: Json, options: { deleted?: boolean; workspace_id?: string } = {}): Promise<string> {
  return (await ctx.world.loadRecord('simulation', { run_id: RUN, status: 'COMPLETED', has_audio: false, ...data }, options)).id;
}

const rerunRefusals: Check = {
  name: `rule ${RERUN}: an unknown metric is 404 on metric_ids; a deleted, unknown or other workspace's simulation is NOT_FOUND with an error text, a queued one has error null`,
  applies: (route, suite) => route.id === ruleRoute(suite, RERUN, (r) => r.resource === 'simulation')?.id,
  async run(ctx) {
    const metric = (await ctx.world.ensure('metric')).id;
    const live = await simulation(ctx, { metric_values: { [metric]: 0.5 } });
    const gone = await simulation(ctx, { status: 'DELETED' });
    // docs/sandbox.md "Scoping": a record of another workspace is not visible from the default one.
    const elsewhere = await simulation(ctx, {}, { workspace_id: (await ctx.world.create('workspace')).id });
    expectError(await send(ctx.target, ctx.route, { body: { simulation_ids: [live], metric_ids: ['NoSuchMetricAAAAAAAAAA'] } }), 404, 'NOT_FOUND', 'metric_ids', 'an unknown metric');
    const answer = await send(ctx.target, ctx.route, { body: { simulation_ids: [gone, live, 'NoSuchSimulationAAAAAA', elsewhere], metric_ids: [metric, metric] } });
    expectStatus(answer, (s) => s === 207, 'three of four simulations missing');
    const body = answer.body as { results: Json[]; queued_count: unknown; failed_count: unknown };
    const statuses = body.results.map((r) => [r.simulation_id, r.status]);
    if (show(statuses) !== show([[gone, 'NOT_FOUND'], [live, 'QUEUED'], ['NoSuchSimulationAAAAAA', 'NOT_FOUND'], [elsewhere, 'NOT_FOUND']])) fail(`the results are ${show(body.results)}`);
    if (body.results.some((r) => (r.status === 'QUEUED') !== (r.error === null)) || body.results.some((r) => r.status === 'NOT_FOUND' && (typeof r.error !== 'string' || r.error === ''))) fail(`error is null only for the queued simulation, text for the others: ${show(body.results)}`);
    if (body.queued_count !== 1 || body.failed_count !== 3) fail(`queued_count ${show(body.queued_count)} and failed_count ${show(body.failed_count)}, expected 1 and 3`);
  },
};

const rerunDelivery: Check = {
  name: `rule ${RERUN}: each queued simulation is delivered to the job_complete webhooks as a run wave of its run, with its values of the re-run metrics only; a simulation not found is not delivered`,
  applies: (route, suite) => route.id === ruleRoute(suite, RERUN, (r) => r.resource === 'simulation')?.id && handles(suite, 'simulation.metrics-rerun', 'deliver-webhooks'),
  async run(ctx) {
    // docs/sandbox.md "Conversations and simulations, issue 15 decisions", Re-run metrics: no scorer, so the
    // wave carries the simulation's current values of the re-run metrics (those it has a value for).
    const receiver = needReceiver(ctx, 'see the re-run deliveries');
    const subscription = await subscribe(ctx, receiver, [204]);
    const [rerun, notRerun, noValue] = [(await ctx.world.create('metric')).id, (await ctx.world.create('metric')).id, (await ctx.world.create('metric')).id];
    const first = await simulation(ctx, { metric_values: { [rerun]: 0.5, [notRerun]: 0.75 } });
    const second = await simulation(ctx, { run_id: OTHER_RUN, metric_values: { [rerun]: 0.25 } });
    const before = Date.now();
    const answer = await send(ctx.target, ctx.route, { body: { simulation_ids: [first, 'NoSuchSimulationAAAAAA', second], metric_ids: [rerun, noValue] } });
    const after = Date.now();
    expectStatus(answer, (s) => s === 207, 'one of three simulations missing');
    const calls = await receiver.calls(subscription.url);
    const want: Record<string, Json> = { [RUN]: { [rerun]: 0.5 }, [OTHER_RUN]: { [rerun]: 0.25 } };
    if (calls.length !== 2) fail(`expected one delivery per queued simulation (2), got ${calls.length}`);
    for (const call of calls) {
      const payload = expectDelivery(ctx, call, subscription, 'run', 'a re-run delivery');
      const what = `the re-run delivery of run ${String(payload.run_id)}`;
      const values = want[String(payload.run_id)];
      if (values === undefined) fail(`${what}: expected the run of a queued simulation (${RUN} or ${OTHER_RUN})`);
      delete want[String(payload.run_id)];
      if (payload.conversation_id !== undefined) fail(`${what}: a run wave carries conversation_id ${String(payload.conversation_id)}`);
      if (show(payload.metric_values) !== show(values)) fail(`${what}: metric_values ${show(payload.metric_values)}, expected ${show(values)}`);
      // The re-run is queued and done at once (no scorer): the job completes while the request is handled.
      if (!within(payload.occurred_at, before, after)) fail(`${what}: occurred_at ${String(payload.occurred_at)} is not the time of the re-run`);
    }
  },
};

const resimulateCopies: Check = {
  name: `rule ${RESIMULATE}: the simulation re-queued in place keeps agent, persona, test set, test case, endpoints and mutation and loses its audio and values; the answer's message says something; no (or an empty) run_id is 400`,
  applies: (route, suite) => route.id === ruleRoute(suite, RESIMULATE, (r) => r.resource === 'simulation')?.id,
  async run(ctx) {
    const param = ownParam(ctx.route)!;
    const get = ctx.world.route('simulation', 'get') ?? fail('the spec has no simulation get');
    const read = async (id: string): Promise<Json> => Object.values((await succeed(ctx, get, { path: { [ownParam(get)!]: id } }, 'reading a simulation')).body as Json)[0] as Json;
    const metric = (await ctx.world.ensure('metric')).id;
    const copied = { agent_id: 'ConformanceAgentAAAAAA', persona_id: 'ConformancePersonaAAAA', test_set_id: 'ConformanceTestSetAAAA', test_case_id: 'ConformanceCaseAAAAAAA', mutation_id: 'ConformanceMutationAAA', mutation_name: 'An impatient caller' };
    const id = await simulation(ctx, { ...copied, has_audio: true, metric_values: { [metric]: 1 } });
    const original = await read(id);
    const body = (await succeed(ctx, ctx.route, { path: { [param]: id } }, 're-simulating')).body as Json;
    if (body.simulation_id !== id) fail(`the answer names simulation ${show(body.simulation_id)}, expected the same ${id} (in place)`);
    const again = await read(id);
    for (const k of [...Object.keys(copied), 'run_id', 'source', 'destination']) if (show(again[k]) !== show(original[k])) fail(`the re-queued simulation's ${k} is ${show(again[k])}, expected ${show(original[k])}`);
    if (again.has_audio !== false || (again.metric_values !== undefined && again.metric_values !== null && show(again.metric_values) !== show({}))) fail(`the re-queued simulation keeps its audio or values: ${show(again).slice(0, 300)}`);
    if (typeof body.message !== 'string' || body.message === '') fail(`the answer's message says nothing: ${show(body.message)}`);
    const orphan = await simulation(ctx, { run_id: null });
    expectError(await send(ctx.target, ctx.route, { path: { [param]: orphan } }), 400, 'INVALID_ARGUMENT', param, 'a simulation without run_id');
    // An empty run_id names no run either.
    const unnamed = await simulation(ctx, { run_id: '' });
    expectError(await send(ctx.target, ctx.route, { path: { [param]: unnamed } }), 400, 'INVALID_ARGUMENT', param, 'a simulation with an empty run_id');
    expectError(await send(ctx.target, ctx.route, { path: { [param]: 'NoSuchSimulationAAAAAA' } }), 404, 'NOT_FOUND', param, 'an unknown simulation');
  },
};

export const checks: Check[] = [rerunRefusals, rerunDelivery, resimulateCopies];
