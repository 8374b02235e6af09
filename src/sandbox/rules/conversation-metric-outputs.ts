// conversation-metric-outputs (metric outputs of simulated and uploaded conversations, both paths): the list
// `{metrics, next_page_token}` and one output `{metric}`, computed from the metric values the conversation
// carries and the waves that evaluated it (rules/conversation/outputs.ts). The conversation must be visible
// (404 on its id); an output id it does not have is 404 on metric_output_id.
import { notFound } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { decodeToken, DEFAULT_PAGE_SIZE, page } from '../engine/paging.js';
import { findRecord, firstPathParam } from '../engine/records.js';
import { outputsOf } from './conversation/outputs.js';

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
    const size = typeof ctx.query.page_size === 'number' ? ctx.query.page_size : DEFAULT_PAGE_SIZE;
    const p = page(outputs, size, decodeToken(ctx.query.page_token, 'page_token'));
    return { body: { metrics: p.items, ...(p.next === undefined ? {} : { next_page_token: p.next }) } };
  },
};
