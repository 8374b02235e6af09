// evaluate-alerts (handler of run.completed): every ACTIVE, enabled alert with evaluation_type ON_RUN_COMPLETE
// whose scope matches the run evaluates its conditions; when they match (match_mode ALL: every condition, ANY:
// at least one) and the cooldown has passed, each channel is notified, trigger_count grows by one and
// last_triggered_at is set. Every evaluation is recorded as an alert event (kind `alert_event`, listed by
// alert-events): TRIGGERED, SUPPRESSED (matched within the cooldown), NOT_MET, or ERROR (a condition's
// baseline_id names no baseline). `assess` is shared with alert-test-evaluate, which changes nothing.
// A disabled alert (enabled false) is not evaluated: no event, no trigger.
//
// Decisions (the seed is silent):
// - Scope: the alert lives in the run's workspace (an alert without workspace counts as the default
//   workspace's); conversation_source ALL matches every run, UPLOADED / SIMULATED only runs of that source;
//   non-empty agent_ids must contain the run's agent; non-empty required_tags must ALL be among the run's
//   tags (compared case-insensitively); non-empty scheduled_run_ids must contain the run's scheduled run.
// - The evaluation time is the run's completed_at: cooldown compares it with last_triggered_at (suppressed
//   while completed_at - last_triggered_at < cooldown_seconds), and a trigger sets last_triggered_at to it.
// - Window: without window_size_runs / window_size_days a condition looks at the completing run only. With
//   them it looks at the completed runs of the same workspace and alert scope that have results for the
//   condition's metric (JOB_SUCCESS: all of them), newest first (of runs completed at the same time, the one
//   created later first), the completing run included: the last window_size_runs of them, completed within
//   window_size_days before the completing run (both when both are set). A condition whose metric has no result in the completing run is not met (JOB_SUCCESS aside),
//   so unrelated runs never re-fire a windowed alert.
// - Aggregations (the value compared with the threshold):
//   SINGLE: each single result (one per conversation) of the window; met when at least one satisfies the
//     operator; the reported value is the first that does (else the completing run's first result).
//   RUN_AVERAGE: the average of the per-run averages of the window.
//   RUN_FRACTION: the fraction (0..1) of the window's single results that match: equal to match_value under
//     the condition's match_mode (exact: same text or same number; contains; contains_case_insensitive,
//     on the result written as text) when match_value is set, otherwise non-zero (a passed binary metric).
//   JOB_SUCCESS: the fraction (0..1) of the window's runs in which the metric produced at least one result
//     (without a window: 1 or 0 for the completing run).
//   BASELINE_DEVIATION: (RUN_AVERAGE value - baseline_float) / baseline_sigma, signed, against the condition's
//     baseline_id or else the ACTIVE baseline of the metric that matches the run (the most specific scope wins,
//     then the oldest), using its estimates without the completing run; not met when there is no such baseline,
//     its sigma is 0 or it has fewer observations than warm_up_count. With sigma_threshold the deviation is
//     compared with it in `direction` (above, below, both) instead of operator and threshold.
//   A condition without metric_id (JOB_SUCCESS) counts every completed run of the window as a success.
// - Threshold: threshold_float, else threshold_string when it is a number; without one the condition is
//   not met. Operators GT, GTE, LT, LTE, EQ, NEQ; EQ / NEQ compare with a tolerance of 1e-9 (relative to
//   magnitudes above 1).
// - Notification: one sent entry of kind `alert_notification` per channel: {alert_id, run_id, channel {ulid,
//   channel_type, config without secrets}, payload, status}. The payload is {alert_id, alert_name, run_id,
//   agent_id, conversation_source, triggered_at, trigger_count, message, conditions: [{condition_id,
//   metric_id, aggregation, operator, threshold, value, met}]}. message is custom_message_template with
//   placeholders {{alert_name}} {{alert_id}} {{run_id}} {{agent_id}} {{conversation_source}}
//   {{triggered_at}} {{trigger_count}} {{metric_id}} {{value}} (the first met condition's) and
//   {{conditions}} (a one-line summary) replaced, unknown ones left as written; without a template it is
//   `Alert "<name>" triggered on run <run_id>: <summary>`.
//   SLACK, EMAIL and HUMAN_REVIEW channels are recorded only (status `delivered`, nothing leaves the
//   sandbox). A WEBHOOK channel whose config.url is HTTP(S) gets an HTTP POST of the payload (JSON), with its
//   config.auth_token in the X-Webhook-Token header (no header without one or for an empty one), retried with backoff like webhook deliveries; its entry
//   also has url, headers, attempts and status pending/retrying/delivered/failed.
// - The completing run's scheduled run and single results are kept on the run record (internal `_completion`,
//   never presented) so later windows can read them (its tags and source are the run's own, which the completion
//   set); a completed run without it (a fixture) is read from its presented fields: tags, scheduled_run_id,
//   conversation_source, complete_time and metric_values (one result per metric).
//
// What the module relies on (not re-checked here): the generated validators (enums of aggregation, operator
// and match_mode; at least one condition; required metric_id / aggregation / operator; JSON numbers are
// finite), alert-replace-sets (every condition has a ulid and a match_mode, a new alert has trigger_count 0
// and last_triggered_at null), the create defaults
// (conversation_source, cooldown_seconds, agent_ids, required_tags, scheduled_run_ids, channels), store.list
// (the organization's records only, no deleted records, oldest first) and the one raiser of run.completed, runs/complete.ts
// (finishRun: the executor's completion and the control plane's run completion)
// (run_id of a stored run, agent_id or null, tags, scheduled_run_id or null, conversation_source, completed_at,
// metric_values of non-empty lists of finite numbers).
import type { RaisedEvent, Runtime } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';
import { ulid } from '../ids.js';
import type { Json } from '../storage/store.js';
import { isJsonObject, PLATFORM_ORG } from '../storage/store.js';
import { getRecord, listRecords, type RecordOf } from '../storage/typed.js';
import type { Alert, AlertChannel, AlertCondition } from '../../../generated/client/types.js';
import { stateOf } from './events/ewma.js';
import { sendInBackground } from './events/outbound.js';
import { runCompleted, sameWorkspace } from './update-baselines.js';
import { isHttpUrl } from './webhook-url.js';

