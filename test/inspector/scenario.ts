// A sandbox with something to inspect: an organization with a metric, a baseline, an alert (Slack and webhook
// channels), a job_complete webhook with a token, a tag named like an HTML tag, an agent saved twice, and runs
// completed through the control plane at fixed times. Webhook POSTs go to a fake fetch that refuses the first
// call of each URL with 503 (so every delivery shows a retry), then accepts.
import type { FetchLike } from '../../src/sandbox/events/deliver.js';
import { startHarness, type Harness } from '../support/sandbox.js';

export const HOOK_TOKEN = 'whk_secret_token_do_not_show_123';
export const ALERT_TOKEN = 'alert_channel_secret_token_456';
export const SCRIPT_TAG = '<script>window.__pwned = 1</script>';

export interface Scenario {
  h: Harness;
  org: string;
  key: string;
  metric: string;
  baseline: string;
  alert: string;
  webhook: string;
  agent: string;
  tag: string;
  /** Another organization with its own tag, which org's key must never see. */
  other: { org: string; key: string; tag: string; secretName: string };
  completeRun(value: number, at: string): Promise<string>;
  /** Runs every 6 hours over three days (2026-11-20..22), values around 0.8 with a dip, so a baseline has a history to plot. */
  history(): Promise<void>;
}

/** The id of a created record, whether the API answered with the record or wrapped it (`{ tag: {...} }`). */
function idOf(answer: unknown): string {
  const a = answer as Record<string, unknown>;
  if (typeof a.id === 'string') return a.id;
  if (typeof a.ulid === 'string') return a.ulid;
  const inner = Object.values(a).find((v) => v !== null && typeof v === 'object') as Record<string, unknown> | undefined;
  return String(inner?.id ?? inner?.ulid);
}

export async function scenario(): Promise<Scenario> {
  const seen = new Set<string>();
  const fakeFetch: FetchLike = async (url) => {
    if (!seen.has(url)) {
      seen.add(url);
      return { status: 503 };
    }
    return { status: 200 };
  };
  const h = await startHarness({ deliveryFetch: fakeFetch });
  const o = await h.control.createOrganization('Acme evaluations');
  const org = o.organization.id;
  const key = o.api_key.key;
  const client = h.clientFor(key);
  const [m] = await h.control.loadFixtures(org, [{ kind: 'metric', data: { metric_name: 'response quality', description: 'd', metric_type: 'METRIC_LLM_BINARY' } }]);
  const metric = m!.id;
  const baseline = await client.baselines.createBaseline(metric, { sigma_threshold: 2, direction: 'BOTH' });
  const alert = await client.alerts.createAlert({
    name: 'quality dropped',
    evaluation_type: 'ON_RUN_COMPLETE',
    conditions: [{ metric_id: metric, aggregation: 'RUN_AVERAGE', operator: 'LT', threshold_float: 0.6 }],
    channels: [
      { channel_type: 'SLACK', config: { channel_id: 'C123', channel_name: '#alerts' } },
      { channel_type: 'WEBHOOK', config: { url: 'http://127.0.0.1:9/alert-hook', auth_token: ALERT_TOKEN } },
    ],
  } as never);
  const webhook = await client.webhooks.createWebhook({ type: 'job_complete', url: 'http://127.0.0.1:9/job-hook', auth_token: HOOK_TOKEN });
  const tag = await client.tags.createTag({ tag_name: SCRIPT_TAG, color: '#ff0000' } as never);
  const agent = await client.agents.createAgent({ display_name: 'Support bot', model_type: 'MODEL_TYPE_CHAT', prompt: 'Be helpful.' } as never);
  await client.agents.updateAgent(idOf(agent), { prompt: 'Be helpful and brief.' } as never);

  const b = await h.control.createOrganization('Other org');
  const secretName = 'other-org-private-tag';
  const otherTag = await h.clientFor(b.api_key.key).tags.createTag({ tag_name: secretName } as never);

  const completeRun = async (value: number, at: string): Promise<string> => {
    const r = await h.control.completeRun(org, { metric_values: { [metric]: [value] }, completed_at: at, conversation_source: 'SIMULATED' });
    return String(r.run.run_id);
  };
  return {
    h,
    org,
    key,
    metric,
    baseline: idOf(baseline),
    alert: idOf(alert),
    webhook: idOf(webhook),
    agent: idOf(agent),
    tag: idOf(tag),
    other: { org: b.organization.id, key: b.api_key.key, tag: idOf(otherTag), secretName },
    completeRun,
    async history() {
      for (let i = 0; i < 12; i++) {
        const at = new Date(Date.UTC(2026, 10, 20, 1 + i * 6, 15)).toISOString();
        await completeRun(Math.round((0.8 + 0.08 * Math.sin(i * 1.3) - (i === 9 ? 0.3 : 0)) * 1000) / 1000, at);
      }
    },
  };
}
