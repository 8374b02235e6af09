// Metric flows, thresholds and the catalog beyond metrics-flows-thresholds.ts, as docs/sandbox.md "Metrics" (issue
// 15, part B) decides them where the facts give the shapes only:
// - metric-flow: both metrics live and in scope (404 naming the field; a deleted metric counts as missing) and
//   different (400 on followup_metric_id); PATCH is a full replace (an omitted trigger_criteria is removed) and
//   the flow shows the new metrics' names; the flow is named `metrics/flows/<id>`.
// - metric-flow-filter: search_query matches either metric's name as a substring, case-insensitively, together
//   with status_filter.
// - metric-threshold-scope: an unknown metric in the path is 404 on metric_id; another metric's threshold is 404
//   on threshold_id.
// - metric-catalog: six models, two per provider, one of each tier; template variables version `1` with the
//   categories transcript, test_case, persona, agent and metadata.
import { expectError, send } from '../../http.js';
import { fail } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { itemsOf, operationWithRule, routeOf, show, succeed, type Json } from './records-support.js';

const FLOW = 'metric-flow';
const FILTER = 'metric-flow-filter';
const SCOPE = 'metric-threshold-scope';
const CATALOG = 'metric-catalog';
const UNKNOWN_METRIC = 'AAAAAAAAAAAAAAAAAAAAAA';

async function namedMetric(ctx: CheckContext, role: string): Promise<{ id: string; name: string; path: Record<string, string> }> {
  const name = `Flow ${role} ${ctx.world.nextSeed()}x${Date.now().toString(36)}`;
  const metric = await ctx.world.create('metric', { metric_name: name });
  return { id: metric.id, name, path: metric.path };
}

const flowReplace: Check = {
  name: `rule ${FLOW}: PATCH replaces the flow (an omitted trigger_criteria is removed) and shows the new metrics' names; a missing or deleted metric is 404 on its field, the same metric twice 400 on followup_metric_id`,
  applies: operationWithRule('flow', 'update', FLOW),
  async run(ctx) {
    const create = routeOf(ctx, 'flow', 'create');
    const [a, b, c] = [await namedMetric(ctx, 'a'), await namedMetric(ctx, 'b'), await namedMetric(ctx, 'c')];
    const body = { trigger_metric_id: a.id, followup_metric_id: b.id, trigger_criteria: { min_score: 0.5 } };
    const flow = recordOf(create, await succeed(ctx, create, { body }, 'creating a flow with trigger_criteria'))!;
    if (flow.name !== `metrics/flows/${String(flow.id)}`) fail(`the flow is named ${show(flow.name)}, expected metrics/flows/${String(flow.id)}`);
    if (show(flow.trigger_criteria) !== show(body.trigger_criteria)) fail(`the flow shows trigger_criteria ${show(flow.trigger_criteria)}, expected ${show(body.trigger_criteria)}`);
    const path = { flow_id: String(flow.id) };
    const replaced = recordOf(ctx.route, await succeed(ctx, ctx.route, { path, body: { trigger_metric_id: c.id, followup_metric_id: a.id, status: 'INACTIVE' } }, 'replacing the flow'))!;
    const want = { trigger_metric_name: `metrics/${c.id}`, trigger_metric_display_name: c.name, followup_metric_name: `metrics/${a.id}`, followup_metric_display_name: a.name, status: 'INACTIVE', name: `metrics/flows/${String(flow.id)}` };
    for (const [k, v] of Object.entries(want)) if (replaced[k] !== v) fail(`after PATCH the flow shows ${k} ${show(replaced[k])}, expected ${show(v)}`);
    if (replaced.trigger_criteria !== undefined && replaced.trigger_criteria !== null) fail(`a PATCH without trigger_criteria kept ${show(replaced.trigger_criteria)}`);
    const refused: [Json, number, string, string][] = [
      [{ trigger_metric_id: UNKNOWN_METRIC, followup_metric_id: a.id, status: 'ACTIVE' }, 404, 'trigger_metric_id', 'an unknown trigger metric'],
      [{ trigger_metric_id: a.id, followup_metric_id: UNKNOWN_METRIC, status: 'ACTIVE' }, 404, 'followup_metric_id', 'an unknown follow-up metric'],
      [{ trigger_metric_id: b.id, followup_metric_id: b.id, status: 'ACTIVE' }, 400, 'followup_metric_id', 'the same metric twice'],
    ];
    for (const [change, status, field, what] of refused) expectError(await send(ctx.target, ctx.route, { path, body: change }), status, status === 404 ? 'NOT_FOUND' : 'INVALID_ARGUMENT', field, what);
    await succeed(ctx, routeOf(ctx, 'metric', 'delete'), { path: b.path }, 'deleting a metric');
    expectError(await send(ctx.target, create, { body: { trigger_metric_id: a.id, followup_metric_id: b.id } }), 404, 'NOT_FOUND', 'followup_metric_id', 'a flow to a deleted metric');
  },
};