export interface RunView {
  id: string;
  /** Completion time, ms since the epoch. */
  time: number;
  agent_id: string | null;
  tags: string[];
  scheduled_run_id: string | null;
  conversation_source: string;
  values: Record<string, number[]>;
  seq: number;
}

/** One condition of an alert, as stored (the generated type). */
export type Condition = AlertCondition;

export interface ConditionResult {
  condition_id: string;
  metric_id: string | null;
  aggregation: string;
  operator: string;
  threshold: number | null;
  value: number | null;
  met: boolean;
  reason?: string;
  /** The condition could not be evaluated (a baseline_id naming no baseline): the event's outcome is ERROR. */
  error?: boolean;
}

const DAY_MS = 86_400_000;

/** Metric id to its results, from a run's presented metric_values (one number per metric). */
function valuesOf(raw: Record<string, number>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [k, v] of Object.entries(raw)) setOwn(out, k, [v]);
  return out;
}

function has(values: Record<string, number[]>, metric: string | null | undefined): boolean {
  // Without a metric (JOB_SUCCESS on the run itself) every completed run counts as a success.
  return metric === null || metric === undefined || Object.prototype.hasOwnProperty.call(values, metric);
}

/** The mean of the per-run means of a window. */
function runAverage(perRun: number[][]): number {
  return perRun.map((r) => r.reduce((a, x) => a + x, 0) / r.length).reduce((a, x) => a + x, 0) / perRun.length;
}

/**
 * What the run's completion recorded (evaluate() below) beyond the run's own fields: every single result, and the
 * scheduled run the completion named (or null). The run's tags and conversation_source are the completion's.
 */
interface Completion {
  scheduled_run_id: string | null;
  metric_values: Record<string, number[]>;
}

/** The sandbox's own `_completion` field, written only by evaluate(): present once the run completed through it. */
function isCompletion(value: unknown): value is Completion {
  return isJsonObject(value);
}

export function viewOf(record: RecordOf<'run'>): RunView | null {
  const d = record.data;
  if (d.status !== 'COMPLETED') return null;
  const c = isCompletion(d._completion) ? d._completion : undefined;
  return {
    id: record.id,
    time: Date.parse(String(d.complete_time)),
    agent_id: d.agent_id,
    tags: d.tags,
    scheduled_run_id: c ? c.scheduled_run_id : (d.scheduled_run_id ?? null),
    conversation_source: d.conversation_source ?? '',
    values: c ? c.metric_values : valuesOf(d.metric_values),
    seq: record.seq,
  };
}

