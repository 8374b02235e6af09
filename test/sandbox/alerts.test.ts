// Alert evaluation when a run completes (evaluate-alerts): scope filters, every aggregation and operator,
// match_mode ALL / ANY, windows, cooldown, trigger_count / last_triggered_at, DELETED alerts, notifications
// recorded per channel (custom message), webhook channels posted with their token, secrets never returned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../generated/client/index.js';
import type { FetchLike } from '../../src/sandbox/events/deliver.js';
import { startHarness, type Harness } from '../support/sandbox.js';

type CreateAlertBody = Parameters<Client['alerts']['createAlert']>[0];
type Condition = CreateAlertBody['conditions'][number];

const calls: { url: string; headers: Record<string, string>; body: unknown }[] = [];
const fakeFetch: FetchLike = async (url, init) => {
  calls.push({ url, headers: init.headers, body: JSON.parse(init.body) });
  return { status: 200 };
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ deliveryFetch: fakeFetch });
});
afterAll(async () => h.close());

let seq = 0;
/** A fresh organization per test, so alerts of one test never see another test's runs. */
async function org(): Promise<{ id: string; key: string; client: Client }> {
  const o = await h.control.createOrganization(`alerts ${++seq}`);
  return { id: o.organization.id, key: o.api_key.key, client: h.clientFor(o.api_key.key) };
}

const M = 'MetricAAAAAAAAAAAAAAAAA'.slice(0, 22);
const N = 'MetricBBBBBBBBBBBBBBBBB'.slice(0, 22);
const AGENT = 'AgentXXXXXXXXXXXXXXXXX';
const OTHER_AGENT = 'AgentYYYYYYYYYYYYYYYYY';
const SLACK = { channel_type: 'SLACK' as const, config: { channel_id: 'C123', channel_name: '#alerts' } };

function cond(c: Partial<Condition>): Condition {
  return { metric_id: M, aggregation: 'RUN_AVERAGE', operator: 'GT', threshold_float: 0.5, ...c } as Condition;
}

async function alertWith(client: Client, body: Partial<CreateAlertBody>) {
  return client.alerts.createAlert({ name: 'a', evaluation_type: 'ON_RUN_COMPLETE', channels: [SLACK], conditions: [cond({})], ...body } as CreateAlertBody);
}

async function complete(orgId: string, body: Record<string, unknown>) {
  return h.control.completeRun(orgId, { conversation_source: 'SIMULATED', ...body });
}

async function notifications(orgId: string) {
  return h.control.sent({ organization_id: orgId, kind: 'alert_notification' });
}

async function triggered(client: Client, alertId: string): Promise<number> {
  return (await client.alerts.getAlert(alertId)).trigger_count;
}

