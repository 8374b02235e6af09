// evaluate-alerts (handler of run.completed): every ACTIVE alert with evaluation_type ON_RUN_COMPLETE whose
// scope matches the run evaluates its conditions; when they match (match_mode ALL: every condition, ANY: at
// least one) and the cooldown has passed, each channel is notified, trigger_count grows by one and
// last_triggered_at is set.
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
//   condition's metric (JOB_SUCCESS: all of them), newest first, the completing run included: the last
//   window_size_runs of them, completed within window_size_days before the completing run (both when both
//   are set). A condition whose metric has no result in the completing run is not met (JOB_SUCCESS aside),
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
//   BASELINE_DEVIATION: (RUN_AVERAGE value - baseline_float) / baseline_sigma, signed, against the ACTIVE
//     baseline of the metric that matches the run (the most specific scope wins, then the oldest), using its
//     estimates without the completing run; not met when there is no such baseline or its sigma is 0.
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
//   config.auth_token in the X-Webhook-Token header, retried with backoff like webhook deliveries; its entry
//   also has url, headers, attempts and status pending/retrying/delivered/failed.
// - The last 50 evaluations (run, time, outcome TRIGGERED / NOT_MET / SUPPRESSED, condition results) are kept
//   in the alert's internal data (`_evaluations`), never presented.
// - The completing run's tags, scheduled run, source and single results are kept on the run record
//   (internal `_completion`, never presented) so later windows can read them.
import type { RaisedEvent, Runtime } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { ulid } from '../ids.js';
import type { Json, StoredRecord } from '../storage/store.js';
import { stateOf } from './events/ewma.js';
import { sendInBackground } from './events/outbound.js';
import { sameWorkspace } from './update-baselines.js';
import { isHttpUrl } from './webhook-url.js';

interface RunView {
  id: string;
  completed_at: string;
  agent_id: string | null;
  tags: string[];
  scheduled_run_id: string | null;
  conversation_source: string | null;
  status: string;
  values: Record<string, number[]>;
  seq: number;
}

interface Condition {
  ulid?: string;
  metric_id?: string;
  aggregation?: string;
  operator?: string;
  threshold_float?: number | null;
  threshold_string?: string | null;
  window_size_days?: number | null;
  window_size_runs?: number | null;
  match_value?: string | null;
  match_mode?: string;
}

interface ConditionResult {
  condition_id: string | null;
  metric_id: string | null;
  aggregation: string | null;
  operator: string | null;
  threshold: number | null;
  value: number | null;
  met: boolean;
  reason?: string;
}

