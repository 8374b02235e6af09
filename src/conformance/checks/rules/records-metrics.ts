// Record rules of metrics: built-in metrics are not restorable (metric-restore); the recently deleted list
// holds the workspace's soft-deleted metrics (metric-recently-deleted).
import { validValue } from '../../values/index.js';
import { expectError, send } from '../../http.js';
import { fail } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { controlOf, itemsOf, loadFixtures, operationWithRule, routeOf, show, succeed, type FixtureEntry, type Json } from './records-support.js';

/** Metric data valid for the Metric schema (the sandbox mints the id). */
function metricData(ctx: CheckContext, overrides: Json): Json {
  const data = validValue({ $ref: `#/$defs/${ctx.world.resource('metric').schema}` } as never, ctx.world.defs, { seed: ctx.world.nextSeed() }) as Json;
  delete data.id;
  delete data.name;
  delete data.current_version;
  return { ...data, ...overrides };
}

export const builtinNotRestorable: Check = {
  name: 'rule metric-restore: a built-in metric is not restorable (404), whether platform record or is_builtin',
  applies: operationWithRule('metric', 'restore', 'metric-restore'),
  async run(ctx) {
    const control = controlOf(ctx, 'load built-in metrics');
    // docs/sandbox.md "Metrics" (the sandbox's choice): built-in metrics are platform records with is_builtin: true;
    // the control plane's platform records are the built-in metrics, and the API answers a built-in with is_builtin.
    const cases: [string, FixtureEntry][] = [
      ['a platform record with is_builtin: true', { kind: 'metric', platform: true, data: metricData(ctx, { is_builtin: true }) }],
      ['a platform record', { kind: 'metric', platform: true, data: metricData(ctx, { is_builtin: false }) }],
      ['a metric the API shows with is_builtin: true', { kind: 'metric', data: metricData(ctx, { is_builtin: true }) }],
    ];
    const ids = await loadFixtures(control, cases.map(([, entry]) => entry));
    const param = ctx.route.params.path[0]!.name;
    for (const [i, [what]] of cases.entries()) {
      // Seed (Metrics and baselines): restore is 404 when the metric is not restorable.
      expectError(await send(ctx.target, ctx.route, { path: { [param]: ids[i]! } }), 404, 'NOT_FOUND', undefined, `restoring ${what}`);
    }
  },
};

export const recentlyDeletedList: Check = {
  name: "rule metric-recently-deleted: lists the workspace's soft-deleted metrics, not active ones nor other workspaces' or platform ones",
  applies: operationWithRule('metric', 'custom', 'metric-recently-deleted'),
  async run(ctx) {
    const del = routeOf(ctx, 'metric', 'delete');
    const restore = routeOf(ctx, 'metric', 'restore');
    const gone = await ctx.world.create('metric');
    const kept = await ctx.world.create('metric');
    const before = Date.now();
    await succeed(ctx, del, { path: gone.path }, 'deleting a metric');
    const after = Date.now();
    const elsewhere = await hiddenFixtures(ctx);
    const listed = async (): Promise<Map<string, Json>> => new Map(itemsOf(ctx.route, (await succeed(ctx, ctx.route, {}, 'listing recently deleted metrics')).body).map((m) => [String(m.id), m]));
    // docs/sandbox.md "Metrics": GET /metrics/recently-deleted lists the workspace's soft-deleted metrics.
    const first = await listed();
    const entry = first.get(gone.id);
    if (!entry) fail(`the deleted metric ${gone.id} is not listed`);
    if (entry.metric_name !== gone.record.metric_name) fail(`the listed metric shows metric_name ${show(entry.metric_name)}, it was created as ${show(gone.record.metric_name)}`);
    expectDeletionStamps(entry, gone.record, before, after);
    if (first.has(kept.id)) fail(`the active metric ${kept.id} is listed as deleted`);
    for (const [what, id] of elsewhere) if (first.has(id)) fail(`${what} (${id}) is listed`);
    // The list is of metrics "restore can bring back": a restored one leaves it.
    await succeed(ctx, restore, { path: gone.path }, 'restoring the deleted metric');
    if ((await listed()).has(gone.id)) fail(`the restored metric ${gone.id} is still listed`);
  },
};

