// The inspector's event feed: one timeline built from what the store holds, so anything the sandbox records
// shows up without a feed of its own.
//
// Sources:
// - runs completed (run records in status COMPLETED): their metric values;
// - baseline observations (each run folded into a baseline: value, estimates after it, anomaly flag);
// - the sent log: alert notifications and webhook deliveries, each attempt with status, latency and the next
//   retry, payload and headers with secrets redacted;
// - alert evaluations: a record family that describes evaluations (see eventFamilies) when the model has one;
//   until then, one TRIGGERED evaluation per alert and run is derived from that trigger's notifications (they
//   carry the condition results);
// - every other record family the route table shows to be written by the sandbox rather than by API callers
//   (no create, update, delete or custom operation) or whose name says it is one (event, evaluation,
//   notification, delivery): each record is an event at its first timestamp field;
// - faults on demand (issue 29): every answer this instance replaced or delayed (`fault.injected`), from its
//   fault log (the last FAULT_LOG_SIZE).
import type { Runtime } from '../engine/context.js';
import { present } from '../engine/records.js';
import type { ResourceRow } from '../engine/tables.js';
import { type FaultEvent, injectorOf } from '../faults/injector.js';
import { observationsOf } from '../rules/events/ewma.js';
import type { Json, SentRecord, StoredRecord } from '../storage/store.js';
import { canRead, type Session } from './auth.js';

export interface FeedEvent {
  /** Unique in the feed: `<source>:<id>`. */
  id: string;
  kind: string;
  /** ISO time the event happened. */
  at: string;
  org: string;
  workspace: string | null;
  /** The record the event is about, for the resource filter and a link to the state view. */
  resource: { kind: string; id: string } | null;
  /** Other records it names (run, alert, webhook, baseline), also matched by the resource filter. */
  related: { kind: string; id: string }[];
  status: string | null;
  data: Json;
}

export interface FeedFilter {
  kinds?: string[];
  /** A record id (or part of one) the event is about or names. */
  resource?: string;
  since?: number;
  until?: number;
  limit?: number;
}

const SECRET_NAME = /token|secret|password|authorization|api[-_]?key|signature|cookie/i;
export const REDACTED = '[redacted]';

/** A copy with the value of every property whose name says it is a secret replaced, at any depth. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: SECRET_NAME.test(k) ? REDACTED : redact(v), enumerable: true, writable: true, configurable: true });
  return out;
}

const EVENT_NAME = /event|evaluation|notification|delivery/i;
const WRITES = new Set(['create', 'update', 'delete', 'custom', 'restore', 'revert']);

/** Record families that are events: written by the sandbox only, or named as events. */
export function eventFamilies(runtime: Runtime): ResourceRow[] {
  return runtime.tables.resources.filter((r) => {
    if (EVENT_NAME.test(r.name) || EVENT_NAME.test(r.schema)) return true;
    const actions = runtime.tables.routes.filter((route) => route.resource === r.name).map((route) => route.action);
    return actions.length > 0 && !actions.some((a) => a !== null && WRITES.has(a));
  });
}

function timeOf(data: Json): string | null {
  for (const [k, v] of Object.entries(data)) if (/(_time|_at)$/.test(k) && typeof v === 'string' && !Number.isNaN(Date.parse(v))) return v;
  return null;
}

function related(data: Json): { kind: string; id: string }[] {
  const out: { kind: string; id: string }[] = [];
  for (const [k, v] of Object.entries(data)) {
    const m = /^(.+)_id$/.exec(k);
    if (m && typeof v === 'string') out.push({ kind: m[1]!, id: v });
  }
  return out;
}

function runEvent(record: StoredRecord): FeedEvent | null {
  const d = record.data;
  if (d.status !== 'COMPLETED' || typeof d.complete_time !== 'string') return null;
  return {
    id: `run:${record.id}`,
    kind: 'run.completed',
    at: d.complete_time,
    org: record.org,
    workspace: record.workspace,
    resource: { kind: 'run', id: record.id },
    related: typeof d.agent_id === 'string' ? [{ kind: 'agent', id: d.agent_id }] : [],
    status: 'COMPLETED',
    data: { run_id: record.id, agent_id: d.agent_id ?? null, metric_values: d.metric_values ?? {}, tags: d.tags ?? [], conversation_source: d.conversation_source ?? null },
  };
}

function baselineEvents(record: StoredRecord): FeedEvent[] {
  return observationsOf(record.data).map((o) => ({
    id: `baseline:${record.id}:${o.run_id}`,
    kind: 'baseline.observation',
    at: o.at,
    org: record.org,
    workspace: record.workspace,
    resource: { kind: 'baseline', id: record.id },
    related: [{ kind: 'run', id: o.run_id }, { kind: 'metric', id: String(record.data.metric_id) }],
    status: o.anomaly ? 'ANOMALY' : 'NORMAL',
    data: { baseline_id: record.id, metric_id: record.data.metric_id, run_id: o.run_id, value: o.value, mean: o.mean, sigma: o.sigma, anomaly: o.anomaly },
  }));
}

/** A sent entry as the inspector shows it: secrets redacted, attempts as recorded. */
export function sentView(entry: SentRecord): Json {
  return redact({ id: entry.id, kind: entry.kind, ...entry.data }) as Json;
}

