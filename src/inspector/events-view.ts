// Events, live: the organization's timeline (runs completed, alert evaluations and notifications, webhook
// deliveries with every attempt, baseline observations, and any event-like records), polled every 2 seconds
// while the view is open; filters by kind, resource and time; a delivery can be sent again.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson, postJson } from './api.js';
import { Badge, ErrorBox, JsonView, StatusBadge, Time } from './components.js';
import { displayNumber, NumberText } from './format.js';
import type { FeedEvent, Json, OrganizationInfo } from './types.js';

const POLL_MS = 2000;

function localToIso(value: string): string | undefined {
  if (value === '') return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

export function EventsView({ org, route }: { org: OrganizationInfo; route?: string[] }) {
  const [kind, setKind] = useState('');
  const [resource, setResource] = useState(route?.[0] ?? '');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [live, setLive] = useState(true);
  const [events, setEvents] = useState<FeedEvent[] | null>(null);
  const [kinds, setKinds] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let stopped = false;
    const load = () =>
      getJson<{ events: FeedEvent[]; kinds: string[] }>('events', { organization_id: org.id, kind, resource, since: localToIso(since), until: localToIso(until) })
        .then((r) => {
          if (stopped) return;
          setEvents(r.events);
          setKinds(r.kinds);
          setError(null);
        })
        .catch((e) => !stopped && setError(e));
    void load();
    const timer = live ? setInterval(load, POLL_MS) : undefined;
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [org.id, kind, resource, since, until, live, tick]);

  const input = (set: (v: string) => void) => (e: Event) => set((e.target as HTMLInputElement).value);
  return html`
    <section>
      <form class="filters" onSubmit=${(e: Event) => e.preventDefault()} aria-label="Event filters">
        <label>Kind <select name="kind" value=${kind} onChange=${input(setKind)}>
          <option value="">every kind</option>
          ${kinds.map((k) => html`<option value=${k}>${k}</option>`)}
        </select></label>
        <label>Resource <input type="search" name="resource" placeholder="id of a run, alert, webhook…" value=${resource} onInput=${input(setResource)} /></label>
        <label>From <input type="datetime-local" name="since" value=${since} onInput=${input(setSince)} /></label>
        <label>To <input type="datetime-local" name="until" value=${until} onInput=${input(setUntil)} /></label>
        <label class="check"><input type="checkbox" name="live" checked=${live} onChange=${(e: Event) => setLive((e.target as HTMLInputElement).checked)} /> live (every ${POLL_MS / 1000} s)</label>
      </form>
      <${ErrorBox} error=${error} />
      <p class="count" aria-live="polite">${events === null ? 'Loading…' : `${events.length} events`}</p>
      <ol class="timeline" aria-label="Events">
        ${(events ?? []).map((e) => html`<${EventItem} key=${e.id} event=${e} onChanged=${() => setTick((t) => t + 1)} />`)}
      </ol>
    </section>
  `;
}