const DAY_MS = 86_400_000;
const CLOCK_SLACK_MS = 5 * 60_000;

/**
 * docs/sandbox.md "Metrics" (facts-shapes 3.8 gives the item's fields): `name` is the metric's resource name,
 * `delete_time` the time of the delete, `deleted_by` the caller who deleted it (the user that created it here) and
 * `purge_time` the delete time plus the 30-day retention.
 */
function expectDeletionStamps(entry: Json, metric: Json, before: number, after: number): void {
  if (typeof metric.name === 'string' && entry.name !== metric.name) fail(`the listed metric's name is ${show(entry.name)}, the metric's is ${show(metric.name)}`);
  const deleted = typeof entry.delete_time === 'string' ? Date.parse(entry.delete_time) : Number.NaN;
  if (!(deleted >= before - CLOCK_SLACK_MS && deleted <= after + CLOCK_SLACK_MS)) fail(`delete_time ${show(entry.delete_time)} is not the time of the delete`);
  const purge = typeof entry.purge_time === 'string' ? Date.parse(entry.purge_time) : Number.NaN;
  if (purge !== deleted + 30 * DAY_MS) fail(`purge_time ${show(entry.purge_time)} is not 30 days after delete_time ${show(entry.delete_time)}`);
  if (typeof entry.deleted_by !== 'string' || entry.deleted_by.trim() === '') fail(`deleted_by ${show(entry.deleted_by)}: expected the user who deleted the metric`);
  if (typeof metric.created_by === 'string' && entry.deleted_by !== metric.created_by) fail(`deleted_by ${show(entry.deleted_by)} is not the caller, who created the metric as ${show(metric.created_by)}`);
}

/** Soft-deleted metrics the default workspace must not list: another workspace's, and a platform record. */
async function hiddenFixtures(ctx: CheckContext): Promise<[string, string][]> {
  const control = ctx.target.control;
  if (!control) return [];
  const createWorkspace = routeOf(ctx, 'workspace', 'create');
  const workspace = recordOf(createWorkspace, await succeed(ctx, createWorkspace, { body: await ctx.world.bodyFor(createWorkspace) }, 'creating a workspace'))!;
  const ids = await loadFixtures(control, [
    { kind: 'metric', deleted: true, workspace_id: String(workspace.id), data: metricData(ctx, {}) },
    { kind: 'metric', deleted: true, platform: true, data: metricData(ctx, { is_builtin: true }) },
  ]);
  return [
    ["another workspace's deleted metric", ids[0]!],
    ['a deleted platform metric', ids[1]!],
  ];
}

// facts-shapes 3.8: delete_time, deleted_by and purge_time may be null. docs/sandbox.md "Metrics": delete_time and
// deleted_by are the delete's stamps and purge_time is delete_time plus 30 days, so a metric stored deleted without
// them (update_time and updated_by null) has all three null.
export const recentlyDeletedWithoutStamps: Check = {
  name: 'rule metric-recently-deleted: a metric stored deleted without delete stamps is listed with delete_time, deleted_by and purge_time null',
  applies: operationWithRule('metric', 'custom', 'metric-recently-deleted'),
  async run(ctx) {
    const stored = await ctx.world.loadRecord('metric', { update_time: null, updated_by: null, is_builtin: false }, { deleted: true });
    const entry = itemsOf(ctx.route, (await succeed(ctx, ctx.route, {}, 'listing recently deleted metrics')).body).find((m) => m.id === stored.id);
    if (!entry) fail(`the metric ${stored.id}, stored deleted, is not listed`);
    if (entry.metric_name !== stored.record.metric_name) fail(`the listed metric shows metric_name ${show(entry.metric_name)}, it was stored as ${show(stored.record.metric_name)}`);
    for (const field of ['delete_time', 'deleted_by', 'purge_time']) if (entry[field] !== null) fail(`${field} is ${show(entry[field])}, expected null (the metric carries no delete stamps)`);
  },
};

export const checks: Check[] = [builtinNotRestorable, recentlyDeletedList, recentlyDeletedWithoutStamps];
