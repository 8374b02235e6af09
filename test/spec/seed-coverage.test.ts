// Seed coverage: proves that the OpenAPI description in spec/ covers every operation and every field that the
// API documentation (the seed, ../shared/seed/000_4d69e0f27558833f.txt from the repository root) names.
//
// Every expectation below is transcribed BY HAND from the seed; nothing in the tables is computed from the spec.
// The spec is only read to look the expectations up. Resource schemas are found by following the success response
// of an operation that returns them, never by guessing schema names.
//
// Values are checked with a small JSON Schema 2020-12 validator (below) wherever the seed states a limit, so an
// expectation holds whether the spec expresses it with minLength/maxLength, a pattern, an enum, oneOf with null, ...
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import type { HttpMethod, Operation, Parameter, ParameterLocation, SchemaNode } from '../../src/model/index.js';

const model = buildModel(await loadSpecs('spec'), { policy: 'strict' });

// ---------------------------------------------------------------------------------------------------------------
// Schema helpers
// ---------------------------------------------------------------------------------------------------------------

type S = Record<string, any>;

function resolveRef(ref: string): SchemaNode {
  const m = /^#\/\$defs\/(.+)$/.exec(ref);
  if (!m) throw new Error(`unsupported $ref ${ref}`);
  const name = decodeURIComponent(m[1]!);
  const named = model.schemas[name];
  if (!named) throw new Error(`$ref ${ref} names no schema of the model`);
  return named.schema;
}

/** Every schema object reachable from `s` through $ref, allOf, oneOf and anyOf (including `s` itself). */
function reach(s: SchemaNode | undefined, seen = new Set<unknown>()): S[] {
  if (s === undefined || typeof s === 'boolean' || seen.has(s)) return [];
  seen.add(s);
  const n = s as S;
  const out: S[] = [n];
  if (typeof n.$ref === 'string') out.push(...reach(resolveRef(n.$ref), seen));
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
    if (Array.isArray(n[k])) for (const b of n[k] as SchemaNode[]) out.push(...reach(b, seen));
  }
  return out;
}

function prop(s: SchemaNode | undefined, name: string): SchemaNode | undefined {
  for (const b of reach(s)) {
    if (b.properties && typeof b.properties === 'object' && Object.prototype.hasOwnProperty.call(b.properties, name)) return b.properties[name] as SchemaNode;
  }
  return undefined;
}

function itemsOf(s: SchemaNode | undefined): SchemaNode | undefined {
  for (const b of reach(s)) if (b.items !== undefined) return b.items as SchemaNode;
  return undefined;
}

/** Follows a path such as `conditions[].metric_id` or `history[]` through properties and items. */
function at(s: SchemaNode | undefined, path: string, label = 'schema'): SchemaNode {
  let cur: SchemaNode | undefined = s;
  let walked = label;
  expect(cur, `${walked} is missing`).toBeDefined();
  for (const seg of path.split('.').filter(Boolean)) {
    const isArray = seg.endsWith('[]');
    const name = isArray ? seg.slice(0, -2) : seg;
    if (name) {
      cur = prop(cur, name);
      walked += `.${name}`;
      expect(cur, `${walked}: property not declared`).toBeDefined();
    }
    if (isArray) {
      cur = itemsOf(cur);
      walked += '[]';
      expect(cur, `${walked}: no items schema`).toBeDefined();
    }
  }
  return cur!;
}

function isRequired(s: SchemaNode | undefined, name: string): boolean {
  return reach(s).some((b) => Array.isArray(b.required) && b.required.includes(name));
}

function kw(s: SchemaNode | undefined, key: string): unknown {
  for (const b of reach(s)) if (b[key] !== undefined) return b[key];
  return undefined;
}

function types(s: SchemaNode | undefined): Set<string> {
  const out = new Set<string>();
  for (const b of reach(s)) {
    if (Array.isArray(b.type)) for (const t of b.type) out.add(t as string);
    else if (typeof b.type === 'string') out.add(b.type);
  }
  return out;
}

function enumValues(s: SchemaNode | undefined): unknown[] | undefined {
  const found = reach(s).filter((b) => Array.isArray(b.enum));
  if (found.length === 0) return undefined;
  return [...new Set(found.flatMap((b) => b.enum as unknown[]))].filter((v) => v !== null);
}