function EventItem({ event, onChanged }: { event: FeedEvent; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const r = event.resource;
  return html`
    <li class=${`event ${event.kind.replace(/[^a-z]/gi, '-')}`}>
      <button type="button" class="event-head" aria-expanded=${open} onClick=${() => setOpen(!open)}>
        <${Time} iso=${event.at} />
        <${Badge} tone="kind">${event.kind}<//>
        <${StatusBadge} status=${event.status} />
        <span class="subject">${r ? `${r.kind} ${r.id}` : ''}</span>
        <span class="summary">${summaryOf(event)}</span>
      </button>
      ${open ? html`<div class="event-body"><${EventBody} event=${event} onChanged=${onChanged} /></div>` : null}
    </li>
  `;
}

function summaryOf(e: FeedEvent): string {
  const d = e.data;
  if (e.kind === 'run.completed') return Object.entries((d.metric_values ?? {}) as Json).map(([m, v]) => `${m} = ${displayNumber(v)}`).join(', ');
  if (e.kind === 'alert.evaluation') return `${String(d.alert_name ?? d.alert_id ?? '')} on run ${String(d.run_id ?? '')}`;
  if (e.kind === 'webhook.delivery' || e.kind === 'alert.notification') {
    const attempts = (d.attempts ?? []) as Json[];
    return `${String(d.url ?? (d.channel as Json | undefined)?.channel_type ?? '')} · ${attempts.length} attempt${attempts.length === 1 ? '' : 's'}`;
  }
  if (e.kind === 'baseline.observation') return `value ${displayNumber(d.value)} · mean ${displayNumber(d.mean)} · sigma ${displayNumber(d.sigma)}`;
  return '';
}

/** Condition results: the first array property named like them (`conditions`, `condition_results`). */
function conditionsOf(d: Json): Json[] | null {
  const key = Object.keys(d).find((k) => /condition/i.test(k) && Array.isArray(d[k]));
  return key === undefined ? null : (d[key] as Json[]);
}

function EventBody({ event, onChanged }: { event: FeedEvent; onChanged: () => void }) {
  const d = event.data;
  const [resent, setResent] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const attempts = Array.isArray(d.attempts) ? (d.attempts as Json[]) : null;
  const conditions = conditionsOf(d) ?? conditionsOf((d.payload ?? {}) as Json);
  const resend = () =>
    postJson<{ delivery: Json }>(`deliveries/${encodeURIComponent(String(d.id))}/resend`, {})
      .then((r) => {
        setResent(String(r.delivery.id));
        onChanged();
      })
      .catch(setError);
  return html`
    ${event.kind === 'run.completed'
      ? html`<table class="kv" aria-label="Metric values"><thead><tr><th>metric</th><th>value</th></tr></thead>
          <tbody>${Object.entries((d.metric_values ?? {}) as Json).map(([m, v]) => html`<tr><td><code>${m}</code></td><td><${NumberText} value=${v} /></td></tr>`)}</tbody></table>`
      : null}
    ${conditions
      ? html`<table class="kv" aria-label="Condition results"><thead><tr><th>condition</th><th>metric</th><th>aggregation</th><th>operator</th><th>threshold</th><th>value</th><th>met</th></tr></thead>
          <tbody>${conditions.map((c) => html`<tr class=${c.met ? 'met' : ''}><td><code>${String(c.condition_id ?? '')}</code></td><td><code>${String(c.metric_id ?? '')}</code></td><td>${String(c.aggregation ?? '')}</td><td>${String(c.operator ?? '')}</td><td><${NumberText} value=${c.threshold ?? 'n/a'} /></td><td><${NumberText} value=${c.value ?? 'n/a'} /></td><td>${c.met ? 'yes' : `no${c.reason ? ` (${String(c.reason)})` : ''}`}</td></tr>`)}</tbody></table>`
      : null}
    ${attempts
      ? html`<table class="kv" aria-label="Attempts"><thead><tr><th>#</th><th>at</th><th>status</th><th>latency</th></tr></thead>
          <tbody>${attempts.map((a, i) => html`<tr><td>${i + 1}</td><td><${Time} iso=${String(a.at)} /></td><td>${a.status !== undefined ? String(a.status) : String(a.error ?? '')}</td><td>${a.latency_ms !== undefined ? `${String(a.latency_ms)} ms` : ''}</td></tr>`)}</tbody></table>
          ${d.next_attempt_at ? html`<p>Next retry at <${Time} iso=${String(d.next_attempt_at)} /></p>` : null}
          ${d.resent_from ? html`<p>Re-sent from <code>${String(d.resent_from)}</code></p>` : null}
          ${d.url ? html`<p><button type="button" onClick=${resend}>Re-send this delivery</button> ${resent ? html`<span role="status">queued as <code>${resent}</code></span>` : null}</p>` : null}
          <${ErrorBox} error=${error} />`
      : null}
    ${d.headers ? html`<h4>Headers</h4><${JsonView} value=${d.headers} label="Headers" />` : null}
    ${d.payload !== undefined ? html`<h4>Payload</h4><${JsonView} value=${d.payload} label="Payload" />` : null}
    ${event.kind === 'baseline.observation' && event.resource ? html`<p><a href=${`#/baselines/${encodeURIComponent(event.resource.id)}`}>Open the baseline's plot</a></p>` : null}
    <details><summary>Event as recorded</summary><${JsonView} value=${event} label="Event JSON" /></details>
  `;
}
