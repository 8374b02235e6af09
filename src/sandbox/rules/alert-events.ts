// alert-events (listAlertEvents and its legacy alias): the evaluations evaluate-alerts recorded for one alert,
// newest first, optionally only those with one `outcome`, paged like every list, with total_count. The alert
// must be visible (a deleted alert's events are 404 with it).
import type { Rule } from '../engine/hooks.js';
import { decodeToken, DEFAULT_PAGE_SIZE, page } from '../engine/paging.js';
import { findRecord, firstPathParam } from '../engine/records.js';

export const alertEvents: Rule = {
  handle(ctx) {
    const param = firstPathParam(ctx.route)!;
    const alert = findRecord(ctx, 'alert', ctx.path[param], { field: param });
    const outcome = ctx.query.outcome;
    // Looked up by the alert (an indexed field), not by listing every event of the organization: events are never
    // deleted, so that list grows with every evaluation (the hour-long soak: 18 ms a call at 2,700 events).
    const events = ctx.runtime.store
      .withField('alert_event', ctx.org, 'alert_ulid', alert.id)
      .filter((e) => !e.deleted && (outcome === undefined || e.data.outcome === outcome))
      .reverse();
    const size = typeof ctx.query.page_size === 'number' ? ctx.query.page_size : DEFAULT_PAGE_SIZE;
    const p = page(events, size, decodeToken(ctx.query.page_token, 'page_token'));
    // The last page's next_page_token is undefined: left out of the JSON answer.
    return { body: { events: p.items.map((e) => e.data), next_page_token: p.next, total_count: events.length } };
  },
};