function sentEvent(entry: SentRecord): FeedEvent {
  const d = entry.data;
  const payload = (d.payload ?? {}) as Json;
  const attempts = Array.isArray(d.attempts) ? (d.attempts as Json[]) : [];
  const at = (typeof payload.triggered_at === 'string' && payload.triggered_at) || (typeof payload.occurred_at === 'string' && payload.occurred_at) || (attempts[0]?.at as string | undefined) || new Date(0).toISOString();
  const isAlert = entry.kind === 'alert_notification';
  const own = isAlert ? { kind: 'alert', id: String(d.alert_id) } : { kind: 'webhook', id: String(d.webhook_id) };
  return {
    id: `sent:${entry.id}`,
    kind: isAlert ? 'alert.notification' : 'webhook.delivery',
    at,
    org: entry.org,
    workspace: null,
    resource: own,
    related: related(d).filter((r) => r.id !== own.id),
    status: typeof d.status === 'string' ? d.status : null,
    data: sentView(entry),
  };
}

/** One TRIGGERED evaluation per alert and run, from the notifications of that trigger. */
function derivedEvaluations(notifications: SentRecord[]): FeedEvent[] {
  const seen = new Map<string, FeedEvent>();
  for (const n of notifications) {
    const p = (n.data.payload ?? {}) as Json;
    const key = `${String(n.data.alert_id)}:${String(n.data.run_id)}`;
    const existing = seen.get(key);
    if (existing) {
      (existing.data.notifications as string[]).push(n.id);
      continue;
    }
    seen.set(key, {
      id: `evaluation:${key}`,
      kind: 'alert.evaluation',
      at: typeof p.triggered_at === 'string' ? p.triggered_at : new Date(0).toISOString(),
      org: n.org,
      workspace: null,
      resource: { kind: 'alert', id: String(n.data.alert_id) },
      related: [{ kind: 'run', id: String(n.data.run_id) }],
      status: 'TRIGGERED',
      data: redact({ outcome: 'TRIGGERED', alert_id: n.data.alert_id, alert_name: p.alert_name, run_id: n.data.run_id, trigger_count: p.trigger_count, message: p.message, conditions: p.conditions ?? [], notifications: [n.id] }) as Json,
    });
  }
  return [...seen.values()];
}

function recordEvent(resource: ResourceRow, record: StoredRecord): FeedEvent {
  const data = present(resource, record);
  const outcome = ['outcome', 'status', 'state', 'result'].map((f) => data[f]).find((v) => typeof v === 'string') as string | undefined;
  return {
    id: `${resource.name}:${record.id}`,
    kind: resource.name,
    at: timeOf(data) ?? new Date(0).toISOString(),
    org: record.org,
    workspace: record.workspace,
    resource: { kind: resource.name, id: record.id },
    related: related(data).filter((r) => r.id !== record.id),
    status: outcome ?? null,
    data: redact(data) as Json,
  };
}

/** An answer replaced or delayed by faults on demand (issue 29), kept in this instance's fault log. */
function faultEvent(f: FaultEvent): FeedEvent {
  return {
    id: `fault:${f.seq}`,
    kind: 'fault.injected',
    at: f.at,
    org: f.org,
    workspace: null,
    resource: null,
    related: [],
    status: f.fault.toUpperCase(),
    data: { fault: f.fault, operation_id: f.operationId, method: f.method, path: f.path, status: f.status, latency_ms: f.latencyMs, rule: f.rule },
  };
}

/** The feed of one organization the session sees, newest first, filtered. */
export function feed(runtime: Runtime, session: Session, org: string, filter: FeedFilter = {}): { events: FeedEvent[]; kinds: string[] } {
  const store = runtime.store;
  const events: FeedEvent[] = [];
  const reads = (kind: string): boolean => canRead(runtime, session, kind);
  const families = eventFamilies(runtime).filter((r) => reads(r.name));
  const evaluationRecords = families.some((r) => /evaluation|alert.?event/i.test(r.name) || /evaluation|alert.?event/i.test(r.schema));
  if (reads('run')) for (const r of store.list('run', { org })) if (r.org === org) events.push(...[runEvent(r)].filter((e): e is FeedEvent => e !== null));
  if (reads('baseline')) for (const b of store.list('baseline', { org })) if (b.org === org) events.push(...baselineEvents(b));
  const notifications = reads('alert') ? store.listSent({ org, kind: 'alert_notification' }) : [];
  for (const n of notifications) events.push(sentEvent(n));
  if (reads('webhook')) for (const d of store.listSent({ org, kind: 'webhook_delivery' })) events.push(sentEvent(d));
  if (!evaluationRecords) events.push(...derivedEvaluations(notifications));
  for (const family of families) for (const r of store.list(family.name, { org })) if (r.org === org) events.push(recordEvent(family, r));
  for (const f of injectorOf(store)?.events(org) ?? []) events.push(faultEvent(f));

  const kinds = [...new Set(events.map((e) => e.kind))].sort();
  const wanted = filter.kinds && filter.kinds.length > 0 ? new Set(filter.kinds) : null;
  const needle = filter.resource?.trim().toLowerCase() ?? '';
  const out = events.filter((e) => {
    if (wanted && !wanted.has(e.kind)) return false;
    const t = Date.parse(e.at);
    if (filter.since !== undefined && t < filter.since) return false;
    if (filter.until !== undefined && t > filter.until) return false;
    if (needle !== '' && ![e.resource, ...e.related].some((r) => r !== null && (r.id.toLowerCase().includes(needle) || `${r.kind}:${r.id}`.toLowerCase() === needle))) return false;
    return true;
  });
  out.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.id < b.id ? 1 : -1));
  return { events: out.slice(0, filter.limit ?? 500), kinds };
}
