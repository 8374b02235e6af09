// How the page words counts, shows numbers and renders descriptions: "1 record", numbers rounded for reading (the
// JSON views keep the full value), and `backticked` words in descriptions shown as code.
import { html } from 'htm/preact';
import type { ComponentChildren } from 'preact';

/** `1 record`, `2 records`, `1 family`, `0 families`. */
export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * A number for reading: integers as they are, others to at most 4 significant decimals (`4.6667`, `0.0001235`);
 * anything else as text. The full value stays in the record's JSON view and in the title of the shown value.
 */
export function displayNumber(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  const magnitude = Math.abs(value);
  const decimals = magnitude >= 1 ? 4 : Math.min(12, 3 - Math.floor(Math.log10(magnitude)));
  return String(Number(value.toFixed(decimals)));
}

/** A value shown rounded, with the exact value on hover. */
export function NumberText({ value }: { value: unknown }) {
  const shown = displayNumber(value);
  return shown === String(value) ? html`${shown}` : html`<span title=${String(value)}>${shown}</span>`;
}

/** Description text with each `backticked` span shown as code; always text nodes, never parsed HTML. */
export function DescriptionText({ text }: { text: string }): ComponentChildren {
  const parts = text.split(/(`[^`\n]+`)/);
  return parts.map((part, i) => (i % 2 === 1 ? html`<code>${part.slice(1, -1)}</code>` : part));
}
