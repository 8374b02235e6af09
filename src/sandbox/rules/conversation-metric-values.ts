// conversation-metric-values (lists and gets of uploaded and simulated conversations): what the list's query
// asks for, and what a single answer leaves out (facts-shapes 3.4, 3.5):
// - uploaded conversations: `metric_values` (a list of {metric_id, value}) only on a list with
//   include=metric_values or a metric_id filter, `metric_outputs` only on a list with include=metric_outputs;
//   `progress` only on a get with include_progress=true; `metric_id` keeps the conversations evaluated on that
//   metric; start_date / end_date keep those created in [start_date, end_date).
// - simulated conversations: on a list, `metric_values` only with include=metric_values (a get shows it).
// The list filters are added to the list's `filter` (the AIP-160 subset the engine reads) before the list
// runs, after the caller's own expression, so they page and count like it. The records of an answer are the
// request's own copies (never written back), so removing fields changes the answer only.
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';
import type { StoredRecord } from '../storage/store.js';
import { outputsOf, valueList } from './conversation/outputs.js';

function quoted(value: string): string {
  return JSON.stringify(value);
}

function shape(kind: string, record: StoredRecord, query: Record<string, unknown>, list: boolean): void {
  const d = record.data;
  if (kind === 'simulation') {
    if (list && query.include !== 'metric_values') delete d.metric_values;
    return;
  }
  const withValues = list && (query.include === 'metric_values' || query.metric_id !== undefined);
  if (withValues) setOwn(d, 'metric_values', valueList(d));
  else delete d.metric_values;
  if (list && query.include === 'metric_outputs') setOwn(d, 'metric_outputs', outputsOf(kind, record));
  else delete d.metric_outputs;
  if (list || query.include_progress !== true) delete d.progress;
}

export const conversationMetricValues: Rule = {
  before(ctx) {
    if (ctx.route.action !== 'list') return;
    const clauses: string[] = [];
    if (typeof ctx.query.metric_id === 'string') clauses.push(`metric_ids:${quoted(ctx.query.metric_id)}`);
    // Timestamps compare as text: both sides in the form the sandbox stores (UTC, milliseconds, Z).
    if (typeof ctx.query.start_date === 'string') clauses.push(`create_time >= ${quoted(new Date(ctx.query.start_date).toISOString())}`);
    if (typeof ctx.query.end_date === 'string') clauses.push(`create_time < ${quoted(new Date(ctx.query.end_date).toISOString())}`);
    if (clauses.length === 0) return;
    const own = typeof ctx.query.filter === 'string' && ctx.query.filter.trim() !== '' ? [`(${ctx.query.filter})`] : [];
    ctx.query.filter = [...own, ...clauses].join(' AND ');
  },
  after(ctx, result) {
    const kind = ctx.route.resource!;
    if (result.records) for (const r of result.records) shape(kind, r, ctx.query, true);
    else if (result.record) shape(kind, result.record, ctx.query, false);
  },
};
