// evaluate-alerts: a WEBHOOK channel's notification as the receiving end gets it — a JSON POST of the
// notification payload, with X-Webhook-Token exactly when the channel has a (non-empty) auth_token, retried
// like webhook deliveries.
import { fail } from '../../result.js';
import type { Check } from '../context.js';
import { needReceiver } from './webhooks-baselines-support.js';
import { AlertLab, condition, enumValues, notesOf, onAlertOperation, payloadOf } from './alerts-lab.js';

export const webhookChannelCalls: Check = {
  name: 'rule evaluate-alerts: a WEBHOOK channel is POSTed the notification payload as JSON, with X-Webhook-Token only for a non-empty auth_token, retried on 5xx',
  applies: onAlertOperation('update'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const receiver = needReceiver(ctx, 'see what a WEBHOOK channel receives');
    enumValues(ctx.suite, 'ChannelType', ['WEBHOOK']);
    const metric = await lab.metric();
    const token = `conformance-alert-receiver-token-${ctx.world.nextSeed()}`;
    const urls = { token: receiver.endpoint(), none: receiver.endpoint(), empty: receiver.endpoint(), retried: receiver.endpoint([503, 204]) };
    const alert = await lab.alert({
      conditions: [condition(metric, 'SINGLE', 'GT', 0.5)],
      channels: [
        { channel_type: 'WEBHOOK', config: { url: urls.token, method: 'POST', auth_token: token } },
        { channel_type: 'WEBHOOK', config: { url: urls.none, method: 'POST' } },
        { channel_type: 'WEBHOOK', config: { url: urls.empty, method: 'POST', auth_token: '' } },
        { channel_type: 'WEBHOOK', config: { url: urls.retried, method: 'POST', auth_token: token } },
      ],
    });
    const done = await lab.complete({ [metric]: 1 });
    const problems: string[] = [];
    if (notesOf(done, alert).length !== 4) problems.push(`expected 4 notifications, got ${notesOf(done, alert).length}`);
    const payload = payloadOf(done, alert);
    // Docs (sandbox.md "Alerts"): a WEBHOOK channel with an HTTP(S) config.url is POSTed with its token in
    // X-Webhook-Token. No header without a token, an empty token counting as none, and the retries of webhook
    // deliveries (sandbox.md "Webhooks": 5xx retried) are the sandbox's choices for alert channels.
    const expected: [keyof typeof urls, string | undefined, number][] = [
      ['token', token, 1],
      ['none', undefined, 1],
      ['empty', undefined, 1],
      ['retried', token, 2],
    ];
    for (const [label, wantToken, attempts] of expected) {
      const calls = await receiver.calls(urls[label]);
      if (calls.length !== attempts) {
        problems.push(`${label}: expected ${attempts} call(s), got ${calls.length}`);
        continue;
      }
      for (const call of calls) {
        if (call.method !== 'POST') problems.push(`${label}: called with ${call.method}, expected POST`);
        if (!String(call.headers['content-type']).includes('application/json')) problems.push(`${label}: content-type ${String(call.headers['content-type'])}, expected JSON`);
        if (call.headers['x-webhook-token'] !== wantToken) problems.push(`${label}: X-Webhook-Token ${JSON.stringify(call.headers['x-webhook-token'])}, expected ${JSON.stringify(wantToken)}`);
        if (JSON.stringify(call.body) !== JSON.stringify(payload)) problems.push(`${label}: the body is not the recorded notification payload: ${JSON.stringify(call.body).slice(0, 200)}`);
      }
    }
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const checks: Check[] = [webhookChannelCalls];
