// conversation-metric-breakdown (the uploaded-conversation list, canonical and legacy paths): with
// view=metric_breakdown the list answers, instead of a page, one metric's results grouped by a metadata key
// (facts-shapes 2.5 UC2, E9): {view, metric_id, group_by_metadata, aggregation, breakdown: [{metadata_value,
// value, count}], total_count}. Without view it is the generic list.
// - The conversations are the list's (every filter of the list applies: filter, metric_id, start_date,
//   end_date; conversation-metric-values adds them to `filter` before this runs), all of them, not one page.
// - A group is the conversations whose metadata holds the key, by its value as text; conversations without the
//   key are in no group. Groups are ordered by metadata_value; count = the group's conversations; total_count =
//   the conversations in groups.
// - value: avg = the mean of the group's numeric values of the metric; success = the share (0-1) of the group's
//   values that count as a success (true, a number > 0, or yes / true / pass / passed / success in any case);
//   null when no conversation of the group has a value. aggregation defaults to avg.
// - metric_id and group_by_metadata are required with the view (400 naming the one missing); without the view,
//   group_by_metadata and aggregation change nothing (as the other optional parameters of a list, each alone is
//   a valid request).
// Decisions (the facts give the parameters and the answer's shape only): docs/sandbox.md "Conversations".
import { listAction } from '../engine/actions.js';
import type { Rule } from '../engine/hooks.js';
import { invalid } from '../errors.js';
import { isJsonObject, type StoredRecord } from '../storage/store.js';
import { valuesOf } from './conversation/outputs.js';

const VIEW = 'metric_breakdown';
const SUCCESS_WORDS = new Set(['yes', 'true', 'pass', 'passed', 'success']);

function isSuccess(value: unknown): boolean {
  if (typeof value === 'number') return value > 0;
  if (typeof value === 'string') return SUCCESS_WORDS.has(value.trim().toLowerCase());
  return value === true;
}

function metadataValue(record: StoredRecord, key: string): string | undefined {
  const metadata = record.data.metadata;
  if (!isJsonObject(metadata) || !Object.prototype.hasOwnProperty.call(metadata, key)) return undefined;
  const value = metadata[key];
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function aggregate(values: unknown[], aggregation: string): number | null {
  if (aggregation === 'success') return values.length === 0 ? null : values.filter(isSuccess).length / values.length;
  const numbers = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return numbers.length === 0 ? null : numbers.reduce((a, b) => a + b, 0) / numbers.length;
}

export const conversationMetricBreakdown: Rule = {
  before(ctx) {
    if (ctx.query.view !== VIEW) return;
    for (const field of ['metric_id', 'group_by_metadata']) if (typeof ctx.query[field] !== 'string') throw invalid(field, `view=${VIEW} needs ${field}.`);
  },
  handle(ctx) {
    if (ctx.query.view !== VIEW) return listAction(ctx);
    const metricId = String(ctx.query.metric_id);
    const key = String(ctx.query.group_by_metadata);
    const aggregation = typeof ctx.query.aggregation === 'string' ? ctx.query.aggregation : 'avg';
    const { records } = listAction({ ...ctx, query: { ...ctx.query, page_size: Number.MAX_SAFE_INTEGER, page_token: undefined } });
    const groups = new Map<string, { count: number; values: unknown[] }>();
    for (const record of records ?? []) {
      const group = metadataValue(record, key);
      if (group === undefined) continue;
      const entry = groups.get(group) ?? { count: 0, values: [] };
      entry.count++;
      const values = valuesOf(record.data);
      if (values.has(metricId) && values.get(metricId) !== null) entry.values.push(values.get(metricId));
      groups.set(group, entry);
    }
    const breakdown = [...groups.keys()].sort().map((metadata_value) => {
      const g = groups.get(metadata_value)!;
      return { metadata_value, value: aggregate(g.values, aggregation), count: g.count };
    });
    const body = { view: VIEW, metric_id: metricId, group_by_metadata: key, aggregation, breakdown, total_count: breakdown.reduce((n, g) => n + g.count, 0) };
    // No records: the list's other rules (summary, metric values) have nothing to shape.
    return { body, records: [] };
  },
};
