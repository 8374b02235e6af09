// The protocol of a request, checked generically on every operation it concerns: routing (an unknown path or
// method is 404, ids are percent-decoded), the body's media type and encoding (docs/sandbox.md "Protocol"), and
// validation that reports every violation at once, each on its field, in the seed's error envelope.
import { refusesNullBody, takesJsonBody } from '../body-types.js';
import { detailFields, expectEnvelope, expectError, expectStatus, fillPath, isJsonMediaType, sendExact, type Answer } from '../http.js';
import { fail, lacks, skip } from '../result.js';
import type { Route, SuiteData } from '../suite-data.js';
import { bodyProperties, deref, ownParam, recordOf, resourceForParam } from '../world.js';
import type { Check } from './context.js';
import { prepare, requiredParams, validBody } from './happy.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Whether some operation serves `method` on a path of this shape (parameters match anything). */
function served(suite: SuiteData, method: string, segments: string[]): boolean {
  return suite.routes.some((r) => {
    if (r.method !== method) return false;
    const own = r.path.split('/').filter((s) => s !== '');
    return own.length === segments.length && own.every((s, i) => s.startsWith('{') || s === segments[i]);
  });
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** An answer's detail fields, for a failure message. */
function fieldsOf(answer: Answer): string {
  return JSON.stringify(detailFields(answer));
}

/** A detail names `field` (a header in any case; a body field or a path below it). */
function names(answer: Answer, field: string): boolean {
  return detailFields(answer).some((f) => f !== null && (f === field || f.toLowerCase() === field.toLowerCase() || f.startsWith(`${field}.`) || f.startsWith(`${field}[`)));
}

// docs/sandbox.md "Protocol": "An unknown path or method is 404 NOT_FOUND (the seed's code table has no 405)".
export const unknownRoute: Check = {
  name: 'protocol: an unknown path or an unserved method is 404 NOT_FOUND in the error envelope',
  needs: 'a top-level list operation that needs a credential',
  applies: (route) => route.action === 'list' && route.params.path.length === 0 && route.auth.length > 0,
  async run(ctx) {
    const base = splitPath(ctx.route.path);
    const deeper = [...base, 'ZZZZZZZZZZZZZZZZZZZZZZ', 'no-such-action', 'no-such-part', 'no-such-leaf', 'no-such-end'];
    const unknownPaths = [`/no-such-collection-${ctx.world.nextSeed()}`, `/${deeper.join('/')}`];
    for (const rawPath of unknownPaths) {
      if (served(ctx.suite, 'GET', splitPath(rawPath))) continue;
      const answer = await sendExact(ctx.target, ctx.route, { method: 'GET', rawPath });
      expectError(answer, 404, 'NOT_FOUND', undefined, `GET ${rawPath}`);
      expectEnvelope(answer, `GET ${rawPath}`);
    }
    const unserved = METHODS.filter((m) => !served(ctx.suite, m, base));
    if (unserved.length === 0) lacks(`every method is served on ${ctx.route.path}`);
    for (const method of unserved) {
      const answer = await sendExact(ctx.target, ctx.route, { method, ...(method === 'GET' ? {} : { body: '{}', headers: { 'content-type': 'application/json' } }) });
      expectError(answer, 404, 'NOT_FOUND', undefined, `${method} ${ctx.route.path}`);
      expectEnvelope(answer, `${method} ${ctx.route.path}`);
    }
  },
};

function percentEncodeAll(value: string): string {
  return [...new TextEncoder().encode(value)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

// RFC 3986 section 2.1: a percent-encoded octet is the octet, so an id sent fully encoded names the same
// record; a `%` not followed by a valid UTF-8 sequence is a bad parameter (seed "Errors": 400 INVALID_ARGUMENT,
// "detail field names the offender").
export const percentEncodedIds: Check = {
  name: 'protocol: a percent-encoded id names the same record; a segment that is not valid percent-encoding is 400 on its parameter',
  needs: 'a get operation of a resource that needs a credential',
  applies: (route) => route.action === 'get' && route.auth.length > 0 && route.params.path.length > 0 && route.resource !== null,
  async run(ctx) {
    const own = ownParam(ctx.route)!;
    const { path } = await ctx.world.pathFor(ctx.route);
    const { query, headers } = requiredParams(ctx);
    const encoded = ctx.route.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === own ? percentEncodeAll(path[name]!) : encodeURIComponent(path[name]!)));
    const q = Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
    const answer = await sendExact(ctx.target, ctx.route, { rawPath: `${encoded}${q}`, headers });
    expectStatus(answer, ctx.route.success.status, `GET ${encoded}`);
    const resource = ctx.world.resource(ctx.route.resource!);
    const record = recordOf(ctx.route, answer);
    // An integer id (issue 27) is answered as a number and sent as its text.
    if (record && String(record[resource.id]) !== path[own]) fail(`the fully percent-encoded ${own} answered ${resource.id} ${JSON.stringify(record[resource.id])}, expected ${path[own]}`);
    const broken = ctx.route.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === own ? '%E0%A4%A' : encodeURIComponent(path[name]!)));
    const bad = await sendExact(ctx.target, ctx.route, { rawPath: `${broken}${q}`, headers });
    expectError(bad, 400, 'INVALID_ARGUMENT', own, `GET ${broken}`);
    expectEnvelope(bad, `GET ${broken}`);
  },
};

