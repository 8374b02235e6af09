// The events of x-handlers, checked through the control plane when the target offers it: a completed run
// triggers a matching alert (trigger_count, last_triggered_at), moves a baseline of its metric, and delivers
// each job_complete webhook with its auth token. Each check is selected by the rule name the spec gives the
// handler, and skipped (with the reason) without a control plane.
import { expectSuccess, send } from '../http.js';
import { fail, skip } from '../result.js';
import type { SuiteData } from '../suite-data.js';
import { recordOf } from '../world.js';
import type { Check, CheckContext } from './context.js';
import { unansweredUrl } from './unanswered-url.js';

function handles(suite: SuiteData, rule: string): boolean {
  return suite.handlers.some((h) => h.on === 'run.completed' && h.rule === rule);
}

async function metric(ctx: CheckContext): Promise<string> {
  return (await ctx.world.create('metric')).id;
}

export const alertFires: Check = {
  name: 'events: a completed run fires a matching alert (trigger_count, last_triggered_at, one notification per channel)',
  needs: 'an alert create operation and the evaluate-alerts handler (x-handlers)',
  applies: (route, suite) => route.id === suite.routes.find((r) => r.resource === 'alert' && r.action === 'create')?.id && handles(suite, 'evaluate-alerts'),
  async run(ctx) {
    const control = ctx.target.control;
    if (!control) skip('needs the control plane to complete a run');
    const metricId = await metric(ctx);
    const body = {
      ...(await ctx.world.bodyFor(ctx.route)),
      conversation_source: 'ALL',
      match_mode: 'ALL',
      cooldown_seconds: 0,
      agent_ids: [],
      required_tags: [],
      scheduled_run_ids: [],
      conditions: [{ metric_id: metricId, aggregation: 'SINGLE', operator: 'GT', threshold_float: 0.5 }],
      channels: [{ channel_type: 'SLACK', config: { channel: '#alerts' } }],
    };
    const created = await send(ctx.target, ctx.route, { body });
    expectSuccess(created, ctx.route, 'creating the alert');
    const alert = recordOf(ctx.route, created)!;
    const get = ctx.world.route('alert', 'get')!;
    const path = { alert_id: String(alert.ulid ?? alert.id) };
    await control.completeRun({ metric_values: { [metricId]: 0.2 } });
    const quiet = recordOf(get, await send(ctx.target, get, { path }))!;
    if (quiet.trigger_count !== 0) fail(`a value below the threshold fired the alert (trigger_count ${String(quiet.trigger_count)})`);
    const done = await control.completeRun({ metric_values: { [metricId]: 0.9 } });
    const fired = recordOf(get, await send(ctx.target, get, { path }))!;
    if (fired.trigger_count !== 1) fail(`expected trigger_count 1 after a value above the threshold, got ${String(fired.trigger_count)}`);
    if (typeof fired.last_triggered_at !== 'string') fail('last_triggered_at was not set');
    const notes = done.sent.filter((s) => s.kind === 'alert_notification');
    if (notes.length !== 1) fail(`expected one alert notification (one channel), got ${notes.length}`);
  },
};

export const baselineMoves: Check = {
  name: "events: a completed run moves the baseline of its metric (EWMA mean, observation count)",
  needs: 'a baseline create operation and the update-baselines handler (x-handlers)',
  applies: (route, suite) => route.id === suite.routes.find((r) => r.resource === 'baseline' && r.action === 'create')?.id && handles(suite, 'update-baselines'),
  async run(ctx) {
    const control = ctx.target.control;
    if (!control) skip('needs the control plane to complete a run');
    const baseline = await ctx.world.create('baseline');
    const metricId = baseline.path.metric_id!;
    await control.completeRun({ metric_values: { [metricId]: 4 } });
    await control.completeRun({ metric_values: { [metricId]: 8 } });
    const get = ctx.world.route('baseline', 'get')!;
    const answer = await send(ctx.target, get, { path: baseline.path });
    expectSuccess(answer, get, 'getting the baseline');
    const record = recordOf(get, answer)!;
    if (record.observation_count !== 2) fail(`expected observation_count 2, got ${String(record.observation_count)}`);
    const mean = record.baseline_float as number;
    if (!(mean > 4 && mean < 8)) fail(`expected the mean between the two observations (4, 8), got ${mean}`);
    if (!((record.baseline_sigma as number) > 0)) fail(`expected a positive sigma after two different observations, got ${String(record.baseline_sigma)}`);
  },
};

export const webhookDelivered: Check = {
  name: 'events: a completed run delivers each job_complete webhook with its auth token',
  needs: 'a webhook create operation and the deliver-webhooks handler (x-handlers)',
  applies: (route, suite) => route.id === suite.routes.find((r) => r.resource === 'webhook' && r.action === 'create')?.id && handles(suite, 'deliver-webhooks'),
  async run(ctx) {
    const control = ctx.target.control;
    if (!control) skip('needs the control plane to complete a run and see deliveries');
    const token = `conformance-token-${ctx.world.nextSeed()}`;
    const created = await send(ctx.target, ctx.route, { body: { type: 'job_complete', url: ctx.target.receiver?.endpoint() ?? unansweredUrl('https', 'hook'), auth_token: token } });
    expectSuccess(created, ctx.route, 'creating the webhook');
    if (created.text.includes(token)) fail('the webhook answer contains its auth token');
    const webhook = recordOf(ctx.route, created)!;
    const done = await control.completeRun({ metric_values: {} });
    const delivery = done.sent.find((s) => s.kind === 'webhook_delivery' && (s.webhook_id === webhook.id || (s.payload as Record<string, unknown> | undefined)?.webhook_id === webhook.id));
    if (!delivery) fail('no webhook delivery was recorded for the completed run');
    const headers = Object.fromEntries(Object.entries((delivery.headers as Record<string, string>) ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    if (!Object.values(headers).includes(token)) fail('the delivery did not carry the auth token in a header');
    const payload = delivery.payload as Record<string, unknown>;
    if (payload.run_id !== done.run.run_id) fail(`the payload names run ${String(payload.run_id)}, expected ${String(done.run.run_id)}`);
  },
};
