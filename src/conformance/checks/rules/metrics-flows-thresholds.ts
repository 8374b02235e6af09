// Metric flows (metric-flow, metric-flow-filter), thresholds (metric-threshold, metric-threshold-scope) and the
// metric catalog listings (metric-catalog), as the spec's operations document them:
// - createMetricFlow: "Both metrics must be metrics of the workspace and differ"; the flow shows the metrics'
//   names (trigger_/followup_metric_name, _display_name); listMetricFlows' status_filter keeps "flows in this
//   state", search_query "flows whose trigger or follow-up metric name contains this text (case-insensitive)".
// - createMetricThreshold: "it becomes the metric's current threshold"; getMetricThreshold answers the current
//   one (all-null without one); updateMetricThreshold changes it; thresholds belong to the metric in the path.
// - listMetricModels / listMetricTemplateVariables: the models and template variables (enumerations of E20).
import { send } from '../../http.js';
import { fail } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { enumOf, itemsOf, operationWithRule, routeOf, show, succeed, type Json } from './records-support.js';

const FLOW = 'metric-flow';
const FILTER = 'metric-flow-filter';
const THRESHOLD = 'metric-threshold';
const SCOPE = 'metric-threshold-scope';
const CATALOG = 'metric-catalog';

/** Two fresh metrics with distinct names; answers their ids and names. */
async function twoMetrics(ctx: CheckContext): Promise<{ id: string; name: string }[]> {
  const out = [];
  for (const role of ['trigger', 'followup']) {
    const name = `Flow ${role} ${ctx.world.nextSeed()}x${Date.now().toString(36)}`;
    const metric = await ctx.world.create('metric', { metric_name: name });
    out.push({ id: metric.id, name });
  }
  return out;
}

const flowReferences: Check = {
  name: `rule ${FLOW}: a flow shows its metrics' names; the same metric twice is 400, an unknown metric 404`,
  applies: operationWithRule('flow', 'create', FLOW),
  async run(ctx) {
    const [trigger, followup] = await twoMetrics(ctx);
    const flow = recordOf(ctx.route, await succeed(ctx, ctx.route, { body: { trigger_metric_id: trigger!.id, followup_metric_id: followup!.id } }, 'creating a flow'))!;
    const expected = { trigger_metric_display_name: trigger!.name, followup_metric_display_name: followup!.name, trigger_metric_name: `metrics/${trigger!.id}`, followup_metric_name: `metrics/${followup!.id}` };
    for (const [k, v] of Object.entries(expected)) if (flow[k] !== v) fail(`the flow shows ${k} ${show(flow[k])}, expected ${show(v)}`);
    const same = await send(ctx.target, ctx.route, { body: { trigger_metric_id: trigger!.id, followup_metric_id: trigger!.id } });
    if (same.status !== 400) fail(`a flow from a metric to itself answered ${same.status}, expected 400`);
    const unknown = await send(ctx.target, ctx.route, { body: { trigger_metric_id: 'AAAAAAAAAAAAAAAAAAAAAA', followup_metric_id: followup!.id } });
    if (unknown.status !== 404) fail(`a flow from an unknown metric answered ${unknown.status}, expected 404`);
  },
};

