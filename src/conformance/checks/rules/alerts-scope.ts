// evaluate-alerts: which alerts a completed run evaluates (scope: conversation_source, agent_ids,
// required_tags, scheduled_run_ids; the alert's workspace) and which never fire (deleted, not ACTIVE, not
// ON_RUN_COMPLETE). A window only holds runs of the alert's scope.
import { expectSuccess, send } from '../../http.js';
import type { Check } from '../context.js';
import { AlertLab, alertFixture, condition, enumValues, expectFirings, idOf, onAlertOperation } from './alerts-lab.js';

export const scopeRestricts: Check = {
  name: 'rule evaluate-alerts: scope — conversation_source, agent_ids, required_tags (any case), scheduled_run_ids; empty lists do not restrict',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'AlertConversationSource', ['ALL', 'UPLOADED', 'SIMULATED']);
    const metric = await lab.metric();
    const [agentA, agentB] = [await lab.agent(), await lab.agent()];
    const [alpha, beta] = [`${lab.tag}-Alpha`, `${lab.tag}-beta`];
    const [scheduled, otherScheduled] = [`${lab.tag}-schedule-1`, `${lab.tag}-schedule-2`];
    const single = [condition(metric, 'SINGLE', 'GT', 0)];
    const open = { conditions: single, required_tags: [] };
    // Seed (Alert): agent_ids / required_tags / scheduled_run_ids restrict the runs, conversation_source says
    // which conversations; docs (sandbox.md "Alerts"): ALL matches any, tags compared case-insensitively,
    // empty lists do not restrict.
    const alerts = await lab.alerts({
      unrestricted: { ...open, conversation_source: 'ALL' },
      uploaded: { ...open, conversation_source: 'UPLOADED' },
      simulated: { ...open, conversation_source: 'SIMULATED' },
      'agent A': { ...open, agent_ids: [agentA] },
      'tags alpha+beta': { ...open, required_tags: [alpha, beta] },
      'scheduled run 1': { ...open, scheduled_run_ids: [scheduled] },
    });
    await expectFirings(lab, alerts, [
      {
        label: 'simulated run of agent A with both tags (other case) from scheduled run 1',
        values: { [metric]: 1 },
        run: { conversation_source: 'SIMULATED', agent_id: agentA, tags: [alpha.toUpperCase(), beta.toUpperCase(), 'unrelated'], scheduled_run_id: scheduled },
        fires: ['unrestricted', 'simulated', 'agent A', 'tags alpha+beta', 'scheduled run 1'],
      },
      {
        label: 'uploaded run of agent B with one of the tags from scheduled run 2',
        values: { [metric]: 1 },
        run: { conversation_source: 'UPLOADED', agent_id: agentB, tags: [alpha], scheduled_run_id: otherScheduled },
        fires: ['unrestricted', 'uploaded'],
      },
      { label: 'uploaded run without agent, tags or scheduled run', values: { [metric]: 1 }, run: { conversation_source: 'UPLOADED', tags: [] }, fires: ['unrestricted', 'uploaded'] },
      { label: 'simulated run of agent B with the other tag', values: { [metric]: 1 }, run: { conversation_source: 'SIMULATED', agent_id: agentB, tags: [beta] }, fires: ['unrestricted', 'simulated'] },
    ]);
  },
};

export const windowScope: Check = {
  name: 'rule evaluate-alerts: a window holds only runs of the alert\'s scope (agent, tags, scheduled run, source, workspace of the earlier runs; completed ones only)',
  applies: onAlertOperation('create'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['RUN_AVERAGE']);
    const metric = await lab.metric();
    const [agentA, agentB] = [await lab.agent(), await lab.agent()];
    const scheduled = `${lab.tag}-schedule`;
    const workspace = await ctx.world.ensure('workspace');
    // A run launched but not completed: not part of any window.
    await lab.launch({ agent_id: agentA, tags: [lab.tag], scheduled_run_id: scheduled });
    const inScope = { conversation_source: 'UPLOADED', agent_id: agentA, tags: [lab.tag], scheduled_run_id: scheduled };
    // Docs (sandbox.md "Alerts"): windows run "over completed runs in the alert's scope". In-scope runs 10
    // then 0: (10 + 0) / 2 = 5; any out-of-scope run (1000) in the window would move the average.
    const alerts = await lab.alerts({
      'last 2 in-scope runs = 5': {
        conversation_source: 'UPLOADED',
        agent_ids: [agentA],
        scheduled_run_ids: [scheduled],
        conditions: [condition(metric, 'RUN_AVERAGE', 'EQ', 5, { window_size_runs: 2 })],
      },
    });
    const out = { [metric]: 1000 };
    await expectFirings(lab, alerts, [
      { label: 'in scope, 10', values: { [metric]: 10 }, run: inScope, fires: [] },
      { label: 'another agent', values: out, run: { ...inScope, agent_id: agentB }, fires: [] },
      { label: 'without the tag', values: out, run: { ...inScope, tags: ['unrelated'] }, fires: [] },
      { label: 'another scheduled run', values: out, run: { ...inScope, scheduled_run_id: `${scheduled}-other` }, fires: [] },
      { label: 'simulated', values: out, run: { ...inScope, conversation_source: 'SIMULATED' }, fires: [] },
      { label: 'of another workspace', values: out, run: { ...inScope, workspace_id: workspace.id }, fires: [] },
      { label: 'in scope, 0', values: { [metric]: 0 }, run: inScope, fires: ['last 2 in-scope runs = 5'] },
    ]);
  },
};

export const inactiveAlerts: Check = {
  name: 'rule evaluate-alerts: deleted, non-ACTIVE and non-ON_RUN_COMPLETE alerts never fire; an alert fires only for runs of its workspace',
  applies: onAlertOperation('delete'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const metric = await lab.metric();
    const conditions = [condition(metric, 'SINGLE', 'GT', 0.5)];
    const workspace = await ctx.world.create('workspace');
    // Seed (Events 4): alerts with evaluation_type ON_RUN_COMPLETE are evaluated when a run completes; a
    // deleted alert (status DELETED) is gone. Docs (sandbox.md "Alerts"): ACTIVE ON_RUN_COMPLETE alerts of the
    // run's workspace.
    const alerts = await lab.alerts({ active: { conditions }, deleted: { conditions } });
    const remove = lab.route('delete');
    expectSuccess(await send(ctx.target, remove, { path: { alert_id: idOf(alerts.deleted!) } }), remove, 'deleting the alert');
    Object.assign(
      alerts,
      await lab.stored({
        'stored ACTIVE': { data: alertFixture(lab, metric, {}) },
        'stored with status DELETED': { data: alertFixture(lab, metric, { status: 'DELETED' }) },
        'stored ACTIVE but deleted': { data: alertFixture(lab, metric, {}), deleted: true },
        'stored with another evaluation type': { data: alertFixture(lab, metric, { evaluation_type: 'SCHEDULED' }) },
        'stored in another workspace': { data: alertFixture(lab, metric, {}), workspace_id: workspace.id },
      }),
    );
    await expectFirings(lab, alerts, [
      { label: 'a run of the default workspace', values: { [metric]: 1 }, fires: ['active', 'stored ACTIVE'] },
      { label: 'a run of the other workspace', values: { [metric]: 1 }, run: { workspace_id: workspace.id }, fires: ['stored in another workspace'] },
    ]);
    await lab.remove(Object.values(alerts));
  },
};

export const checks: Check[] = [scopeRestricts, windowScope, inactiveAlerts];
