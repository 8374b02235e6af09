// metric-organization-threshold (docs/sandbox.md "Metrics", the sandbox's choice where the sources give the two
// shapes only): a metric's organization_threshold is its current threshold, as the threshold operations set,
// change and delete it (null once none is left); a metric that holds one as stored is what the threshold
// operations read.
import { fail } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { expectNoThreshold } from './metrics-flows-thresholds.js';
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
    const newer = recordOf(create, await succeed(ctx, create, { path: metric.path, body: { comparison_operator: 'lt', target_float_upper: 0.75, target_float_lower: null } }, 'adding another'))!;
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
  name: `rule ${RULE}: a metric stored with an organization_threshold answers it as its current threshold, until that is deleted`,
  applies: (route, suite) => route.method === 'GET' && operationWithRule('threshold', 'custom', RULE)(route, suite),
  async run(ctx) {
    const held = { comparison_operator: 'gte', target_float_lower: 0.6, source: 'manual', create_time: '2026-01-05T10:00:00Z', update_time: '2026-01-06T11:30:00Z' };
    const metric = await ctx.world.loadRecord('metric', { organization_threshold: held, is_builtin: false });
    const read = async () => ((await succeed(ctx, ctx.route, { path: metric.path }, 'reading the current threshold')).body as { threshold: Json }).threshold;
    // Before any operation names it, the metric (listed: a list names no metric in its path) shows what it holds.
    const list = routeOf(ctx, 'metric', 'list');
    const listed = itemsOf(list, (await succeed(ctx, list, { query: { filter: `id = "${metric.id}"` } }, 'listing the metric')).body)[0];
    const before = (listed?.organization_threshold ?? null) as Json | null;
    if (before?.comparison_operator !== held.comparison_operator || before.target_float_lower !== held.target_float_lower) fail(`the listed metric shows organization_threshold ${show(before)}, it holds ${show(held)}`);
    const current = await read();
    // The threshold made from the stored one carries its values and times.
    const wrong = Object.keys(held).filter((k) => current[k] !== held[k as keyof typeof held]);
    if (wrong.length > 0 || typeof current.id !== 'string') fail(`the stored organization_threshold ${show(held)} reads as ${show(current)}, expected its values and times with an id`);
    const shown = await organizationThreshold(ctx, metric.path);
    if (shown?.id !== current.id) fail(`the metric shows organization_threshold ${show(shown)}, expected the threshold ${String(current.id)}`);
    // docs/sandbox.md "Metrics": null once all its thresholds are deleted (the stored value does not come back).
    await succeed(ctx, routeOf(ctx, 'threshold', 'delete'), { path: { ...metric.path, threshold_id: String(current.id) } }, 'deleting that threshold');
    const gone = await organizationThreshold(ctx, metric.path);
    if (gone !== null) fail(`with its only threshold deleted the metric shows organization_threshold ${show(gone)}, expected null`);
    expectNoThreshold(ctx, await read(), metric.id);
    // A metric stored with organization_threshold null has none.
    const without = await ctx.world.loadRecord('metric', { organization_threshold: null, is_builtin: false });
    expectNoThreshold(ctx, ((await succeed(ctx, ctx.route, { path: without.path }, 'reading the threshold of a metric stored without one')).body as { threshold: Json }).threshold, without.id);
    const none = await organizationThreshold(ctx, without.path);
    if (none !== null) fail(`a metric stored with organization_threshold null shows ${show(none)}`);
  },
};

// The spec makes thresholds records of a workspace (x-resource scope: workspace) and docs/sandbox.md "Scoping"
// finds a record from its own workspace only: a threshold stored in another workspace is not the metric's here.
const otherWorkspace: Check = {
  name: `rule ${RULE}: a threshold stored in another workspace is neither the metric's organization_threshold nor its current threshold`,
  applies: operationWithRule('metric', 'get', RULE),
  async run(ctx) {
    const current = ctx.world.suite.routes.find((r) => r.resource === 'threshold' && r.method === 'GET' && r.action === 'custom' && r.aliasOf === null) ?? fail('the spec has no GET of the current threshold');
    const metric = await ctx.world.create('metric');
    const workspace = await ctx.world.create('workspace');
    await ctx.world.loadRecord('threshold', { metric_id: metric.id, name: `metrics/${metric.id}/threshold`, comparison_operator: 'nin', target_values: ['elsewhere'] }, { workspace_id: workspace.id });
    const shown = await organizationThreshold(ctx, metric.path);
    if (shown !== null) fail(`the metric shows organization_threshold ${show(shown)}, a threshold of another workspace`);
    expectNoThreshold(ctx, ((await succeed(ctx, current, { path: metric.path }, 'reading the current threshold')).body as { threshold: Json }).threshold, metric.id);
  },
};

// docs/sandbox.md "Metrics": the organization_threshold leaves null values out (the seed's fields are not
// nullable), the times included; a threshold record stored with nulls (the threshold schema allows them) shows so.
const storedNulls: Check = {
  name: `rule ${RULE}: a threshold stored with null values and times shows as the organization_threshold without them`,
  applies: operationWithRule('metric', 'get', RULE),
  async run(ctx) {
    const metric = await ctx.world.create('metric');
    const nulls = { target_float_upper: null, target_float_lower: null, target_values: null, source: null, create_time: null, update_time: null };
    const threshold = await ctx.world.loadRecord('threshold', { metric_id: metric.id, name: `metrics/${metric.id}/threshold`, comparison_operator: 'eq', ...nulls });
    const shown = await organizationThreshold(ctx, metric.path);
    if (shown?.id !== threshold.id || shown.comparison_operator !== 'eq') fail(`the metric shows organization_threshold ${show(shown)}, expected the stored threshold ${threshold.id} (eq)`);
    const present = [...Object.keys(nulls), ...TIME_MIRRORS.map(([field]) => field)].filter((k) => shown[k] !== undefined);
    if (present.length > 0) fail(`organization_threshold shows ${present.join(', ')} (${show(shown)}); the threshold holds null there`);
  },
};

export const checks: Check[] = [followsThresholds, storedThreshold, otherWorkspace, storedNulls];