function typeMatches(t: string, v: unknown): boolean {
  switch (t) {
    case 'null':
      return v === null;
    case 'boolean':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    default:
      return false;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A small JSON Schema 2020-12 validator, enough for the value checks of this file. */
function validate(s: SchemaNode | undefined, v: unknown): boolean {
  if (s === undefined || s === true) return true;
  if (s === false) return false;
  const n = s as S;
  if (typeof n.$ref === 'string' && !validate(resolveRef(n.$ref), v)) return false;
  if (Array.isArray(n.allOf) && !n.allOf.every((b: SchemaNode) => validate(b, v))) return false;
  if (Array.isArray(n.anyOf) && !n.anyOf.some((b: SchemaNode) => validate(b, v))) return false;
  if (Array.isArray(n.oneOf) && n.oneOf.filter((b: SchemaNode) => validate(b, v)).length !== 1) return false;
  if (n.not !== undefined && validate(n.not, v)) return false;
  if (Array.isArray(n.type) && !n.type.some((t: string) => typeMatches(t, v))) return false;
  if (typeof n.type === 'string' && !typeMatches(n.type, v)) return false;
  if (Array.isArray(n.enum) && !n.enum.some((e: unknown) => same(e, v))) return false;
  if ('const' in n && !same(n.const, v)) return false;
  if (typeof v === 'string') {
    const len = [...v].length;
    if (typeof n.minLength === 'number' && len < n.minLength) return false;
    if (typeof n.maxLength === 'number' && len > n.maxLength) return false;
    if (typeof n.pattern === 'string' && !new RegExp(n.pattern, 'u').test(v)) return false;
  }
  if (typeof v === 'number') {
    if (typeof n.minimum === 'number' && v < n.minimum) return false;
    if (typeof n.maximum === 'number' && v > n.maximum) return false;
    if (typeof n.exclusiveMinimum === 'number' && v <= n.exclusiveMinimum) return false;
    if (typeof n.exclusiveMaximum === 'number' && v >= n.exclusiveMaximum) return false;
    if (typeof n.multipleOf === 'number' && Math.abs(v / n.multipleOf - Math.round(v / n.multipleOf)) > 1e-9) return false;
  }
  if (Array.isArray(v)) {
    if (typeof n.minItems === 'number' && v.length < n.minItems) return false;
    if (typeof n.maxItems === 'number' && v.length > n.maxItems) return false;
    if (n.items !== undefined && !v.every((x) => validate(n.items, x))) return false;
    if (n.uniqueItems === true && new Set(v.map((x) => JSON.stringify(x))).size !== v.length) return false;
  }
  if (typeMatches('object', v)) {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (Array.isArray(n.required) && !n.required.every((r: string) => r in o)) return false;
    if (typeof n.minProperties === 'number' && keys.length < n.minProperties) return false;
    if (typeof n.maxProperties === 'number' && keys.length > n.maxProperties) return false;
    const props = (n.properties ?? {}) as Record<string, SchemaNode>;
    const patterns = Object.entries((n.patternProperties ?? {}) as Record<string, SchemaNode>);
    for (const k of keys) {
      if (n.propertyNames !== undefined && !validate(n.propertyNames, k)) return false;
      let matched = false;
      if (Object.prototype.hasOwnProperty.call(props, k)) {
        matched = true;
        if (!validate(props[k], o[k])) return false;
      }
      for (const [p, ps] of patterns) {
        if (new RegExp(p, 'u').test(k)) {
          matched = true;
          if (!validate(ps, o[k])) return false;
        }
      }
      if (!matched && n.additionalProperties !== undefined && !validate(n.additionalProperties, o[k])) return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Operation helpers
// ---------------------------------------------------------------------------------------------------------------

type Method = Uppercase<HttpMethod>;

function findOp(method: Method, path: string): Operation | undefined {
  return model.operations.find((o) => o.method === method.toLowerCase() && o.path === path);
}

function op(method: Method, path: string): Operation {
  const o = findOp(method, path);
  expect(o, `${method} ${path} is not in the spec`).toBeDefined();
  return o!;
}

function jsonOf(content: { mediaType: string; schema: SchemaNode }[]): SchemaNode | undefined {
  return content.find((c) => c.mediaType === 'application/json')?.schema;
}

function response(method: Method, path: string, status: string): SchemaNode {
  const r = op(method, path).responses.find((x) => x.status === status);
  expect(r, `${method} ${path} has no ${status} response`).toBeDefined();
  const s = jsonOf(r!.content);
  expect(s, `${method} ${path} ${status} has no application/json content`).toBeDefined();
  return s!;
}

function body(method: Method, path: string): SchemaNode {
  const rb = op(method, path).requestBody;
  expect(rb, `${method} ${path} has no request body`).toBeDefined();
  const s = jsonOf(rb!.content);
  expect(s, `${method} ${path} request body has no application/json content`).toBeDefined();
  return s!;
}

function param(method: Method, path: string, loc: ParameterLocation, name: string): Parameter {
  const o = op(method, path);
  const p = o.parameters[loc].find((x) => (loc === 'header' ? x.name.toLowerCase() === name.toLowerCase() : x.name === name));
  expect(p, `${method} ${path} has no ${loc} parameter ${name}`).toBeDefined();
  return p!;
}

// ---------------------------------------------------------------------------------------------------------------
// Sample values
// ---------------------------------------------------------------------------------------------------------------

const ULID = '01ARZ3NDEKTSV4RRFFQ69G5FAV'; // 26 chars, Crockford base32
const ALNUM22 = 'A1b2C3d4E5f6G7h8J9k0Lm'; // 22 alphanumeric chars
const x = (n: number) => 'x'.repeat(n);
const a = (n: number) => 'a'.repeat(n);

/** Accept/reject assertions with readable failure messages. */
function accepts(s: SchemaNode, label: string, values: unknown[]) {
  for (const v of values) expect(validate(s, v), `${label} should accept ${JSON.stringify(v).slice(0, 80)}`).toBe(true);
}
function rejects(s: SchemaNode, label: string, values: unknown[]) {
  for (const v of values) expect(validate(s, v), `${label} should reject ${JSON.stringify(v).slice(0, 80)}`).toBe(false);
}

// ---------------------------------------------------------------------------------------------------------------
// Field checks (one `it` per field)
// ---------------------------------------------------------------------------------------------------------------

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';

interface Field {
  path: string;
  type?: JsonType;
  /** Type of the array items. */
  items?: JsonType;
  dateTime?: boolean;
  nullable?: boolean;
  required?: boolean;
  /** Exact set of enum values (null excluded). */
  enum?: string[];
  accept?: unknown[];
  reject?: unknown[];
  deprecated?: boolean;
  writeOnly?: boolean;
  default?: unknown;
  /** Exact pattern the seed quotes. */
  pattern?: string;
}

function describeField(f: Field): string {
  const bits: string[] = ['present'];
  if (f.required) bits.push('required');
  if (f.type) bits.push(f.type);
  if (f.items) bits.push(`items ${f.items}`);
  if (f.dateTime) bits.push('date-time');
  if (f.nullable) bits.push('nullable');
  if (f.enum) bits.push(`enum ${f.enum.join('|')}`);
  if (f.pattern) bits.push(`pattern ${f.pattern}`);
  if (f.deprecated) bits.push('deprecated');
  if (f.writeOnly) bits.push('writeOnly');
  if (f.default !== undefined) bits.push(`default ${JSON.stringify(f.default)}`);
  const short = (v: unknown) => {
    const j = JSON.stringify(v);
    return j.length > 24 ? `${j.slice(0, 12)}…(${typeof v === 'string' ? `${[...v].length} chars` : Array.isArray(v) ? `${v.length} items` : 'long'})` : j;
  };
  if (f.accept) bits.push(`accepts ${f.accept.map(short).join(', ')}`);
  if (f.reject) bits.push(`rejects ${f.reject.map(short).join(', ')}`);
  return `${f.path}: ${bits.join(', ')}`;
}

function checkField(root: () => SchemaNode, label: string, f: Field) {
  const parent = root();
  const s = at(parent, f.path, label);
  const where = `${label}.${f.path}`;
  if (f.required) {
    const segs = f.path.split('.');
    const last = segs.pop()!;
    const container = segs.length ? at(parent, segs.join('.'), label) : parent;
    expect(isRequired(container, last), `${where} should be required`).toBe(true);
  }
  if (f.type) {
    const t = types(s);
    expect(t.has(f.type), `${where} should have type ${f.type}, has ${[...t].join('|') || '(none)'}`).toBe(true);
  }
  if (f.items) {
    const itm = itemsOf(s);
    expect(itm, `${where} should have items`).toBeDefined();
    const t = types(itm);
    expect(t.has(f.items), `${where}[] should have type ${f.items}, has ${[...t].join('|') || '(none)'}`).toBe(true);
  }
  if (f.dateTime) {
    expect(types(s).has('string'), `${where} should be a string`).toBe(true);
    expect(kw(s, 'format'), `${where} should have format date-time`).toBe('date-time');
  }
  if (f.nullable) expect(validate(s, null), `${where} should accept null`).toBe(true);
  if (f.enum) {
    const e = enumValues(s);
    expect(e, `${where} should be an enum`).toBeDefined();
    expect([...(e ?? [])].sort(), `${where} enum values`).toEqual([...f.enum].sort());
    accepts(s, where, f.enum);
  }
  if (f.pattern) expect(kw(s, 'pattern'), `${where} pattern`).toBe(f.pattern);
  if (f.deprecated) expect(kw(s, 'deprecated'), `${where} should be deprecated`).toBe(true);
  if (f.writeOnly) expect(kw(s, 'writeOnly'), `${where} should be writeOnly`).toBe(true);
  if (f.default !== undefined) expect(kw(s, 'default'), `${where} default`).toEqual(f.default);
  if (f.accept) accepts(s, where, f.accept);
  if (f.reject) rejects(s, where, f.reject);
}

function fieldRows(label: string, root: () => SchemaNode, fields: Field[]) {
  describe(label, () => {
    for (const f of fields) it(`${label}.${describeField(f)}`, () => checkField(root, label, f));
  });
}

// ===============================================================================================================
// 1. Operations, success and error statuses
// ===============================================================================================================

interface OpRow {
  method: Method;
  path: string;
  /** Success status the seed states; '2xx' when the seed leaves it "not shown" but a success exists. */
  success?: string;
  /** Error statuses the seed lists for the operation. */
  errors: string[];
  /** Which seed statement the error list comes from. */
  source: string;
}

// Authentication 2 ("Missing or invalid key: 401") applies to every operation but the two /openapi ones, and
// Features / Authentication 5 ("A resource belonging to another organization is reported as 404 NOT_FOUND") to every
// operation that addresses one resource by id. Those are added where the operation's own table does not list them.
const OPS: OpRow[] = [
  { method: 'GET', path: '/openapi', success: '200', errors: [], source: 'Public specification endpoints' },
  { method: 'GET', path: '/openapi/{spec_name}', success: '200', errors: [], source: 'Public specification endpoints' },
  { method: 'PATCH', path: '/workspaces/{workspace_id}', success: '200', errors: ['400', '401', '403', '404', '409', '500', '503'], source: 'Workspaces table' },
  // "as for the operations above (error set not shown in detail)"; 409 is the "lifecycle conflict with current state" of a
  // mutation, and the state table answers GET of a DELETED workspace with 404, so a read is held to the rest of the set.
  { method: 'GET', path: '/workspaces/{workspace_id}', success: '200', errors: ['400', '401', '403', '404', '500', '503'], source: 'Workspaces table ("as for the operations above")' },
  { method: 'DELETE', path: '/workspaces/{workspace_id}', success: '200', errors: ['400', '401', '403', '404', '409', '500', '503'], source: 'Workspaces table ("as above")' },
  { method: 'POST', path: '/review-projects/disagreement-state', success: '200', errors: ['400', '401', '403', '500', '503'], source: 'Review projects' },
  { method: 'PATCH', path: '/alerts/{alert_id}', success: '200', errors: ['400', '401', '403', '404', '500'], source: 'Alerts' },
  { method: 'PATCH', path: '/personas/{persona_id}', success: '200', errors: ['401', '404'], source: 'Authentication 2 and 5' },
  { method: 'PATCH', path: '/conversations/simulated/{simulation_id}', success: '200', errors: ['400', '401', '403', '404', '500'], source: 'Simulated conversations' },
  { method: 'PATCH', path: '/tags/{tag_id}', success: '200', errors: ['400', '401', '403', '404', '409', '500'], source: 'Tags' },
  { method: 'POST', path: '/agents/{agent_id}/versions/{version_id}/revert', success: '200', errors: ['400', '401', '404', '500'], source: 'Agents (revert errors)' },
  { method: 'DELETE', path: '/agents/{agent_id}', success: '200', errors: ['400', '401', '404', '500'], source: 'Agents (delete errors)' },
  { method: 'POST', path: '/agents', errors: ['401'], source: 'Authentication 2 (response shape not shown)' },
  { method: 'DELETE', path: '/dashboards/{dashboard_id}', success: '200', errors: ['401', '404', '500'], source: 'Dashboards' },
  { method: 'GET', path: '/metrics/{metric_id}/baselines/{baseline_id}', success: '200', errors: ['401', '404', '500'], source: 'Metrics and baselines (baseline get errors)' },
  { method: 'GET', path: '/metrics/{metric_id}/baselines/{baseline_id}/history', success: '200', errors: ['400', '401', '404', '500', '503'], source: 'Metrics and baselines (history errors)' },
  { method: 'POST', path: '/metrics/{metric_id}/restore', success: '200', errors: ['401', '404', '500'], source: 'Metrics and baselines (restore errors)' },
  { method: 'POST', path: '/webhooks', success: '200', errors: ['400', '401', '403', '500', '503'], source: 'Webhooks (create errors)' },
  { method: 'GET', path: '/webhooks', success: '200', errors: ['401', '403', '500', '503'], source: 'Webhooks (list errors)' },
  { method: 'GET', path: '/metrics/{metric_id}/versions', success: '2xx', errors: ['401', '404'], source: 'Versions listing + Authentication 2 and 5' },
  { method: 'GET', path: '/test-sets/{test_set_id}/versions', success: '2xx', errors: ['401', '404'], source: 'Versions listing + Authentication 2 and 5' },
  { method: 'GET', path: '/personas/{persona_id}/versions', success: '2xx', errors: ['401', '404'], source: 'Versions listing + Authentication 2 and 5' },
  { method: 'GET', path: '/agents/{agent_id}/versions', success: '2xx', errors: ['401', '404'], source: 'Versions listing + Authentication 2 and 5' },
  // "Same validation as on POST /conversations:submit" => a validation failure (400 INVALID_ARGUMENT) exists there too.
  { method: 'POST', path: '/conversations:submit', success: '2xx', errors: ['400', '401'], source: 'Conversation audio (audio_url rules) + Authentication 2' },
  // Conversation audio: path "not shown"; our spec has a legacy and a canonical path, both held to the seed.
  { method: 'PATCH', path: '/conversations/{conversation_id}', success: '200', errors: ['400', '401', '404', '409'], source: 'Conversation audio (400 both/neither, 409 already attached) + Authentication 2 and 5' },
  { method: 'PATCH', path: '/conversations/uploaded/{conversation_id}', success: '200', errors: ['400', '401', '404', '409'], source: 'Conversation audio (400 both/neither, 409 already attached) + Authentication 2 and 5' },
];

describe('1. operations the seed names', () => {
  for (const row of OPS) {
    const name = `${row.method} ${row.path}`;
    it(`${name} exists`, () => {
      op(row.method, row.path);
    });
    if (row.success) {
      const success = row.success;
      it(`${name} answers success ${success}`, () => {
        const statuses = op(row.method, row.path).responses.map((r) => r.status);
        if (success === '2xx') expect(statuses.some((s) => /^2/.test(s)), `${name} has no 2xx response (has ${statuses.join(',')})`).toBe(true);
        else expect(statuses, `${name} responses`).toContain(success);
      });
    }
    for (const status of row.errors) {
      it(`${name} lists error ${status} (${row.source})`, () => {
        const statuses = op(row.method, row.path).responses.map((r) => r.status);
        expect(statuses, `${name} responses`).toContain(status);
      });
    }
    if (row.path.startsWith('/openapi')) {
      it(`${name} needs no authentication (security [])`, () => {
        expect(op(row.method, row.path).security).toEqual([]);
      });
    } else {
      it(`${name} requires the X-API-Key header (Authentication 1)`, () => {
        const sec = op(row.method, row.path).security;
        expect(sec.length, `${name} has no security requirement`).toBeGreaterThan(0);
        for (const alternative of sec) {
          const ok = alternative.some((schemeName) => {
            const scheme = model.securitySchemes[schemeName];
            return scheme?.type === 'apiKey' && scheme.in === 'header' && scheme.name.toLowerCase() === 'x-api-key';
          });
          expect(ok, `${name}: security alternative [${alternative.join(', ')}] does not include the X-API-Key apiKey scheme`).toBe(true);
        }
      });
    }
  }

  it('GET /openapi/{spec_name} 200 offers application/yaml (default) and application/json', () => {
    const r = op('GET', '/openapi/{spec_name}').responses.find((x) => x.status === '200');
    expect(r).toBeDefined();
    const media = r!.content.map((c) => c.mediaType);
    expect(media).toContain('application/yaml');
    expect(media).toContain('application/json');
  });
  it('GET /openapi 200 is JSON (lists spec_name values and URLs)', () => {
    expect(types(response('GET', '/openapi', '200')).has('object')).toBe(true);
  });
  it('GET /openapi/{spec_name} has path parameter spec_name', () => {
    const p = param('GET', '/openapi/{spec_name}', 'path', 'spec_name');
    expect(p.required).toBe(true);
  });
  it('DELETE /agents/{agent_id} 200 is an empty object', () => {
    const s = response('DELETE', '/agents/{agent_id}', '200');
    expect(types(s).has('object')).toBe(true);
    expect(validate(s, {})).toBe(true);
  });
  it('DELETE /dashboards/{dashboard_id} 200 is an empty object', () => {
    const s = response('DELETE', '/dashboards/{dashboard_id}', '200');
    expect(types(s).has('object')).toBe(true);
    expect(validate(s, {})).toBe(true);
  });
  it('POST /agents/{agent_id}/versions/{version_id}/revert has no request body', () => {
    expect(op('POST', '/agents/{agent_id}/versions/{version_id}/revert').requestBody).toBeUndefined();
  });
  it('POST /metrics/{metric_id}/restore has no request body', () => {
    expect(op('POST', '/metrics/{metric_id}/restore').requestBody).toBeUndefined();
  });
  for (const [m, p, wrapper] of [
    ['PATCH', '/workspaces/{workspace_id}', 'workspace'],
    ['GET', '/workspaces/{workspace_id}', 'workspace'],
    ['DELETE', '/workspaces/{workspace_id}', 'workspace'],
    ['PATCH', '/personas/{persona_id}', 'persona'],
    ['PATCH', '/conversations/simulated/{simulation_id}', 'simulated_conversation'],
    ['PATCH', '/tags/{tag_id}', 'tag'],
    ['POST', '/agents/{agent_id}/versions/{version_id}/revert', 'agent'],
    ['POST', '/metrics/{metric_id}/restore', 'metric'],
    ['GET', '/metrics/{metric_id}/baselines/{baseline_id}/history', 'history'],
    ['POST', '/webhooks', 'webhook'],
    ['GET', '/webhooks', 'webhooks'],
    ['POST', '/review-projects/disagreement-state', 'projects'],
  ] as [Method, string, string][]) {
    it(`${m} ${p} 200 wraps the result as { ${wrapper} }`, () => {
      const s = response(m, p, '200');
      expect(prop(s, wrapper), `${m} ${p} 200 has no property ${wrapper}`).toBeDefined();
      expect(isRequired(s, wrapper), `${m} ${p} 200: ${wrapper} should be required`).toBe(true);
    });
  }
  it('GET /workspaces/{workspace_id} 200 workspace is the Workspace resource (status enum)', () => {
    expect(enumValues(at(response('GET', '/workspaces/{workspace_id}', '200'), 'workspace.status'))).toBeDefined();
  });
  for (const [m, p] of [
    ['GET', '/metrics/{metric_id}/baselines/{baseline_id}'],
    ['PATCH', '/alerts/{alert_id}'],
  ] as [Method, string][]) {
    it(`${m} ${p} 200 is the resource itself (unwrapped: has ulid and status)`, () => {
      const s = response(m, p, '200');
      expect(prop(s, 'ulid')).toBeDefined();
      expect(prop(s, 'status')).toBeDefined();
    });
  }
});

// ===============================================================================================================
// 2. Parameters and limits
// ===============================================================================================================

interface ParamRow {
  method: Method;
  path: string;
  in: ParameterLocation;
  name: string;
  required?: boolean;
  pattern?: string;
  accept?: unknown[];
  reject?: unknown[];
  default?: unknown;
  what: string;
}

const WS_HEADER = 'X-Service-Workspace-Id';
const PARAMS: ParamRow[] = [
  ...(['PATCH', 'GET', 'DELETE'] as Method[]).map<ParamRow>((m) => ({
    method: m, path: '/workspaces/{workspace_id}', in: 'path', name: 'workspace_id', required: true,
    accept: ['a', a(26)], reject: ['', a(27)], what: '1-26 chars',
  })),
  ...([
    ['PATCH', '/personas/{persona_id}'],
    ['PATCH', '/tags/{tag_id}'],
    ['DELETE', '/dashboards/{dashboard_id}'],
    ['DELETE', '/agents/{agent_id}'],
  ] as [Method, string][]).map<ParamRow>(([m, p]) => ({
    method: m, path: p, in: 'header', name: WS_HEADER, required: false,
    accept: ['a', a(26)], reject: ['', a(27)], what: 'optional, 1-26 chars',
  })),
  { method: 'PATCH', path: '/alerts/{alert_id}', in: 'path', name: 'alert_id', required: true, pattern: '^[0-9A-Z]{26}$', accept: ['0123456789ABCDEFGHIJKLMNOP'], reject: ['0123456789abcdefghijklmnop', a(25).toUpperCase()], what: 'pattern ^[0-9A-Z]{26}$' },
  { method: 'POST', path: '/agents/{agent_id}/versions/{version_id}/revert', in: 'path', name: 'agent_id', required: true, pattern: '^[A-Za-z0-9]{22}$', accept: [ALNUM22], reject: [ALNUM22.slice(1), `${ALNUM22}a`, `${ALNUM22.slice(1)}-`], what: 'pattern ^[A-Za-z0-9]{22}$' },
  { method: 'DELETE', path: '/agents/{agent_id}', in: 'path', name: 'agent_id', required: true, pattern: '^[A-Za-z0-9]{22}$', accept: [ALNUM22], reject: [ALNUM22.slice(1), `${ALNUM22}a`], what: 'pattern ^[A-Za-z0-9]{22}$ ("as above")' },
  { method: 'GET', path: '/agents/{agent_id}/versions', in: 'path', name: 'agent_id', required: true, accept: [ALNUM22], reject: [ALNUM22.slice(1), `${ALNUM22}a`], what: '22 chars (Limits: agent_id 22)' },
  { method: 'POST', path: '/agents/{agent_id}/versions/{version_id}/revert', in: 'path', name: 'version_id', required: true, pattern: '^[0-9A-HJKMNP-TV-Z]{26}$', accept: [ULID], reject: [ULID.slice(1), `${ULID.slice(1)}U`], what: '26-char ULID ^[0-9A-HJKMNP-TV-Z]{26}$' },
  { method: 'GET', path: '/metrics/{metric_id}/baselines/{baseline_id}', in: 'path', name: 'metric_id', required: true, pattern: '^[a-zA-Z0-9]{22}$', accept: [ALNUM22], reject: [ALNUM22.slice(1), `${ALNUM22}a`], what: 'pattern ^[a-zA-Z0-9]{22}$' },
  { method: 'GET', path: '/metrics/{metric_id}/baselines/{baseline_id}/history', in: 'path', name: 'metric_id', required: true, accept: [ALNUM22], reject: [ALNUM22.slice(1), `${ALNUM22}a`], what: '22 chars (Limits: metric_id 22)' },
  { method: 'POST', path: '/metrics/{metric_id}/restore', in: 'path', name: 'metric_id', required: true, accept: [ALNUM22], reject: [ALNUM22.slice(1), `${ALNUM22}a`], what: '22 chars (Limits: metric_id 22)' },
  { method: 'GET', path: '/metrics/{metric_id}/versions', in: 'path', name: 'metric_id', required: true, accept: [ALNUM22], reject: [ALNUM22.slice(1), `${ALNUM22}a`], what: '22 chars (Limits: metric_id 22)' },
  { method: 'GET', path: '/metrics/{metric_id}/baselines/{baseline_id}', in: 'path', name: 'baseline_id', required: true, accept: [ULID], reject: [ULID.slice(1), `${ULID}0`], what: '26-char ULID' },
  { method: 'GET', path: '/metrics/{metric_id}/baselines/{baseline_id}/history', in: 'path', name: 'baseline_id', required: true, accept: [ULID], reject: [ULID.slice(1), `${ULID}0`], what: '26-char ULID' },
  // The seed: "query: a bucket width (default `4 hours`) and an IANA timezone (default UTC)"; "The names of the two history
  // query parameters: not shown". The names bucket_interval and timezone come from the brief.
  { method: 'GET', path: '/metrics/{metric_id}/baselines/{baseline_id}/history', in: 'query', name: 'bucket_interval', required: false, default: '4 hours', accept: ['4 hours'], what: 'bucket width, default "4 hours"' },
  { method: 'GET', path: '/metrics/{metric_id}/baselines/{baseline_id}/history', in: 'query', name: 'timezone', required: false, default: 'UTC', accept: ['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires'], what: 'IANA timezone, default UTC' },
  { method: 'PATCH', path: '/conversations/simulated/{simulation_id}', in: 'path', name: 'simulation_id', required: true, accept: [ALNUM22, `${ALNUM22}abcde`], reject: [ALNUM22.slice(1), `${ALNUM22}abcdef`], what: '22-27 chars' },
  { method: 'PATCH', path: '/conversations/{conversation_id}', in: 'path', name: 'conversation_id', required: true, accept: [ALNUM22, `${ALNUM22}abcd`], reject: [ALNUM22.slice(1), `${ALNUM22}abcde`], what: '22-26 chars' },
  { method: 'PATCH', path: '/conversations/uploaded/{conversation_id}', in: 'path', name: 'conversation_id', required: true, accept: [ALNUM22, `${ALNUM22}abcd`], reject: [ALNUM22.slice(1), `${ALNUM22}abcde`], what: '22-26 chars' },
  { method: 'DELETE', path: '/dashboards/{dashboard_id}', in: 'path', name: 'dashboard_id', required: true, accept: [ALNUM22], reject: [ALNUM22.slice(1), `${ALNUM22}a`], what: '22-char short UUID' },
];

describe('2. parameters and limits', () => {
  for (const row of PARAMS) {
    it(`${row.method} ${row.path} ${row.in} ${row.name}: ${row.what}`, () => {
      const p = param(row.method, row.path, row.in, row.name);
      const where = `${row.method} ${row.path} ${row.in} ${row.name}`;
      if (row.required !== undefined) expect(p.required, `${where} required`).toBe(row.required);
      if (row.pattern) expect(kw(p.schema, 'pattern'), `${where} pattern`).toBe(row.pattern);
      if (row.default !== undefined) expect(kw(p.schema, 'default'), `${where} default`).toEqual(row.default);
      if (row.accept) accepts(p.schema, where, row.accept);
      if (row.reject) rejects(p.schema, where, row.reject);
    });
  }

  it('GET /metrics/{metric_id}/baselines/{baseline_id} query sigma_levels: optional, comma-separated sigma multipliers (1,2,3)', () => {
    const p = param('GET', '/metrics/{metric_id}/baselines/{baseline_id}', 'query', 'sigma_levels');
    expect(p.required).toBe(false);
    const t = types(p.schema);
    if (t.has('array')) {
      // Comma-separated on the wire = form style without explode.
      expect(p.style).toBe('form');
      expect(p.explode).toBe(false);
      accepts(p.schema, 'sigma_levels', [[1, 2, 3]]);
    } else {
      accepts(p.schema, 'sigma_levels', ['1,2,3']);
    }
  });

  const listOps = model.operations.filter((o) => o.parameters.query.some((p) => p.name === 'page_size'));
  it('at least one list operation has page_size', () => {
    expect(listOps.length).toBeGreaterThan(0);
  });
  for (const o of listOps) {
    it(`${o.method.toUpperCase()} ${o.path} query page_size: 1-100 (Limits: page_size on list endpoints)`, () => {
      const p = o.parameters.query.find((x) => x.name === 'page_size')!;
      expect(p.required).toBe(false);
      expect(types(p.schema).has('integer'), 'page_size should be an integer').toBe(true);
      accepts(p.schema, 'page_size', [1, 100]);
      rejects(p.schema, 'page_size', [0, 101]);
    });
  }
});

// ===============================================================================================================
// 3. Request bodies
// ===============================================================================================================

// The seed's Persona table, row by row (fields accepted on update, all optional).
const PRESETS = ['off', 'office', 'lounge', 'crowd', 'airport', 'bus', 'playground', 'doorbell', 'train-arrival', 'portable-air-conditioner', 'skatepark', 'small-dog-bark', 'cafe', 'ferry-and-announcement', 'heavy-rain', 'moderate-wind', 'newborn-baby-crying', 'office-with-alarm', 'street-with-sirens', 'construction-work', 'backchanneling'];
const PERSONA_FIELDS: Field[] = [
  { path: 'name', type: 'string', nullable: true, accept: ['a', x(200)], reject: ['', x(201)] },
  { path: 'persona_prompt', type: 'string', nullable: true },
  { path: 'silent_mode', type: 'boolean', nullable: true },
  { path: 'multi_phone_config', type: 'object', nullable: true },
  { path: 'initialization_parameters', type: 'object', nullable: true, accept: [{}, { key: 'value', n: 1 }] },
  { path: 'custom_persona_data', type: 'string', nullable: true, accept: ['{}', x(16383)], reject: [x(16384)] },
  { path: 'voice', type: 'string', nullable: true, enum: ['alloy', 'ash', 'ballad', 'coral', 'echo', 'marin', 'sage', 'shimmer', 'verse'] },
  { path: 'custom_voice_id', type: 'string', nullable: true, accept: ['a'], reject: [''] },
  { path: 'voice_name', type: 'string', nullable: true },
  { path: 'language_code', type: 'string', nullable: true, accept: ['en-US'] },
  { path: 'background_sound', type: 'string', nullable: true, accept: [...PRESETS, 'custom:abc_1-2', `custom:${a(93)}`], reject: ['custom:', 'nope', `custom:${a(94)}`] },
  { path: 'background_sound_volume', type: 'number', nullable: true, accept: [0, 0.5, 1e9], reject: [-0.01] },
  { path: 'voice_volume', type: 'number', nullable: true, accept: [0, 1, 2], reject: [-0.01, 2.01] },
  { path: 'voice_speed', type: 'number', nullable: true, accept: [0.25, 1, 2.0], reject: [0.24, 2.01] },
  { path: 'wait_seconds', type: 'number', nullable: true, accept: [0.1, 2], reject: [0.09, 2.01] },
  { path: 'conversation_initiation', type: 'string', nullable: true, enum: ['speak_first', 'wait_for_user'] },
  { path: 'interruption_rate', type: 'string', nullable: true, enum: ['NONE', 'LOW', 'MEDIUM', 'HIGH'] },
  { path: 'multi_language_stt', type: 'boolean', nullable: true },
  { path: 'hold_music_timeout_seconds', type: 'number', nullable: true, accept: [5, 300], reject: [4.99, 300.01] },
  { path: 'situate_speaker', type: 'string', nullable: true, enum: ['speakerphone-easy', 'speakerphone-hard'] },
  { path: 'audio_degradation', type: 'object', nullable: true },
  { path: 'tags', type: 'array', items: 'string', nullable: true, accept: [[], Array(20).fill('t'), [x(200)]], reject: [Array(21).fill('t'), [x(201)], [''], ['   ']] },
];

describe('3. request bodies', () => {
  // --- PATCH /workspaces/{workspace_id}
  const wsBody = () => body('PATCH', '/workspaces/{workspace_id}');
  fieldRows('PATCH /workspaces/{workspace_id} body', wsBody, [
    { path: 'display_name', required: true, type: 'string', accept: ['a', x(200)], reject: ['', x(201)] },
  ]);
  it('PATCH /workspaces/{workspace_id} body: no other properties allowed (additionalProperties false)', () => {
    const s = wsBody();
    expect(reach(s).some((b) => b.additionalProperties === false), 'additionalProperties: false').toBe(true);
    expect(validate(s, { display_name: 'ok' })).toBe(true);
    expect(validate(s, { display_name: 'ok', slug: 'no' })).toBe(false);
    expect(validate(s, {})).toBe(false);
  });

  // --- POST /review-projects/disagreement-state
  const drBody = () => body('POST', '/review-projects/disagreement-state');
  fieldRows('POST /review-projects/disagreement-state body', drBody, [
    { path: 'project_ids', required: true, type: 'array', items: 'string', accept: [[ULID], Array(1000).fill(ULID)], reject: [[], Array(1001).fill(ULID), ['not-a-ulid']] },
    { path: 'include_unresolved_ids', type: 'boolean', accept: [true, false] },
  ]);
  it('POST /review-projects/disagreement-state body: a further optional project-restricting field (name not shown in the seed; selected_project_id)', () => {
    const s = drBody();
    const f = at(s, 'selected_project_id');
    expect(isRequired(s, 'selected_project_id')).toBe(false);
    expect(isRequired(s, 'include_unresolved_ids')).toBe(false);
    accepts(f, 'selected_project_id', [ULID]);
    accepts(s, 'body', [{ project_ids: [ULID], include_unresolved_ids: true, selected_project_id: ULID }]);
  });

  // --- PATCH /alerts/{alert_id}
  const alertBody = () => body('PATCH', '/alerts/{alert_id}');
  it('PATCH /alerts/{alert_id} body: all fields optional ({} accepted)', () => {
    expect(validate(alertBody(), {})).toBe(true);
  });
  fieldRows('PATCH /alerts/{alert_id} body', alertBody, [
    { path: 'name', type: 'string', accept: [x(200)], reject: [x(201)] },
    { path: 'description', type: 'string' },
    { path: 'evaluation_type', enum: ['ON_RUN_COMPLETE'] },
    { path: 'conversation_source', enum: ['ALL', 'UPLOADED', 'SIMULATED'] },
    { path: 'match_mode', enum: ['ALL', 'ANY'] },
    { path: 'cooldown_seconds', type: 'integer', accept: [0, 86400], reject: [-1, 86401, 1.5] },
    { path: 'custom_message_template', type: 'string', accept: [x(5000)], reject: [x(5001)] },
    { path: 'agent_ids', type: 'array', items: 'string' },
    { path: 'required_tags', type: 'array', items: 'string' },
    { path: 'scheduled_run_ids', type: 'array', items: 'string' },
    { path: 'conditions', type: 'array', reject: [[]] },
    { path: 'conditions[].metric_id', type: 'string' },
    { path: 'conditions[].threshold_float', type: 'number' },
    { path: 'conditions[].threshold_string', type: 'string' },
    { path: 'conditions[].window_size_days', type: 'integer' },
    { path: 'conditions[].window_size_runs', type: 'integer' },
    { path: 'conditions[].match_value', type: 'string' },
    { path: 'channels', type: 'array' },
    { path: 'channels[].config', type: 'object' },
  ]);
  it('PATCH /alerts/{alert_id} body.conditions minItems 1 (Limits: alert conditions on update at least 1)', () => {
    expect(kw(at(alertBody(), 'conditions'), 'minItems')).toBe(1);
  });

  // --- PATCH /personas/{persona_id}: every row of the seed's Persona table
  const personaBody = () => body('PATCH', '/personas/{persona_id}');
  it('PATCH /personas/{persona_id} body: all fields optional ({} accepted)', () => {
    expect(validate(personaBody(), {})).toBe(true);
  });
  fieldRows('PATCH /personas/{persona_id} body', personaBody, PERSONA_FIELDS);
  it('PATCH /personas/{persona_id} body.background_sound maxLength 100', () => {
    expect(kw(at(personaBody(), 'background_sound'), 'maxLength')).toBe(100);
  });
  it('PATCH /personas/{persona_id} body.custom_persona_data maxLength 16383', () => {
    expect(kw(at(personaBody(), 'custom_persona_data'), 'maxLength')).toBe(16383);
  });
  it('PATCH /personas/{persona_id} body.background_sound pattern (u flag) accepts office and custom:abc_1-2, rejects custom: and nope', () => {
    const pattern = kw(at(personaBody(), 'background_sound'), 'pattern');
    expect(typeof pattern, 'background_sound should have a pattern').toBe('string');
    const re = new RegExp(pattern as string, 'u');
    expect(re.test('office')).toBe(true);
    expect(re.test('custom:abc_1-2')).toBe(true);
    expect(re.test('custom:')).toBe(false);
    expect(re.test('nope')).toBe(false);
  });
  it('PATCH /personas/{persona_id} body.tags maxItems 20, items maxLength 200', () => {
    const t = at(personaBody(), 'tags');
    expect(kw(t, 'maxItems')).toBe(20);
    expect(kw(at(personaBody(), 'tags[]'), 'maxLength')).toBe(200);
  });

  // --- PATCH /conversations/simulated/{simulation_id}
  const simBody = () => body('PATCH', '/conversations/simulated/{simulation_id}');
  it('PATCH /conversations/simulated/{simulation_id} body: all fields optional ({} accepted)', () => {
    expect(validate(simBody(), {})).toBe(true);
  });
  fieldRows('PATCH /conversations/simulated/{simulation_id} body', simBody, [{ path: 'is_public', type: 'boolean', accept: [true, false] }]);

  // --- PATCH /tags/{tag_id}
  const tagBody = () => body('PATCH', '/tags/{tag_id}');
  it('PATCH /tags/{tag_id} body: all fields optional ({} accepted)', () => {
    expect(validate(tagBody(), {})).toBe(true);
  });
  fieldRows('PATCH /tags/{tag_id} body', tagBody, [
    { path: 'tag_name', type: 'string', accept: ['release'] },
    { path: 'color', type: 'string', accept: ['#a1b2c3', '#A1B2C3D4'], reject: ['#abc', 'red'] },
  ]);
  it('PATCH /tags/{tag_id} body.color pattern (u flag) accepts #a1b2c3 and #A1B2C3D4, rejects #abc and red', () => {
    const pattern = kw(at(tagBody(), 'color'), 'pattern');
    expect(typeof pattern, 'color should have a pattern').toBe('string');
    const re = new RegExp(pattern as string, 'u');
    expect(re.test('#a1b2c3')).toBe(true);
    expect(re.test('#A1B2C3D4')).toBe(true);
    expect(re.test('#abc')).toBe(false);
    expect(re.test('red')).toBe(false);
  });

  // --- POST /agents (body fields seen)
  fieldRows('POST /agents body', () => body('POST', '/agents'), [
    { path: 'display_name', type: 'string' },
    { path: 'model_type', accept: ['VOICE'] },
    { path: 'phone_number', type: 'string', accept: ['+14155550123'] },
  ]);

  // --- POST /webhooks
  const whBody = () => body('POST', '/webhooks');
  fieldRows('POST /webhooks body', whBody, [
    { path: 'type', required: true, enum: ['job_complete'] },
    { path: 'url', required: true, type: 'string', accept: ['https://example.com/hook', 'http://example.com/hook', `https://${a(192)}`], reject: ['', `https://${a(193)}`, 'ftp://example.com/hook'] },
    { path: 'auth_token', type: 'string', writeOnly: true, accept: [x(255)], reject: [x(256)] },
  ]);
  it('POST /webhooks body.auth_token is optional', () => {
    expect(isRequired(whBody(), 'auth_token')).toBe(false);
  });

  // --- Conversation audio attach (both paths of our spec)
  for (const p of ['/conversations/{conversation_id}', '/conversations/uploaded/{conversation_id}']) {
    const audioBody = () => body('PATCH', p);
    fieldRows(`PATCH ${p} body`, audioBody, [
      { path: 'audio_url', type: 'string', accept: ['https://bucket.s3.amazonaws.com/call.wav?X-Amz-Signature=abc', 's3://bucket/key.wav'] },
      { path: 'audio', type: 'string', accept: ['UklGRiQAAABXQVZF'] },
    ]);
    it(`PATCH ${p} body: exactly one of audio_url or audio (schema or x-exactly-one-of)`, () => {
      const s = audioBody();
      const declared = op('PATCH', p).requestBody?.semantics.exactlyOneOf;
      const bySchema = !validate(s, { audio_url: 's3://bucket/key.wav', audio: 'UklGRiQAAABXQVZF' }) && !validate(s, {});
      const byVocabulary = declared !== undefined && same([...declared].sort(), ['audio', 'audio_url']);
      expect(bySchema || byVocabulary, 'neither the schema nor x-exactly-one-of enforces exactly one of audio_url/audio').toBe(true);
    });
  }
});

// ===============================================================================================================
// 4. Resource fields (found through the success response of an operation that returns them)
// ===============================================================================================================

const R = {
  workspace: () => at(response('GET', '/workspaces/{workspace_id}', '200'), 'workspace', 'GET /workspaces/{workspace_id} 200'),
  agent: () => at(response('POST', '/agents/{agent_id}/versions/{version_id}/revert', '200'), 'agent', 'revert 200'),
  agentVersion: () => {
    const s = response('GET', '/agents/{agent_id}/versions', '200');
    const arrays = reach(s).flatMap((b) => Object.values((b.properties ?? {}) as Record<string, SchemaNode>)).filter((p) => types(p).has('array'));
    expect(arrays.length, 'GET /agents/{agent_id}/versions 200 has no array property').toBeGreaterThan(0);
    return itemsOf(arrays[0])!;
  },
  persona: () => at(response('PATCH', '/personas/{persona_id}', '200'), 'persona', 'PATCH persona 200'),
  simulation: () => at(response('PATCH', '/conversations/simulated/{simulation_id}', '200'), 'simulated_conversation', 'PATCH simulated 200'),
  tag: () => at(response('PATCH', '/tags/{tag_id}', '200'), 'tag', 'PATCH tag 200'),
  alert: () => response('PATCH', '/alerts/{alert_id}', '200'),
  metric: () => at(response('POST', '/metrics/{metric_id}/restore', '200'), 'metric', 'restore 200'),
  testSet: () => at(response('GET', '/test-sets/{test_set_id}', '200'), 'test_set', 'GET test set 200'),
  baseline: () => response('GET', '/metrics/{metric_id}/baselines/{baseline_id}', '200'),
  historyItem: () => at(response('GET', '/metrics/{metric_id}/baselines/{baseline_id}/history', '200'), 'history[]', 'history 200'),
  webhookCreated: () => at(response('POST', '/webhooks', '200'), 'webhook', 'POST /webhooks 200'),
  webhookListed: () => at(response('GET', '/webhooks', '200'), 'webhooks[]', 'GET /webhooks 200'),
  disagreement: () => at(response('POST', '/review-projects/disagreement-state', '200'), 'projects[]', 'disagreement-state 200'),
};

const CURRENT_VERSION: Field[] = [
  { path: 'current_version', type: 'object' },
  { path: 'current_version.ulid', accept: [ULID] },
  { path: 'current_version.version_number', type: 'integer' },
  { path: 'current_version.change_type', accept: ['save', 'revert'] },
];

describe('4. resource fields', () => {
  // --- Workspace: "All fields are required in responses."
  fieldRows('Workspace', R.workspace, [
    { path: 'id', required: true, type: 'string', accept: ['a', a(26)], reject: ['', a(27)] },
    { path: 'slug', required: true, type: 'string', deprecated: true },
    { path: 'display_name', required: true, type: 'string' },
    { path: 'status', required: true, enum: ['ACTIVE', 'ARCHIVED', 'DELETED'] },
    { path: 'workspace_type', required: true, enum: ['DEFAULT', 'CUSTOM'] },
    { path: 'created_at', required: true, dateTime: true },
    { path: 'last_updated_at', required: true, dateTime: true },
  ]);

  // --- Agent
  fieldRows('Agent', R.agent, [
    { path: 'id', type: 'string', accept: [ALNUM22], reject: [ALNUM22.slice(1), `${ALNUM22}a`] },
    { path: 'customer_agent_id', type: 'string' },
    { path: 'display_name', type: 'string' },
    { path: 'model_type', type: 'string', accept: ['MODEL_TYPE_VOICE'] },
    { path: 'phone_number', type: 'string', accept: ['+14155550123'] },
    { path: 'endpoint', type: 'string' },
    { path: 'prompt', type: 'string' },
    { path: 'language', type: 'string', accept: ['en'] },
    { path: 'attributes', type: 'object', accept: [{ team: 'support' }], reject: [{ team: 1 }] },
    { path: 'metadata', type: 'object' },
    { path: 'workflows', type: 'object' },
    { path: 'metric_ids', type: 'array', items: 'string' },
    { path: 'test_set_ids', type: 'array', items: 'string' },
    { path: 'knowledge_base_ids', type: 'array', items: 'string' },
    { path: 'tags', type: 'array', items: 'string' },
    { path: 'created_at', dateTime: true },
    { path: 'updated_at', dateTime: true },
    { path: 'create_time', dateTime: true },
    { path: 'update_time', dateTime: true },
    { path: 'created_by', type: 'string' },
    { path: 'updated_by', type: 'string' },
    ...CURRENT_VERSION,
  ]);
  it('Agent: the internal active flag is not exposed', () => {
    expect(prop(R.agent(), 'active')).toBeUndefined();
  });
  it('Agent version record (GET /agents/{agent_id}/versions items): a 26-char ULID id ^[0-9A-HJKMNP-TV-Z]{26}$ and change_type save|revert', () => {
    const item = R.agentVersion();
    const props = reach(item).flatMap((b) => Object.values((b.properties ?? {}) as Record<string, SchemaNode>));
    expect(props.some((p) => kw(p, 'pattern') === '^[0-9A-HJKMNP-TV-Z]{26}$'), 'no field with the ULID pattern').toBe(true);
    accepts(at(item, 'change_type'), 'agent version change_type', ['save', 'revert']);
  });

  // --- Persona: the update fields appear on the resource; current_version (Versioning 5)
  fieldRows('Persona', R.persona, [...PERSONA_FIELDS.map<Field>((f) => ({ path: f.path })), ...CURRENT_VERSION]);

  // --- Test set: current_version (Versioning 5)
  fieldRows('TestSet', R.testSet, CURRENT_VERSION);

  // --- Simulation
  fieldRows('Simulation', R.simulation, [
    { path: 'name', type: 'string', accept: [`simulations/${ALNUM22}`] },
    { path: 'simulation_id', type: 'string', accept: [ALNUM22, `${ALNUM22}abcde`] },
    { path: 'run_id', type: 'string' },
    { path: 'status', accept: ['COMPLETED'] },
    { path: 'create_time', dateTime: true },
    { path: 'has_audio', type: 'boolean' },
    { path: 'agent_id', type: 'string' },
    { path: 'persona_id', type: 'string' },
    { path: 'test_set_id', type: 'string' },
    { path: 'test_case_id', type: 'string' },
    { path: 'source', type: 'object', accept: [{ type: 'phone', value: '+14155550123' }] },
    { path: 'source.type', type: 'string', accept: ['phone'] },
    { path: 'source.value', type: 'string' },
    { path: 'destination', type: 'object', accept: [{ type: 'phone', value: '+14155550123' }] },
    { path: 'destination.type', type: 'string', accept: ['phone'] },
    { path: 'destination.value', type: 'string' },
    { path: 'error_message', type: 'string' },
    { path: 'mutation_id', type: 'string', accept: [ULID] },
    { path: 'mutation_name', type: 'string' },
    { path: 'notes', type: 'string' },
    { path: 'is_public', type: 'boolean' },
    { path: 'metric_values', type: 'object', accept: [{ [ALNUM22]: 0.5 }], reject: [{ [ALNUM22]: 'high' }] },
    { path: 'call_sid', type: 'string' },
    { path: 'transcript', type: 'array' },
  ]);

  // --- Tag
  fieldRows('Tag', R.tag, [
    { path: 'name', type: 'string', accept: [`tags/${ALNUM22}`] },
    { path: 'id', type: 'string' },
    { path: 'tag_name', type: 'string' },
    { path: 'color', type: 'string', accept: ['#A1B2C3', '#a1b2c3d4'], reject: ['#abc', 'red'] },
    { path: 'create_time', dateTime: true },
    { path: 'created_by', type: 'string', accept: ['someone@example.com'] },
  ]);

  // --- Alert (+ Condition, Channel)
  fieldRows('Alert', R.alert, [
    { path: 'ulid', type: 'string', pattern: '^[0-9A-Z]{26}$', accept: ['0123456789ABCDEFGHIJKLMNOP'], reject: ['0123456789abcdefghijklmnop'] },
    { path: 'name', type: 'string', accept: [x(200)], reject: [x(201)] },
    { path: 'status', enum: ['ACTIVE', 'DELETED'] },
    { path: 'evaluation_type', enum: ['ON_RUN_COMPLETE'] },
    { path: 'conversation_source', enum: ['ALL', 'UPLOADED', 'SIMULATED'] },
    { path: 'match_mode', enum: ['ALL', 'ANY'] },
    { path: 'cooldown_seconds', type: 'integer', accept: [0, 86400], reject: [-1, 86401] },
    { path: 'trigger_count', type: 'integer' },
    { path: 'conditions', type: 'array' },
    { path: 'channels', type: 'array' },
    { path: 'create_time', dateTime: true },
    { path: 'update_time', dateTime: true },
    { path: 'description', type: 'string', default: '' },
    { path: 'custom_message_template', type: 'string', accept: [x(5000)], reject: [x(5001)] },
    { path: 'agent_ids', type: 'array', items: 'string' },
    { path: 'required_tags', type: 'array', items: 'string' },
    { path: 'scheduled_run_ids', type: 'array', items: 'string' },
    { path: 'last_triggered_at', dateTime: true },
    { path: 'conditions[].ulid', type: 'string' },
    { path: 'conditions[].metric_id', type: 'string' },
    { path: 'conditions[].aggregation' },
    { path: 'conditions[].operator' },
    { path: 'conditions[].threshold_float', type: 'number' },
    { path: 'conditions[].threshold_string', type: 'string' },
    { path: 'conditions[].window_size_days', type: 'integer' },
    { path: 'conditions[].window_size_runs', type: 'integer' },
    { path: 'conditions[].match_value', type: 'string' },
    { path: 'conditions[].match_mode', type: 'string', accept: ['exact'] },
    { path: 'channels[].ulid', type: 'string' },
    { path: 'channels[].channel_type', accept: ['SLACK'] },
    { path: 'channels[].config', type: 'object' },
  ]);
  it('Alert.conditions: the response always has at least one (minItems 1)', () => {
    expect(kw(at(R.alert(), 'conditions'), 'minItems')).toBe(1);
  });

  // --- Metric
  const str = (...paths: string[]): Field[] => paths.map((path) => ({ path, type: 'string' }));
  const num = (...paths: string[]): Field[] => paths.map((path) => ({ path, type: 'number' }));
  const strArr = (...paths: string[]): Field[] => paths.map((path) => ({ path, type: 'array', items: 'string' }));
  fieldRows('Metric', R.metric, [
    { path: 'id', type: 'string', accept: [ALNUM22], reject: [ALNUM22.slice(1)] },
    { path: 'name', type: 'string', accept: [`metrics/${ALNUM22}`] },
    ...str('metric_name', 'description'),
    { path: 'metric_type', type: 'string', accept: ['METRIC_LLM_BINARY'] },
    { path: 'judge_mode', type: 'string', accept: ['STANDARD'] },
    { path: 'evaluation', type: 'object' },
    ...str('evaluation.evaluator', 'evaluation.output_type', 'evaluation.output_type_source', 'evaluation.semantic_type', 'evaluation.semantic_type_source'),
    ...str('prompt', 'base_prompt_template'),
    ...strArr('enabled_tools', 'dependency_metric_ids', 'categories', 'criteria', 'success_sentiments', 'success_end_reasons', 'tags'),
    ...num('min_value', 'max_value', 'threshold', 'percent_above', 'frequency_threshold'),
    ...str('metadata_field_type', 'metadata_field_key'),
    { path: 'regex_pattern' },
    { path: 'case_insensitive' },
    { path: 'match_mode', accept: ['presence'] },
    { path: 'position', accept: ['any'] },
    { path: 'role', accept: ['agent'] },
    ...num('min_pause_duration_seconds', 'max_silence_duration_seconds', 'min_silence_gap_seconds'),
    { path: 'direction', type: 'string', accept: ['above'] },
    { path: 'operator', type: 'string', accept: ['<'] },
    ...str('observation_name', 'expected_body', 'match_path', 'span_name', 'value_source', 'metric_attribute', 'unit', 'aggregation_method', 'sql_query'),
    { path: 'criteria_source', type: 'string', accept: ['test_case'] },
    { path: 'criteria_path', type: 'string' },
    { path: 'reporting_method', type: 'string', accept: ['percentage_of_criteria_met'] },
    { path: 'include_traces', type: 'boolean' },
    { path: 'audio_filter', type: 'object' },
    { path: 'runtime_config', type: 'object' },
    { path: 'runtime_config.model_version', type: 'string', accept: ['openai:gpt-4o'] },
    { path: 'runtime_config.thinking_enabled', type: 'boolean' },
    { path: 'target_condition', type: 'object' },
    { path: 'target_condition.comparison_operator', type: 'string', accept: ['in'] },
    { path: 'target_condition.target_values', type: 'array', items: 'string' },
    { path: 'ivr_flow', type: 'object' },
    { path: 'ivr_flow.start_node', type: 'string' },
    { path: 'ivr_flow.nodes', type: 'array' },
    { path: 'ivr_flow.nodes[].id' },
    { path: 'ivr_flow.nodes[].prompt' },
    { path: 'ivr_flow.nodes[].terminal' },
    { path: 'ivr_flow.edges', type: 'array' },
    { path: 'ivr_flow.edges[].source' },
    { path: 'ivr_flow.edges[].destination' },
    { path: 'ivr_flow.edges[].input' },
    ...str('detection_preset', 'pause_detection_preset', 'threshold_preset'),
    ...num(
      'harmonics_to_noise_ratio_threshold_offset_db',
      'jitter_threshold_multiplier',
      'loud_threshold_db',
      'soft_threshold_db',
      'low_pitch_threshold_multiplier',
      'mad_z_score_threshold',
      'min_fry_segment_seconds',
      'pitch_change_threshold_hz',
      'significant_changes_threshold_hz',
      'min_volume_change_for_pitch_misalignment',
    ),
    ...CURRENT_VERSION,
    { path: 'organization_threshold', type: 'object' },
    { path: 'organization_threshold.id', type: 'string' },
    { path: 'organization_threshold.name', type: 'string', accept: [`metrics/${ALNUM22}/threshold`] },
    { path: 'organization_threshold.comparison_operator', type: 'string', accept: ['eq'] },
    { path: 'organization_threshold.target_float_upper', type: 'number' },
    { path: 'organization_threshold.target_float_lower', type: 'number' },
    { path: 'organization_threshold.target_values', type: 'array', items: 'string' },
    { path: 'organization_threshold.source', type: 'string', accept: ['manual'] },
    { path: 'organization_threshold.create_time', dateTime: true },
    { path: 'organization_threshold.update_time', dateTime: true },
    { path: 'organization_threshold.created_at', dateTime: true },
    { path: 'organization_threshold.created_by', type: 'string' },
    { path: 'organization_threshold.updated_at', dateTime: true },
    { path: 'organization_threshold.updated_by', type: 'string' },
    { path: 'created_at', dateTime: true },
    { path: 'created_by', type: 'string' },
    { path: 'updated_at', dateTime: true },
    { path: 'updated_by', type: 'string' },
    { path: 'create_time', dateTime: true },
    { path: 'update_time', dateTime: true },
  ]);

  // --- Metric baseline
  fieldRows('Baseline', R.baseline, [
    { path: 'ulid', type: 'string', accept: [ULID], reject: [ULID.slice(1)] },
    { path: 'status', enum: ['ACTIVE', 'STANDBY', 'ARCHIVED'] },
    { path: 'detection_method', enum: ['EWMA'] },
    { path: 'sigma_threshold', type: 'number' },
    { path: 'direction', enum: ['BOTH', 'ABOVE', 'BELOW'] },
    { path: 'created_at', dateTime: true },
    { path: 'last_updated_at', dateTime: true },
    { path: 'metric_id', type: 'string' },
    { path: 'agent_id', type: 'string', nullable: true },
    { path: 'test_set_id', type: 'string', nullable: true },
    { path: 'persona_id', type: 'string', nullable: true },
    { path: 'display_name', type: 'string' },
    { path: 'baseline_float', type: 'number' },
    { path: 'baseline_sigma', type: 'number' },
    { path: 'observation_count', type: 'integer' },
    { path: 'sigma_bands', type: 'object', nullable: true, accept: [{ upper_1sigma: 0.9, lower_2sigma: 0.4, upper_2sigma: 1.1 }] },
    { path: 'last_processed_run_completed_at', dateTime: true },
  ]);

  // --- Baseline history item
  fieldRows('BaselineHistoryItem', R.historyItem, [
    { path: 'bucket_time', dateTime: true },
    { path: 'baseline_mean', type: 'number' },
    { path: 'baseline_sigma', type: 'number' },
    { path: 'observation_count', type: 'integer' },
  ]);

  // --- Webhook, as created and as listed
  for (const [label, root] of [
    ['Webhook (POST /webhooks 200)', R.webhookCreated],
    ['Webhook (GET /webhooks 200)', R.webhookListed],
  ] as [string, () => SchemaNode][]) {
    fieldRows(label, root, [
      { path: 'name', type: 'string', accept: [`webhooks/${ALNUM22}`] },
      { path: 'id', type: 'string', accept: [ALNUM22] },
      { path: 'type', enum: ['job_complete'] },
      { path: 'url', type: 'string', accept: ['https://example.com/hook'] },
      { path: 'has_auth_token', type: 'boolean' },
      { path: 'create_time', dateTime: true },
      { path: 'last_triggered_at', dateTime: true },
    ]);
    it(`${label}: the auth token itself is never returned (no auth_token, or writeOnly)`, () => {
      const t = prop(root(), 'auth_token');
      if (t !== undefined) expect(kw(t, 'writeOnly'), 'auth_token in a response schema must be writeOnly').toBe(true);
    });
  }

  // --- Review disagreement state
  fieldRows('ProjectDisagreementState', R.disagreement, [
    { path: 'project_id', type: 'string' },
    { path: 'unresolved_simulation_count', type: 'integer' },
    { path: 'unresolved_simulation_ids', type: 'array', items: 'string' },
    { path: 'unresolved_annotation_ids', type: 'array', items: 'string' },
  ]);
});

// ===============================================================================================================
// 5. Permissions (Authentication 3)
// ===============================================================================================================

describe('5. permissions', () => {
  for (const [m, p, perm] of [
    ['POST', '/review-projects/disagreement-state', 'reviews'],
    ['PATCH', '/tags/{tag_id}', 'tags:write'],
    ['POST', '/webhooks', 'webhooks:write'],
    ['GET', '/webhooks', 'webhooks:write'],
    ['PATCH', '/alerts/{alert_id}', 'alerts:read'],
  ] as [Method, string, string][]) {
    it(`${m} ${p} needs permission ${perm}`, () => {
      expect(op(m, p).semantics.permissions).toContain(perm);
    });
  }
});

// ===============================================================================================================
// 6. Error envelope (Errors): { error: { code: string, message: string, details: [ { field: string|null (may be
//    absent), description: string } ] } }; internal errors may omit details.
// ===============================================================================================================

const SEED_CODES = ['INVALID_ARGUMENT', 'UNAUTHENTICATED', 'PERMISSION_DENIED', 'NOT_FOUND', 'ALREADY_EXISTS', 'INTERNAL'];

describe('6. error envelope', () => {
  for (const o of model.operations) {
    for (const r of o.responses.filter((x) => /^[45]/.test(x.status))) {
      it(`${o.method.toUpperCase()} ${o.path} ${r.status}: application/json error envelope`, () => {
        const s = jsonOf(r.content);
        expect(s, 'no application/json content').toBeDefined();
        expect(types(s).has('object'), 'envelope is not an object').toBe(true);
        expect(isRequired(s, 'error'), 'error is not required').toBe(true);
        const err = at(s, 'error', 'envelope');
        expect(types(err).has('object')).toBe(true);
        expect(types(at(err, 'code', 'error')).has('string'), 'error.code is a string').toBe(true);
        expect(types(at(err, 'message', 'error')).has('string'), 'error.message is a string').toBe(true);
        expect(types(at(err, 'details', 'error')).has('array'), 'error.details is an array').toBe(true);
        const detail = at(err, 'details[]', 'error');
        const field = at(detail, 'field', 'error.details[]');
        expect(types(field).has('string'), 'details[].field is a string').toBe(true);
        expect(validate(field, null), 'details[].field is nullable').toBe(true);
        expect(isRequired(detail, 'field'), 'details[].field may be absent').toBe(false);
        expect(isRequired(detail, 'description'), 'details[].description is required').toBe(true);
        expect(types(at(detail, 'description', 'error.details[]')).has('string')).toBe(true);
        expect(isRequired(err, 'details'), 'internal errors may omit details').toBe(false);
        for (const code of SEED_CODES) accepts(at(err, 'code', 'error'), 'error.code', [code]);
        accepts(s!, 'envelope', [
          { error: { code: 'INVALID_ARGUMENT', message: 'bad', details: [{ field: 'color', description: 'not a hex color' }] } },
          { error: { code: 'UNAUTHENTICATED', message: 'no key', details: [{ field: null, description: 'x' }, { description: 'y' }] } },
          { error: { code: 'INTERNAL', message: 'oops' } },
        ]);
      });
    }
  }
});
