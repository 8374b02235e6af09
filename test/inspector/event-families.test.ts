// The events feed reads any record family the route table shows to be an event (written by the sandbox only, or
// named as one), so a family added to the model later (alert evaluations) shows up without a change here; while
// there is none, alert evaluations are derived from notifications.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { loadGeneratedTables, type Tables } from '../../src/sandbox/engine/tables.js';
import { eventFamilies } from '../../src/sandbox/inspector/events.js';

const sandboxes: Sandbox[] = [];

/** A recorded notification of a trigger, as evaluate-alerts records one, and the kinds the feed then lists. */
async function kindsWithNotification(sandbox: Sandbox): Promise<string[]> {
  sandbox.runtime.store.addSent({ id: 'n1', org: sandbox.organizationId, kind: 'alert_notification', data: { alert_id: 'al_1', run_id: 'run_1', status: 'delivered', payload: { triggered_at: '2026-11-20T10:00:00Z', conditions: [] } } });
  const res = await sandbox.fetch(new Request('http://sandbox.test/inspector/api/events', { headers: { authorization: `Bearer ${sandbox.apiKey}` } }));
  return ((await res.json()) as { kinds: string[] }).kinds;
}
afterAll(async () => {
  for (const s of sandboxes) await s.close();
});

/** The generated tables plus a read-only `alert_event` family (one list route), as a model with alert evaluations would have. */
async function withAlertEvents(): Promise<Tables> {
  const tables = await loadGeneratedTables();
  const alert = tables.resources.find((r) => r.name === 'alert')!;
  const listAlerts = tables.routes.find((r) => r.id === 'listAlerts')!;
  return {
    ...tables,
    resources: [...tables.resources, { ...alert, name: 'alert_event', schema: 'AlertEvent', id: 'id', properties: ['id', 'alert_id', 'run_id', 'outcome', 'evaluated_at', 'condition_results'], writeOnly: [], lifecycle: null, versioned: null, fields: {}, defaults: {} }],
    routes: [...tables.routes, { ...listAlerts, id: 'listAlertEvents', path: '/alert-events', resource: 'alert_event', rules: [], pagination: null }],
  };
}

describe('inspector event families', () => {
  it('finds no event family in the current model besides the read-only catalog', async () => {
    const sandbox = await createSandbox({ log: () => {} });
    sandboxes.push(sandbox);
    expect(eventFamilies(sandbox.runtime).map((r) => r.name)).toEqual(['spec']);
    // No evaluation records: a trigger's evaluation is derived from its notifications.
    expect(await kindsWithNotification(sandbox)).toEqual(['alert.evaluation', 'alert.notification']);
  });

  it('shows the records of an event family with their outcome, time and related records, permission-checked', async () => {
    const sandbox = await createSandbox({ log: () => {}, tables: await withAlertEvents() });
    sandboxes.push(sandbox);
    expect(eventFamilies(sandbox.runtime).map((r) => r.name)).toContain('alert_event');
    const org = sandbox.organizationId;
    sandbox.runtime.store.insert({
      kind: 'alert_event',
      id: 'evt_1',
      org,
      workspace: null,
      deleted: false,
      data: { id: 'evt_1', alert_id: 'al_1', run_id: 'run_1', outcome: 'NOT_MET', evaluated_at: '2026-11-20T10:00:00Z', condition_results: [{ metric_id: 'm', met: false }], _internal: 'hidden' },
    });
    const res = await sandbox.fetch(new Request('http://sandbox.test/inspector/api/events?resource=al_1', { headers: { authorization: `Bearer ${sandbox.apiKey}` } }));
    const body = (await res.json()) as { events: { kind: string; status: string; at: string; data: Record<string, unknown> }[] };
    expect(body.events).toEqual([
      expect.objectContaining({ kind: 'alert_event', status: 'NOT_MET', at: '2026-11-20T10:00:00Z', data: expect.objectContaining({ condition_results: [{ metric_id: 'm', met: false }] }) }),
    ]);
    expect(body.events[0]!.data).not.toHaveProperty('_internal');
    // With evaluation records, none is derived from notifications.
    expect(await kindsWithNotification(sandbox)).toEqual(['alert.notification', 'alert_event']);
  });
});