const flowFilters: Check = {
  name: `rule ${FILTER}: status_filter keeps flows in that state, search_query matches a metric name case-insensitively`,
  applies: operationWithRule('flow', 'list', FILTER),
  async run(ctx) {
    const create = routeOf(ctx, 'flow', 'create');
    const [trigger, followup] = await twoMetrics(ctx);
    const flow = recordOf(create, await succeed(ctx, create, { body: { trigger_metric_id: trigger!.id, followup_metric_id: followup!.id, status: 'INACTIVE' } }, 'creating an inactive flow'))!;
    const ids = async (query: Record<string, string>) => itemsOf(ctx.route, (await succeed(ctx, ctx.route, { query: { ...query, page_size: '100' } }, `listing flows ${show(query)}`)).body).map((f) => f.id);
    if ((await ids({ status_filter: 'ACTIVE' })).includes(flow.id)) fail('an INACTIVE flow is listed with status_filter ACTIVE');
    if (!(await ids({ status_filter: 'INACTIVE' })).includes(flow.id)) fail('an INACTIVE flow is not listed with status_filter INACTIVE');
    const found = await ids({ search_query: followup!.name.toUpperCase() });
    if (!same(found, [flow.id])) fail(`search_query with the follow-up metric's name in upper case lists ${show(found)}, expected only ${flow.id}`);
  },
};

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const currentThreshold: Check = {
  name: `rule ${THRESHOLD}: GET answers the metric's newest live threshold (all-null without one); PATCH changes it, or creates it`,
  applies: (route) => route.rules.includes(THRESHOLD) && route.method === 'GET',
  async run(ctx) {
    const create = routeOf(ctx, 'threshold', 'create');
    const remove = routeOf(ctx, 'threshold', 'delete');
    const patch = ctx.suite.routes.find((r) => r.rules.includes(THRESHOLD) && r.method === 'PATCH');
    if (!patch) fail(`the spec has no PATCH operation with rule ${THRESHOLD}`);
    const metric = await ctx.world.create('metric');
    const other = await ctx.world.create('metric');
    const current = async () => ((await succeed(ctx, ctx.route, { path: metric.path }, 'reading the current threshold')).body as { threshold: Json }).threshold;
    expectNoThreshold(ctx, await current(), metric.id);
    const byPatch = ((await succeed(ctx, patch, { path: metric.path, body: { comparison_operator: 'gte', target_float_lower: 0.5 } }, 'PATCH without a threshold')).body as { threshold: Json }).threshold;
    if (byPatch.comparison_operator !== 'gte' || typeof byPatch.id !== 'string') fail(`PATCH without a threshold answered ${show(byPatch)}, expected a new gte threshold`);
    const newer = recordOf(create, await succeed(ctx, create, { path: metric.path, body: { comparison_operator: 'lt', target_float_upper: 0.9 } }, 'adding a threshold'))!;
    // A threshold added to another metric afterwards is not this metric's.
    await succeed(ctx, create, { path: other.path, body: { comparison_operator: 'neq', target_values: ['other'] } }, "adding another metric's threshold");
    const now = await current();
    if (now.id !== newer.id || now.comparison_operator !== 'lt') fail(`the current threshold is ${show(now)}, expected the newest (${String(newer.id)}, lt)`);
    await succeed(ctx, patch, { path: metric.path, body: { comparison_operator: 'eq', target_float_upper: null } }, 'changing the current threshold');
    const changed = await current();
    if (changed.id !== newer.id || changed.comparison_operator !== 'eq' || changed.target_float_upper !== undefined) fail(`after PATCH the current threshold is ${show(changed)}, expected ${String(newer.id)} with eq and no target_float_upper`);
    // docs/sandbox.md "Metrics": a deleted threshold is no longer current; the previous one is again.
    await succeed(ctx, remove, { path: { ...metric.path, threshold_id: String(newer.id) } }, 'deleting the current threshold');
    const previous = await current();
    if (previous.id !== byPatch.id) fail(`after deleting the current threshold GET answers ${show(previous)}, expected the previous one ${String(byPatch.id)}`);
    await succeed(ctx, remove, { path: { ...metric.path, threshold_id: String(byPatch.id) } }, 'deleting the last threshold');
    expectNoThreshold(ctx, await current(), metric.id);
  },
};

/**
 * docs/sandbox.md "Metrics": a metric without a (live) threshold answers `{name, metric_id}` with every value
 * null: each other field of the threshold schema is there and null, and there is no id.
 */
export function expectNoThreshold(ctx: CheckContext, threshold: Json, metricId: string): void {
  const resource = ctx.world.resource('threshold');
  const fixed: Json = { name: `metrics/${metricId}/threshold`, metric_id: metricId };
  for (const field of resource.properties) {
    const want = field === resource.id ? undefined : Object.hasOwn(fixed, field) ? fixed[field] : null;
    if (threshold[field] !== want) fail(`a metric without threshold answers ${show(threshold)}: ${field} is ${show(threshold[field])}, expected ${show(want)}`);
  }
}

const thresholdScope: Check = {
  name: `rule ${SCOPE}: a threshold is named metrics/<metric_id>/threshold and is 404 under another metric's path`,
  applies: operationWithRule('threshold', 'delete', SCOPE),
  async run(ctx) {
    const create = routeOf(ctx, 'threshold', 'create');
    const metric = await ctx.world.create('metric');
    const other = await ctx.world.create('metric');
    const threshold = recordOf(create, await succeed(ctx, create, { path: metric.path, body: { comparison_operator: 'gt' } }, 'adding a threshold'))!;
    if (threshold.name !== `metrics/${metric.id}/threshold`) fail(`the threshold is named ${show(threshold.name)}, expected metrics/${metric.id}/threshold`);
    const wrong = await send(ctx.target, ctx.route, { path: { ...other.path, threshold_id: String(threshold.id) } });
    if (wrong.status !== 404) fail(`deleting it under another metric answered ${wrong.status}, expected 404`);
    await succeed(ctx, ctx.route, { path: { ...metric.path, threshold_id: String(threshold.id) } }, 'deleting it under its metric');
  },
};

const catalog: Check = {
  name: `rule ${CATALOG}: models list each provider and tier of the spec's enumerations; template variable categories have example keys`,
  applies: (route) => route.rules.includes(CATALOG) && route.method === 'GET',
  async run(ctx) {
    const body = (await succeed(ctx, ctx.route, {}, 'reading the listing')).body as Json;
    if (Array.isArray(body.models)) {
      const models = body.models as Json[];
      const item = (ctx.suite.defs.MetricModel ?? {}) as { properties?: Record<string, unknown> };
      for (const field of ['provider', 'tier']) {
        const values = enumOf(ctx, item.properties?.[field]);
        const seen = new Set(models.map((m) => m[field]));
        for (const v of values) if (!seen.has(v)) fail(`no model has ${field} ${show(v)}`);
      }
      return;
    }
    const categories = body.categories as Json[] | undefined;
    if (!Array.isArray(categories) || categories.length === 0) fail('no template variable categories are listed');
    for (const c of categories) if (!Array.isArray(c.example_keys) || c.example_keys.length === 0) fail(`category ${show(c.prefix)} lists no example keys`);
  },
};

export const checks: Check[] = [flowReferences, flowFilters, currentThreshold, thresholdScope, catalog];
