// metric-organization-threshold (the metric operations that answer metrics, and the threshold operations): a
// metric's `organization_threshold` (seed: `metrics/<id>/threshold`) and the threshold operations (facts-shapes
// 2.8 MT16-MT20, named `metrics/<metric_id>/threshold` too) are one thing, so each reads what the other wrote:
// - after an operation that answers metrics: each answered metric shows its current threshold (the newest live
//   threshold record, as metric-threshold reads it) in the organization_threshold form; null once every threshold
//   of the metric was deleted; a metric that never had a threshold record shows what it holds (a fixture's value),
//   else null. The answer is a copy: the stored metric is untouched (a built-in metric is shared by every
//   organization, and thresholds are records of the caller's workspace).
// - before an operation on the metric in the path: a metric that holds an organization_threshold but has no
//   threshold record in the caller's workspace (deleted ones count) gets one made from it, so the threshold
//   operations see it; once that one is deleted, none is made again.
// Decisions (the sources give the two shapes, not how they relate): docs/sandbox.md "Metrics".
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, inScope, isHidden, newRecordData, setOwn } from '../engine/records.js';
import { isJsonObject, type Json, type StoredRecord } from '../storage/store.js';

const VALUES = ['comparison_operator', 'target_float_upper', 'target_float_lower', 'target_values', 'source'];
/** The organization_threshold's fields and the threshold fields they show (the seed's times twice, in two spellings). */
const SHOWN: readonly [string, string][] = [...VALUES.map((k): [string, string] => [k, k]), ['create_time', 'create_time'], ['update_time', 'update_time'], ['created_at', 'create_time'], ['updated_at', 'update_time']];

/**
 * The caller's threshold records of the given metrics, deleted ones included (they tell a metric that had some),
 * oldest first: looked up by metric through the store's indexed field lookup, so an answer of a page of metrics
 * costs its own metrics' thresholds, not every threshold the organization ever had (issue 29's soak).
 */
function thresholdsByMetric(ctx: RequestContext, metricIds: readonly string[]): Map<string, StoredRecord[]> {
  const resource = ctx.runtime.resource('threshold');
  const out = new Map<string, StoredRecord[]>();
  for (const metric of new Set(metricIds)) {
    const own = ctx.runtime.store.withField('threshold', ctx.org, 'metric_id', metric).filter((r) => inScope(ctx, resource, r));
    if (own.length > 0) out.set(metric, own);
  }
  return out;
}

/** A threshold record in the organization_threshold form (its fields are not nullable: null values are left out). */
function asOrganizationThreshold(record: StoredRecord): Json {
  const d = record.data;
  const out: Json = { id: record.id, name: d.name };
  for (const [field, from] of SHOWN) if (d[from] != null) setOwn(out, field, d[from]);
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
    if ((thresholdsByMetric(ctx, [metric.id]).get(metric.id) ?? []).length > 0) return;
    const resource = ctx.runtime.resource('threshold');
    // The held values and times: absent ones stay absent (undefined is not stored; the engine stamps a missing
    // time with now). The threshold belongs to the caller's workspace, as one the API creates would (a built-in
    // metric gets one per workspace).
    const body: Json = { metric_id: metric.id, name: `metrics/${metric.id}/threshold` };
    for (const k of [...VALUES, 'create_time', 'update_time']) setOwn(body, k, held[k]);
    const data = newRecordData(ctx.runtime, resource, body, ctx.now);
    ctx.runtime.store.insert({ kind: 'threshold', id: String(data.id), org: ctx.org, workspace: ctx.workspace, deleted: false, data });
  },
  after(ctx, result) {
    const metrics = [...(result.record?.kind === 'metric' ? [result.record] : []), ...(result.records ?? []).filter((r) => r.kind === 'metric')];
    if (metrics.length === 0) return;
    const thresholds = thresholdsByMetric(ctx, metrics.map((m) => m.id));
    if (result.record?.kind === 'metric') result.record = shown(ctx, result.record, thresholds);
    if (result.records) result.records = result.records.map((r) => (r.kind === 'metric' ? shown(ctx, r, thresholds) : r));
  },
};
