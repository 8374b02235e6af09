// metric-organization-threshold (docs/sandbox.md "Metrics", the sandbox's choice where the sources give the two
// shapes only): a metric's organization_threshold is its current threshold, as the threshold operations set,
// change and delete it (null once none is left); a metric that holds one as stored is what the threshold
// operations read.
import { fail } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { itemsOf, operationWithRule, routeOf, show, succeed, type Json } from './records-support.js';

const RULE = 'metric-organization-threshold';
const TIME_MIRRORS: readonly [string, string][] = [
  ['create_time', 'create_time'],
  ['update_time', 'update_time'],
  ['created_at', 'create_time'],
  ['updated_at', 'update_time'],
];

async function organizationThreshold(ctx: CheckContext, path: Record<string, string>): Promise<Json | null | undefined> {
  const get = routeOf(ctx, 'metric', 'get');
  const metric = recordOf(get, await succeed(ctx, get, { path }, 'reading the metric'))!;
  return metric.organization_threshold as Json | null | undefined;
}

const followsThresholds: Check = {
  name: `rule ${RULE}: a metric's organization_threshold is its current threshold as added, changed and deleted; null without one`,
  applies: operationWithRule('metric', 'get', RULE),
  async run(ctx) {
    const metric = await ctx.world.create('metric');
    const create = routeOf(ctx, 'threshold', 'create');
    const patch = ctx.world.suite.routes.find((r) => r.resource === 'threshold' && r.method === 'PATCH' && r.aliasOf === null) ?? fail('the spec has no threshold PATCH');
    const remove = routeOf(ctx, 'threshold', 'delete');
    const none = await organizationThreshold(ctx, metric.path);
    if (none !== null) fail(`a metric without thresholds shows organization_threshold ${show(none)}, expected null`);
    const older = recordOf(create, await succeed(ctx, create, { path: metric.path, body: { comparison_operator: 'gt', target_float_lower: 0.25 } }, 'adding a threshold'))!;
    const newer = recordOf(create, await succeed(ctx, create, { path: metric.path, body: { comparison_operator: 'lt', target_float_upper: 0.75 } }, 'adding another'))!;
    const shown = await organizationThreshold(ctx, metric.path);
    if (!shown || shown.id !== newer.id || shown.comparison_operator !== 'lt' || shown.target_float_upper !== 0.75 || shown.name !== `metrics/${metric.id}/threshold`) {
      fail(`after two thresholds the metric shows ${show(shown)}, expected the newer one (${String(newer.id)}, lt 0.75, named metrics/${metric.id}/threshold)`);
    }
    // docs/sandbox.md "Metrics": the form carries the threshold's own times (create_time and created_at from its
    // create_time, update_time and updated_at from its update_time) and leaves null values out.
    for (const [field, from] of TIME_MIRRORS) {
      if (typeof newer[from] === 'string' && shown[field] !== newer[from]) fail(`organization_threshold.${field} is ${show(shown[field])}, the threshold's ${from} is ${show(newer[from])}`);
    }
    const nulls = Object.keys(shown).filter((k) => shown[k] === null);
    if (nulls.length > 0) fail(`organization_threshold shows null values (${nulls.join(', ')}); they are left out`);
    const list = routeOf(ctx, 'metric', 'list');
    const listed = itemsOf(list, (await succeed(ctx, list, { query: { page_size: '100' } }, 'listing metrics')).body).find((m) => m.id === metric.id);
    if (listed && (listed.organization_threshold as Json | null)?.id !== newer.id) fail(`the metric list shows organization_threshold ${show(listed.organization_threshold)}, expected ${String(newer.id)}`);
    const patched = recordOf(patch, await succeed(ctx, patch, { path: metric.path, body: { comparison_operator: 'eq', target_values: ['pass'] } }, 'changing the current threshold'));
    const changed = await organizationThreshold(ctx, metric.path);
    if (!changed || changed.comparison_operator !== 'eq' || show(changed.target_values) !== show(['pass'])) fail(`after PATCH the metric shows ${show(changed)}, expected eq with target_values ["pass"]`);
    // After a change the two times differ, so each mirror must come from its own source time.
    for (const [field, from] of TIME_MIRRORS) {
      if (patched && typeof patched[from] === 'string' && changed[field] !== patched[from]) fail(`after PATCH organization_threshold.${field} is ${show(changed[field])}, the threshold's ${from} is ${show(patched[from])}`);
    }
    await succeed(ctx, remove, { path: { ...metric.path, threshold_id: String(newer.id) } }, 'deleting the current threshold');
    const previous = await organizationThreshold(ctx, metric.path);
    if (previous?.id !== older.id) fail(`after deleting the current threshold the metric shows ${show(previous)}, expected the older one ${String(older.id)}`);
    await succeed(ctx, remove, { path: { ...metric.path, threshold_id: String(older.id) } }, 'deleting the last threshold');
    const gone = await organizationThreshold(ctx, metric.path);
    if (gone !== null) fail(`with every threshold deleted the metric shows ${show(gone)}, expected null`);
  },
};

const storedThreshold: Check = {
  name: `rule ${RULE}: a metric stored with an organization_threshold answers it as its current threshold`,
  applies: (route, suite) => route.method === 'GET' && operationWithRule('threshold', 'custom', RULE)(route, suite),
  async run(ctx) {
    const metric = await ctx.world.loadRecord('metric', { organization_threshold: { comparison_operator: 'gte', target_float_lower: 0.6, source: 'manual' }, is_builtin: false });
    const current = ((await succeed(ctx, ctx.route, { path: metric.path }, 'reading the current threshold')).body as { threshold: Json }).threshold;
    if (current.comparison_operator !== 'gte' || current.target_float_lower !== 0.6 || typeof current.id !== 'string') fail(`the stored organization_threshold reads as ${show(current)}, expected a gte 0.6 threshold with an id`);
    const shown = await organizationThreshold(ctx, metric.path);
    if (shown?.id !== current.id) fail(`the metric shows organization_threshold ${show(shown)}, expected the threshold ${String(current.id)}`);
  },
};

export const checks: Check[] = [followsThresholds, storedThreshold];
