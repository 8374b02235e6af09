// The API reference, from the model the sandbox serves: every operation by family; parameters and body fields
// with limits, enums and defaults; the x- semantics in words; provenance badges (seed, inferred, assumed with
// its note); and "try it" against this sandbox with the caller's key (the admin gives one).
import { html } from 'htm/preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { getJson, postJson } from './api.js';
import { Badge, ErrorBox, JsonView, ProvenanceBadge } from './components.js';
import { DescriptionText } from './format.js';
import type { FieldDoc, OperationDoc, OrganizationInfo, SessionInfo } from './types.js';

export function ReferenceView({ session, org, route }: { session: SessionInfo; org: OrganizationInfo; route: string[] }) {
  const [ops, setOps] = useState<OperationDoc[] | null>(null);
  const [filter, setFilter] = useState('');
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    getJson<{ operations: OperationDoc[] }>('reference').then((r) => setOps(r.operations)).catch(setError);
  }, []);
  const families = useMemo(() => {
    const map = new Map<string, OperationDoc[]>();
    const f = filter.trim().toLowerCase();
    for (const op of ops ?? []) {
      if (f && !`${op.id} ${op.method} ${op.path} ${op.summary ?? ''}`.toLowerCase().includes(f)) continue;
      map.set(op.family, [...(map.get(op.family) ?? []), op]);
    }
    return [...map.entries()];
  }, [ops, filter]);
  const selected = ops?.find((o) => o.id === route[0]) ?? null;
  return html`
    <section class="split">
      <div class="pane list-pane">
        <label class="block">Find an operation <input type="search" name="operation" value=${filter} onInput=${(e: Event) => setFilter((e.target as HTMLInputElement).value)} /></label>
        <${ErrorBox} error=${error} />
        ${families.map(
          ([family, list]) => html`<details open key=${family}><summary>${family} <span class="count">(${list.length})</span></summary>
            <ul class="ops">${list.map((op) => html`<li><a href=${`#/reference/${encodeURIComponent(op.id)}`} aria-current=${op.id === selected?.id ? 'true' : undefined}><span class=${`method ${op.method.toLowerCase()}`}>${op.method}</span> ${op.path}</a></li>`)}</ul>
          </details>`,
        )}
      </div>
      <div class="pane detail-pane">${selected ? html`<${Operation} op=${selected} session=${session} org=${org} key=${selected.id} />` : html`<p class="hint">${ops ? `${ops.length} operations. Choose one.` : 'Loading…'}</p>`}</div>
    </section>
  `;
}

function FieldTable({ fields, label }: { fields: FieldDoc[]; label: string }) {
  if (fields.length === 0) return html`<p class="hint">none</p>`;
  return html`<table class="fields" aria-label=${label}>
    <thead><tr><th>name</th><th>type</th><th>limits, enum, default</th><th>semantics</th><th>provenance</th></tr></thead>
    <tbody>${fields.map(
      (f) => html`<tr>
        <td><code>${f.name}</code>${f.in !== 'body' ? html` <span class="in">${f.in}</span>` : null}${f.required ? html` <${Badge} tone="warn">required<//>` : null}${f.description ? html`<div class="desc"><${DescriptionText} text=${f.description} /></div>` : null}</td>
        <td>${f.type}</td>
        <td>${f.limits.map((l) => html`<div>${l}</div>`)}${f.enum ? html`<div>one of ${f.enum.map((v) => html`<code class="enum">${JSON.stringify(v)}</code> `)}</div>` : null}${f.hasDefault ? html`<div>default <code>${JSON.stringify(f.default)}</code></div>` : null}</td>
        <td>${f.semantics.map((s) => html`<div>${s}</div>`)}</td>
        <td><${ProvenanceBadge} provenance=${f.provenance} /></td>
      </tr>`,
    )}</tbody></table>`;
}

function Operation({ op, session, org }: { op: OperationDoc; session: SessionInfo; org: OrganizationInfo }) {
  return html`<article aria-label=${`Operation ${op.id}`}>
    <h2><span class=${`method ${op.method.toLowerCase()}`}>${op.method}</span> <code>${op.path}</code></h2>
    <p class="meta"><code>${op.id}</code> · ${op.family} <${ProvenanceBadge} provenance=${op.provenance} />${op.deprecated ? html` <${Badge} tone="bad">deprecated<//>` : null}</p>
    ${op.summary ? html`<p>${op.summary}</p>` : null}
    ${op.description ? html`<p class="desc"><${DescriptionText} text=${op.description} /></p>` : null}
    <p>Permissions: ${op.permissions.length > 0 ? op.permissions.map((p) => html`<code>${p}</code> `) : 'any valid key'} · success ${op.success} · errors ${op.errors.join(', ')}</p>
    ${op.semantics.length > 0 ? html`<h3>Semantics</h3><ul class="semantics">${op.semantics.map((s) => html`<li>${s}</li>`)}</ul>` : null}
    <h3>Parameters</h3><${FieldTable} fields=${op.params} label="Parameters" />
    ${op.body ? html`<h3>Body fields</h3><${FieldTable} fields=${op.body} label="Body fields" />` : null}
    <${TryIt} op=${op} session=${session} org=${org} />
  </article>`;
}

function exampleBody(op: OperationDoc): string {
  const body: Record<string, unknown> = {};
  for (const f of op.body ?? []) if (f.required && !f.readOnly) body[f.name] = f.hasDefault ? f.default : f.enum ? f.enum[0] : f.type === 'string' ? '' : f.type.startsWith('array') ? [] : f.type === 'object' ? {} : null;
  return JSON.stringify(body, null, 2);
}

function TryIt({ op, session, org }: { op: OperationDoc; session: SessionInfo; org: OrganizationInfo }) {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const [values, setValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState(op.body ? exampleBody(op) : '');
  const [key, setKey] = useState('');
  const [workspace, setWorkspace] = useState('');
  const [answer, setAnswer] = useState<{ status: number; body: unknown } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const set = (name: string) => (e: Event) => setValues({ ...values, [name]: (e.target as HTMLInputElement).value });
  const send = (e: Event) => {
    e.preventDefault();
    let path = op.path;
    for (const p of pathParams) path = path.replace(`{${p.name}}`, encodeURIComponent(values[`path:${p.name}`] ?? ''));
    const query = new URLSearchParams();
    for (const p of queryParams) if (values[`query:${p.name}`]) query.set(p.name, values[`query:${p.name}`]!);
    const qs = query.toString();
    setError(null);
    postJson<{ status: number; body: unknown }>('try', { method: op.method, path: qs ? `${path}?${qs}` : path, body: op.body && body.trim() !== '' ? body : null, workspace_id: workspace, api_key: key })
      .then(setAnswer)
      .catch(setError);
  };
  return html`<form class="try" onSubmit=${send} aria-label="Try it">
    <h3>Try it against this sandbox</h3>
    ${session.role === 'admin' ? html`<label class="block">API key (the admin token is not an API key) <input type="password" name="api_key" autocomplete="off" value=${key} onInput=${(e: Event) => setKey((e.target as HTMLInputElement).value)} /></label>` : html`<p class="hint">Sent with your API key.</p>`}
    ${[...pathParams, ...queryParams].map((p) => html`<label class="block">${p.name} <span class="in">${p.in}</span> <input name=${`${p.in}:${p.name}`} value=${values[`${p.in}:${p.name}`] ?? ''} onInput=${set(`${p.in}:${p.name}`)} /></label>`)}
    ${session.workspace_header ? html`<label class="block">${session.workspace_header} <select name="workspace" value=${workspace} onChange=${(e: Event) => setWorkspace((e.target as HTMLSelectElement).value)}>
      <option value="">(none: the default workspace)</option>${org.workspaces.map((w) => html`<option value=${w.id}>${w.display_name ?? w.id}</option>`)}</select></label>` : null}
    ${op.body ? html`<label class="block">Body (JSON) <textarea name="body" rows="8" value=${body} onInput=${(e: Event) => setBody((e.target as HTMLTextAreaElement).value)}></textarea></label>` : null}
    <button type="submit">Send ${op.method} request</button>
    <${ErrorBox} error=${error} />
    ${answer ? html`<div class="answer" role="status"><p>Status <strong>${answer.status}</strong></p><${JsonView} value=${answer.body} label="Answer" /></div>` : null}
  </form>`;
}
