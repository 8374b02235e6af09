// serve-catalog: GET /openapi lists the served documents with their URLs; GET /openapi/{spec_name} answers
// one as YAML (application/yaml) or, on `Accept: application/json`, JSON. No key is needed (security: []).
import { stringify } from 'yaml';
import { notFound } from '../errors.js';
import type { Rule } from '../engine/hooks.js';

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
    // An object body is answered as JSON (application/json) by the engine; only a text body takes contentType.
    if (/application\/json/i.test(accept)) return { body: doc.document };
    return { body: stringify(doc.document, { aliasDuplicateObjects: false, lineWidth: 0 }), contentType: 'application/yaml' };
  },
};