export function inScope(alert: Alert, run: RunView): boolean {
  if (alert.conversation_source !== 'ALL' && run.conversation_source !== alert.conversation_source) return false;
  const agents = alert.agent_ids ?? [];
  // A run without agent (null) is in no agent list.
  if (agents.length > 0 && !(agents as (string | null)[]).includes(run.agent_id)) return false;
  const tags = run.tags.map((t) => t.toLowerCase());
  if (!(alert.required_tags ?? []).every((t) => tags.includes(t.toLowerCase()))) return false;
  const scheduled = alert.scheduled_run_ids ?? [];
  if (scheduled.length > 0 && !(scheduled as (string | null)[]).includes(run.scheduled_run_id)) return false;
  return true;
}

function compare(value: number, operator: string, threshold: number): boolean {
  const eq = Math.abs(value - threshold) <= 1e-9 * Math.max(1, Math.abs(value), Math.abs(threshold));
  // -1 below, 0 equal (within the tolerance), 1 above.
  const side = eq ? 0 : Math.sign(value - threshold);
  switch (operator) {
    case 'GT':
      return side > 0;
    case 'GTE':
      return side >= 0;
    case 'LT':
      return side < 0;
    case 'LTE':
      return side <= 0;
    case 'EQ':
      return side === 0;
    default: // NEQ
      return side !== 0;
  }
}

function matchesValue(v: number, c: Condition): boolean {
  if (typeof c.match_value !== 'string') return v !== 0;
  const text = String(v);
  const wanted = c.match_value;
  switch (c.match_mode) {
    case 'contains':
      return text.includes(wanted);
    case 'contains_case_insensitive':
      return text.toLowerCase().includes(wanted.toLowerCase());
    default: {
      const n = wanted.trim() === '' ? Number.NaN : Number(wanted);
      // Same text or same number: a result's text always reads back as the same number.
      return n === v;
    }
  }
}

function thresholdOf(c: Condition): number | null {
  if (typeof c.threshold_float === 'number') return c.threshold_float;
  if (typeof c.threshold_string === 'string' && c.threshold_string.trim() !== '') {
    const n = Number(c.threshold_string);
    if (Number.isFinite(n)) return n;
  }
  return null;
}

export class Evaluation {
  constructor(
    private readonly runtime: Runtime,
    /** Where the run is: its organization and workspace (a run.completed event's). */
    private readonly event: Pick<RaisedEvent, 'org' | 'workspace'>,
    readonly current: RunView,
  ) {}

  /** Completed runs of the event's workspace, newest first, the completing run first. */
  private runs(): RunView[] {
    const others = listRecords(this.runtime.store, 'run', { org: this.event.org })
      .filter((r) => r.id !== this.current.id && sameWorkspace(this.runtime, this.event.org, r.workspace, this.event.workspace))
      .map(viewOf)
      .filter((r): r is RunView => r !== null && r.time <= this.current.time)
      .sort((a, b) => b.time - a.time || b.seq - a.seq);
    return [this.current, ...others];
  }

  private window(alert: Alert, c: Condition, needMetric: boolean): RunView[] {
    const days = typeof c.window_size_days === 'number' ? c.window_size_days : null;
    const count = typeof c.window_size_runs === 'number' ? c.window_size_runs : null;
    if (days === null && count === null) return [this.current];
    // The completing run is in the alert's scope (evaluate() only evaluates such alerts).
    let runs = this.runs().filter((r) => inScope(alert, r));
    if (needMetric) runs = runs.filter((r) => has(r.values, c.metric_id));
    if (days !== null) {
      const from = this.current.time - days * DAY_MS;
      runs = runs.filter((r) => r.time >= from);
    }
    if (count !== null) runs = runs.slice(0, count);
    return runs;
  }