describe('alert evaluation on run completion', () => {
  it('a matching run notifies each channel, increments trigger_count and sets last_triggered_at', async () => {
    const o = await org();
    const alert = await alertWith(o.client, {
      channels: [SLACK, { channel_type: 'EMAIL', config: { recipients: ['ops@example.com'] } }],
    });
    expect(alert.trigger_count).toBe(0);
    expect(alert.last_triggered_at ?? null).toBeNull();
    expect(alert.evaluation_type).toBe('ON_RUN_COMPLETE');

    const done = await complete(o.id, { metric_values: { [M]: [0.9, 0.7] }, completed_at: '2026-05-01T10:00:00.000Z' });
    const after = await o.client.alerts.getAlert(alert.ulid);
    expect(after.trigger_count).toBe(1);
    expect(after.last_triggered_at).toBe('2026-05-01T10:00:00.000Z');

    const sent = await notifications(o.id);
    expect(sent).toHaveLength(2);
    expect(sent.map((s) => (s.channel as { channel_type: string }).channel_type).sort()).toEqual(['EMAIL', 'SLACK']);
    for (const s of sent) {
      expect(s.alert_id).toBe(alert.ulid);
      expect(s.run_id).toBe(done.run.run_id);
      expect(s.status).toBe('delivered');
      const payload = s.payload as { message: string; conditions: { value: number; met: boolean }[] };
      expect(payload.conditions[0]).toMatchObject({ value: 0.8, met: true });
      expect(payload.message).toContain('triggered on run');
    }
    expect((sent.find((s) => (s.channel as { channel_type: string }).channel_type === 'SLACK')!.channel as { ulid: string }).ulid).toBe(alert.channels[0]!.ulid);
  });

  it('a run that does not meet the condition does not trigger', async () => {
    const o = await org();
    const alert = await alertWith(o.client, {});
    await complete(o.id, { metric_values: { [M]: 0.2 } });
    expect(await triggered(o.client, alert.ulid)).toBe(0);
    expect(await notifications(o.id)).toHaveLength(0);
  });

  it.each([
    ['GT', 0.5, 0.6, 0.5],
    ['GTE', 0.5, 0.5, 0.4],
    ['LT', 0.5, 0.4, 0.5],
    ['LTE', 0.5, 0.5, 0.6],
    ['EQ', 0.5, 0.5, 0.6],
    ['NEQ', 0.5, 0.6, 0.5],
  ] as const)('operator %s (threshold %d): %d fires, %d does not', async (operator, threshold, hit, miss) => {
    const o = await org();
    const alert = await alertWith(o.client, { conditions: [cond({ operator, threshold_float: threshold })] });
    await complete(o.id, { metric_values: { [M]: miss } });
    expect(await triggered(o.client, alert.ulid)).toBe(0);
    await complete(o.id, { metric_values: { [M]: hit } });
    expect(await triggered(o.client, alert.ulid)).toBe(1);
  });

  it('threshold_string is used when it is a number and threshold_float is absent', async () => {
    const o = await org();
    const alert = await alertWith(o.client, { conditions: [cond({ threshold_float: null, threshold_string: '0.5', operator: 'LT' })] });
    await complete(o.id, { metric_values: { [M]: 0.7 } });
    expect(await triggered(o.client, alert.ulid)).toBe(0);
    await complete(o.id, { metric_values: { [M]: 0.3 } });
    expect(await triggered(o.client, alert.ulid)).toBe(1);
  });

  describe('aggregations', () => {
    it('SINGLE fires when one single result meets the operator, RUN_AVERAGE does not on the same run', async () => {
      const o = await org();
      const single = await alertWith(o.client, { conditions: [cond({ aggregation: 'SINGLE', operator: 'GT', threshold_float: 0.9 })] });
      const average = await alertWith(o.client, { conditions: [cond({ aggregation: 'RUN_AVERAGE', operator: 'GT', threshold_float: 0.9 })] });
      await complete(o.id, { metric_values: { [M]: [0.1, 0.95, 0.2] } });
      expect(await triggered(o.client, single.ulid)).toBe(1);
      expect(await triggered(o.client, average.ulid)).toBe(0);
      const [note] = await notifications(o.id);
      expect((note!.payload as { conditions: { value: number }[] }).conditions[0]!.value).toBe(0.95);
    });

    it('RUN_AVERAGE compares the mean of the run', async () => {
      const o = await org();
      const alert = await alertWith(o.client, { conditions: [cond({ aggregation: 'RUN_AVERAGE', operator: 'LT', threshold_float: 0.5 })] });
      await complete(o.id, { metric_values: { [M]: [0.2, 0.9] } }); // mean 0.55
      expect(await triggered(o.client, alert.ulid)).toBe(0);
      await complete(o.id, { metric_values: { [M]: [0.2, 0.7] } }); // mean 0.45
      expect(await triggered(o.client, alert.ulid)).toBe(1);
    });

    it('RUN_FRACTION is the fraction of non-zero results, or of results equal to match_value', async () => {
      const o = await org();
      const passRate = await alertWith(o.client, { conditions: [cond({ aggregation: 'RUN_FRACTION', operator: 'LT', threshold_float: 0.5 })] });
      const threes = await alertWith(o.client, {
        conditions: [cond({ aggregation: 'RUN_FRACTION', operator: 'GTE', threshold_float: 0.5, match_value: '3' })],
      });
      await complete(o.id, { metric_values: { [M]: [1, 1, 0, 3] } }); // non-zero 3/4; equal to 3: 1/4
      expect(await triggered(o.client, passRate.ulid)).toBe(0);
      expect(await triggered(o.client, threes.ulid)).toBe(0);
      await complete(o.id, { metric_values: { [M]: [0, 0, 3, 3] } }); // non-zero 2/4 = 0.5 (not < 0.5); 3s: 2/4
      expect(await triggered(o.client, passRate.ulid)).toBe(0);
      expect(await triggered(o.client, threes.ulid)).toBe(1);
      await complete(o.id, { metric_values: { [M]: [0, 0, 0, 1] } }); // non-zero 1/4
      expect(await triggered(o.client, passRate.ulid)).toBe(1);
    });

    it('RUN_FRACTION match_mode contains compares the result as text', async () => {
      const o = await org();
      const alert = await alertWith(o.client, {
        conditions: [cond({ aggregation: 'RUN_FRACTION', operator: 'EQ', threshold_float: 1, match_value: '.5', match_mode: 'contains' })],
      });
      await complete(o.id, { metric_values: { [M]: [0.5, 1.5, 2] } });
      expect(await triggered(o.client, alert.ulid)).toBe(0);
      await complete(o.id, { metric_values: { [M]: [0.5, 1.5, 2.5] } });
      expect(await triggered(o.client, alert.ulid)).toBe(1);
    });

    it('JOB_SUCCESS is 1 when the metric produced results in the run, 0 when not', async () => {
      const o = await org();
      const failed = await alertWith(o.client, { conditions: [cond({ aggregation: 'JOB_SUCCESS', operator: 'EQ', threshold_float: 0 })] });
      await complete(o.id, { metric_values: { [M]: 0.3 } });
      expect(await triggered(o.client, failed.ulid)).toBe(0);
      await complete(o.id, { metric_values: { [N]: 0.3 } });
      expect(await triggered(o.client, failed.ulid)).toBe(1);
    });

    it('BASELINE_DEVIATION compares (run average - baseline mean) / sigma, signed, with the baseline before the run', async () => {
      const o = await org();
      const [metric] = await h.control.loadFixtures(o.id, [{ kind: 'metric', data: { metric_name: 'latency', description: 'd', metric_type: 'METRIC_LLM_BINARY' } }]);
      const metricId = metric!.id;
      await o.client.baselines.createBaseline(metricId, {});
      const alert = await alertWith(o.client, { conditions: [cond({ metric_id: metricId, aggregation: 'BASELINE_DEVIATION', operator: 'GT', threshold_float: 2 })] });
      // No baseline spread yet: never met.
      await complete(o.id, { metric_values: { [metricId]: 10 } });
      await complete(o.id, { metric_values: { [metricId]: 20 } });
      expect(await triggered(o.client, alert.ulid)).toBe(0);
      // Estimates now: mean 13, variance 0.7 * (0 + 0.3 * 100) = 21, sigma ~4.583 -> 13 + 2 sigma ~ 22.17.
      await complete(o.id, { metric_values: { [metricId]: 22 } }); // z ~ 1.96
      expect(await triggered(o.client, alert.ulid)).toBe(0);
      // mean 15.7, variance 0.7 * (21 + 0.3 * 81) = 31.71, sigma ~5.631 -> z of 27.3 ~ 2.06
      await complete(o.id, { metric_values: { [metricId]: 27.3 } });
      expect(await triggered(o.client, alert.ulid)).toBe(1);
      const [note] = await notifications(o.id);
      expect((note!.payload as { conditions: { value: number }[] }).conditions[0]!.value).toBeCloseTo((27.3 - 15.7) / Math.sqrt(31.71), 9);
    });
  });

  describe('windows', () => {
    it('window_size_runs averages the per-run averages of the last N runs with the metric', async () => {
      const o = await org();
      const alert = await alertWith(o.client, { conditions: [cond({ aggregation: 'RUN_AVERAGE', operator: 'GT', threshold_float: 0.5, window_size_runs: 3 })] });
      await complete(o.id, { metric_values: { [M]: 0.9 }, completed_at: '2026-05-01T00:00:00Z' });
      expect(await triggered(o.client, alert.ulid)).toBe(1); // window [0.9]
      await complete(o.id, { metric_values: { [M]: [0.1, 0.1, 0.1] }, completed_at: '2026-05-01T01:00:00Z' }); // [0.1, 0.9] -> 0.5
      expect(await triggered(o.client, alert.ulid)).toBe(1);
      await complete(o.id, { metric_values: { [N]: 1 }, completed_at: '2026-05-01T01:30:00Z' }); // no result for M: not evaluated
      expect(await triggered(o.client, alert.ulid)).toBe(1);
      await complete(o.id, { metric_values: { [M]: 0.8 }, completed_at: '2026-05-01T02:00:00Z' }); // [0.8, 0.1, 0.9] -> 0.6
      expect(await triggered(o.client, alert.ulid)).toBe(2);
      await complete(o.id, { metric_values: { [M]: 0.5 }, completed_at: '2026-05-01T03:00:00Z' }); // [0.5, 0.8, 0.1] -> 0.4667
      expect(await triggered(o.client, alert.ulid)).toBe(2);
    });

    it('window_size_days keeps the runs completed within the last N days', async () => {
      const o = await org();
      const alert = await alertWith(o.client, { conditions: [cond({ aggregation: 'RUN_AVERAGE', operator: 'GTE', threshold_float: 0.5, window_size_days: 2 })] });
      await complete(o.id, { metric_values: { [M]: 1 }, completed_at: '2026-05-01T00:00:00Z' });
      expect(await triggered(o.client, alert.ulid)).toBe(1);
      await complete(o.id, { metric_values: { [M]: 0.1 }, completed_at: '2026-05-02T00:00:00Z' }); // (1 + 0.1) / 2 = 0.55
      expect(await triggered(o.client, alert.ulid)).toBe(2);
      await complete(o.id, { metric_values: { [M]: 0.1 }, completed_at: '2026-05-03T12:00:00Z' }); // first run out: 0.1
      expect(await triggered(o.client, alert.ulid)).toBe(2);
    });

    it('JOB_SUCCESS over a window is the fraction of runs with results; the window follows the alert scope', async () => {
      const o = await org();
      const alert = await alertWith(o.client, {
        agent_ids: [AGENT],
        conditions: [cond({ aggregation: 'JOB_SUCCESS', operator: 'LT', threshold_float: 0.6, window_size_runs: 4 })],
      });
      await complete(o.id, { agent_id: AGENT, metric_values: { [M]: 1 }, completed_at: '2026-05-01T00:00:00Z' }); // 1/1
      await complete(o.id, { agent_id: OTHER_AGENT, metric_values: { [N]: 1 }, completed_at: '2026-05-01T00:30:00Z' }); // other agent: not in scope
      await complete(o.id, { agent_id: AGENT, metric_values: { [N]: 1 }, completed_at: '2026-05-01T01:00:00Z' }); // 1/2
      expect(await triggered(o.client, alert.ulid)).toBe(1);
      const sent = await notifications(o.id);
      expect((sent[0]!.payload as { conditions: { value: number }[] }).conditions[0]!.value).toBe(0.5);
    });
  });

  describe('match_mode', () => {
    const conditions = [cond({ metric_id: M, operator: 'GT', threshold_float: 0.5 }), cond({ metric_id: N, operator: 'GT', threshold_float: 0.5 })];

    it('ALL needs every condition', async () => {
      const o = await org();
      const alert = await alertWith(o.client, { match_mode: 'ALL', conditions });
      await complete(o.id, { metric_values: { [M]: 0.9, [N]: 0.1 } });
      expect(await triggered(o.client, alert.ulid)).toBe(0);
      await complete(o.id, { metric_values: { [M]: 0.9, [N]: 0.9 } });
      expect(await triggered(o.client, alert.ulid)).toBe(1);
    });

    it('ANY needs one condition', async () => {
      const o = await org();
      const alert = await alertWith(o.client, { match_mode: 'ANY', conditions });
      await complete(o.id, { metric_values: { [M]: 0.1, [N]: 0.1 } });
      expect(await triggered(o.client, alert.ulid)).toBe(0);
      await complete(o.id, { metric_values: { [M]: 0.1, [N]: 0.9 } });
      expect(await triggered(o.client, alert.ulid)).toBe(1);
    });
  });

  describe('scope', () => {
    const hit = { metric_values: { [M]: 0.9 } };

    it('conversation_source restricts to runs of that source; ALL takes both', async () => {
      const o = await org();
      const uploaded = await alertWith(o.client, { conversation_source: 'UPLOADED' });
      const all = await alertWith(o.client, { conversation_source: 'ALL' });
      await complete(o.id, { ...hit, conversation_source: 'SIMULATED' });
      expect(await triggered(o.client, uploaded.ulid)).toBe(0);
      expect(await triggered(o.client, all.ulid)).toBe(1);
      await complete(o.id, { ...hit, conversation_source: 'UPLOADED' });
      expect(await triggered(o.client, uploaded.ulid)).toBe(1);
      expect(await triggered(o.client, all.ulid)).toBe(2);
    });

    it('agent_ids restricts to runs of those agents', async () => {
      const o = await org();
      const alert = await alertWith(o.client, { agent_ids: [AGENT] });
      await complete(o.id, { ...hit, agent_id: OTHER_AGENT });
      await complete(o.id, hit);
      expect(await triggered(o.client, alert.ulid)).toBe(0);
      await complete(o.id, { ...hit, agent_id: AGENT });
      expect(await triggered(o.client, alert.ulid)).toBe(1);
    });

    it('required_tags needs every tag on the run', async () => {
      const o = await org();
      const alert = await alertWith(o.client, { required_tags: ['prod', 'billing'] });
      await complete(o.id, { ...hit, tags: ['prod'] });
      expect(await triggered(o.client, alert.ulid)).toBe(0);
      await complete(o.id, { ...hit, tags: ['billing', 'prod', 'extra'] });
      expect(await triggered(o.client, alert.ulid)).toBe(1);
    });

    it('scheduled_run_ids restricts to runs started by those scheduled runs', async () => {
      const o = await org();
      const alert = await alertWith(o.client, { scheduled_run_ids: ['sched-1'] });
      await complete(o.id, { ...hit, scheduled_run_id: 'sched-2' });
      await complete(o.id, hit);
      expect(await triggered(o.client, alert.ulid)).toBe(0);
      await complete(o.id, { ...hit, scheduled_run_id: 'sched-1' });
      expect(await triggered(o.client, alert.ulid)).toBe(1);
    });

    it('alerts of another organization are not evaluated', async () => {
      const a = await org();
      const b = await org();
      const alert = await alertWith(a.client, {});
      await complete(b.id, hit);
      expect(await triggered(a.client, alert.ulid)).toBe(0);
      expect(await notifications(a.id)).toHaveLength(0);
    });
  });

  describe('cooldown', () => {
    it('a second match within cooldown_seconds is suppressed; after it the alert fires again', async () => {
      const o = await org();
      const alert = await alertWith(o.client, { cooldown_seconds: 600 });
      await complete(o.id, { metric_values: { [M]: 0.9 }, completed_at: '2026-05-01T10:00:00Z' });
      await complete(o.id, { metric_values: { [M]: 0.9 }, completed_at: '2026-05-01T10:09:59Z' });
      let now = await o.client.alerts.getAlert(alert.ulid);
      expect(now.trigger_count).toBe(1);
      expect(now.last_triggered_at).toBe('2026-05-01T10:00:00.000Z');
      expect(await notifications(o.id)).toHaveLength(1);
      await complete(o.id, { metric_values: { [M]: 0.9 }, completed_at: '2026-05-01T10:10:00Z' });
      now = await o.client.alerts.getAlert(alert.ulid);
      expect(now.trigger_count).toBe(2);
      expect(now.last_triggered_at).toBe('2026-05-01T10:10:00.000Z');
      expect(await notifications(o.id)).toHaveLength(2);
    });

    it('follows the sandbox clock when completed_at is not given', async () => {
      let t = Date.parse('2026-06-01T00:00:00Z');
      const clocked = await startHarness({ clock: { now: () => new Date(t) } });
      try {
        const o = await clocked.control.createOrganization();
        const client = clocked.clientFor(o.api_key.key);
        const alert = await alertWith(client, { cooldown_seconds: 60 });
        const run = async () => clocked.control.completeRun(o.organization.id, { metric_values: { [M]: 1 } });
        await run();
        t += 30_000;
        await run();
        expect((await client.alerts.getAlert(alert.ulid)).trigger_count).toBe(1);
        t += 30_000;
        await run();
        const after = await client.alerts.getAlert(alert.ulid);
        expect(after.trigger_count).toBe(2);
        expect(after.last_triggered_at).toBe('2026-06-01T00:01:00.000Z');
      } finally {
        await clocked.close();
      }
    });
  });

  it('DELETED alerts never fire', async () => {
    const o = await org();
    const alert = await alertWith(o.client, {});
    await o.client.alerts.deleteAlert(alert.ulid);
    await complete(o.id, { metric_values: { [M]: 0.9 } });
    expect(await notifications(o.id)).toHaveLength(0);
  });

  it('an updated condition set is the one evaluated', async () => {
    const o = await org();
    const alert = await alertWith(o.client, {});
    await o.client.alerts.updateAlert(alert.ulid, { conditions: [cond({ operator: 'LT', threshold_float: 0.5 })] });
    await complete(o.id, { metric_values: { [M]: 0.9 } });
    expect(await triggered(o.client, alert.ulid)).toBe(0);
    await complete(o.id, { metric_values: { [M]: 0.1 } });
    expect(await triggered(o.client, alert.ulid)).toBe(1);
  });

  it('renders custom_message_template placeholders into the notification message', async () => {
    const o = await org();
    const alert = await alertWith(o.client, {
      name: 'Low score',
      custom_message_template: '{{alert_name}}: {{metric_id}} was {{value}} on run {{run_id}} (#{{trigger_count}}) {{unknown}}',
    });
    const done = await complete(o.id, { metric_values: { [M]: 0.75 } });
    const [note] = await notifications(o.id);
    expect((note!.payload as { message: string }).message).toBe(`Low score: ${M} was 0.75 on run ${done.run.run_id} (#1) {{unknown}}`);
    expect(alert.custom_message_template).toContain('{{alert_name}}');
  });

  it('posts WEBHOOK channels to their url with the token header, and never returns the token', async () => {
    const o = await org();
    const secret = 'alert-channel-secret-123';
    const alert = await alertWith(o.client, {
      channels: [{ channel_type: 'WEBHOOK', config: { url: 'https://hooks.example.test/alert', method: 'POST', auth_token: secret } }],
    });
    expect(JSON.stringify(alert)).not.toContain(secret);
    expect(JSON.stringify(await o.client.alerts.getAlert(alert.ulid))).not.toContain(secret);
    const listed = await h.sandbox.fetch(new Request('http://sandbox.test/v1/alerts', { headers: { 'x-api-key': o.key } }));
    expect(listed.status).toBe(200);
    const listedText = await listed.text();
    expect(listedText).toContain(alert.ulid);
    expect(listedText).not.toContain(secret);
    const before = calls.length;
    const done = await complete(o.id, { metric_values: { [M]: 0.9 } });
    const call = calls.slice(before).find((c) => c.url === 'https://hooks.example.test/alert');
    expect(call).toBeDefined();
    expect(call!.headers['X-Webhook-Token']).toBe(secret);
    expect(call!.body).toMatchObject({ alert_id: alert.ulid, run_id: done.run.run_id, trigger_count: 1 });
    const [note] = await notifications(o.id);
    expect(note).toMatchObject({ status: 'delivered', url: 'https://hooks.example.test/alert' });
    expect(JSON.stringify(note!.channel)).not.toContain(secret);
  });
});
