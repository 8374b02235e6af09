// Template variables of a chat agent's connection (facts 2.16: `{{sessionId}}`, `{{simulation_output_id}}`,
// `{{init_response.<path>}}`; seed Persona: `{{persona.key}}` in the initialization payload). Our syntax decision
// (docs/sandbox.md "Runs at work"): `{{ name }}` (spaces allowed inside the braces) substituted into the template's
// text; in a JSON template a string value goes in JSON-escaped without quotes (write `"{{x}}"`), any other value as
// its JSON encoding (write `{{messages}}` bare); in a header value every value goes in as plain text. An unknown
// name is left as written, so a literal `{{...}}` an agent expects still reaches it.
import type { Json } from '../storage/store.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** The value a dotted path names (`a.b.0.c`), or undefined. */
export function atPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (part === '') continue;
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = (current as Json)[part];
  }
  return current;
}

/** Looks a variable up: plain names, then `init_response.<path>` and `persona.<key>` into their objects. */
export type Variables = Record<string, unknown>;

function lookup(vars: Variables, name: string): unknown {
  if (Object.prototype.hasOwnProperty.call(vars, name)) return vars[name];
  const dot = name.indexOf('.');
  if (dot <= 0) return undefined;
  const head = name.slice(0, dot);
  if (!Object.prototype.hasOwnProperty.call(vars, head)) return undefined;
  return atPath(vars[head], name.slice(dot + 1));
}

/** Substitutes into JSON text: strings JSON-escaped (no quotes), other values JSON-encoded. */
export function fillJsonText(template: string, vars: Variables): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = lookup(vars, name);
    if (value === undefined) return whole;
    if (typeof value === 'string') return JSON.stringify(value).slice(1, -1);
    return JSON.stringify(value);
  });
}

/** Substitutes into plain text (a header value): every value as text, objects as their JSON. */
export function fillText(template: string, vars: Variables): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = lookup(vars, name);
    if (value === undefined) return whole;
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** A JSON template (a JSON text, or a JSON value written as an object) filled and parsed; throws on bad JSON. */
export function fillJson(template: unknown, vars: Variables): unknown {
  const text = typeof template === 'string' ? template : JSON.stringify(template);
  return JSON.parse(fillJsonText(text, vars));
}