/** Body routes whose request can be repeated with the same outcome: not an attach that refuses a second one. */
function repeatable(route: Route): boolean {
  return (route.body?.exactlyOneOf ?? []).length === 0;
}

// docs/sandbox.md "Protocol": "A body must be application/json (or +json): otherwise 400 on Content-Type."
// Media types compare case-insensitively and may carry parameters (RFC 9110 section 8.3.1).
export const bodyMediaType: Check = {
  name: 'protocol: a body needs a JSON Content-Type (any case, with parameters, or +json); any other or none is 400 on Content-Type',
  needs: 'an operation with a JSON body that needs a credential',
  applies: (route) => route.body !== null && route.auth.length > 0 && route.body.media.some((m) => isJsonMediaType(m)),
  async run(ctx) {
    const spec = await prepare(ctx);
    const text = JSON.stringify(spec.body ?? {});
    // `text/x-application/json` ends like JSON but is another type altogether.
    // An operation that also takes a form reads a form's text as one (its fields then judged by the schema).
    const refused: (string | undefined)[] = ['text/plain', ...(ctx.route.body?.form === undefined ? ['application/x-www-form-urlencoded'] : []), 'application/jsonx', 'application/xml', 'text/x-application/json', undefined];
    for (const type of refused) {
      // Without a Content-Type the body goes as bytes: for a string body fetch would add text/plain itself.
      const answer = await sendExact(ctx.target, ctx.route, { path: spec.path ?? {}, query: spec.query ?? {}, headers: { ...spec.headers, ...(type === undefined ? {} : { 'content-type': type }) }, body: type === undefined ? new TextEncoder().encode(text) : text });
      const what = type === undefined ? 'a JSON body without Content-Type' : `a JSON body sent as ${type}`;
      expectError(answer, 400, 'INVALID_ARGUMENT', 'Content-Type', what);
      expectEnvelope(answer, what);
    }
    if (ctx.route.action !== 'create' || !repeatable(ctx.route)) return;
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/vnd.conformance+json']) {
      const fresh = await prepare(ctx);
      const answer = await sendExact(ctx.target, ctx.route, { path: fresh.path ?? {}, query: fresh.query ?? {}, headers: { ...fresh.headers, 'content-type': type }, body: JSON.stringify(fresh.body ?? {}) });
      expectStatus(answer, ctx.route.success.status, `a valid body sent as ${type}`);
    }
  },
};

function noField(answer: Answer, what: string): void {
  const fields = detailFields(answer).filter((f) => f !== null && f !== '');
  if (fields.length > 0) fail(`${what}: expected details without a field (the body as a whole), got fields ${JSON.stringify(fields)}`);
}

