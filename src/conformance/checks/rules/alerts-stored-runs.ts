// evaluate-alerts: a window holds the workspace's completed runs, whichever way they completed. Runs loaded
// as stored records (fixtures, as a deployment's history would hold them) count by what a run presents:
// status COMPLETED, complete_time, tags, agent_id, conversation_source, scheduled_run_id and metric_values.
import { fail } from '../../result.js';
import type { Check } from '../context.js';
import { AlertLab, condition, conditionsOf, enumValues, near, notesOf, onAlertOperation, payloadOf, type Json } from './alerts-lab.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface PastRun {
  label: string;
  /** Completion time, ms after the lab's base. */
  at: number;
  value: number;
  status?: string;
  source?: string;
  agent?: 'A' | 'B';
  scheduled?: boolean;
  tagged?: boolean;
}

export const storedRunsInWindows: Check = {
  name: 'rule evaluate-alerts: completed runs loaded as stored records count in windows by their status, complete_time, tags, agent, source, scheduled run and metric_values',
  applies: onAlertOperation('get'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['RUN_AVERAGE', 'SINGLE']);
    enumValues(ctx.suite, 'RunStatus', ['COMPLETED', 'FAILED']);
    const metric = await lab.metric();
    const agents = { A: await lab.agent(), B: await lab.agent() };
    const scheduled = `${lab.tag}-schedule`;
    const now = 10 * HOUR;
    // Powers of two: every average below names the runs it was made of.
    const past: PastRun[] = [
      { label: 'completed, in every scope', at: 9 * HOUR, value: 1 },
      { label: 'failed', at: 8 * HOUR, value: 1024, status: 'FAILED' },
      { label: 'simulated', at: 7 * HOUR, value: 2, source: 'SIMULATED' },
      { label: 'of agent B', at: 6 * HOUR, value: 4, agent: 'B' },
      { label: 'without scheduled run', at: 5 * HOUR, value: 8, scheduled: false },
      { label: 'without the lab tag', at: 4 * HOUR, value: 2048, tagged: false },
      { label: 'completed after the completing run', at: 11 * HOUR, value: 4096 },
      { label: 'three days earlier', at: now - 3 * DAY, value: 16 },
    ];
    for (const r of past) {
      await ctx.world.loadRecord('run', {
        status: r.status ?? 'COMPLETED',
        agent_id: agents[r.agent ?? 'A'],
        tags: r.tagged === false ? [`${lab.tag}-other`] : [lab.tag],
        conversation_source: r.source ?? 'UPLOADED',
        scheduled_run_id: r.scheduled === false ? null : scheduled,
        metric_ids: [metric],
        metric_values: { [metric]: r.value },
        create_time: lab.iso(r.at - HOUR),
        complete_time: lab.iso(r.at),
      });
    }
    const narrow = { conversation_source: 'UPLOADED', agent_ids: [agents.A], scheduled_run_ids: [scheduled] };
    const any = -1e9; // GTE any: fires on every run, to read the value
    const alerts = await lab.alerts({
      'last 10 runs': { conditions: [condition(metric, 'RUN_AVERAGE', 'GTE', any, { window_size_runs: 10 })] },
      'last 10 runs, uploaded, agent A, scheduled': { ...narrow, conditions: [condition(metric, 'RUN_AVERAGE', 'GTE', any, { window_size_runs: 10 })] },
      'last day': { conditions: [condition(metric, 'RUN_AVERAGE', 'GTE', any, { window_size_days: 1 })] },
      'single of the last 2 runs': { conditions: [condition(metric, 'SINGLE', 'GTE', 2.5, { window_size_runs: 2 })] },
    });
    // A run completed through the control plane, with two results, just before the completing one.
    await lab.complete({ [metric]: [0, 3] }, { agent_id: agents.A, conversation_source: 'UPLOADED', scheduled_run_id: scheduled, completed_at: lab.iso(now - HOUR / 2) });
    const done = await lab.complete({ [metric]: [0.25, 0.75] }, { agent_id: agents.A, conversation_source: 'UPLOADED', scheduled_run_id: scheduled, completed_at: lab.iso(now) });
    // Docs (sandbox.md "Alerts"): windows by runs and days "over completed runs in the alert's scope", newest
    // first, the completing run included; a run's value is the mean of its results (RUN_AVERAGE) and SINGLE
    // looks at each result. That a stored run counts by its presented fields is the sandbox's choice
    // (evaluate-alerts module): a run completed earlier is a completed run, however it got there.
    const average = (values: number[]): number => values.reduce((a, x) => a + x, 0) / values.length;
    const expected: Record<string, number> = {
      // completing (0.5), the earlier completion (1.5), then the stored runs in scope
      'last 10 runs': average([0.5, 1.5, 1, 2, 4, 8, 16]),
      'last 10 runs, uploaded, agent A, scheduled': average([0.5, 1.5, 1, 16]),
      'last day': average([0.5, 1.5, 1, 2, 4, 8]),
      'single of the last 2 runs': 3,
    };
    const problems: string[] = [];
    for (const [label, want] of Object.entries(expected)) {
      const alert = alerts[label] as Json;
      if (notesOf(done, alert).length === 0) {
        problems.push(`${label}: expected ${want}, the alert did not fire`);
        continue;
      }
      const value = conditionsOf(payloadOf(done, alert))[0]?.value;
      if (!near(value, want)) problems.push(`${label}: expected ${want}, got ${JSON.stringify(value)}`);
    }
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const sameTimeOrder: Check = {
  name: 'rule evaluate-alerts: of runs completed at the same time, the one completed later is the newer in a window by runs',
  applies: onAlertOperation('get'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    enumValues(ctx.suite, 'ConditionAggregation', ['RUN_AVERAGE']);
    const metric = await lab.metric();
    const any = -1e9;
    const alerts = await lab.alerts({
      'last 2 runs': { conditions: [condition(metric, 'RUN_AVERAGE', 'GTE', any, { window_size_runs: 2 })] },
      'last 3 runs': { conditions: [condition(metric, 'RUN_AVERAGE', 'GTE', any, { window_size_runs: 3 })] },
    });
    // Docs (sandbox.md "Alerts"): windows by runs over completed runs, newest first. Which of several runs
    // completed at the same instant is the newer (the one the platform completed, here created, later) is the
    // sandbox's choice (evaluate-alerts module).
    const tie = lab.iso(HOUR);
    for (const value of [10, 20, 40, 80]) await lab.complete({ [metric]: value }, { completed_at: tie });
    const done = await lab.complete({ [metric]: 0 }, { completed_at: lab.iso(HOUR + 60_000) });
    const expected: Record<string, number> = { 'last 2 runs': (0 + 80) / 2, 'last 3 runs': (0 + 80 + 40) / 3 };
    const problems: string[] = [];
    for (const [label, want] of Object.entries(expected)) {
      const value = conditionsOf(payloadOf(done, alerts[label] as Json))[0]?.value;
      if (!near(value, want)) problems.push(`${label}: expected ${want}, got ${JSON.stringify(value)}`);
    }
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const checks: Check[] = [storedRunsInWindows, sameTimeOrder];
