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
import { parseFilter } from '../engine/list-filter.js';
import { setOwn } from '../engine/records.js';
import type { StoredRecord } from '../storage/store.js';
import { instant } from './baseline-history.js';
import { outputsOf, valueList } from './conversation/outputs.js';

function quoted(value: string): string {
  return JSON.stringify(value);
}

// Each query parameter read here is declared on one kind of operation only (include and metric_id on the lists,
// include_progress on the gets of an uploaded conversation), and a request's query holds only the parameters its
// operation declares (http/request.ts readQuery): a get never asks for values or outputs, a list never for
// progress. The rule is named on the simulated-conversation list, not on its get (which shows metric_values).
function shape(kind: string, record: StoredRecord, query: Record<string, unknown>): void {
  const d = record.data;
  if (kind === 'simulation') {
    if (query.include !== 'metric_values') delete d.metric_values;
    return;
  }
  if (query.include === 'metric_values' || query.metric_id !== undefined) setOwn(d, 'metric_values', valueList(d));
  else delete d.metric_values;
  if (query.include === 'metric_outputs') setOwn(d, 'metric_outputs', outputsOf(kind, record));
  else delete d.metric_outputs;
  if (query.include_progress !== true) delete d.progress;
}

export const conversationMetricValues: Rule = {
  before(ctx) {
    // metric_id, start_date and end_date are list parameters (a get's query never holds them).
    const clauses: string[] = [];
    if (typeof ctx.query.metric_id === 'string') clauses.push(`metric_ids:${quoted(ctx.query.metric_id)}`);
    // Timestamps compare as text: both sides in the form the sandbox stores (UTC, milliseconds, Z). A date-time
    // no instant is (a leap second) is 400 on its parameter, as in a baseline's history.
    const start = instant(ctx.query.start_date, 'start_date');
    const end = instant(ctx.query.end_date, 'end_date');
    if (start !== undefined) clauses.push(`create_time >= ${quoted(new Date(start).toISOString())}`);
    if (end !== undefined) clauses.push(`create_time < ${quoted(new Date(end).toISOString())}`);
    if (clauses.length === 0) return;
    const own = typeof ctx.query.filter === 'string' && ctx.query.filter.trim() !== '' ? ctx.query.filter : undefined;
    if (own !== undefined) {
      // The caller's expression is read alone first, as the list reads it without these parameters: a ")" of
      // its own must not close the parenthesis it is put in (`a = 1) OR (b = 2` stays 400).
      const resource = ctx.runtime.resource(ctx.route.resource!);
      parseFilter(own, resource.properties, `the ${resource.name} list`, 'filter');
    }
    ctx.query.filter = [...(own === undefined ? [] : [`(${own})`]), ...clauses].join(' AND ');
  },
  after(ctx, result) {
    const kind = ctx.route.resource!;
    // A list answers records (none for a breakdown), a get its record.
    if (result.records) for (const r of result.records) shape(kind, r, ctx.query);
    else shape(kind, result.record!, ctx.query);
  },
};
