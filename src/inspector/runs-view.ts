// Runs at work (issue 25): every run of the organization with its status and progress, polled every 2 seconds
// while a run is still open so it is seen progressing; a selected run shows each conversation with its status,
// error, transcript turn by turn (tool messages such as end_conversation marked, synthetic transcripts marked) and
// its metric outputs. Every string (a transcript is whatever the agent answered) is rendered as text.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson } from './api.js';
import { Badge, ErrorBox, go, JsonView, StatusBadge, Time } from './components.js';
import { count, NumberText } from './format.js';
import type { Json, OrganizationInfo, RunConversation, RunDetail, RunSummary } from './types.js';

const POLL_MS = 2000;
const OPEN = new Set(['PENDING', 'IN QUEUE', 'IN PROGRESS']);

/** Polls `load` every POLL_MS while `more(answer)` says the answer can still change. */
function usePolled<T>(load: () => Promise<T>, more: (answer: T) => boolean, key: string): { data: T | null; error: unknown } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () =>
      load()
        .then((answer) => {
          if (stopped) return;
          setData(answer);
          setError(null);
          if (more(answer)) timer = setTimeout(tick, POLL_MS);
        })
        .catch((e) => {
          if (stopped) return;
          setError(e);
          timer = setTimeout(tick, POLL_MS);
        });
    setData(null);
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [key]);
  return { data, error };
}

function name(ref: { id: string; name: string | null } | null): string {
  return ref === null ? '–' : (ref.name ?? ref.id);
}

function Progress({ run }: { run: RunSummary }) {
  const p = run.progress;
  const done = p.completed + p.failed;
  return html`<span class="progress" title=${`${p.completed} completed, ${p.failed} failed, ${p.in_progress} in progress`}>
    <meter min="0" max=${Math.max(1, p.total)} value=${done} aria-label="progress"></meter> ${done}/${p.total}${p.failed > 0 ? html` <span class="bad-text">(${p.failed} failed)</span>` : null}</span>`;
}

export function RunsView({ org, route }: { org: OrganizationInfo; route: string[] }) {
  const selected = route[0];
  // The list keeps polling while any run is open (launched elsewhere meanwhile: the next launch shows on reload).
  const { data, error } = usePolled(
    () => getJson<{ runs: RunSummary[] }>('runs', { organization_id: org.id }),
    (r) => r.runs.some((run) => OPEN.has(run.status)) || r.runs.length === 0,
    org.id,
  );
  const runs = data?.runs ?? null;
  return html`
    <section class="split">
      <div class="pane list-pane">
        <${ErrorBox} error=${error} />
        <p class="count">${runs === null ? 'Loading…' : count(runs.length, 'run', 'runs')}</p>
        <table class="runs" aria-label="Runs">
          <thead><tr><th>run</th><th>status</th><th>progress</th><th>agent</th><th>test set</th><th>launched</th><th>completed</th></tr></thead>
          <tbody>
            ${(runs ?? []).map(
              (r) => html`<tr key=${r.run_id} aria-current=${r.run_id === selected ? 'true' : undefined}>
                <td><a href=${`#/runs/${encodeURIComponent(r.run_id)}`}>${r.display_name ?? r.run_id}</a></td>
                <td><${StatusBadge} status=${r.status} />${r.error_status ? html` <${Badge} tone="bad">${r.error_status}<//>` : null}</td>
                <td><${Progress} run=${r} /></td>
                <td>${name(r.agent)}</td>
                <td>${name(r.test_set)}</td>
                <td>${r.create_time ? html`<${Time} iso=${r.create_time} />` : '–'}</td>
                <td>${r.complete_time ? html`<${Time} iso=${r.complete_time} />` : '–'}</td>
              </tr>`,
            )}
          </tbody>
        </table>
        ${runs !== null && runs.length === 0
          ? html`<p class="hint">No runs yet. Launch one through the API (<code>POST /v1/runs</code>, <code>client.runs.launchRun(...)</code>); it is executed by the sandbox and shown here as it progresses.</p>`
          : null}
      </div>
      <div class="pane detail-pane">${selected ? html`<${RunPanel} id=${selected} key=${selected} />` : html`<p class="hint">Choose a run to see its conversations.</p>`}</div>
    </section>
  `;
}

