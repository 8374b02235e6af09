// Rule checks of the conversation read-outs (docs/sandbox.md "Conversations, issue 15"): conversation-metric-values
// (metric_values as {metric_id, value} only when a list asks; the metric_id filter), conversation-metric-outputs
// (outputs from the values), conversation-audio-url (404 without a recording), simulation-rerun-metrics (202 /
// 207 with per-id results) and simulation-resimulate (the same simulation re-queued in place).
import { expectError, expectStatus, expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Route } from '../../suite-data.js';
import { ruleRoute } from './records-support.js';
import type { Check, CheckContext } from '../context.js';

type Json = Record<string, unknown>;


const ownParam = (route: Route): string => route.params.path[0]!.name;

async function simulation(ctx: CheckContext, data: Json): Promise<string> {
  return (await ctx.world.loadRecord('simulation', { run_id: 'ConformanceRunAAAAAAAA', status: 'COMPLETED', has_audio: false, ...data })).id;
}

function itemsOf(answer: { body: unknown }, key: string): Json[] {
  const items = (answer.body as Json)[key];
  if (!Array.isArray(items)) fail(`the answer has no ${key} list`);
  return items as Json[];
}

export const metricValuesOnRequest: Check = {
  name: 'rule conversation-metric-values: metric_values as [{metric_id, value}] only with include=metric_values or metric_id, which keeps the conversations of that metric',
  applies: (route, suite) => route.id === ruleRoute(suite, 'conversation-metric-values', (r) => r.resource === 'conversation' && r.action === 'list')?.id,
  async run(ctx) {
    const metric = (await ctx.world.ensure('metric')).id;
    const other = (await ctx.world.create('metric')).id;
    const id = (await ctx.world.loadRecord('conversation', { status: 'COMPLETED', has_audio: false, metric_ids: [other], metric_values: [{ metric_id: other, value: 0.5 }] })).id;
    const items = ctx.route.pagination!.items;
    const find = async (query: Record<string, string>): Promise<Json[]> => {
      const answer = await send(ctx.target, ctx.route, { query: { page_size: '100', ...query } });
      expectSuccess(answer, ctx.route, `listing with ${JSON.stringify(query)}`);
      return itemsOf(answer, items);
    };
    const problems: string[] = [];
    const plain = (await find({})).find((c) => c.conversation_id === id);
    if (!plain) fail('the loaded conversation is not listed');
    if ('metric_values' in plain) problems.push('metric_values listed without include');
    const included = (await find({ include: 'metric_values' })).find((c) => c.conversation_id === id);
    if (JSON.stringify(included?.metric_values) !== JSON.stringify([{ metric_id: other, value: 0.5 }])) problems.push(`include=metric_values gave ${JSON.stringify(included?.metric_values)}`);
    const byMetric = await find({ metric_id: other });
    if (byMetric.length !== 1 || byMetric[0]!.conversation_id !== id) problems.push(`metric_id kept ${byMetric.length} conversations, expected only the one of that metric`);
    if ((await find({ metric_id: metric })).some((c) => c.conversation_id === id)) problems.push('metric_id kept a conversation of another metric');
    if (problems.length > 0) fail(problems.join('; '));
  },
};