  /** The ACTIVE baseline of the metric matching the run: the most specific, then the oldest (list order). */
  private baseline(metric: string): RecordOf<'baseline'>['data'] | null {
    const run = getRecord(this.runtime.store, 'run', this.current.id)!.data;
    const scope = { agent_id: this.current.agent_id, test_set_id: run.test_set_id, persona_id: run.persona_id };
    let best: { data: RecordOf<'baseline'>['data']; score: number } | null = null;
    for (const b of listRecords(this.runtime.store, 'baseline', { org: this.event.org })) {
      if (b.data.status !== 'ACTIVE' || b.data.metric_id !== metric) continue;
      if (!sameWorkspace(this.runtime, this.event.org, b.workspace, this.event.workspace)) continue;
      let score = 0;
      let ok = true;
      for (const f of ['agent_id', 'test_set_id', 'persona_id'] as const) {
        const want = b.data[f];
        if (want === null) continue;
        if (want !== scope[f]) ok = false;
        score++;
      }
      if (ok && (!best || score > best.score)) best = { data: b.data, score };
    }
    return best?.data ?? null;
  }

  /** A condition's baseline_id: the baseline when it is in the run's organization and workspace and not deleted. */
  private baselineById(id: string): RecordOf<'baseline'>['data'] | null {
    const b = getRecord(this.runtime.store, 'baseline', id);
    if (!b || b.org !== this.event.org || !sameWorkspace(this.runtime, this.event.org, b.workspace, this.event.workspace)) return null;
    return b.data;
  }

  /** BASELINE_DEVIATION: the signed deviation in sigmas; met by sigma_threshold + direction when set, else by the operator. */
  private deviation(c: Condition, base: ConditionResult, threshold: number | null, perRun: number[][]): ConditionResult {
    const baseline = typeof c.baseline_id === 'string' ? this.baselineById(c.baseline_id) : this.baseline(c.metric_id!);
    if (!baseline) return typeof c.baseline_id === 'string' ? { ...base, reason: 'the baseline does not exist', error: true } : { ...base, reason: 'no active baseline for the metric' };
    const state = stateOf(baseline, this.current.id);
    if (typeof c.warm_up_count === 'number' && state.count < c.warm_up_count) return { ...base, reason: 'the baseline is warming up' };
    const sigma = Math.sqrt(state.variance);
    if (!(sigma > 0)) return { ...base, reason: 'the baseline has no spread yet' };
    const value = (runAverage(perRun) - state.mean) / sigma;
    if (typeof c.sigma_threshold === 'number') {
      const s = c.sigma_threshold;
      const met = c.direction === 'above' ? value > s : c.direction === 'below' ? value < -s : Math.abs(value) > s;
      return { ...base, value, met };
    }
    if (threshold === null) return { ...base, value, reason: 'no numeric threshold' };
    return { ...base, value, met: compare(value, c.operator, threshold) };
  }

  condition(alert: Alert, c: Condition): ConditionResult {
    const base: ConditionResult = {
      condition_id: c.ulid,
      metric_id: c.metric_id ?? null,
      aggregation: c.aggregation,
      operator: c.operator,
      threshold: thresholdOf(c),
      value: null,
      met: false,
    };
    const threshold = base.threshold;
    if (c.aggregation === 'BASELINE_DEVIATION') {
      // The metric: the condition's, else its baseline's.
      const metric = c.metric_id ?? (typeof c.baseline_id === 'string' ? (this.baselineById(c.baseline_id)?.metric_id ?? null) : null);
      if (metric === null) return { ...base, reason: 'the baseline does not exist', error: typeof c.baseline_id === 'string' };
      if (!has(this.current.values, metric)) return { ...base, metric_id: metric, reason: 'no result for the metric in this run' };
      const perRun = this.window(alert, { ...c, metric_id: metric }, true).map((r) => r.values[metric]!);
      return this.deviation({ ...c, metric_id: metric }, { ...base, metric_id: metric }, threshold, perRun);
    }
    if (threshold === null) return { ...base, reason: 'no numeric threshold' };
    if (c.aggregation === 'JOB_SUCCESS') {
      const runs = this.window(alert, c, false);
      const value = runs.filter((r) => has(r.values, c.metric_id)).length / runs.length;
      return { ...base, value, met: compare(value, c.operator, threshold) };
    }
    const metric = c.metric_id!;
    if (!has(this.current.values, metric)) return { ...base, reason: 'no result for the metric in this run' };
    const runs = this.window(alert, c, true);
    const perRun = runs.map((r) => r.values[metric]!);
    const singles = perRun.flat();
    switch (c.aggregation) {
      case 'SINGLE': {
        const hit = singles.find((v) => compare(v, c.operator, threshold));
        return { ...base, value: hit ?? singles[0]!, met: hit !== undefined };
      }
      case 'RUN_AVERAGE': {
        const value = runAverage(perRun);
        return { ...base, value, met: compare(value, c.operator, threshold) };
      }
      default: {
        // RUN_FRACTION
        const value = singles.filter((v) => matchesValue(v, c)).length / singles.length;
        return { ...base, value, met: compare(value, c.operator, threshold) };
      }
    }
  }
}

