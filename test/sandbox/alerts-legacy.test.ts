// Alerts under both generations of paths (x-alias-renames): /monitors shares the records of /alerts with its
// own names (scope for conversation_source with E23 values, monitor_id, monitors, monitor_ulid); `enabled`,
// attribution and customer_metadata; alert events recorded per evaluation and listed; test-evaluate without
// side effects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../generated/client/index.js';
import { startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

let seq = 0;
async function org(): Promise<{ id: string; key: string; client: Client }> {
  const o = await h.control.createOrganization(`alerts legacy ${++seq}`);
  return { id: o.organization.id, key: o.api_key.key, client: h.clientFor(o.api_key.key) };
}

const M = 'MetricAAAAAAAAAAAAAAAAA'.slice(0, 22);
const SLACK = { channel_type: 'SLACK' as const, config: { channel_id: 'C1', channel_name: '#alerts' } };

async function call(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await h.raw(path, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

function runIdOf(done: { run: Record<string, unknown> }): string {
  return String(done.run.run_id ?? done.run.id);
}

describe('legacy /monitors paths share state with /alerts', () => {
  it('an alert created under /alerts is read, listed and filtered under /monitors with the legacy names', async () => {
    const o = await org();
    const alert = await o.client.alerts.createAlert({ name: 'a', evaluation_type: 'ON_RUN_COMPLETE', conversation_source: 'UPLOADED', conditions: [{ metric_id: M, aggregation: 'SINGLE', operator: 'GT', threshold_float: 1 }] });
    const got = await call(o.key, 'GET', `/monitors/${alert.ulid}`);
    expect(got.status).toBe(200);
    expect(got.body.scope).toBe('MONITORING');
    expect(got.body).not.toHaveProperty('conversation_source');
    expect(got.body.ulid).toBe(alert.ulid);
    const list = await call(o.key, 'GET', '/monitors?scope=MONITORING');
    expect(list.body.monitors.map((m: { ulid: string }) => m.ulid)).toEqual([alert.ulid]);
    expect(list.body.total_count).toBe(1);
    expect(list.body).not.toHaveProperty('alerts');
    expect((await call(o.key, 'GET', '/monitors?scope=SIMULATION')).body.monitors).toEqual([]);
  });

  it('a monitor created under /monitors is read under /alerts with the canonical names, and changes go both ways', async () => {
    const o = await org();
    const created = await call(o.key, 'POST', '/monitors', { name: 'm', evaluation_type: 'ON_RUN_COMPLETE', scope: 'SIMULATION', conditions: [{ metric_id: M, aggregation: 'SINGLE', operator: 'GT', threshold_float: 1 }] });
    expect(created.status).toBe(201);
    expect(created.body.scope).toBe('SIMULATION');
    const canonical = await o.client.alerts.getAlert(created.body.ulid);
    expect(canonical.conversation_source).toBe('SIMULATED');
    expect(canonical.enabled).toBe(true);
    const patched = await call(o.key, 'PATCH', `/monitors/${created.body.ulid}`, { scope: 'ALL', enabled: false });
    expect(patched.body).toMatchObject({ scope: 'ALL', enabled: false });
    expect(await o.client.alerts.getAlert(created.body.ulid)).toMatchObject({ conversation_source: 'ALL', enabled: false });
    await o.client.alerts.updateAlert(created.body.ulid, { conversation_source: 'UPLOADED' });
    expect((await call(o.key, 'GET', `/monitors/${created.body.ulid}`)).body.scope).toBe('MONITORING');
    expect((await call(o.key, 'DELETE', `/monitors/${created.body.ulid}`)).status).toBe(204);
    expect((await call(o.key, 'GET', `/alerts/${created.body.ulid}`)).status).toBe(404);
  });

  it('errors of a legacy operation name its legacy fields', async () => {
    const o = await org();
    const missing = await call(o.key, 'GET', '/monitors/01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(missing.status).toBe(404);
    expect(missing.body.error.details[0].field).toBe('monitor_id');
    const bad = await call(o.key, 'GET', '/monitors?scope=UPLOADED');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('scope');
  });
});

describe('alert fields of the overlay', () => {
  it('keeps customer_metadata, records attribution and lets conditions of JOB_SUCCESS go without a metric', async () => {
    const o = await org();
    const alert = await o.client.alerts.createAlert({ name: 'j', evaluation_type: 'ON_RUN_COMPLETE', customer_metadata: { team: 'ops', envs: ['a', 'b'] }, conditions: [{ aggregation: 'JOB_SUCCESS', operator: 'LT', threshold_float: 1 }] });
    expect(alert.customer_metadata).toEqual({ team: 'ops', envs: ['a', 'b'] });
    expect(alert.attribution?.created_by).toBeTruthy();
    expect(alert.conditions[0]!.metric_id ?? null).toBeNull();
    const refused = await call(o.key, 'POST', '/alerts', { name: 'x', evaluation_type: 'ON_RUN_COMPLETE', conditions: [{ aggregation: 'SINGLE', operator: 'GT', threshold_float: 1 }] });
    expect(refused.status).toBe(400);
  });
});

describe('alert events and test-evaluate', () => {
  it('records one event per evaluation (TRIGGERED, SUPPRESSED, NOT_MET) listed newest first, under both paths', async () => {
    const o = await org();
    const alert = await o.client.alerts.createAlert({ name: 'e', evaluation_type: 'ON_RUN_COMPLETE', cooldown_seconds: 3600, channels: [SLACK], conditions: [{ metric_id: M, aggregation: 'RUN_AVERAGE', operator: 'GT', threshold_float: 0.5 }] });
    await h.control.completeRun(o.id, { conversation_source: 'SIMULATED', metric_values: { [M]: 0.9 }, completed_at: '2026-05-01T10:00:00.000Z' });
    await h.control.completeRun(o.id, { conversation_source: 'SIMULATED', metric_values: { [M]: 0.9 }, completed_at: '2026-05-01T10:10:00.000Z' });
    await h.control.completeRun(o.id, { conversation_source: 'SIMULATED', metric_values: { [M]: 0.1 }, completed_at: '2026-05-01T10:20:00.000Z' });
    const events = await o.client.alerts.listAlertEvents(alert.ulid);
    expect(events.events.map((e) => e.outcome)).toEqual(['NOT_MET', 'SUPPRESSED', 'TRIGGERED']);
    expect(events.total_count).toBe(3);
    const fired = events.events[2]!;
    expect(fired.alert_ulid).toBe(alert.ulid);
    expect(fired.dispatched_channels).toEqual([{ channel_type: 'SLACK', channel_summary: 'SLACK #alerts', success: true, error: null }]);
    expect(fired.condition_results?.[0]).toMatchObject({ metric_id: M, computed_value: 0.9, threshold: 0.5, operator: 'GT', met: true });
    expect(events.events[0]!.message_sent ?? null).toBeNull();
    const only = await o.client.alerts.listAlertEvents(alert.ulid, { query: { outcome: 'SUPPRESSED' } });
    expect(only.events).toHaveLength(1);
    const legacy = await call(o.key, 'GET', `/monitors/${alert.ulid}/events`);
    expect(legacy.body.events[0].monitor_ulid).toBe(alert.ulid);
    expect(legacy.body.events[0]).not.toHaveProperty('alert_ulid');
  });

  it('a disabled alert is not evaluated: no event, no trigger', async () => {
    const o = await org();
    const alert = await o.client.alerts.createAlert({ name: 'd', evaluation_type: 'ON_RUN_COMPLETE', conditions: [{ metric_id: M, aggregation: 'SINGLE', operator: 'GT', threshold_float: 0.5 }] });
    await o.client.alerts.updateAlert(alert.ulid, { enabled: false });
    await h.control.completeRun(o.id, { conversation_source: 'SIMULATED', metric_values: { [M]: 0.9 } });
    expect((await o.client.alerts.listAlertEvents(alert.ulid)).events).toEqual([]);
    expect((await o.client.alerts.getAlert(alert.ulid)).trigger_count).toBe(0);
  });

  it('test-evaluate answers what an evaluation would do and changes nothing', async () => {
    const o = await org();
    const alert = await o.client.alerts.createAlert({ name: 't', evaluation_type: 'ON_RUN_COMPLETE', channels: [SLACK], conditions: [{ metric_id: M, aggregation: 'SINGLE', operator: 'GT', threshold_float: 0.5 }] });
    await o.client.alerts.updateAlert(alert.ulid, { enabled: false });
    const done = await h.control.completeRun(o.id, { conversation_source: 'SIMULATED', metric_values: { [M]: 0.9 } });
    const runId = runIdOf(done as { run: Record<string, unknown> });
    const answer = await o.client.alerts.testEvaluateAlert(alert.ulid, { run_id: runId });
    expect(answer).toMatchObject({ alert_id: alert.ulid, run_id: runId, triggered: true, suppressed: false });
    expect(answer.dispatch_results).toHaveLength(1);
    expect(answer.condition_results?.[0]).toMatchObject({ met: true, computed_value: 0.9 });
    expect((await o.client.alerts.getAlert(alert.ulid)).trigger_count).toBe(0);
    expect((await o.client.alerts.listAlertEvents(alert.ulid)).events).toEqual([]);
    expect(await h.control.sent({ organization_id: o.id, kind: 'alert_notification' })).toEqual([]);
    const legacy = await call(o.key, 'POST', `/monitors/${alert.ulid}/test-evaluate`, { run_id: runId });
    expect(legacy.body).toMatchObject({ monitor_id: alert.ulid, triggered: true });
    expect(legacy.body).not.toHaveProperty('alert_id');
    const unknown = await call(o.key, 'POST', `/alerts/${alert.ulid}/test-evaluate`, { run_id: 'AAAAAAAAAAAAAAAAAAAAAA' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details[0].field).toBe('run_id');
  });
});
