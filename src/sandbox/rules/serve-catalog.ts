// serve-catalog: GET /openapi lists the served documents with their URLs; GET /openapi/{spec_name} answers
// one as YAML (application/yaml) or, on `Accept: application/json`, JSON. No key is needed (security: []).
import { stringify } from 'yaml';
import { notFound } from '../errors.js';
import type { Rule } from '../engine/hooks.js';

/**
 * A served document's YAML text, made once per document object (the documents never change while a sandbox
 * runs): stringifying the spec cost 12-16 ms on every GET in the hour-long soak (issue 29).
 */
const texts = { yaml: new WeakMap<object, string>(), json: new WeakMap<object, string>() };
function textOf(document: object, form: 'yaml' | 'json'): string {
  let text = texts[form].get(document);
  if (text === undefined) {
    // The JSON text is what the engine would write for the object (http/respond.ts: JSON.stringify).
    text = form === 'json' ? JSON.stringify(document) : stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
    texts[form].set(document, text);
  }
  return text;
}

function origin(ctx: Parameters<NonNullable<Rule['handle']>>[0]): string {
  return `${ctx.origin}${ctx.runtime.tables.basePath}`;
}

export const serveCatalog: Rule = {
  handle(ctx) {
    const docs = ctx.runtime.tables.documents;
    const param = ctx.route.params.path[0]?.name;
    if (param === undefined) {
      return { body: { specs: docs.map((d) => ({ name: d.name, url: `${origin(ctx)}/openapi/${encodeURIComponent(d.name)}` })) } };
    }
    const doc = docs.find((d) => d.name === ctx.path[param]);
    if (!doc) throw notFound(param, 'spec');
    const accept = ctx.requestHeaders.get('accept') ?? '';
    if (/application\/json/i.test(accept)) return { body: textOf(doc.document as object, 'json'), contentType: 'application/json' };
    return { body: textOf(doc.document as object, 'yaml'), contentType: 'application/yaml' };
  },
};
