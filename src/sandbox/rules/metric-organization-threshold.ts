// metric-organization-threshold (the metric operations that answer metrics, and the threshold operations): a
// metric's `organization_threshold` (seed: `metrics/<id>/threshold`) and the threshold operations (facts-shapes
// 2.8 MT16-MT20, named `metrics/<metric_id>/threshold` too) are one thing, so each reads what the other wrote:
// - after an operation that answers metrics: each answered metric shows its current threshold (the newest live
//   threshold record, as metric-threshold reads it) in the organization_threshold form; null once every threshold
//   of the metric was deleted; a metric that never had a threshold record shows what it holds (a fixture's value),
//   else null. The answer is a copy: the stored metric is untouched (a built-in metric is shared by every
//   organization, and each has its own thresholds).
// - before an operation on the metric in the path: a metric that holds an organization_threshold but has no
//   threshold record in the caller's organization gets one made from it, so the threshold operations see it.
// Decisions (the sources give the two shapes, not how they relate): docs/sandbox.md "Metrics".
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, inScope, isHidden, newRecordData, setOwn } from '../engine/records.js';
import { isJsonObject, PLATFORM_ORG, type Json, type StoredRecord } from '../storage/store.js';

const VALUES = ['comparison_operator', 'target_float_upper', 'target_float_lower', 'target_values', 'source'];

/** The caller's threshold records of each metric (deleted ones included), oldest first. */
function thresholdsByMetric(ctx: RequestContext): Map<string, StoredRecord[]> {
  const resource = ctx.runtime.resource('threshold');
  const out = new Map<string, StoredRecord[]>();
  for (const r of ctx.runtime.store.list('threshold', { org: ctx.org })) {
    if (!inScope(ctx, resource, r)) continue;
    const metric = String(r.data.metric_id);
    out.set(metric, [...(out.get(metric) ?? []), r]);
  }
  return out;
}

/** A threshold record in the organization_threshold form (its fields are not nullable: null values are left out). */
function asOrganizationThreshold(record: StoredRecord): Json {
  const d = record.data;
  const out: Json = { id: record.id, name: d.name };
  for (const k of VALUES) if (d[k] !== undefined && d[k] !== null) setOwn(out, k, d[k]);
  for (const [field, from] of [['create_time', 'create_time'], ['update_time', 'update_time'], ['created_at', 'create_time'], ['updated_at', 'update_time']]) {
    if (typeof d[from!] === 'string') setOwn(out, field!, d[from!]);
  }
  return out;
}

function shown(ctx: RequestContext, metric: StoredRecord, thresholds: Map<string, StoredRecord[]>): StoredRecord {
  const resource = ctx.runtime.resource('threshold');
  const own = thresholds.get(metric.id) ?? [];
  const live = own.filter((r) => !isHidden(resource, r));
  const current = live[live.length - 1];
  const value = current ? asOrganizationThreshold(current) : own.length > 0 ? null : (metric.data.organization_threshold ?? null);
  return { ...metric, data: { ...metric.data, organization_threshold: value } };
}

export const metricOrganizationThreshold: Rule = {
  before(ctx) {
    if (ctx.path.metric_id === undefined) return;
    const metric = findRecord(ctx, 'metric', ctx.path.metric_id, { field: 'metric_id', includeHidden: true });
    const held = metric.data.organization_threshold;
    if (!isJsonObject(held)) return;
    if ((thresholdsByMetric(ctx).get(metric.id) ?? []).length > 0) return;
    const resource = ctx.runtime.resource('threshold');
    const body: Json = { metric_id: metric.id, name: `metrics/${metric.id}/threshold` };
    for (const k of VALUES) if (held[k] !== undefined) setOwn(body, k, held[k]);
    const data = newRecordData(ctx.runtime, resource, body, ctx.now);
    for (const k of ['create_time', 'update_time']) if (typeof held[k] === 'string') setOwn(data, k, held[k]);
    ctx.runtime.store.insert({ kind: 'threshold', id: String(data.id), org: ctx.org, workspace: metric.org === PLATFORM_ORG ? ctx.workspace : metric.workspace, deleted: false, data });
  },
  after(ctx, result) {
    const metrics = [result.record, ...(result.records ?? [])].filter((r): r is StoredRecord => r?.kind === 'metric');
    if (metrics.length === 0) return;
    const thresholds = thresholdsByMetric(ctx);
    if (result.record?.kind === 'metric') result.record = shown(ctx, result.record, thresholds);
    if (result.records) result.records = result.records.map((r) => (r.kind === 'metric' ? shown(ctx, r, thresholds) : r));
  },
};
