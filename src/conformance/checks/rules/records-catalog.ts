// The served specification documents (serve-catalog): GET /openapi lists each spec_name with its URL; GET
// /openapi/{spec_name} answers YAML (application/yaml) by default and JSON on `Accept: application/json`
// (seed "What the service does", public specification endpoints).
import { parse } from 'yaml';
import { send, type Answer } from '../../http.js';
import { fail } from '../../result.js';
import type { Check, CheckContext } from '../context.js';
import { itemsOf, operationWithRule, routeOf, same, show, succeed, type Json } from './records-support.js';

async function specNames(ctx: CheckContext): Promise<Json[]> {
  const list = routeOf(ctx, 'spec', 'list');
  const specs = itemsOf(list, (await succeed(ctx, list, { key: null }, 'listing the specs')).body);
  if (specs.length === 0) fail('GET /openapi lists no spec');
  return specs;
}

function mediaType(answer: Answer): string {
  return (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

export const catalogUrls: Check = {
  name: 'rule serve-catalog: each listed spec has an absolute URL of GET /openapi/{spec_name} that serves it',
  applies: operationWithRule('spec', 'list', 'serve-catalog'),
  async run(ctx) {
    const get = routeOf(ctx, 'spec', 'get');
    const param = get.params.path[0]!.name;
    for (const spec of await specNames(ctx)) {
      const name = String(spec.name);
      let url: URL;
      try {
        url = new URL(String(spec.url));
      } catch {
        fail(`spec ${name}: url ${show(spec.url)} is not an absolute URL`);
      }
      // Seed: GET /openapi lists the available spec_name values and their URLs.
      if (!url.pathname.endsWith(`/openapi/${encodeURIComponent(name)}`)) fail(`spec ${name}: url ${url.href} is not the URL of GET /openapi/${name}`);
      // JSON keeps this quick (no YAML rendering); the formats are the getSpec check's concern.
      await succeed(ctx, get, { path: { [param]: name }, key: null, headers: { accept: 'application/json' } }, `getting the listed spec ${name}`);
    }
  },
};

export const specFormats: Check = {
  name: 'rule serve-catalog: a spec is YAML (application/yaml) by default and the same document as JSON on Accept: application/json',
  applies: operationWithRule('spec', 'get', 'serve-catalog'),
  async run(ctx) {
    const [first] = await specNames(ctx);
    const path = { [ctx.route.params.path[0]!.name]: String(first!.name) };
    const yamlAnswer = await succeed(ctx, ctx.route, { path, key: null }, 'getting a spec without Accept');
    // Seed: YAML (application/yaml) by default.
    if (mediaType(yamlAnswer) !== 'application/yaml') fail(`without Accept the spec came as ${show(yamlAnswer.headers.get('content-type'))}, expected application/yaml`);
    const document = parse(yamlAnswer.text) as Json;
    if (typeof document?.openapi !== 'string') fail(`the YAML answer is not an OpenAPI document: ${yamlAnswer.text.slice(0, 120)}`);
    // Seed: JSON when the request header Accept: application/json is sent. Media types compare
    // case-insensitively (RFC 9110 section 8.3.1), so a mixed-case header asks for JSON too.
    for (const accept of ['application/json', 'Application/JSON']) {
      const jsonAnswer = await send(ctx.target, ctx.route, { path, key: null, headers: { accept } });
      if (jsonAnswer.status !== ctx.route.success.status || mediaType(jsonAnswer) !== 'application/json') fail(`with Accept: ${accept} the spec came as ${jsonAnswer.status} ${show(jsonAnswer.headers.get('content-type'))}, expected application/json`);
      if (!same(jsonAnswer.body, document)) fail(`with Accept: ${accept} the JSON document differs from the YAML one`);
    }
    const explicit = await send(ctx.target, ctx.route, { path, key: null, headers: { accept: 'application/yaml' } });
    if (mediaType(explicit) !== 'application/yaml') fail(`with Accept: application/yaml the spec came as ${show(explicit.headers.get('content-type'))}`);
  },
};

export const checks: Check[] = [catalogUrls, specFormats];