function summary(results: ConditionResult[]): string {
  return results
    .map((r) => `${r.aggregation}(${r.metric_id}) = ${r.value === null ? 'n/a' : String(r.value)} ${r.operator} ${r.threshold === null ? 'n/a' : String(r.threshold)}${r.met ? '' : ' (not met)'}`)
    .join('; ');
}

function render(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => (Object.prototype.hasOwnProperty.call(vars, name) ? vars[name]! : whole));
}

/** One notification channel of an alert, as stored (the generated type). */
export type Channel = AlertChannel;

/** The sends of a trigger; run once the evaluation's transaction has committed. */
function notifications(runtime: Runtime, org: string, alert: RecordOf<'alert'>, run: RunView, payload: Json): (() => void)[] {
  const out: (() => void)[] = [];
  for (const channel of alert.data.channels) {
    // The stored config also holds the writeOnly auth_token, which the (response) type leaves out.
    const stored: Json = channel.config;
    const config: Json = {};
    for (const [k, v] of Object.entries(stored)) if (k !== 'auth_token') setOwn(config, k, v);
    const data: Json = { alert_id: alert.id, run_id: run.id, channel: { ulid: channel.ulid, channel_type: channel.channel_type, config } };
    const url = channel.config.url ?? '';
    if (channel.channel_type === 'WEBHOOK' && isHttpUrl(url)) {
      const token = stored.auth_token;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (typeof token === 'string' && token !== '') headers['X-Webhook-Token'] = token;
      out.push(() => void sendInBackground(runtime, { id: ulid(), org, kind: 'alert_notification', data, url, headers, payload }));
    } else {
      out.push(() => void runtime.store.addSent({ id: ulid(), org, kind: 'alert_notification', data: { ...data, payload, status: 'delivered' } }));
    }
  }
  return out;
}

/** What one evaluation of an alert on a run comes to (shared by the real evaluation and test-evaluate). */
export interface Assessment {
  results: ConditionResult[];
  outcome: 'TRIGGERED' | 'NOT_MET' | 'SUPPRESSED' | 'ERROR';
  message: string;
}

export function assess(evaluation: Evaluation, alert: RecordOf<'alert'>, at: string): Assessment {
  const a = alert.data;
  const current = evaluation.current;
  const results = a.conditions.map((c) => evaluation.condition(a, c));
  const fires = a.match_mode === 'ANY' ? results.some((r) => r.met) : results.every((r) => r.met);
  const firstMet = results.find((r) => r.met);
  const vars: Record<string, string> = {
    alert_name: a.name,
    alert_id: alert.id,
    run_id: current.id,
    agent_id: current.agent_id ?? '',
    conversation_source: current.conversation_source,
    triggered_at: at,
    trigger_count: String(a.trigger_count + 1),
    metric_id: firstMet?.metric_id ?? '',
    value: String(firstMet?.value ?? ''),
    conditions: summary(results),
  };
  const message =
    typeof a.custom_message_template === 'string' && a.custom_message_template !== ''
      ? render(a.custom_message_template, vars)
      : `Alert "${vars.alert_name}" triggered on run ${current.id}: ${vars.conditions}`;
  if (results.some((r) => r.error)) return { results, outcome: 'ERROR', message };
  if (!fires) return { results, outcome: 'NOT_MET', message };
  // Never triggered: last_triggered_at is null, Date.parse gives NaN and nothing is suppressed.
  if (current.time - Date.parse(a.last_triggered_at ?? '') < a.cooldown_seconds * 1000) return { results, outcome: 'SUPPRESSED', message };
  return { results, outcome: 'TRIGGERED', message };
}