function RunPanel({ id }: { id: string }) {
  const { data, error } = usePolled(
    () => getJson<RunDetail>(`runs/${encodeURIComponent(id)}`),
    (d) => OPEN.has(d.summary.status) || d.conversations.some((c) => OPEN.has(c.status) || c.outputs.some((o) => OPEN.has(o.status))),
    id,
  );
  if (!data) return html`<${ErrorBox} error=${error} />${error ? null : html`<p class="count">Loading…</p>`}`;
  const r = data.summary;
  return html`
    <article aria-label="Run">
      <h2>${r.display_name ?? r.run_id}</h2>
      <${ErrorBox} error=${error} />
      <p class="meta"><${StatusBadge} status=${r.status} />${r.error_status ? html` <${Badge} tone="bad">${r.error_status}<//>` : null} · <${Progress} run=${r} /> ·
        agent ${name(r.agent)} · persona ${name(r.persona)} · test set ${name(r.test_set)} ·${' '}
        <button type="button" class="link" onClick=${() => go(`#/state/run/${encodeURIComponent(id)}`)}>record</button> ·${' '}
        <button type="button" class="link" onClick=${() => go(`#/events/${encodeURIComponent(id)}`)}>events</button></p>
      <p class="count">${count(data.conversations.length, 'conversation', 'conversations')}</p>
      ${data.conversations.map((c, i) => html`<${Conversation} key=${c.simulation_id} c=${c} n=${i + 1} />`)}
      <details><summary>Run JSON</summary><${JsonView} value=${data.run} label="Run JSON" /></details>
    </article>
  `;
}

function Conversation({ c, n }: { c: RunConversation; n: number }) {
  return html`
    <section class="conversation" aria-label=${`Conversation ${n}`}>
      <h3>Conversation ${n} <code>${c.simulation_id}</code> <${StatusBadge} status=${c.status} />${c.synthetic ? html` <${Badge} tone="info" title="the agent has no chat endpoint: built from the test case, no call made">synthetic transcript<//>` : null}</h3>
      ${c.test_case_input !== null ? html`<p class="meta">test case <code>${c.test_case_id}</code>: ${c.test_case_input}</p>` : null}
      ${c.error_message ? html`<p class="error-text" aria-label="Error message">${c.error_message}</p>` : null}
      ${c.transcript.length > 0
        ? html`<table class="transcript" aria-label=${`Transcript ${n}`}>
            <thead><tr><th>role</th><th>content</th><th>start</th><th>offsets (s)</th></tr></thead>
            <tbody>${c.transcript.map((m) => html`<${Turn} m=${m} />`)}</tbody>
          </table>`
        : html`<p class="hint">No transcript${OPEN.has(c.status) ? ' yet' : ''}.</p>`}
      ${c.outputs.length > 0
        ? html`<table class="outputs" aria-label=${`Metric outputs ${n}`}>
            <thead><tr><th>metric</th><th>status</th><th>value</th><th>explanation</th></tr></thead>
            <tbody>${c.outputs.map(
              (o) => html`<tr key=${o.metric_output_id}><td>${o.metric_name ?? o.metric_id}</td><td><${StatusBadge} status=${o.status} />${o.status_reason ? html` <span class="note">${o.status_reason}</span>` : null}</td>
                <td>${o.value === null ? '–' : typeof o.value === 'number' ? html`<${NumberText} value=${o.value} />` : typeof o.value === 'string' ? o.value : JSON.stringify(o.value)}</td><td>${o.explanation ?? ''}</td></tr>`,
            )}</tbody>
          </table>`
        : null}
    </section>
  `;
}

function Turn({ m }: { m: Json }) {
  const role = String(m.role ?? '');
  const tool = role === 'tool';
  const content = typeof m.content === 'string' ? m.content : m.content === null || m.content === undefined ? '' : JSON.stringify(m.content);
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
  const offsets = typeof m.start_offset === 'number' && typeof m.end_offset === 'number' ? `${m.start_offset}–${m.end_offset}` : '–';
  return html`<tr class=${`turn ${role}`}>
    <td>${tool ? html`<${Badge} tone="kind">tool${m.name ? `: ${String(m.name)}` : ''}<//>` : html`<${Badge} tone=${role === 'user' ? 'info' : 'muted'}>${role}<//>`}</td>
    <td><span class="content">${content}</span>${calls.length > 0 ? html`<div class="note">tool calls: ${calls.map((t) => JSON.stringify(t)).join(', ')}</div>` : null}</td>
    <td>${typeof m.start_timestamp === 'string' ? html`<${Time} iso=${m.start_timestamp} />` : '–'}</td>
    <td>${offsets}</td>
  </tr>`;
}