// docs/sandbox.md "Protocol": "Malformed JSON, invalid UTF-8, or a body over 280 MB ... is 400 with field null.
// A required body that is missing is 400."
export const bodyEncoding: Check = {
  name: 'protocol: a missing required body, a null body, malformed JSON and bytes that are not UTF-8 are 400 on the body as a whole',
  needs: 'an operation with a required JSON body that needs a credential',
  applies: (route) => takesJsonBody(route) && route.body!.required && route.auth.length > 0,
  async run(ctx) {
    const spec = await prepare(ctx);
    const base = { path: spec.path ?? {}, query: spec.query ?? {} };
    const json = { ...spec.headers, 'content-type': 'application/json' };
    const missing = await sendExact(ctx.target, ctx.route, { ...base, headers: json });
    expectError(missing, 400, 'INVALID_ARGUMENT', undefined, 'no body');
    expectEnvelope(missing, 'no body');
    // No body at all, so no Content-Type either: what is missing is the body, not its media type.
    const bare = await sendExact(ctx.target, ctx.route, { ...base, headers: { ...spec.headers } });
    expectError(bare, 400, 'INVALID_ARGUMENT', undefined, 'no body and no Content-Type');
    expectEnvelope(bare, 'no body and no Content-Type');
    noField(bare, 'no body and no Content-Type');
    const malformed = await sendExact(ctx.target, ctx.route, { ...base, headers: json, body: '{"a": [1, 2' });
    expectError(malformed, 400, 'INVALID_ARGUMENT', undefined, 'malformed JSON');
    expectEnvelope(malformed, 'malformed JSON');
    noField(malformed, 'malformed JSON');
    // JSON that is not an object where the schema wants one: a violation of the body schema (seed "Errors").
    if (refusesNullBody(ctx.route, ctx.suite.schemas, ctx.suite.defs)) {
      expectError(await sendExact(ctx.target, ctx.route, { ...base, headers: json, body: 'null' }), 400, 'INVALID_ARGUMENT', undefined, 'a JSON null body');
    }
    // `{"x": "<0xFF>"}`: well-formed JSON around a byte that is never UTF-8.
    const bytes = new Uint8Array([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    const latin = await sendExact(ctx.target, ctx.route, { ...base, headers: json, body: bytes });
    expectError(latin, 400, 'INVALID_ARGUMENT', undefined, 'a body that is not UTF-8');
    expectEnvelope(latin, 'a body that is not UTF-8');
    noField(latin, 'a body that is not UTF-8');
  },
};

// docs/sandbox.md "Protocol" (the sandbox's choice): "a body over 280 MB ... is 400 with field null". Sending
// 280 MB is not practical; a declared length over the limit must be refused before the body is read.
export const declaredBodySize: Check = {
  name: 'protocol: a body declared larger than 280 MB is 400 on the body as a whole',
  needs: 'a repeatable create operation with a body',
  applies: (route) => takesJsonBody(route) && route.auth.length > 0 && route.action === 'create' && repeatable(route),
  async run(ctx) {
    const spec = await prepare(ctx);
    let answer: Answer;
    try {
      answer = await sendExact(ctx.target, ctx.route, { path: spec.path ?? {}, query: spec.query ?? {}, headers: { ...spec.headers, 'content-type': 'application/json', 'content-length': String(281 * 1024 * 1024) }, body: JSON.stringify(spec.body ?? {}) });
    } catch (error) {
      skip(`the HTTP client refuses to send a Content-Length that does not match the body: ${(error as Error).message}`);
    }
    expectError(answer, 400, 'INVALID_ARGUMENT', undefined, 'a declared Content-Length of 281 MiB');
    expectEnvelope(answer, 'a declared Content-Length of 281 MiB');
    noField(answer, 'a declared Content-Length of 281 MiB');
  },
};

/** A value whose JSON type the property's schema does not allow, or undefined when its types are unknown. */
function wrongType(schema: Record<string, unknown>): unknown {
  const declared = schema.type;
  if (declared === undefined || schema.oneOf !== undefined || schema.anyOf !== undefined) return undefined;
  const types = new Set(Array.isArray(declared) ? (declared as string[]) : [declared as string]);
  const candidates: [string, unknown][] = [
    ['string', 'wrong-type'],
    ['integer', 12345],
    ['boolean', true],
    ['array', ['wrong-type']],
    ['object', { wrong: 'type' }],
  ];
  const allows = (t: string): boolean => types.has(t) || (t === 'integer' && types.has('number'));
  return candidates.find(([t]) => !allows(t))?.[1];
}

/** A path value that breaks the parameter's schema: too long, too short or off-pattern. */
function badPathValue(schema: Record<string, unknown>): string | undefined {
  if (typeof schema.maxLength === 'number') return 'a'.repeat(schema.maxLength + 1);
  if (typeof schema.pattern === 'string') for (const c of ['!', 'a b', '~~~']) if (!new RegExp(schema.pattern, 'u').test(c)) return c;
  return undefined;
}

// docs/sandbox.md "Protocol": "400 (every violation of path, query, headers and body at once)"; seed "Errors":
// "detail field names the offender". Validation comes before any lookup, so the path needs no real record.
export const everyViolation: Check = {
  name: 'protocol: every violation of path, headers and body is reported in one 400, each on its field',
  needs: 'an operation with a JSON body that needs a credential',
  applies: (route) => route.body !== null && route.auth.length > 0 && route.body.media.some((m) => isJsonMediaType(m)),
  async run(ctx) {
    const schemas = ctx.suite.schemas[ctx.route.id]!;
    const expected: string[] = [];
    const path: Record<string, string> = {};
    for (const p of ctx.route.params.path) {
      const bad = badPathValue(deref(schemas.path[p.name], ctx.suite.defs));
      path[p.name] = bad ?? 'A'.repeat(22);
      if (bad !== undefined) expected.push(p.name);
    }
    const { query, headers } = requiredParams(ctx);
    for (const p of ctx.route.params.header) {
      const schema = deref(schemas.header[p.name], ctx.suite.defs);
      if (typeof schema.maxLength === 'number') {
        headers[p.name] = 'a'.repeat(schema.maxLength + 1);
        expected.push(p.name);
      }
    }
    const body = { ...((await validBody(ctx.world, ctx.route)) ?? {}) };
    const props = bodyProperties(ctx.suite, ctx.route).properties;
    const bodyFields: string[] = [];
    for (const [name, node] of Object.entries(props)) {
      if (bodyFields.length === 2) break;
      const value = wrongType(deref(node, ctx.suite.defs));
      if (value === undefined) continue;
      body[name] = value;
      bodyFields.push(name);
    }
    expected.push(...bodyFields);
    if (expected.length < 2) lacks('fewer than two independent violations can be built for this operation');
    const answer = await sendExact(ctx.target, ctx.route, { path, query, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expectError(answer, 400, 'INVALID_ARGUMENT', undefined, `violations of ${expected.join(', ')}`);
    expectEnvelope(answer, `violations of ${expected.join(', ')}`);
    const missing = expected.filter((f) => !names(answer, f));
    if (missing.length > 0) fail(`one request breaking ${expected.join(', ')}: no detail on ${missing.join(', ')} (details on ${fieldsOf(answer)})`);
  },
};

// Seed "What the service does": GET /openapi/{spec_name} answers "YAML (application/yaml) by default; JSON when
// the request header Accept: application/json is sent".
export const specMediaTypes: Check = {
  name: 'protocol: a served specification is application/yaml by default and JSON when asked for',
  needs: 'a served specification operation (the spec resource)',
  applies: (route) => route.resource === 'spec' && route.action === 'get',
  async run(ctx) {
    const { path } = await ctx.world.pathFor(ctx.route);
    const name = path[ctx.route.params.path[0]!.name] ?? lacks('no spec name to ask for');
    const rawPath = fillPath(ctx.route, { ...path, [ctx.route.params.path[0]!.name]: name });
    const yaml = await sendExact(ctx.target, ctx.route, { rawPath });
    expectStatus(yaml, ctx.route.success.status, `GET ${rawPath}`);
    if (!/^application\/yaml\s*(;|$)/i.test(yaml.headers.get('content-type') ?? '')) fail(`GET ${rawPath} without Accept answered Content-Type ${yaml.headers.get('content-type')}, expected application/yaml`);
    const json = await sendExact(ctx.target, ctx.route, { rawPath, headers: { accept: 'application/json' } });
    expectStatus(json, ctx.route.success.status, `GET ${rawPath} with Accept: application/json`);
    if (!isJsonMediaType(json.headers.get('content-type')) || json.body === undefined) fail(`with Accept: application/json the answer was ${json.headers.get('content-type')}: ${json.text.slice(0, 80)}`);
  },
};

/** Wire forms of a query parameter that its declared type reads as valid, and ones that it does not. */
function queryForms(route: Route, param: Route['params']['query'][number]): { valid: string[]; invalid: string[] } {
  const accepts = (value: unknown): boolean => route.validators.query?.validate({ [param.name]: value }).ok !== false;
  const valid: string[] = [];
  const invalid: string[] = [];
  const numeric = param.type === 'number' || param.type === 'integer';
  if (param.array && numeric) {
    // JSON number syntax: decimals and exponents (2.25, 1e+1, 1.5E0, 175e-02) are numbers too.
    const items: [number, string][] = param.type === 'number' ? [[1, '1'], [2.25, '2.25'], [10, '1e+1'], [1.5, '1.5E0'], [1.75, '175e-02']] : [[1, '1'], [10, '1e1']];
    if (accepts(items.map(([v]) => v))) valid.push(items.map(([, w]) => w).join(','));
    invalid.push('1,abc');
  } else if (param.array) {
    if (accepts(['alpha', 'beta'])) valid.push('alpha,beta');
  } else if (param.type === 'boolean') {
    valid.push(...['true', 'false'].filter((v) => accepts(v === 'true')));
    invalid.push('yes');
  } else if (param.type === 'number') {
    if (accepts(2.25)) valid.push('2.25');
    invalid.push('abc');
  } else if (param.type === 'string' && param.name !== route.pagination?.pageToken && !['order_by', 'filter'].includes(param.name) && route.rules.length === 0) {
    // Text that looks like another type stays text (where no rule module reads the text further; order_by names
    // a field and filter is an expression, facts section 3, with checks of their own in protocol-list-query).
    valid.push(...['true', '12'].filter((v) => accepts(v)));
  }
  return { valid, invalid };
}

function typedQueryParams(route: Route, suite: SuiteData): Route['params']['query'] {
  return route.params.query.filter((p) => !p.required && !(p.type === 'string' && !p.array && resourceForParam(suite, p.name) !== undefined) && queryForms(route, p).valid.length > 0);
}

// The spec declares each query parameter's JSON type; on the wire every value is text, so `true`/`false` are the
// booleans, `2.25` or `1e+1` a number, a list is comma-separated (OpenAPI style form; seed "Metrics and
// baselines": sigma_levels "comma-separated sigma multipliers (for example 1,2,3)"), and text stays text. A value
// its type cannot read is 400 on the parameter (seed "Errors"); sending a parameter's schema default is the same
// as leaving it out.
export const typedQuery: Check = {
  name: 'protocol: query parameters are read as their declared types (true/false, decimals, exponents, comma-separated lists, text); other text is 400 on the parameter; the default is the same as none',
  needs: 'a GET operation with typed (integer, number or boolean) query parameters',
  applies: (route, suite) => route.method === 'GET' && route.auth.length > 0 && typedQueryParams(route, suite).length > 0,
  async run(ctx) {
    const { path } = await ctx.world.pathFor(ctx.route);
    const { query, headers } = requiredParams(ctx);
    const without = await sendExact(ctx.target, ctx.route, { path, headers, query });
    expectStatus(without, ctx.route.success.status, 'without optional parameters');
    for (const p of typedQueryParams(ctx.route, ctx.suite)) {
      const forms = queryForms(ctx.route, p);
      for (const value of forms.valid) expectStatus(await sendExact(ctx.target, ctx.route, { path, headers, query: { ...query, [p.name]: value } }), ctx.route.success.status, `${p.name}=${value}`);
      for (const value of forms.invalid) {
        const answer = await sendExact(ctx.target, ctx.route, { path, headers, query: { ...query, [p.name]: value } });
        expectError(answer, 400, 'INVALID_ARGUMENT', p.name, `${p.name}=${value}`);
      }
      const fallback = deref(ctx.suite.schemas[ctx.route.id]!.query[p.name], ctx.suite.defs).default;
      if (fallback !== undefined && p.name !== ctx.route.pagination?.pageSize) {
        const wire = Array.isArray(fallback) ? fallback.join(',') : String(fallback);
        const explicit = await sendExact(ctx.target, ctx.route, { path, headers, query: { ...query, [p.name]: wire } });
        if (explicit.text !== without.text) fail(`${p.name}=${wire} (its default) answered differently from leaving it out: ${explicit.text.slice(0, 150)} vs ${without.text.slice(0, 150)}`);
      }
    }
  },
};

export const checks: Check[] = [unknownRoute, percentEncodedIds, bodyMediaType, bodyEncoding, declaredBodySize, everyViolation, typedQuery, specMediaTypes];

