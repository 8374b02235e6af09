// The inspector's shell: who is looking, which organization, five views (state, runs, events, baselines, API
// reference) chosen by the address's hash, so every view has a link and the back button works.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson } from './api.js';
import { ErrorBox } from './components.js';
import { BaselinesView } from './baselines-view.js';
import { EventsView } from './events-view.js';
import { ReferenceView } from './reference-view.js';
import { RunsView } from './runs-view.js';
import { StateView } from './state-view.js';
import type { OrganizationInfo, SessionInfo } from './types.js';

const VIEWS = [
  { id: 'state', label: 'State' },
  { id: 'runs', label: 'Runs' },
  { id: 'events', label: 'Events' },
  { id: 'baselines', label: 'Baselines' },
  { id: 'reference', label: 'API reference' },
] as const;

function useHash(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const [parts, setParts] = useState(read);
  useEffect(() => {
    const on = () => setParts(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return parts;
}

export function App() {
  const [session, setSession] = useState<SessionInfo | null>(null);
  const [orgs, setOrgs] = useState<OrganizationInfo[]>([]);
  const [org, setOrg] = useState<string>('');
  const [error, setError] = useState<unknown>(null);
  const parts = useHash();
  const view = VIEWS.some((v) => v.id === parts[0]) ? parts[0]! : 'state';

  useEffect(() => {
    Promise.all([getJson<SessionInfo>('session'), getJson<{ organizations: OrganizationInfo[] }>('organizations')])
      .then(([s, o]) => {
        setSession(s);
        setOrgs(o.organizations);
        setOrg(s.organization_id ?? o.organizations[0]?.id ?? '');
      })
      .catch(setError);
  }, []);

  const current = orgs.find((o) => o.id === org) ?? null;
  return html`
    <header class="top">
      <h1>Sandbox inspector</h1>
      <nav aria-label="Views">
        ${VIEWS.map((v) => html`<a href=${`#/${v.id}`} class=${view === v.id ? 'tab active' : 'tab'} aria-current=${view === v.id ? 'page' : undefined}>${v.label}</a>`)}
      </nav>
      <div class="who">
        ${session ? html`<span class="role">${session.role === 'admin' ? 'admin: every organization' : `API key of ${session.organization_id}`}</span>` : null}
        ${orgs.length > 1
          ? html`<label>Organization <select value=${org} onChange=${(e: Event) => setOrg((e.target as HTMLSelectElement).value)}>
              ${orgs.map((o) => html`<option value=${o.id}>${o.display_name} (${o.id})</option>`)}
            </select></label>`
          : current
            ? html`<span class="org">${current.display_name} (${current.id})</span>`
            : null}
      </div>
    </header>
    <${ErrorBox} error=${error} />
    ${session && current
      ? html`<main class="view">
          ${view === 'state' ? html`<${StateView} session=${session} org=${current} route=${parts.slice(1)} />` : null}
          ${view === 'runs' ? html`<${RunsView} org=${current} route=${parts.slice(1)} />` : null}
          ${view === 'events' ? html`<${EventsView} org=${current} route=${parts.slice(1)} />` : null}
          ${view === 'baselines' ? html`<${BaselinesView} org=${current} route=${parts.slice(1)} />` : null}
          ${view === 'reference' ? html`<${ReferenceView} session=${session} org=${current} route=${parts.slice(1)} />` : null}
        </main>`
      : null}
  `;
}