/** A condition result as an alert event and test-evaluate report it (facts-shapes 3.7 condition_results). */
export function conditionReport(runtime: Runtime, org: string, r: ConditionResult): Json {
  const metric = r.metric_id === null ? undefined : getRecord(runtime.store, 'metric', r.metric_id);
  const name = metric && (metric.org === org || metric.org === PLATFORM_ORG) ? metric.data.metric_name : undefined;
  const metadata: Json = { condition_id: r.condition_id };
  if (r.reason !== undefined) metadata.reason = r.reason;
  return {
    metric_id: r.metric_id ?? '',
    metric_display_name: typeof name === 'string' ? name : (r.metric_id ?? r.aggregation),
    aggregation: r.aggregation,
    computed_value: r.value,
    threshold: r.threshold,
    operator: r.operator,
    met: r.met,
    metadata,
  };
}

/** One line per channel saying where it goes (no secrets). */
export function channelReport(channel: Channel): Json {
  const c: Json = channel.config;
  const where = (() => {
    switch (channel.channel_type) {
      case 'SLACK':
        return String(c.channel_name ?? c.channel_id ?? '');
      case 'EMAIL':
        return Array.isArray(c.recipients) ? c.recipients.join(', ') : '';
      case 'WEBHOOK':
        return String(c.url ?? '');
      default:
        return String(c.project_id ?? '');
    }
  })();
  return { channel_type: channel.channel_type, channel_summary: `${channel.channel_type} ${where}`.trim(), success: true, error: null };
}

export function evaluate(runtime: Runtime, event: RaisedEvent): void {
  const p = runCompleted(event);
  const completedAt = p.completed_at;
  const sends: (() => void)[] = [];
  runtime.store.transaction(() => {
    const record = getRecord(runtime.store, 'run', p.run_id)!;
    const values = p.metric_values;
    const current: RunView = {
      id: record.id,
      time: Date.parse(completedAt),
      agent_id: p.agent_id,
      tags: p.tags,
      scheduled_run_id: p.scheduled_run_id,
      conversation_source: p.conversation_source,
      values,
      seq: record.seq,
    };
    const completion: Completion = { scheduled_run_id: current.scheduled_run_id, metric_values: values };
    record.data._completion = completion;
    runtime.store.update(record);
    const evaluation = new Evaluation(runtime, event, current);
    for (const alert of listRecords(runtime.store, 'alert', { org: event.org })) {
      const a = alert.data;
      // A disabled alert is not evaluated at all: no event, no count, no notification (docs/sandbox.md).
      if (a.status !== 'ACTIVE' || a.enabled === false || a.evaluation_type !== 'ON_RUN_COMPLETE') continue;
      if (!sameWorkspace(runtime, event.org, alert.workspace, event.workspace) || !inScope(a, current)) continue;
      const { results, outcome, message } = assess(evaluation, alert, completedAt);
      const triggered = outcome === 'TRIGGERED';
      if (triggered) {
        a.trigger_count += 1;
        a.last_triggered_at = completedAt;
        runtime.store.update(alert);
        const payload: Json = {
          alert_id: alert.id,
          alert_name: a.name,
          run_id: current.id,
          agent_id: current.agent_id,
          conversation_source: current.conversation_source,
          triggered_at: completedAt,
          trigger_count: a.trigger_count,
          message,
          conditions: results.map(({ error: _error, ...r }) => r),
        };
        sends.push(...notifications(runtime, event.org, alert, current, payload));
      }
      recordEvent(runtime, alert, current.id, outcome, results, triggered ? message : null, completedAt);
    }
  });
  for (const send of sends) send();
}

/** The alert event of one evaluation (listed by GET /alerts/{alert_id}/events; kind `alert_event`, internal). */
function recordEvent(runtime: Runtime, alert: RecordOf<'alert'>, runId: string, outcome: string, results: ConditionResult[], message: string | null, at: string): void {
  const id = ulid();
  runtime.store.insert({
    kind: 'alert_event',
    id,
    org: alert.org,
    workspace: alert.workspace,
    deleted: false,
    data: {
      ulid: id,
      alert_ulid: alert.id,
      run_id: runId,
      outcome,
      condition_results: results.map((r) => conditionReport(runtime, alert.org, r)),
      dispatched_channels: outcome === 'TRIGGERED' ? alert.data.channels.map(channelReport) : [],
      message_sent: message,
      created_at: at,
    },
  });
}

export const evaluateAlerts: Rule = {
  // Registered for run.completed only (spec x-handlers).
  onEvent: evaluate,
};