const DAY_MS = 86_400_000;
const MAX_EVALUATIONS = 50;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function numbers(value: unknown): number[] {
  return (Array.isArray(value) ? value : [value]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

function valuesOf(raw: unknown): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [k, v] of Object.entries(raw as Json)) {
    const list = numbers(v);
    if (list.length > 0) Object.defineProperty(out, k, { value: list, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function has(values: Record<string, number[]>, metric: string | undefined): boolean {
  return metric !== undefined && Object.prototype.hasOwnProperty.call(values, metric) && values[metric]!.length > 0;
}

function mean(list: number[]): number {
  return list.reduce((a, x) => a + x, 0) / list.length;
}

function viewOf(record: StoredRecord): RunView | null {
  const d = record.data;
  if (d.status !== 'COMPLETED' || typeof d.completed_at !== 'string') return null;
  const c = (d._completion ?? {}) as Json;
  return {
    id: record.id,
    completed_at: d.completed_at,
    agent_id: typeof d.agent_id === 'string' ? d.agent_id : null,
    tags: strings(c.tags ?? d.tags),
    scheduled_run_id: typeof (c.scheduled_run_id ?? d.scheduled_run_id) === 'string' ? ((c.scheduled_run_id ?? d.scheduled_run_id) as string) : null,
    conversation_source: typeof (c.conversation_source ?? d.conversation_source) === 'string' ? ((c.conversation_source ?? d.conversation_source) as string) : null,
    status: 'COMPLETED',
    values: valuesOf(c.metric_values ?? d.metric_values),
    seq: record.seq,
  };
}

function inScope(alert: Json, run: RunView): boolean {
  const source = typeof alert.conversation_source === 'string' ? alert.conversation_source : 'ALL';
  if (source !== 'ALL' && run.conversation_source !== source) return false;
  const agents = strings(alert.agent_ids);
  if (agents.length > 0 && (run.agent_id === null || !agents.includes(run.agent_id))) return false;
  const tags = run.tags.map((t) => t.toLowerCase());
  if (!strings(alert.required_tags).every((t) => tags.includes(t.toLowerCase()))) return false;
  const scheduled = strings(alert.scheduled_run_ids);
  if (scheduled.length > 0 && (run.scheduled_run_id === null || !scheduled.includes(run.scheduled_run_id))) return false;
  return true;
}

function compare(value: number, operator: string | undefined, threshold: number): boolean {
  const eq = Math.abs(value - threshold) <= 1e-9 * Math.max(1, Math.abs(value), Math.abs(threshold));
  switch (operator) {
    case 'GT':
      return value > threshold && !eq;
    case 'GTE':
      return value > threshold || eq;
    case 'LT':
      return value < threshold && !eq;
    case 'LTE':
      return value < threshold || eq;
    case 'EQ':
      return eq;
    case 'NEQ':
      return !eq;
    default:
      return false;
  }
}

function matchesValue(v: number, c: Condition): boolean {
  if (typeof c.match_value !== 'string') return v !== 0;
  const text = String(v);
  const wanted = c.match_value;
  switch (c.match_mode ?? 'exact') {
    case 'contains':
      return text.includes(wanted);
    case 'contains_case_insensitive':
      return text.toLowerCase().includes(wanted.toLowerCase());
    default: {
      const n = wanted.trim() === '' ? Number.NaN : Number(wanted);
      return text === wanted || (Number.isFinite(n) && n === v);
    }
  }
}

function thresholdOf(c: Condition): number | null {
  if (typeof c.threshold_float === 'number' && Number.isFinite(c.threshold_float)) return c.threshold_float;
  if (typeof c.threshold_string === 'string' && c.threshold_string.trim() !== '') {
    const n = Number(c.threshold_string);
    if (Number.isFinite(n)) return n;
  }
  return null;
}

class Evaluation {
  private history: RunView[] | undefined;

  constructor(
    private readonly runtime: Runtime,
    private readonly event: RaisedEvent,
    readonly current: RunView,
  ) {}

  /** Completed runs of the event's workspace, newest first, the completing run first. */
  private runs(): RunView[] {
    if (!this.history) {
      const others = this.runtime.store
        .list('run', { org: this.event.org })
        .filter((r) => r.id !== this.current.id && r.org === this.event.org && !r.deleted && sameWorkspace(this.runtime, this.event.org, r.workspace, this.event.workspace))
        .map(viewOf)
        .filter((r): r is RunView => r !== null && r.completed_at <= this.current.completed_at)
        .sort((a, b) => (a.completed_at === b.completed_at ? b.seq - a.seq : a.completed_at < b.completed_at ? 1 : -1));
      this.history = [this.current, ...others];
    }
    return this.history;
  }

  private window(alert: Json, c: Condition, needMetric: boolean): RunView[] {
    const days = typeof c.window_size_days === 'number' ? c.window_size_days : null;
    const count = typeof c.window_size_runs === 'number' ? c.window_size_runs : null;
    if (days === null && count === null) return [this.current];
    let runs = this.runs().filter((r) => r === this.current || inScope(alert, r));
    if (needMetric) runs = runs.filter((r) => has(r.values, c.metric_id));
    if (days !== null) {
      const from = Date.parse(this.current.completed_at) - days * DAY_MS;
      runs = runs.filter((r) => Date.parse(r.completed_at) >= from);
    }
    if (count !== null) runs = runs.slice(0, count);
    return runs;
  }

  private baseline(metric: string): Json | null {
    const run = this.runtime.store.get('run', this.current.id);
    const scope: Json = { agent_id: this.current.agent_id, test_set_id: run?.data.test_set_id ?? null, persona_id: run?.data.persona_id ?? null };
    let best: { data: Json; score: number; seq: number } | null = null;
    for (const b of this.runtime.store.list('baseline', { org: this.event.org })) {
      if (b.deleted || b.org !== this.event.org || b.data.status !== 'ACTIVE' || b.data.metric_id !== metric) continue;
      if (!sameWorkspace(this.runtime, this.event.org, b.workspace, this.event.workspace)) continue;
      let score = 0;
      let ok = true;
      for (const f of ['agent_id', 'test_set_id', 'persona_id']) {
        const want = b.data[f];
        if (want === undefined || want === null) continue;
        if (want !== scope[f]) ok = false;
        score++;
      }
      if (ok && (!best || score > best.score || (score === best.score && b.seq < best.seq))) best = { data: b.data, score, seq: b.seq };
    }
    return best?.data ?? null;
  }

  condition(alert: Json, c: Condition): ConditionResult {
    const base: ConditionResult = {
      condition_id: c.ulid ?? null,
      metric_id: c.metric_id ?? null,
      aggregation: c.aggregation ?? null,
      operator: c.operator ?? null,
      threshold: thresholdOf(c),
      value: null,
      met: false,
    };
    const threshold = base.threshold;
    if (threshold === null) return { ...base, reason: 'no numeric threshold' };
    if (c.aggregation === 'JOB_SUCCESS') {
      const runs = this.window(alert, c, false);
      const value = runs.filter((r) => r.status === 'COMPLETED' && has(r.values, c.metric_id)).length / runs.length;
      return { ...base, value, met: compare(value, c.operator, threshold) };
    }
    if (!has(this.current.values, c.metric_id)) return { ...base, reason: 'no result for the metric in this run' };
    const runs = this.window(alert, c, true);
    const perRun = runs.map((r) => r.values[c.metric_id!]!);
    const singles = perRun.flat();
    switch (c.aggregation) {
      case 'SINGLE': {
        const hit = singles.find((v) => compare(v, c.operator, threshold));
        return { ...base, value: hit ?? singles[0]!, met: hit !== undefined };
      }
      case 'RUN_AVERAGE': {
        const value = mean(perRun.map(mean));
        return { ...base, value, met: compare(value, c.operator, threshold) };
      }
      case 'RUN_FRACTION': {
        const value = singles.filter((v) => matchesValue(v, c)).length / singles.length;
        return { ...base, value, met: compare(value, c.operator, threshold) };
      }
      case 'BASELINE_DEVIATION': {
        const baseline = this.baseline(c.metric_id!);
        if (!baseline) return { ...base, reason: 'no active baseline for the metric' };
        const state = stateOf(baseline, this.current.id);
        const sigma = Math.sqrt(state.variance);
        if (state.count === 0 || !(sigma > 0)) return { ...base, reason: 'the baseline has no spread yet' };
        const value = (mean(perRun.map(mean)) - state.mean) / sigma;
        return { ...base, value, met: compare(value, c.operator, threshold) };
      }
      default:
        return { ...base, reason: 'unknown aggregation' };
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

interface Channel {
  ulid?: string;
  channel_type?: string;
  config?: Json;
}

/** The sends of a trigger; run once the evaluation's transaction has committed. */
function notifications(runtime: Runtime, org: string, alert: StoredRecord, run: RunView, payload: Json): (() => void)[] {
  const out: (() => void)[] = [];
  const tokens = (alert.data._channel_tokens ?? {}) as Record<string, string>;
  for (const channel of (Array.isArray(alert.data.channels) ? alert.data.channels : []) as Channel[]) {
    const config: Json = {};
    for (const [k, v] of Object.entries(channel.config ?? {})) if (k !== 'auth_token') Object.defineProperty(config, k, { value: v, enumerable: true, writable: true, configurable: true });
    const shown = { ulid: channel.ulid ?? null, channel_type: channel.channel_type ?? null, config };
    const data: Json = { alert_id: alert.id, run_id: run.id, channel: shown };
    const url = channel.config?.url;
    if (channel.channel_type === 'WEBHOOK' && typeof url === 'string' && isHttpUrl(url)) {
      const token = (channel.ulid !== undefined && Object.prototype.hasOwnProperty.call(tokens, channel.ulid) ? tokens[channel.ulid] : undefined) ?? channel.config?.auth_token;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (typeof token === 'string' && token !== '') headers['X-Webhook-Token'] = token;
      out.push(() => void sendInBackground(runtime, { id: ulid(), org, kind: 'alert_notification', data, url, headers, payload }));
    } else {
      out.push(() => void runtime.store.addSent({ id: ulid(), org, kind: 'alert_notification', data: { ...data, payload, status: 'delivered' } }));
    }
  }
  return out;
}

export function evaluate(runtime: Runtime, event: RaisedEvent): void {
  const p = event.payload;
  if (typeof p.run_id !== 'string') return;
  const completedAt = typeof p.completed_at === 'string' ? p.completed_at : runtime.clock.now().toISOString();
  const sends: (() => void)[] = [];
  runtime.store.transaction(() => {
    const record = runtime.store.get('run', p.run_id as string);
    const values = valuesOf(p.metric_values);
    const current: RunView = {
      id: p.run_id as string,
      completed_at: completedAt,
      agent_id: typeof p.agent_id === 'string' ? p.agent_id : null,
      tags: strings(p.tags),
      scheduled_run_id: typeof p.scheduled_run_id === 'string' ? p.scheduled_run_id : null,
      conversation_source: typeof p.conversation_source === 'string' ? p.conversation_source : null,
      status: typeof p.status === 'string' ? p.status : 'COMPLETED',
      values,
      seq: record?.seq ?? Number.MAX_SAFE_INTEGER,
    };
    if (record) {
      record.data._completion = { tags: current.tags, scheduled_run_id: current.scheduled_run_id, conversation_source: current.conversation_source, metric_values: values };
      runtime.store.update(record);
    }
    const evaluation = new Evaluation(runtime, event, current);
    const at = Date.parse(completedAt);
    for (const alert of runtime.store.list('alert', { org: event.org })) {
      const a = alert.data;
      if (alert.deleted || alert.org !== event.org || a.status !== 'ACTIVE' || (a.evaluation_type ?? 'ON_RUN_COMPLETE') !== 'ON_RUN_COMPLETE') continue;
      if (!sameWorkspace(runtime, event.org, alert.workspace, event.workspace) || !inScope(a, current)) continue;
      const conditions = (Array.isArray(a.conditions) ? a.conditions : []) as Condition[];
      if (conditions.length === 0) continue;
      const results = conditions.map((c) => evaluation.condition(a, c));
      const fires = a.match_mode === 'ANY' ? results.some((r) => r.met) : results.every((r) => r.met);
      let outcome = fires ? 'TRIGGERED' : 'NOT_MET';
      if (fires && typeof a.last_triggered_at === 'string') {
        const cooldown = typeof a.cooldown_seconds === 'number' ? a.cooldown_seconds : 0;
        if (at - Date.parse(a.last_triggered_at) < cooldown * 1000) outcome = 'SUPPRESSED';
      }
      if (outcome === 'TRIGGERED') {
        a.trigger_count = (typeof a.trigger_count === 'number' ? a.trigger_count : 0) + 1;
        a.last_triggered_at = completedAt;
        const firstMet = results.find((r) => r.met);
        const vars: Record<string, string> = {
          alert_name: String(a.name ?? ''),
          alert_id: alert.id,
          run_id: current.id,
          agent_id: current.agent_id ?? '',
          conversation_source: current.conversation_source ?? '',
          triggered_at: completedAt,
          trigger_count: String(a.trigger_count),
          metric_id: firstMet?.metric_id ?? '',
          value: firstMet?.value === null || firstMet === undefined ? '' : String(firstMet.value),
          conditions: summary(results),
        };
        const message =
          typeof a.custom_message_template === 'string' && a.custom_message_template !== ''
            ? render(a.custom_message_template, vars)
            : `Alert "${vars.alert_name}" triggered on run ${current.id}: ${vars.conditions}`;
        const payload: Json = {
          alert_id: alert.id,
          alert_name: a.name ?? null,
          run_id: current.id,
          agent_id: current.agent_id,
          conversation_source: current.conversation_source,
          triggered_at: completedAt,
          trigger_count: a.trigger_count,
          message,
          conditions: results,
        };
        sends.push(...notifications(runtime, event.org, alert, current, payload));
      }
      const log = Array.isArray(a._evaluations) ? (a._evaluations as Json[]) : [];
      log.push({ run_id: current.id, at: completedAt, outcome, conditions: results });
      a._evaluations = log.slice(-MAX_EVALUATIONS);
      runtime.store.update(alert);
    }
  });
  for (const send of sends) send();
}

export const evaluateAlerts: Rule = {
  onEvent(runtime, event) {
    if (event.name === 'run.completed') evaluate(runtime, event);
  },
};
