// Small shared pieces: JSON shown as text, badges, errors, times. Everything is rendered through Preact, which
// writes text nodes: a value such as `<script>` is shown as those characters, never parsed as HTML.
import { html } from 'htm/preact';
import type { ComponentChildren } from 'preact';
import type { Provenance } from './types.js';

export function JsonView({ value, label }: { value: unknown; label?: string }) {
  return html`<pre class="json" tabindex="0" aria-label=${label ?? 'JSON'}>${JSON.stringify(value, null, 2)}</pre>`;
}

export function Badge({ tone, children, title }: { tone?: string; children: ComponentChildren; title?: string }) {
  return html`<span class=${`badge ${tone ?? ''}`} title=${title}>${children}</span>`;
}

const STATUS_TONES: Record<string, string> = {
  delivered: 'ok',
  COMPLETED: 'ok',
  NORMAL: 'ok',
  NOT_MET: 'muted',
  pending: 'warn',
  retrying: 'warn',
  SUPPRESSED: 'warn',
  failed: 'bad',
  FAILED: 'bad',
  PENDING: 'warn',
  'IN QUEUE': 'warn',
  'IN PROGRESS': 'info',
  CANCELLED: 'muted',
  ANOMALY: 'bad',
  ERROR: 'bad',
  TRIGGERED: 'alert',
};

export function StatusBadge({ status }: { status: string | null }) {
  if (!status) return null;
  return html`<${Badge} tone=${STATUS_TONES[status] ?? 'muted'}>${status}<//>`;
}

/** seed (documented), inferred (from the public facts), assumed (our decision, with the note). */
export function ProvenanceBadge({ provenance }: { provenance: Provenance | null }) {
  if (!provenance) return null;
  const tone = provenance.source === 'seed' ? 'ok' : provenance.source === 'inferred' ? 'info' : 'warn';
  return html`<span class="provenance"><${Badge} tone=${tone} title=${provenance.note ?? ''}>${provenance.source}<//>${provenance.note ? html`<span class="note">${provenance.note}</span>` : null}</span>`;
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  return html`<p class="error" role="alert">${error instanceof Error ? error.message : String(error)}</p>`;
}

export function Time({ iso }: { iso: string }) {
  const d = new Date(iso);
  return html`<time datetime=${iso} title=${iso}>${Number.isNaN(d.getTime()) ? iso : d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</time>`;
}

export function go(hash: string): void {
  if (location.hash !== hash) location.hash = hash;
}