const flowSearch: Check = {
  name: `rule ${FILTER}: search_query matches the trigger or the follow-up metric's name as a substring in any case, together with status_filter`,
  applies: operationWithRule('flow', 'list', FILTER),
  async run(ctx) {
    const create = routeOf(ctx, 'flow', 'create');
    const [a, b] = [await namedMetric(ctx, 'searcha'), await namedMetric(ctx, 'searchb')];
    const flow = recordOf(create, await succeed(ctx, create, { body: { trigger_metric_id: a.id, followup_metric_id: b.id } }, 'creating an active flow'))!;
    const ids = async (query: Record<string, string>): Promise<unknown[]> => itemsOf(ctx.route, (await succeed(ctx, ctx.route, { query: { ...query, page_size: '100' } }, `listing flows ${show(query)}`)).body).map((f) => f.id);
    const part = (name: string): string => name.slice(5).toLowerCase(); // "<role> <seed>x<time>": unique to this metric
    const cases: [Record<string, string>, boolean][] = [
      [{ search_query: part(a.name) }, true],
      [{ search_query: part(b.name).toUpperCase() }, true],
      [{ search_query: `${part(a.name)} nowhere` }, false],
      [{ search_query: part(a.name), status_filter: 'ACTIVE' }, true],
      [{ search_query: part(a.name), status_filter: 'INACTIVE' }, false],
    ];
    for (const [query, listed] of cases) if ((await ids(query)).includes(flow.id) !== listed) fail(`${show(query)} ${listed ? 'left out' : 'listed'} the flow from ${show(a.name)} to ${show(b.name)}`);
  },
};

const thresholdPaths: Check = {
  name: `rule ${SCOPE}: an unknown metric in the path is 404 on metric_id; another metric's threshold is 404 on threshold_id`,
  applies: (route, suite) => route.method === 'GET' && operationWithRule('threshold', 'custom', SCOPE)(route, suite),
  async run(ctx) {
    expectError(await send(ctx.target, ctx.route, { path: { metric_id: UNKNOWN_METRIC } }), 404, 'NOT_FOUND', 'metric_id', 'the threshold of an unknown metric');
    const remove = routeOf(ctx, 'threshold', 'delete');
    const create = routeOf(ctx, 'threshold', 'create');
    const [metric, other] = [await ctx.world.create('metric'), await ctx.world.create('metric')];
    const threshold = recordOf(create, await succeed(ctx, create, { path: metric.path, body: { comparison_operator: 'gt' } }, 'adding a threshold'))!;
    expectError(await send(ctx.target, remove, { path: { ...other.path, threshold_id: String(threshold.id) } }), 404, 'NOT_FOUND', 'threshold_id', "deleting a threshold under another metric's path");
  },
};

const catalogData: Check = {
  name: `rule ${CATALOG}: six models, two per provider, one of each tier; template variables version 1 with the transcript, test_case, persona, agent and metadata categories`,
  applies: (route) => route.rules.includes(CATALOG) && route.method === 'GET',
  async run(ctx) {
    const body = (await succeed(ctx, ctx.route, {}, 'reading the listing')).body as Json;
    if (Array.isArray(body.models)) {
      const models = body.models as Json[];
      if (models.length !== 6) fail(`${models.length} models are listed, expected 6`);
      const byProvider = new Map<unknown, unknown[]>();
      for (const m of models) byProvider.set(m.provider, [...(byProvider.get(m.provider) ?? []), m.tier]);
      for (const [provider, tiers] of byProvider) if (show([...tiers].sort()) !== show(['enterprise', 'standard'])) fail(`provider ${show(provider)} has the tiers ${show(tiers)}, expected one standard and one enterprise model`);
      return;
    }
    if (body.version !== '1') fail(`the template variables are version ${show(body.version)}, expected "1"`);
    const prefixes = ((body.categories ?? []) as Json[]).map((c) => c.prefix);
    const want = ['transcript', 'test_case', 'persona', 'agent', 'metadata'];
    if (show(prefixes) !== show(want)) fail(`the categories are ${show(prefixes)}, expected ${show(want)}`);
  },
};

export const checks: Check[] = [flowReplace, flowSearch, thresholdPaths, catalogData];
