// State: the records of every family of the organization, searchable; a record's JSON, its version history
// and the difference between two versions. Deleted records are listed, struck through and badged.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson } from './api.js';
import { Badge, ErrorBox, go, JsonView } from './components.js';
import { diffJson } from './diff.js';
import { count } from './format.js';
import type { OrganizationInfo, RecordDetail, RecordSummary, SessionInfo } from './types.js';

export function StateView({ session, org, route }: { session: SessionInfo; org: OrganizationInfo; route: string[] }) {
  const [q, setQ] = useState('');
  const [kind, setKind] = useState('');
  const [workspace, setWorkspace] = useState('');
  const [builtin, setBuiltin] = useState(false);
  const [records, setRecords] = useState<RecordSummary[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [selKind, selId] = route;

  useEffect(() => {
    const timer = setTimeout(() => {
      getJson<{ records: RecordSummary[] }>('records', { organization_id: org.id, q, kind, workspace_id: workspace, builtin: builtin ? 'true' : undefined })
        .then((r) => {
          setRecords(r.records);
          setError(null);
        })
        .catch(setError);
    }, 150);
    return () => clearTimeout(timer);
  }, [org.id, q, kind, workspace, builtin]);

  const counts = new Map<string, number>();
  for (const r of records ?? []) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  return html`
    <section class="split">
      <div class="pane list-pane">
        <form class="filters" role="search" onSubmit=${(e: Event) => e.preventDefault()}>
          <label>Search <input type="search" name="q" placeholder="id, name or any value" value=${q} onInput=${(e: Event) => setQ((e.target as HTMLInputElement).value)} /></label>
          <label>Family <select name="kind" value=${kind} onChange=${(e: Event) => setKind((e.target as HTMLSelectElement).value)}>
            <option value="">every family</option>
            ${session.families.map((f) => html`<option value=${f.name}>${f.name}</option>`)}
          </select></label>
          <label>Workspace <select name="workspace" value=${workspace} onChange=${(e: Event) => setWorkspace((e.target as HTMLSelectElement).value)}>
            <option value="">every workspace</option>
            ${org.workspaces.map((w) => html`<option value=${w.id}>${w.display_name ?? w.id}${w.deleted ? ' (deleted)' : ''}</option>`)}
          </select></label>
          <label class="check"><input type="checkbox" checked=${builtin} onChange=${(e: Event) => setBuiltin((e.target as HTMLInputElement).checked)} /> built-in records</label>
        </form>
        <${ErrorBox} error=${error} />
        <p class="count" aria-live="polite">${records === null ? 'Loading…' : `${count(records.length, 'record', 'records')}${counts.size > 0 ? ` in ${count(counts.size, 'family', 'families')}` : ''}`}</p>
        <ul class="records" aria-label="Records">
          ${(records ?? []).map(
            (r) => html`<li key=${`${r.kind}/${r.id}`} class=${r.deleted ? 'deleted' : ''}>
              <a href=${`#/state/${encodeURIComponent(r.kind)}/${encodeURIComponent(r.id)}`} aria-current=${r.kind === selKind && r.id === selId ? 'true' : undefined}>
                <span class="kind">${r.kind}</span>
                <span class="label">${r.label}</span>
                ${r.deleted ? html`<${Badge} tone="bad">deleted<//>` : null}
                ${r.state && !r.deleted ? html`<${Badge} tone="muted">${r.state}<//>` : null}
                ${r.builtin ? html`<${Badge} tone="info">built-in<//>` : null}
                ${r.versions > 0 ? html`<span class="versions">v${r.versions}</span>` : null}
              </a>
            </li>`,
          )}
        </ul>
      </div>
      <div class="pane detail-pane">
        ${selKind && selId ? html`<${RecordPane} kind=${selKind} id=${selId} />` : html`<p class="hint">Choose a record to see its JSON and history.</p>`}
      </div>
    </section>
  `;
}

function RecordPane({ kind, id }: { kind: string; id: string }) {
  const [detail, setDetail] = useState<RecordDetail | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);

  useEffect(() => {
    setDetail(null);
    setError(null);
    getJson<RecordDetail>(`records/${encodeURIComponent(kind)}/${encodeURIComponent(id)}`)
      .then((d) => {
        setDetail(d);
        setTo(d.versions[0]?.number ?? null);
        setFrom(d.versions[1]?.number ?? d.versions[0]?.number ?? null);
      })
      .catch(setError);
  }, [kind, id]);

  if (error) return html`<${ErrorBox} error=${error} />`;
  if (!detail) return html`<p>Loading…</p>`;
  const a = detail.versions.find((v) => v.number === from);
  const b = detail.versions.find((v) => v.number === to);
  const rows = a && b ? diffJson(a.data, b.data) : [];
  const pick = (set: (n: number) => void) => (e: Event) => set(Number((e.target as HTMLSelectElement).value));
  return html`
    <article class="record" aria-label=${`${kind} ${id}`}>
      <h2>
        <span class="kind">${kind}</span> ${detail.summary.label}
        ${detail.summary.deleted ? html` <${Badge} tone="bad">deleted<//>` : null}
      </h2>
      <p class="meta">id <code>${id}</code>${detail.summary.workspace ? html` · workspace <code>${detail.summary.workspace}</code>` : null}
        ${kind === 'baseline' ? html` · <a href=${`#/baselines/${encodeURIComponent(id)}`}>plot</a>` : null}
        ${' · '}<button type="button" class="link" onClick=${() => go(`#/events/${encodeURIComponent(id)}`)}>events</button></p>
      <h3>JSON</h3>
      <${JsonView} value=${detail.json} label="Record JSON" />
      ${detail.versions.length > 0
        ? html`<h3>Version history (${detail.versions.length})</h3>
            <div class="diff-pick">
              <label>from <select name="from" value=${from ?? ''} onChange=${pick(setFrom)}>${detail.versions.map((v) => html`<option value=${v.number}>version ${v.number}</option>`)}</select></label>
              <label>to <select name="to" value=${to ?? ''} onChange=${pick(setTo)}>${detail.versions.map((v) => html`<option value=${v.number}>version ${v.number}</option>`)}</select></label>
            </div>
            ${rows.length === 0
              ? html`<p class="hint">No difference between version ${from} and version ${to}.</p>`
              : html`<table class="diff" aria-label="Difference between versions">
                  <thead><tr><th>field</th><th>change</th><th>version ${from}</th><th>version ${to}</th></tr></thead>
                  <tbody>${rows.map((r) => html`<tr class=${r.change}><td><code>${r.path}</code></td><td>${r.change}</td><td><code>${r.before ?? ''}</code></td><td><code>${r.after ?? ''}</code></td></tr>`)}</tbody>
                </table>`}
            <details><summary>Versions as stored</summary>${detail.versions.map((v) => html`<h4>version ${v.number}</h4><${JsonView} value=${v.data} label=${`Version ${v.number}`} />`)}</details>`
        : null}
    </article>
  `;
}