/** facts-shapes 2.4 SC8: the list's filter and order_by, over the fields of the outputs (docs/sandbox.md). */
async function filterAndOrder(ctx: CheckContext, metric: string): Promise<void> {
  const other = (await ctx.world.create('metric')).id;
  const id = await simulation(ctx, { metric_values: { [metric]: 0.25, [other]: 0.75 } });
  const list = async (query: Record<string, string>) => send(ctx.target, ctx.route, { path: { [ownParam(ctx.route)]: id }, query });
  const values = async (query: Record<string, string>): Promise<unknown[]> => {
    const answer = await list(query);
    expectSuccess(answer, ctx.route, `listing the metric outputs with ${JSON.stringify(query)}`);
    return itemsOf(answer, 'metrics').map((o) => o.value);
  };
  const problems: string[] = [];
  const expect = async (query: Record<string, string>, want: unknown[]) => {
    const got = await values(query);
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${JSON.stringify(query)} gave values ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  };
  await expect({ order_by: 'value' }, [0.25, 0.75]);
  await expect({ order_by: '-value' }, [0.75, 0.25]);
  await expect({ filter: 'value > 0.5' }, [0.75]);
  await expect({ filter: `metric_id = "${metric}"` }, [0.25]);
  await expect({ filter: 'status = "COMPLETED"', order_by: 'value desc' }, [0.75, 0.25]);
  // An empty order_by is no order_by: the outputs stay in metric order (the order of the values given).
  await expect({ order_by: '' }, [0.25, 0.75]);
  // Paged like the other lists: page_size, then the next_page_token to the rest; a foreign token is 400.
  const first = await list({ page_size: '1', order_by: '-value' });
  expectSuccess(first, ctx.route, 'the first page of one output');
  const token = (first.body as Json).next_page_token;
  if (itemsOf(first, 'metrics').length !== 1 || typeof token !== 'string') problems.push(`page_size=1 gave ${JSON.stringify(first.body).slice(0, 200)}`);
  else await expect({ page_size: '1', order_by: '-value', page_token: token }, [0.25]);
  if (problems.length > 0) fail(problems.join('; '));
  expectError(await list({ page_token: 'not-a-token' }), 400, 'INVALID_ARGUMENT', 'page_token', 'a page_token the list did not give');
  expectError(await send(ctx.target, ctx.route, { path: { [ownParam(ctx.route)]: 'NoSuchSimulationAAAAAA' } }), 404, 'NOT_FOUND', ownParam(ctx.route), 'the outputs of an unknown simulation');
  expectError(await list({ filter: 'no_such_field = 1' }), 400, 'INVALID_ARGUMENT', 'filter', 'a filter on a field outputs do not have');
  expectError(await list({ order_by: 'no_such_field' }), 400, 'INVALID_ARGUMENT', 'order_by', 'order_by a field outputs do not have');
}

export const metricOutputs: Check = {
  name: 'rule conversation-metric-outputs: one output per metric value, read back by its id; an unknown id is 404; paged; filter and order_by over the output fields (400 on an unknown field)',
  applies: (route, suite) => route.id === ruleRoute(suite, 'conversation-metric-outputs', (r) => r.resource === 'simulation' && r.params.path.length === 1)?.id,
  async run(ctx) {
    const metric = (await ctx.world.ensure('metric')).id;
    const id = await simulation(ctx, { metric_values: { [metric]: 0.25 } });
    const answer = await send(ctx.target, ctx.route, { path: { [ownParam(ctx.route)]: id } });
    expectSuccess(answer, ctx.route, 'listing the metric outputs');
    const outputs = itemsOf(answer, 'metrics');
    if (outputs.length !== 1 || outputs[0]!.metric_id !== metric || outputs[0]!.value !== 0.25 || outputs[0]!.status !== 'COMPLETED') fail(`expected one COMPLETED output of 0.25, got ${JSON.stringify(outputs)}`);
    await filterAndOrder(ctx, metric);
    const one = ruleRoute(ctx.suite, 'conversation-metric-outputs', (r) => r.resource === 'simulation' && r.params.path.length === 2);
    if (one) {
      const got = await send(ctx.target, one, { path: { [ownParam(one)]: id, metric_output_id: String(outputs[0]!.metric_output_id) } });
      expectSuccess(got, one, 'getting the output');
      if (JSON.stringify((got.body as Json).metric) !== JSON.stringify(outputs[0])) fail('the output read by its id differs from the listed one');
      expectError(await send(ctx.target, one, { path: { [ownParam(one)]: id, metric_output_id: 'no-such-output' } }), 404, 'NOT_FOUND', 'metric_output_id');
    }
  },
};

