// evaluate-alerts and `enabled` (docs/sandbox.md "Alerts, issue 15 decisions"): a new alert is enabled; a disabled
// alert is not evaluated when a run completes (no event, no trigger, no notification); `enabled: null` in a
// PATCH leaves it as it is; enabled again, it fires.
import { expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check } from '../context.js';
import { AlertLab, condition, idOf, type Json, notesOf, onAlertOperation } from './alerts-lab.js';
import { ruleRoute, show } from './records-support.js';

export const disabledAlerts: Check = {
  name: 'rule evaluate-alerts: a new alert is enabled; a disabled one is not evaluated (no event, count or notification), enabled null keeps it so, enabled true brings it back',
  applies: onAlertOperation('update'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const metric = await lab.metric();
    const alert = await lab.alert({ conditions: [condition(metric, 'SINGLE', 'GT', 0.5)] });
    const problems: string[] = [];
    if (alert.enabled !== true) problems.push(`a new alert has enabled ${show(alert.enabled)}, expected true`);
    const update = lab.route('update');
    const patch = async (enabled: boolean | null): Promise<Json> => {
      const answer = await send(ctx.target, update, { path: { alert_id: idOf(alert) }, body: { enabled } });
      expectSuccess(answer, update, `PATCH enabled ${String(enabled)}`);
      return recordOf(update, answer)!;
    };
    const fires = async (label: string, expected: boolean): Promise<void> => {
      const done = await lab.complete({ [metric]: 1 });
      if ((notesOf(done, alert).length > 0) !== expected) problems.push(`${label}: expected the alert ${expected ? 'to fire' : 'to stay quiet'}`);
    };
    await patch(false);
    await fires('disabled', false);
    const kept = await patch(null);
    if (kept.enabled !== false) problems.push(`PATCH enabled null answered enabled ${show(kept.enabled)}, expected false kept`);
    await fires('disabled, after PATCH enabled null', false);
    const stored = await lab.get(alert);
    if (stored.trigger_count !== 0 || stored.last_triggered_at !== null) problems.push(`a disabled alert counted: trigger_count ${show(stored.trigger_count)}, last_triggered_at ${show(stored.last_triggered_at)}`);
    const events = ruleRoute(ctx.suite, 'alert-events');
    const eventCount = async (): Promise<number> => {
      if (!events) return 0;
      const answer = await send(ctx.target, events, { path: { alert_id: idOf(alert) } });
      expectSuccess(answer, events, 'listing the alert events');
      return ((answer.body as Json).events as Json[]).length;
    };
    if ((await eventCount()) !== 0) problems.push('a disabled alert recorded events');
    await patch(true);
    await fires('enabled again', true);
    if (events && (await eventCount()) !== 1) problems.push('enabled again, the trigger was not recorded as one event');
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const checks: Check[] = [disabledAlerts];
