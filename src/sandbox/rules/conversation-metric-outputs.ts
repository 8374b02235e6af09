// conversation-metric-outputs (metric outputs of simulated and uploaded conversations, both paths): the list
// `{metrics, next_page_token}` and one output `{metric}`, computed from the metric values the conversation
// carries and the waves that evaluated it (rules/conversation/outputs.ts). The conversation must be visible
// (404 on its id); an output id it does not have is 404 on metric_output_id. The list takes `filter` and
// `order_by` over the output's fields (facts-shapes 2.4 SC8, 2.5 UC6), read as on the other lists.
import { notFound } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { parseFilter } from '../engine/list-filter.js';
import { orderedBy } from '../engine/list-query.js';
import { decodeToken, DEFAULT_PAGE_SIZE, page } from '../engine/paging.js';
import { findRecord, firstPathParam } from '../engine/records.js';
import { OUTPUT_FIELDS, outputsOf } from './conversation/outputs.js';

export const conversationMetricOutputs: Rule = {
  handle(ctx) {
    const kind = ctx.route.resource!;
    const param = firstPathParam(ctx.route)!;
    const record = findRecord(ctx, kind, ctx.path[param], { field: param });
    const outputs = outputsOf(kind, record);
    const wanted = ctx.path.metric_output_id;
    if (wanted !== undefined) {
      const one = outputs.find((o) => o.metric_output_id === wanted);
      if (!one) throw notFound('metric_output_id', 'metric output');
      return { body: { metric: one } };
    }
    const fields = OUTPUT_FIELDS[kind]!;
    const filter = typeof ctx.query.filter === 'string' ? parseFilter(ctx.query.filter, fields, 'the metric output list', 'filter') : undefined;
    const kept = filter ? outputs.filter(filter) : outputs;
    const listed = typeof ctx.query.order_by === 'string' && ctx.query.order_by !== '' ? orderedBy(kept, ctx.query.order_by, 'order_by', fields, 'metric output', (o) => o) : kept;
    const size = typeof ctx.query.page_size === 'number' ? ctx.query.page_size : DEFAULT_PAGE_SIZE;
    const p = page(listed, size, decodeToken(ctx.query.page_token, 'page_token'));
    return { body: { metrics: p.items, ...(p.next === undefined ? {} : { next_page_token: p.next }) } };
  },
};