export const audioUrl: Check = {
  name: 'rule conversation-audio-url: the recording URL with the conversation id and its expiry (the audio_url a simulation was loaded with, else one naming it); 404 without a recording',
  applies: (route, suite) => route.id === ruleRoute(suite, 'conversation-audio-url', (r) => r.resource === 'simulation')?.id,
  async run(ctx) {
    const param = ownParam(ctx.route);
    const silent = await simulation(ctx, { has_audio: false });
    expectStatus(await send(ctx.target, ctx.route, { path: { [param]: silent } }), (s) => s === 404, 'a simulation without a recording');
    const recorded = await simulation(ctx, { has_audio: true });
    const answer = await send(ctx.target, ctx.route, { path: { [param]: recorded } });
    expectSuccess(answer, ctx.route, 'a simulation with a recording');
    const body = answer.body as Json;
    if (body[param] !== recorded || typeof body.audio_url !== 'string' || !body.audio_url.includes(recorded) || typeof body.url_expires_in_seconds !== 'number') fail(`unexpected answer ${JSON.stringify(body)}`);
    // docs/sandbox.md "Conversations and simulations, issue 15 decisions", Audio URL: the audio_url the
    // conversation was given (here: the simulation was loaded with one) is answered as it is.
    const url = 'https://storage.example.com/simulations/loaded.wav';
    const given = await simulation(ctx, { has_audio: true, audio_url: url });
    const withUrl = await send(ctx.target, ctx.route, { path: { [param]: given } });
    expectSuccess(withUrl, ctx.route, 'a simulation loaded with an audio_url');
    if ((withUrl.body as Json).audio_url !== url) fail(`a simulation loaded with audio_url ${url} answered ${JSON.stringify(withUrl.body)}`);
  },
};

export const rerunMetrics: Check = {
  name: 'rule simulation-rerun-metrics: 202 with QUEUED results when every simulation exists, 207 with NOT_FOUND for the others',
  applies: (route, suite) => route.id === ruleRoute(suite, 'simulation-rerun-metrics', (r) => r.resource === 'simulation')?.id,
  async run(ctx) {
    const metric = (await ctx.world.ensure('metric')).id;
    const id = await simulation(ctx, { metric_values: { [metric]: 1 } });
    const all = await send(ctx.target, ctx.route, { body: { simulation_ids: [id], metric_ids: [metric] } });
    expectStatus(all, (s) => s === 202, 'every simulation found');
    const body = all.body as Json;
    if (JSON.stringify(body.results) !== JSON.stringify([{ simulation_id: id, status: 'QUEUED', error: null }]) || body.queued_count !== 1 || body.failed_count !== 0) fail(`unexpected answer ${JSON.stringify(body)}`);
    const some = await send(ctx.target, ctx.route, { body: { simulation_ids: [id, 'NoSuchSimulationAAAAAA'], metric_ids: [metric] } });
    expectStatus(some, (s) => s === 207, 'one simulation missing');
    const results = (some.body as Json).results as Json[];
    if (results[1]?.status !== 'NOT_FOUND' || (some.body as Json).failed_count !== 1) fail(`unexpected answer ${JSON.stringify(some.body)}`);
  },
};

export const resimulate: Check = {
  name: 'rule simulation-resimulate: the same simulation re-queued in place (same id, same run and agent), back in the status cycle',
  applies: (route, suite) => route.id === ruleRoute(suite, 'simulation-resimulate', (r) => r.resource === 'simulation')?.id,
  async run(ctx) {
    const agent = 'ConformanceAgentAAAAAA';
    const id = await simulation(ctx, { agent_id: agent });
    const answer = await send(ctx.target, ctx.route, { path: { [ownParam(ctx.route)]: id } });
    expectSuccess(answer, ctx.route, 're-simulating');
    const body = answer.body as Json;
    // facts 2.17 and facts-shapes 2.14 SC7': in place, the answer names the same simulation.
    if (body.simulation_id !== id || body.run_id !== 'ConformanceRunAAAAAAAA' || body.queued !== true) fail(`unexpected answer ${JSON.stringify(body)}`);
    const get = ctx.world.route('simulation', 'get')!;
    const again = await send(ctx.target, get, { path: { [ownParam(get)]: id } });
    expectSuccess(again, get, 'reading the re-queued simulation');
    const record = Object.values(again.body as Json)[0] as Json;
    // Its agent does not exist, so the executor may already have failed it; any status of the cycle is right.
    const cycle = ['IN QUEUE', 'IN PROGRESS', 'COMPLETED', 'FAILED'];
    if (!cycle.includes(String(record.status)) || record.run_id !== 'ConformanceRunAAAAAAAA' || record.agent_id !== agent) fail(`the re-queued simulation is ${JSON.stringify(record).slice(0, 200)}`);
  },
};

export const checks: Check[] = [metricValuesOnRequest, metricOutputs, audioUrl, rerunMetrics, resimulate];
