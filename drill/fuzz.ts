// Fuzz: N requests (default 20,000) spread round-robin over every operation of the route table, each a valid
// request (built from the schemas by the conformance World) with one or more mutations: bodies (wrong types,
// missing and extra fields, huge strings, deep nesting, duplicate keys, invalid UTF-8, odd numbers and strings,
// non-JSON, wrong content types), path, query and header parameters, keys, methods; plus requests to no
// operation and bytes that are not HTTP. Each request is a function of (seed, number), so a run repeats.
//
// Findings: any 5xx; any error answer without the envelope; no answer; an answer slower than 10 s; a 2xx whose
// body does not match the operation's response schema; the process gone. Afterwards every list and every
// record the fuzz left behind is read back (stored garbage must not break reads).
import { boundaryVariants, validValue } from '../src/conformance/values/index.js';
import { nextPageParam } from '../src/conformance/paging.js';
import type { RequestSpec } from '../src/conformance/http.js';
import { prepare } from '../src/conformance/checks/happy.js';
import type { Route } from '../src/conformance/suite-data.js';
import type { World } from '../src/conformance/world.js';
import { clip, DrillContext, Findings, pool, type DrillResult, type Org } from './context.js';
import { envelopeProblem, send, sendRaw, type Answer } from './http.js';
import { mix, Rng } from './prng.js';
import type { Receiver } from './receiver.js';
import { visitObjects } from './walk.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Seg = string | number;

// ---------------------------------------------------------------------------------------------------------
// The catalogue of bad values

const MB = 1_000_000;
const WRONG_TYPES: Json[] = [null, true, false, 0, -1, 1.5, 1e308, -1e308, '', 'x', '0', 'true', 'null', [], [null], [1, 'a', {}], {}, { a: 1 }, { '': '' }];
const ODD_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udc00\ud800',
  '\uffff\ufffe',
  '😀👍🏽👩‍👩‍👧',
  '\u202eevil\u202c',
  '\u200b\u200c\u200d\u2060',
  'é', // precomposed
  'e\u0301', // decomposed
  "' OR '1'='1'; --",
  '"; DROP TABLE records; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/x}',
  '{{7*7}}',
  '../../../../etc/passwd',
  '%s%s%n%x',
  '\\',
  '\r\n\t\b\f',
  ' ',
  '   padded   ',
  'TAG',
  'İ', // lower-cases to two code points
  'ß',
  'ǅ',
  '\u{10ffff}',
  'x'.repeat(201),
  'x'.repeat(5001),
];
const ODD_NUMBERS = ['1e400', '-1e400', '-0', '0.0', '1e-400', '5e-324', '1.7976931348623157e308', '123456789012345678901234567890', '9007199254740993', '-9223372036854775809', '18446744073709551616', '1E2', '0e0', '1.0', '100.00000000000000000001', '-0.0000001'];
const NOT_JSON: (string | Buffer)[] = [
  '',
  ' ',
  'null',
  '[]',
  '[{}]',
  '0',
  '-1',
  '"x"',
  'true',
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '\ufeff{}',
  '{} trailing',
  '/* comment */ {}',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  '{"a":01}',
  '{"a":"\\x41"}',
  '{"a":"\\ud800"}',
  '{"a":"unterminated}',
  '{"a"\u0000:1}',
  '\u0000',
  'a=1&b=2',
  '<xml/>',
  'x'.repeat(MB),
  Buffer.from([0xff, 0xfe, 0xfd]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), // {"a":"\xc3("}
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), // UTF-8 BOM + {}
  Buffer.from('{"a":"b"}', 'utf16le'),
];
const INVALID_UTF8: Buffer[] = [
  Buffer.from([0xff]),
  Buffer.from([0xfe, 0xff]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
  Buffer.from([0xc0, 0xaf]), // overlong '/'
  Buffer.from([0x80, 0x61, 0x62]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]), // beyond U+10FFFF
];
const CONTENT_TYPES: (string | null)[] = [
  null,
  '',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'application/jsonx',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/json;;;',
  '*/*',
  'application/xml',
  'json',
];
const EXTRA_KEYS = ['extra', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'id', 'ulid', 'name', 'org', 'organization_id', 'workspace_id', 'deleted', 'status', 'create_time', 'update_time', 'current_version', 'version_number', '_channel_tokens', '_internal', 'has_auth_token', 'is_builtin', 'platform', 'trigger_count', '', ' ', '\u0000', 'a.b', 'a[0]', '$ref'];
/** Path values inserted verbatim (percent escapes meant as such). */
const RAW_PATH = ['%00', '%ff', '%c3%28', '%2F', '%2f..%2f', '%2e%2e', '%2e', '%20', '%', '%zz', '%u0041', '..', '.', ';', ';a=b', '?', '#', '//'];
/** Path values encoded with encodeURIComponent. */
const TEXT_PATH = ['', ' ', 'null', 'undefined', '0', '-1', '1.5', '1e5', 'true', '[]', '{}', '日本語', '😀', "' OR '1'='1", '<script>', '${7*7}', '../../etc/passwd', '\u0000', 'a'.repeat(4000), 'a'.repeat(300), 'ZZZZZZZZZZZZZZZZZZZZZZ', 'zzzzzzzzzzzzzzzzzzzzzz', '01ZZZZZZZZZZZZZZZZZZZZZZZZ', 'AAAAAAAA', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'];
const QUERY_VALUES: Record<string, string[]> = {
  integer: ['abc', '-1', '0', '1.5', '1e10', '99999999999999999999', 'NaN', 'Infinity', '0x10', ' 5', '5 ', '+5', '', '1,2', '-0', '101', '100', '1', '1e2', '٣'],
  number: ['abc', '-1', '1e400', 'NaN', '', '0x1', '1,5'],
  boolean: ['yes', '1', '0', 'TRUE', 'True', '', 'null', 'false ', 'truee'],
  string: ['', ' ', 'null', 'x'.repeat(3000), '日本語', '(((((', ')', '"', "'", '\\', 'a AND b OR', 'name = "x"', 'name=x AND (', 'display_name:*', '<>', '%', '\u0000', '-', 'create_time desc desc', 'nonexistent_field asc'],
};
const RAW_QUERY_VALUES = ['%zz', '%', '%ff', '%c3%28', '%00', '%E2%82', 'a%20b', '%2C%2C%2C', '+++'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

// ---------------------------------------------------------------------------------------------------------
// A request being built, and how it is sent

interface RawPiece {
  key: string;
  bytes: Buffer;
}

interface Builder {
  kinds: string[];
  method: string;
  route: Route | null;
  /** Path below the API base, with `{param}` placeholders still in it when `params` holds values. */
  pathTemplate: string;
  params: Record<string, { value: string; raw: boolean }>;
  query: { name: string; value: string; raw: boolean }[];
  headers: Record<string, string>;
  key: string | null;
  body: { kind: 'none' } | { kind: 'json'; value: Json; raws: RawPiece[]; textEdit?: (text: string) => string } | { kind: 'bytes'; bytes: Buffer };
  contentType: string | null;
  /** Extra header lines sent as written (forces the raw transport). */
  rawLines: string[];
  /** The whole request as bytes (protocol garbage), sent on a socket as is. */
  rawRequest?: Buffer;
  /** Known not to be valid HTTP or beyond Node's limits: the answer comes from Node's HTTP parser. */
  protocol: boolean;
  forceRaw: boolean;
  /** A path value was changed: the request may reach another operation (`/personas/` is the list). */
  pathChanged: boolean;
}

interface Case {
  n: number;
  label: string;
  route: Route | null;
  /** Whether a 2xx must match the route's response schema (the route's own method and path). */
  checkSuccess: boolean;
  method: string;
  target: Buffer;
  headers: [string, string][];
  body?: Buffer;
  raw?: Buffer;
  useRaw: boolean;
  protocol: boolean;
}

export const NODE_PARSER = "error without the envelope (Node's HTTP parser, before the sandbox)";

const PH = (i: number): string => `__drill_raw_${i}__`;
const PH_RE = /"__drill_raw_(\d+)__"/g;

function renderJson(body: { value: Json; raws: RawPiece[]; textEdit?: (text: string) => string }): Buffer {
  let text = JSON.stringify(body.value);
  if (body.textEdit) text = body.textEdit(text);
  if (body.raws.length === 0) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let last = 0;
  for (const m of text.matchAll(PH_RE)) {
    parts.push(Buffer.from(text.slice(last, m.index), 'utf8'));
    const piece = body.raws.find((r) => r.key === PH(Number(m[1])));
    parts.push(piece ? piece.bytes : Buffer.from(m[0], 'utf8'));
    last = m.index! + m[0].length;
  }
  parts.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(parts);
}

function isPlainHeaderValue(v: string): boolean {
  return /^[\x20-\x7e\t]*$/.test(v) && v === v.trim();
}

// ---------------------------------------------------------------------------------------------------------
// JSON paths

/** Every place in a body down to depth 6, at most ~400: bounded by depth and count, so a cycle ends too. */
function allPaths(value: Json, depth = 0, prefix: Seg[] = [], out: { segs: Seg[]; value: Json }[] = []): { segs: Seg[]; value: Json }[] {
  out.push({ segs: prefix, value });
  if (depth >= 6 || out.length > 400) return out;
  if (Array.isArray(value)) value.slice(0, 5).forEach((v, i) => allPaths(v, depth + 1, [...prefix, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) allPaths(v, depth + 1, [...prefix, k], out);
  return out;
}

function setAt(root: Json, segs: Seg[], v: Json): Json {
  if (segs.length === 0) return v;
  let node = root as Record<string, Json> | Json[];
  for (const s of segs.slice(0, -1)) node = (node as Record<string, Json>)[s as string] as Record<string, Json>;
  Object.defineProperty(node, segs[segs.length - 1]!, { value: v, enumerable: true, writable: true, configurable: true });
  return root;
}

function deleteAt(root: Json, segs: Seg[]): Json {
  if (segs.length === 0) return {};
  let node = root as Record<string, Json>;
  for (const s of segs.slice(0, -1)) node = node[s as string] as Record<string, Json>;
  const last = segs[segs.length - 1]!;
  if (Array.isArray(node)) node.splice(last as number, 1);
  else delete node[last as string];
  return root;
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

// ---------------------------------------------------------------------------------------------------------
// Per-operation bases

interface Base {
  route: Route;
  spec: RequestSpec;
  /** Valid bodies: the prepared one, a maximal one, boundary values inside the limits. */
  valid: Json[];
  /** Bodies just outside a limit. */
  invalid: Json[];
  ok: boolean;
  error?: string;
}

async function buildBase(ctx: DrillContext, world: World, route: Route, seed: number): Promise<Base> {
  let spec: RequestSpec;
  let ok = true;
  let error: string | undefined;
  try {
    spec = await prepare({ target: world.target, suite: ctx.suite, world, route });
  } catch (e) {
    ok = false;
    error = (e as Error).message;
    // Without a prepared request: well-formed ids that name nothing, and a body from the schema.
    const schemas = ctx.suite.schemas[route.id]!;
    const path: Record<string, string> = {};
    for (const p of route.params.path) path[p.name] = String(validValue(schemas.path[p.name] as never, world.defs, { seed }) ?? 'x');
    const body = schemas.body ? validValue(schemas.body as never, world.defs, { seed }) : undefined;
    spec = { path, ...(body === undefined ? {} : { body }) };
  }
  const valid: Json[] = [];
  const invalid: Json[] = [];
  const schema = ctx.suite.schemas[route.id]?.body;
  if (schema !== undefined && schema !== null) {
    const base = (spec.body ?? {}) as Record<string, Json>;
    const withRefs = (v: unknown, field: string): Json => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return v as Json;
      const body = { ...(v as Record<string, Json>) };
      for (const [k, value] of Object.entries(base)) if (/_ids?$/.test(k) && k !== field) body[k] = value;
      return body;
    };
    valid.push(clone(base));
    try {
      const maximal = validValue(schema as never, world.defs, { seed, maximal: true });
      if (maximal !== undefined) valid.push(withRefs(maximal, ''));
    } catch {
      // No maximal body: the others remain.
    }
    const variants = boundaryVariants(schema as never, world.defs, { seed });
    for (const v of variants.valid.slice(0, 60)) valid.push(withRefs(v.value, v.path.split(/[.[]/)[0] ?? ''));
    for (const v of variants.invalid.slice(0, 80)) invalid.push(withRefs(v.value, v.path.split(/[.[]/)[0] ?? ''));
  }
  return { route, spec, valid, invalid, ok, ...(error ? { error } : {}) };
}

// ---------------------------------------------------------------------------------------------------------
// Mutations

interface Env {
  ctx: DrillContext;
  org: Org;
  keys: { none: string; readOnly: string; other: string };
  otherIds: string[];
  pageTokens: string[];
  methodsByPath: Map<string, Set<string>>;
  receiver: Receiver;
  tokens: string[];
  bases: Map<string, Base>;
}

type Mutation = { name: string; weight: number; applies(b: Builder): boolean; apply(b: Builder, rng: Rng, env: Env): void };

function jsonBody(b: Builder): { kind: 'json'; value: Json; raws: RawPiece[]; textEdit?: (text: string) => string } | undefined {
  return b.body.kind === 'json' ? b.body : undefined;
}

function pickPath(b: Builder, rng: Rng, filter: (p: { segs: Seg[]; value: Json }) => boolean = () => true): Seg[] | undefined {
  const body = jsonBody(b);
  if (!body) return undefined;
  const paths = allPaths(body.value).filter(filter);
  return paths.length === 0 ? undefined : rng.pick(paths).segs;
}

function splice(b: Builder, segs: Seg[], bytes: Buffer): void {
  const body = jsonBody(b)!;
  const key = PH(body.raws.length);
  body.raws.push({ key, bytes });
  body.value = setAt(body.value, segs, key);
}

function deep(depth: number, kind: 'array' | 'object'): Buffer {
  return Buffer.from(kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

const hasBodyMethod = (b: Builder): boolean => b.method !== 'GET' && b.method !== 'HEAD';

const MUTATIONS: Mutation[] = [
  {
    name: 'valid body',
    weight: 5,
    applies: (b) => b.route?.body != null,
    apply(b, rng, env) {
      const base = env.bases.get(b.route!.id)!;
      if (base.valid.length > 0) b.body = { kind: 'json', value: clone(rng.pick(base.valid)), raws: [] };
    },
  },
  {
    name: 'boundary: just outside a limit',
    weight: 5,
    applies: (b) => b.route?.body != null,
    apply(b, rng, env) {
      const base = env.bases.get(b.route!.id)!;
      if (base.invalid.length > 0) b.body = { kind: 'json', value: clone(rng.pick(base.invalid)), raws: [] };
    },
  },
  {
    name: 'missing field',
    weight: 4,
    applies: (b) => jsonBody(b) !== undefined,
    apply(b, rng) {
      const segs = pickPath(b, rng, (p) => p.segs.length > 0);
      if (segs) jsonBody(b)!.value = deleteAt(jsonBody(b)!.value, segs);
      else jsonBody(b)!.value = {};
    },
  },
  {
    name: 'extra field',
    weight: 4,
    applies: (b) => jsonBody(b) !== undefined,
    apply(b, rng) {
      const body = jsonBody(b)!;
      const segs = pickPath(b, rng, (p) => p.value !== null && typeof p.value === 'object' && !Array.isArray(p.value)) ?? [];
      const target = segs.length === 0 ? body.value : segs.reduce<Json>((n, s) => (n as Record<string, Json>)[s as string]!, body.value);
      if (target === null || typeof target !== 'object' || Array.isArray(target)) {
        body.value = { extra: 1 };
        return;
      }
      const name = rng.pick(EXTRA_KEYS);
      // A copy: the catalogue's objects are shared, and a later mutation of this body may add a key to the
      // value itself (it is then an object of the body), which made {} contain itself (seed 1020241059).
      const value = clone(rng.pick<Json>([...WRONG_TYPES, { nested: { deeper: [1, 2, 3] } }, 'ZZZZZZZZZZZZZZZZZZZZZZ']));
      // A placeholder key written out verbatim, so `__proto__` arrives as an own JSON key.
      const key = PH(body.raws.length);
      body.raws.push({ key, bytes: Buffer.from(JSON.stringify(name)) });
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    },
  },
  {
    name: 'wrong type',
    weight: 6,
    applies: (b) => jsonBody(b) !== undefined,
    apply(b, rng) {
      const segs = pickPath(b, rng) ?? [];
      jsonBody(b)!.value = setAt(jsonBody(b)!.value, segs, clone(rng.pick(WRONG_TYPES)));
    },
  },
  {
    name: 'huge string (1 MB)',
    weight: 2,
    applies: (b) => jsonBody(b) !== undefined,
    apply(b, rng) {
      const segs = pickPath(b, rng) ?? [];
      const s = rng.pick(['x'.repeat(MB), 'é'.repeat(MB / 2), '😀'.repeat(MB / 4), 'x'.repeat(100_000), 'x'.repeat(65_536)]);
      jsonBody(b)!.value = setAt(jsonBody(b)!.value, segs, s);
    },
  },
  {
    name: 'deep nesting (10,000 levels)',
    weight: 2,
    applies: (b) => jsonBody(b) !== undefined,
    apply(b, rng) {
      const segs = pickPath(b, rng) ?? [];
      splice(b, segs, deep(rng.pick([10_000, 10_000, 1_000, 100_000]), rng.bool() ? 'array' : 'object'));
    },
  },
  {
    name: 'duplicate keys',
    weight: 3,
    applies: (b) => {
      const v = jsonBody(b)?.value;
      return v !== undefined && v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0;
    },
    apply(b, rng) {
      const body = jsonBody(b)!;
      const key = rng.pick(Object.keys(body.value as Record<string, Json>).filter((k) => !k.startsWith('__drill_raw_')).concat(['tag_name']));
      const other = JSON.stringify(rng.pick(WRONG_TYPES));
      const first = rng.bool();
      const previous = body.textEdit;
      body.textEdit = (text) => {
        const t = previous ? previous(text) : text;
        if (!t.startsWith('{') || t === '{}') return `{${JSON.stringify(key)}:${other},${JSON.stringify(key)}:${other}}`;
        return first ? `{${JSON.stringify(key)}:${other},${t.slice(1)}` : `${t.slice(0, -1)},${JSON.stringify(key)}:${other}}`;
      };
    },
  },
  {
    name: 'invalid UTF-8',
    weight: 3,
    applies: (b) => jsonBody(b) !== undefined,
    apply(b, rng) {
      const segs = pickPath(b, rng, (p) => typeof p.value === 'string') ?? pickPath(b, rng) ?? [];
      splice(b, segs, Buffer.concat([Buffer.from('"a'), rng.pick(INVALID_UTF8), Buffer.from('b"')]));
    },
  },
  {
    name: 'odd strings',
    weight: 3,
    applies: (b) => jsonBody(b) !== undefined,
    apply(b, rng) {
      const segs = pickPath(b, rng, (p) => typeof p.value === 'string') ?? pickPath(b, rng) ?? [];
      jsonBody(b)!.value = setAt(jsonBody(b)!.value, segs, rng.pick(ODD_STRINGS));
    },
  },
  {
    name: 'odd numbers',
    weight: 3,
    applies: (b) => jsonBody(b) !== undefined,
    apply(b, rng) {
      const segs = pickPath(b, rng, (p) => typeof p.value === 'number') ?? pickPath(b, rng) ?? [];
      splice(b, segs, Buffer.from(rng.pick(ODD_NUMBERS)));
    },
  },
  {
    name: 'huge array / many keys',
    weight: 1,
    applies: (b) => jsonBody(b) !== undefined,
    apply(b, rng) {
      const segs = pickPath(b, rng) ?? [];
      const which = rng.int(3);
      const bytes =
        which === 0
          ? `[${Array.from({ length: 100_000 }, () => '1').join(',')}]`
          : which === 1
            ? `[${Array.from({ length: 10_000 }, (_, i) => `{"metric_id":"m${i}","aggregation":"SINGLE","operator":"GT"}`).join(',')}]`
            : `{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
      splice(b, segs, Buffer.from(bytes));
    },
  },
  {
    name: 'content type',
    weight: 3,
    applies: (b) => hasBodyMethod(b),
    apply(b, rng, env) {
      // A copy: later mutations change the body in place, and the base serves every case of the operation.
      if (b.body.kind === 'none') b.body = { kind: 'json', value: clone((env.bases.get(b.route?.id ?? '')?.valid[0] ?? {}) as Json), raws: [] };
      b.contentType = rng.pick(CONTENT_TYPES);
    },
  },
  {
    name: 'not JSON',
    weight: 3,
    applies: (b) => hasBodyMethod(b),
    apply(b, rng) {
      const v = rng.pick(NOT_JSON);
      b.body = { kind: 'bytes', bytes: typeof v === 'string' ? Buffer.from(v, 'utf8') : v };
    },
  },
  {
    name: 'body where none is expected',
    weight: 1,
    applies: (b) => b.route !== null && b.route.body === null,
    apply(b, rng) {
      b.body = { kind: 'json', value: rng.pick<Json>([{ a: 1 }, [], 'x', { tag_name: 'x' }]), raws: [] };
      if (!hasBodyMethod(b)) b.forceRaw = true;
    },
  },
  {
    name: 'path parameter',
    weight: 6,
    applies: (b) => Object.keys(b.params).length > 0,
    apply(b, rng, env) {
      const name = rng.pick(Object.keys(b.params));
      b.pathChanged = true;
      const which = rng.int(3);
      if (which === 0) b.params[name] = { value: rng.pick(RAW_PATH), raw: true };
      else if (which === 1) b.params[name] = { value: rng.pick(TEXT_PATH), raw: false };
      else b.params[name] = { value: rng.pick(env.otherIds), raw: false };
    },
  },
  {
    name: 'invalid UTF-8 in the path',
    weight: 1,
    applies: (b) => Object.keys(b.params).length > 0,
    apply(b, rng) {
      const name = rng.pick(Object.keys(b.params));
      b.pathChanged = true;
      // Bytes over 0x7f are not allowed in a request target: Node's parser refuses the request.
      b.protocol = true;
      b.params[name] = { value: `\u0000RAW${rng.int(INVALID_UTF8.length)}`, raw: true };
      b.forceRaw = true;
    },
  },
  {
    name: 'query parameter',
    weight: 6,
    applies: () => true,
    apply(b, rng, env) {
      const declared = b.route?.params.query ?? [];
      const which = rng.int(declared.length > 0 ? 7 : 3);
      if (which === 0) {
        // Unknown parameters, many of them or one with a huge name.
        const count = rng.pick([1, 5, 300]);
        for (let i = 0; i < count; i++) b.query.push({ name: rng.pick(['x', 'unknown', '__proto__', 'constructor', `p${i}`]), value: count > 5 ? rng.word(4) : rng.pick(QUERY_VALUES.string!), raw: false });
        if (rng.bool(0.2)) b.query.push({ name: 'n'.repeat(2000), value: '1', raw: false });
      } else if (which === 1) {
        b.query.push({ name: rng.pick(['page_size', 'page_token', 'filter', 'x']), value: rng.pick(RAW_QUERY_VALUES), raw: true });
      } else if (which === 2) {
        b.query.push({ name: rng.pick(['page_token', 'x']), value: rng.pick(env.pageTokens.length > 0 ? env.pageTokens : ['x']), raw: false });
      } else {
        const p = rng.pick(declared);
        const values = QUERY_VALUES[p.type] ?? QUERY_VALUES.string!;
        b.query = b.query.filter((q) => q.name !== p.name);
        const repeat = which === 6 ? rng.range(2, 5) : 1;
        for (let i = 0; i < repeat; i++) b.query.push({ name: p.name, value: rng.bool(0.2) ? rng.pick(env.pageTokens.concat(['x'])) : rng.pick(values), raw: false });
        if (p.name === 'page_token' && rng.bool(0.5)) b.query.push({ name: p.name, value: Buffer.from(JSON.stringify({ offset: rng.pick([-1, 1e12, 'x', null]), list: 'tags' })).toString('base64url'), raw: false });
      }
    },
  },
  {
    name: 'workspace header',
    weight: 3,
    applies: () => true,
    apply(b, rng, env) {
      const values = ['', ' ', 'x'.repeat(27), 'x'.repeat(4000), 'ZZZZZZZZZZZZZZZZZZZZZZ', 'DEFAULT', 'null', '\t x \t', env.org.workspaceId.toLowerCase(), rng.pick(env.otherIds), 'wsp\u00e9\u00ff'];
      b.headers['X-Service-Workspace-Id'] = rng.pick(values);
    },
  },
  {
    name: 'API key',
    weight: 3,
    applies: () => true,
    apply(b, rng, env) {
      const which = rng.int(9);
      if (which === 0) b.key = null;
      else if (which === 1) b.key = '';
      else if (which === 2) b.key = `sk_wrong_${rng.word(20)}`;
      else if (which === 3) b.key = 'k'.repeat(4000);
      else if (which === 4) b.key = env.keys.none;
      else if (which === 5) b.key = env.keys.readOnly;
      else if (which === 6) {
        b.key = null;
        b.headers.Authorization = `Bearer ${env.org.key}`;
      } else if (which === 7) {
        // Two X-API-Key lines: a wrong one and the right one.
        b.key = null;
        b.rawLines.push(`X-API-Key: ${rng.bool() ? env.org.key : 'sk_wrong'}`, `x-api-key: ${rng.bool() ? 'sk_wrong' : env.org.key}`);
      } else b.key = `${env.org.key}\u00ff`;
    },
  },
  {
    name: 'headers',
    weight: 2,
    applies: () => true,
    apply(b, rng) {
      const which = rng.int(6);
      if (which === 0) for (let i = 0; i < 100; i++) b.headers[`X-Drill-${i}`] = rng.word(20);
      else if (which === 1) b.headers.Accept = rng.pick(['text/html', 'application/xml', '*/*;q=0', '']);
      else if (which === 2) b.headers['Content-Encoding'] = rng.pick(['gzip', 'br', 'identity', 'x']);
      else if (which === 3) b.rawLines.push(`X-Drill-Bytes: a\u00ff\u00fe\u0080b`);
      else if (which === 4) b.headers.Expect = '100-continue';
      else b.headers['X-HTTP-Method-Override'] = rng.pick(METHODS);
    },
  },
  {
    name: 'method',
    weight: 2,
    applies: (b) => b.route !== null,
    apply(b, rng, env) {
      const taken = env.methodsByPath.get(b.route!.path) ?? new Set();
      const free = METHODS.filter((m) => !taken.has(m));
      if (free.length > 0) b.method = rng.pick(free);
    },
  },
];

/** Requests to no operation, and bytes that are not HTTP. */
function garbage(b: Builder, rng: Rng, env: Env): void {
  const { host, port, basePath } = env.ctx.origin;
  const which = rng.int(16);
  b.route = null;
  b.key = env.org.key;
  if (which === 0) b.pathTemplate = `/${rng.word(8)}`;
  else if (which === 1) b.pathTemplate = `/${Array.from({ length: 500 }, () => 'a').join('/')}`;
  else if (which === 2) b.pathTemplate = rng.pick(['', '/', '//', '/tags/', '/tags//x', '/tags/a/b/c', '/openapi/../tags', '/TAGS', '/tags.json', '/tags?', '/%2e%2e/control/health']);
  else if (which === 3) {
    b.pathTemplate = rng.pick(['/control/health', '/control/sent', '/control/organizations', '/control/reset']);
    b.rawRequest = Buffer.from(`${rng.pick(['GET', 'POST'])} ${b.pathTemplate} HTTP/1.1\r\nHost: ${host}:${port}\r\nAuthorization: Bearer ${rng.pick(['', 'x', 'admin_wrong'])}\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}`);
  } else if (which === 4) b.rawRequest = Buffer.from(`GET http://${host}:${port}${basePath}/tags HTTP/1.1\r\nHost: ${host}:${port}\r\nX-API-Key: ${env.org.key}\r\nConnection: close\r\n\r\n`);
  else if (which === 5) b.rawRequest = Buffer.from(`GET ${basePath}/tags HTTP/1.0\r\nX-API-Key: ${env.org.key}\r\n\r\n`);
  else if (which === 6) {
    // A valid chunked body.
    const body = JSON.stringify({ tag_name: `chunked-${rng.word(8)}` });
    b.rawRequest = Buffer.from(`POST ${basePath}/tags HTTP/1.1\r\nHost: ${host}:${port}\r\nX-API-Key: ${env.org.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
  } else if (which === 7) {
    // Content-Length shorter than the body: the rest is read as the next request (not HTTP).
    b.protocol = true;
    b.rawRequest = Buffer.from(`POST ${basePath}/tags HTTP/1.1\r\nHost: ${host}:${port}\r\nX-API-Key: ${env.org.key}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{"tag_name":"short"}`);
  } else {
    // Not HTTP, or beyond Node's parser: Node answers (the sandbox's handler never runs).
    b.protocol = true;
    const junk = [
      'GARBAGE\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      'GET\r\n\r\n',
      `GET ${basePath}/tags HTTP/1.1\r\nHost: x\r\nNoColonHeader\r\n\r\n`,
      `GET ${basePath}/tags HTTP/1.1\r\nHost: x\r\nX-API-Key: a\u0000b\r\n\r\n`,
      `GET ${basePath}/tags HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      `GET ${basePath}/tags?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      `POST ${basePath}/tags HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      `POST ${basePath}/tags HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      `POST ${basePath}/tags HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n{}`,
      `POST ${basePath}/tags HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}`,
      `POST ${basePath}/tags HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      `FOO ${basePath}/tags HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET ${basePath}/tags HTTP/1.1\nHost: x\n\n`,
    ];
    const pick = rng.int(junk.length + 1);
    b.rawRequest = pick === junk.length ? randomBytesFrom(rng, 512) : Buffer.from(junk[pick]!, 'latin1');
  }
}

function randomBytesFrom(rng: Rng, n: number): Buffer {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = rng.int(256);
  return out;
}

/**
 * Keeps deliveries on loopback and secrets known: every `url` points at the receiver, every auth token is one
 * of ours. In place, without recursion and visiting each object once (drill/walk.ts): a body is whatever the
 * mutations made of it.
 */
function sanitize(value: Json, env: Env, n: number): Json {
  visitObjects(value, (node) => {
    if (Array.isArray(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'url' && typeof v === 'string' && /^https?:\/\//i.test(v)) setAt(node as Json, [k], `${env.receiver.url}/fuzz/${n}`);
      else if (k === 'auth_token' && typeof v === 'string') setAt(node as Json, [k], v.length > 255 ? `${env.tokens[n % env.tokens.length]}${'x'.repeat(300)}` : env.tokens[n % env.tokens.length]!);
    }
  });
  return value;
}

function makeCase(n: number, routes: readonly Route[], env: Env, seed: number): Case {
  const rng = new Rng(mix(seed, n));
  const { basePath } = env.ctx.origin;
  const route = routes[n % routes.length]!;
  const base = env.bases.get(route.id)!;
  const b: Builder = {
    kinds: [],
    method: route.method,
    route,
    pathTemplate: route.path,
    params: Object.fromEntries(Object.entries(base.spec.path ?? {}).map(([k, v]) => [k, { value: v, raw: false }])),
    query: Object.entries(base.spec.query ?? {}).map(([name, value]) => ({ name, value, raw: false })),
    headers: { ...(base.spec.headers ?? {}) },
    key: env.org.key,
    body: base.spec.body === undefined ? { kind: 'none' } : { kind: 'json', value: clone(base.spec.body) as Json, raws: [] },
    contentType: 'application/json',
    rawLines: [],
    protocol: false,
    forceRaw: false,
    pathChanged: false,
  };
  if (rng.bool(0.04)) {
    garbage(b, rng, env);
    b.kinds.push('no operation / not HTTP');
  } else {
    const count = rng.weighted<number>([
      [70, 1],
      [20, 2],
      [10, 3],
    ]);
    for (let i = 0; i < count; i++) {
      const now = MUTATIONS.filter((m) => m.applies(b));
      if (now.length === 0) break;
      const m = rng.weighted(now.map((x) => [x.weight, x] as const));
      m.apply(b, rng, env);
      b.kinds.push(m.name);
    }
  }
  const label = `#${n} ${b.route?.id ?? '-'} [${b.kinds.join(' + ')}]`;
  if (b.rawRequest) return { n, label, route: null, checkSuccess: false, method: '-', target: Buffer.alloc(0), headers: [], raw: b.rawRequest, useRaw: true, protocol: b.protocol };

  // The path: placeholders replaced (encoded, verbatim, or raw bytes).
  const pathParts: Buffer[] = [];
  let last = 0;
  for (const m of b.pathTemplate.matchAll(/\{([^}]+)\}/g)) {
    pathParts.push(Buffer.from(b.pathTemplate.slice(last, m.index)));
    const p = b.params[m[1]!];
    const value = p?.value ?? 'x';
    const rawUtf8 = /^\u0000RAW(\d+)$/.exec(value);
    pathParts.push(rawUtf8 ? Buffer.concat([Buffer.from('a'), INVALID_UTF8[Number(rawUtf8[1])]!, Buffer.from('b')]) : Buffer.from(p?.raw ? value : encodeURIComponent(value)));
    last = m.index! + m[0].length;
  }
  pathParts.push(Buffer.from(b.pathTemplate.slice(last)));
  const query = b.query.map((q) => `${encodeURIComponent(q.name)}=${q.raw ? q.value : encodeURIComponent(q.value)}`).join('&');
  const target = Buffer.concat([Buffer.from(basePath), ...pathParts, Buffer.from(query === '' ? '' : `?${query}`)]);

  let body: Buffer | undefined;
  if (b.body.kind === 'json') {
    b.body.value = sanitize(b.body.value, env, n);
    body = renderJson(b.body);
  } else if (b.body.kind === 'bytes') body = b.body.bytes;
  if (body !== undefined && !hasBodyMethod(b) && !b.forceRaw) body = undefined;

  const headers: [string, string][] = [];
  for (const [k, v] of Object.entries(b.headers)) headers.push([k, v]);
  if (b.key !== null) headers.push(['X-API-Key', b.key]);
  if (body !== undefined && b.contentType !== null) headers.push(['Content-Type', b.contentType]);
  for (const line of b.rawLines) {
    const i = line.indexOf(':');
    headers.push([line.slice(0, i), line.slice(i + 1).trim()]);
  }
  const useRaw = b.forceRaw || b.rawLines.length > 0 || headers.some(([, v]) => !isPlainHeaderValue(v)) || (body !== undefined && !hasBodyMethod(b)) || target.some((x) => x > 0x7e || x < 0x21) || b.method === 'HEAD';
  const checkSuccess = b.route !== null && b.method === b.route.method && b.pathTemplate === b.route.path && !b.pathChanged && (b.route.success.media === null || /json/i.test(b.route.success.media));
  return { n, label, route: b.route, checkSuccess, method: b.method, target, headers, ...(body === undefined ? {} : { body }), useRaw, protocol: b.protocol };
}

function rawBytes(c: Case, host: string, port: number): Buffer {
  if (c.raw) return c.raw;
  const lines = [`${c.method} `];
  const head: Buffer[] = [Buffer.from(lines[0]!), c.target, Buffer.from(` HTTP/1.1\r\nHost: ${host}:${port}\r\n`)];
  for (const [k, v] of c.headers) head.push(Buffer.from(`${k}: ${v}\r\n`, 'latin1'));
  if (c.body !== undefined) head.push(Buffer.from(`Content-Length: ${c.body.length}\r\n`));
  head.push(Buffer.from('Connection: close\r\n\r\n'));
  if (c.body !== undefined) head.push(c.body);
  return Buffer.concat(head);
}

function describeRequest(c: Case): string {
  if (c.raw) return `raw bytes: ${JSON.stringify(clip(c.raw.toString('latin1'), 200))}`;
  const body = c.body === undefined ? '' : ` body(${c.body.length} B): ${JSON.stringify(clip(c.body.toString('latin1'), 160))}`;
  const headers = clip(c.headers.filter(([k]) => k.toLowerCase() !== 'x-api-key').map(([k, v]) => `${k}: ${clip(v, 40)}`).join('; '), 200);
  return `${c.method} ${clip(c.target.toString('latin1'), 160)}${headers ? ` {${headers}}` : ''}${body}`;
}

function describeAnswer(a: Answer): string {
  return a.status === 0 ? `no answer (${a.error})` : `${a.status} ${clip(a.text, 240)}`;
}

// ---------------------------------------------------------------------------------------------------------
// The drill

export async function fuzzDrill(ctx: DrillContext, receiver: Receiver): Promise<DrillResult> {
  const started = performance.now();
  const { options } = ctx;
  const deadline = started + options.caps.fuzz * 1000;
  const findings = new Findings(8);
  const notes: string[] = [];
  const org = await ctx.createOrganization('drill fuzz');
  const otherOrg = await ctx.createOrganization('drill fuzz other');
  const allPermissions = [...new Set(ctx.suite.routes.flatMap((r) => r.permissions))];
  const keys = { none: await ctx.createApiKey(org, []), readOnly: await ctx.createApiKey(org, allPermissions.filter((p) => p.endsWith(':read'))), other: otherOrg.key };
  const tokens = Array.from({ length: 8 }, (_, i) => ctx.token(`fuzz webhook token ${i}`));
  const world = ctx.world('fuzz', org);
  const routes = [...ctx.suite.routes].sort((a, b) => (a.id < b.id ? -1 : 1));
  const methodsByPath = new Map<string, Set<string>>();
  for (const r of routes) methodsByPath.set(r.path, (methodsByPath.get(r.path) ?? new Set()).add(r.method));

  // Setup: one prepared request per operation (creating what it needs), in the fuzz organization.
  const setupStarted = performance.now();
  const bases = new Map<string, Base>();
  for (const route of routes) bases.set(route.id, await buildBase(ctx, world, route, mix(options.seed, route.id.length, bases.size)));
  const unprepared = [...bases.values()].filter((b) => !b.ok);
  for (const b of unprepared) notes.push(`${b.route.id}: no prepared request (${clip(b.error ?? '', 160)}); fuzzed from schema values instead`);
  // Ids of other resources (wrong type for a path), and page tokens issued by lists.
  const otherIds = [...new Set(world.created.map((c) => c.id))];
  const pageTokens: string[] = [];
  for (const route of routes.filter((r) => r.pagination && r.params.path.length === 0 && r.auth.length > 0)) {
    const base = bases.get(route.id)!;
    const answer = await ctx.route('fuzz', route, { ...base.spec, query: { ...base.spec.query, [route.pagination!.pageSize]: '1' } }, org.key);
    // Opaque tokens only: an offset or a page number is no token to forge from (issue 27).
    const token = route.pagination!.style === 'token' ? nextPageParam(route, answer.body) : undefined;
    if (token !== undefined) pageTokens.push(token);
  }
  const env: Env = { ctx, org, keys, otherIds: otherIds.length > 0 ? otherIds : ['ZZZZZZZZZZZZZZZZZZZZZZ'], pageTokens, methodsByPath, receiver, tokens, bases };
  const setupMs = performance.now() - setupStarted;

  // The requests.
  const statusClasses: Record<string, number> = {};
  const perKind: Record<string, number> = {};
  const perRoute = new Map<string, number>();
  let sent = 0;
  let rawSent = 0;
  let protocolCount = 0;
  let maxMs = 0;
  let maxLabel = '';
  let errorsChecked = 0;
  const nodeStatuses: Record<number, number> = {};
  const latencies: number[] = [];
  const { host, port } = ctx.origin;
  const rssBefore = ctx.sandbox.rssKb();
  const cpuBefore = ctx.sandbox.cpuSeconds() ?? 0;
  const ownCpuBefore = process.cpuUsage();
  const requestsStarted = performance.now();
  await pool(
    Array.from({ length: options.requests }, (_, i) => i),
    options.concurrency,
    async (n) => {
      // A bug of the drill itself (building or judging a case) is a finding with the seed and the case number
      // to replay it (`--seed`), and the fuzz goes on.
      try {
        await fuzzCase(n);
      } catch (error) {
        findings.add('drill error', `seed ${options.seed}, case #${n}: ${clip((error as Error)?.stack ?? String(error), 600)}`);
      }
    },
    () => performance.now() > deadline || !ctx.sandbox.alive(),
  );
  async function fuzzCase(n: number): Promise<void> {
    const c = makeCase(n, routes, env, options.seed);
    let answer: Answer;
    if (c.useRaw) {
      rawSent++;
      answer = await sendRaw(ctx.rec, 'fuzz', c.label, host, port, rawBytes(c, host, port), 30_000);
    } else {
      answer = await send(ctx.rec, 'fuzz', c.label, c.method, `http://${host}:${port}${c.target.toString('latin1')}`, {
        headers: Object.fromEntries(c.headers),
        ...(c.body === undefined ? {} : { body: c.body }),
      });
    }
    sent++;
    if (c.protocol) protocolCount++;
    if (c.route) perRoute.set(c.route.id, (perRoute.get(c.route.id) ?? 0) + 1);
    for (const k of c.label.slice(c.label.indexOf('[') + 1, -1).split(' + ')) perKind[k] = (perKind[k] ?? 0) + 1;
    const cls = answer.status === 0 ? 'no answer' : `${Math.floor(answer.status / 100)}xx`;
    statusClasses[cls] = (statusClasses[cls] ?? 0) + 1;
    latencies.push(answer.ms);
    if (answer.ms > maxMs) {
      maxMs = answer.ms;
      maxLabel = c.label;
    }
    const where = `${c.label}: ${describeRequest(c)} -> ${describeAnswer(answer)}`;
    if (answer.status === 0) findings.add('no answer', where);
    else if (answer.status >= 500) findings.add('5xx', where);
    else if (answer.status >= 400 && c.method !== 'HEAD') {
      const problem = envelopeProblem(answer);
      // Node's HTTP parser answers what it refuses itself (no body, no request id): the sandbox never saw it.
      const byNode = answer.text === '' && answer.headers['x-request-id'] === undefined;
      errorsChecked++;
      if (problem && byNode) nodeStatuses[answer.status] = (nodeStatuses[answer.status] ?? 0) + 1;
      // One example per kind of request (its mutations, or its first bytes when it is not HTTP).
      const group = c.raw ? c.raw.subarray(0, 400).toString('latin1').replace(/(Host|X-API-Key): [^\r\n]*\r\n/g, '').slice(0, 90) : c.label.slice(c.label.indexOf('['));
      if (problem) findings.add(byNode ? NODE_PARSER : 'error without the envelope', `${problem}; ${where}`, group);
    } else if (answer.status >= 200 && answer.status < 300 && c.checkSuccess && c.route?.validators.response && answer.text !== '' && /json/i.test(answer.headers['content-type'] ?? '')) {
      const result = c.route.validators.response.validate(answer.body);
      if (!result.ok) findings.add('2xx body off the spec', `${result.errors.slice(0, 2).map((e) => `${e.field ?? '(body)'}: ${e.description}`).join('; ')}; ${where}`);
    } else if (answer.status < 200 || (answer.status >= 300 && answer.status < 400)) findings.add('unexpected status', where);
    if (answer.ms > 10_000) findings.add('slower than 10 s', `${Math.round(answer.ms)} ms; ${where}`);
    if (!options.quiet && sent % 2000 === 0) process.stderr.write(`  fuzz: ${sent}/${options.requests} (${Math.round((performance.now() - requestsStarted) / 1000)} s)\n`);
  }
  const requestsMs = performance.now() - requestsStarted;
  const sandboxCpu = (ctx.sandbox.cpuSeconds() ?? 0) - cpuBefore;
  const ownCpu = process.cpuUsage(ownCpuBefore);
  if (sent < options.requests) findings.add('stopped early', `${sent} of ${options.requests} requests sent before the ${options.caps.fuzz} s cap${ctx.sandbox.alive() ? '' : ' (the sandbox is gone)'}`);

  // Still up, and still serving.
  const alive = ctx.sandbox.alive();
  const catalog = alive ? await ctx.api('fuzz', 'after: GET /openapi', 'GET', '/openapi') : undefined;
  if (!alive) findings.add('process gone', `the sandbox exited during the fuzz: ${JSON.stringify(ctx.log.unexpectedExits)}`);
  else if (catalog?.status !== 200) findings.add('not serving after the fuzz', `GET /v1/openapi -> ${describeAnswer(catalog!)}`);
  const rssAfter = ctx.sandbox.rssKb();

  // Read back what the fuzz left: every list (all pages) and every listed record through its get operation.
  const readBack = alive ? await readBackAll(ctx, org, routes, bases, findings, deadline + 120_000) : { lists: 0, pages: 0, gets: 0 };

  latencies.sort((a, b) => a - b);
  const pct = (p: number): number => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0);
  const missing = routes.filter((r) => (perRoute.get(r.id) ?? 0) === 0).map((r) => r.id);
  if (missing.length > 0) findings.add('operations not reached', missing.join(', '));
  const perRouteCounts = [...perRoute.values()];
  const ms = performance.now() - started;
  return {
    name: 'fuzz',
    ok: findings.total === 0,
    ms,
    numbers: [
      ['seed', options.seed],
      ['requests sent', sent],
      ['operations covered', `${perRoute.size} of ${routes.length} (${Math.min(...perRouteCounts)}-${Math.max(...perRouteCounts)} requests each)`],
      ['operations with a prepared valid request', `${routes.length - unprepared.length} of ${routes.length}`],
      ['status classes', Object.entries(statusClasses).sort().map(([k, v]) => `${k}: ${v}`).join(', ')],
      ['5xx', statusClasses['5xx'] ?? 0],
      ['error answers checked for the envelope', errorsChecked],
      ['errors without the envelope', `${findings.counts['error without the envelope'] ?? 0} from the sandbox, ${findings.counts[NODE_PARSER] ?? 0} from Node's HTTP parser (${Object.entries(nodeStatuses).map(([s, n]) => `${s}: ${n}`).join(', ') || 'none'}; the sandbox's handler never ran)`],
      ['sent on a raw socket', rawSent],
      ['not-HTTP / over-limit requests (answered by Node)', protocolCount],
      ['concurrency', options.concurrency],
      ['latency p50 / p99 / max', `${pct(0.5)} / ${pct(0.99)} / ${Math.round(maxMs)} ms (max: ${clip(maxLabel, 100)})`],
      ['throughput', `${Math.round(sent / (requestsMs / 1000))} requests/s over ${Math.round(requestsMs / 1000)} s (CPU: sandbox ${sandboxCpu.toFixed(0)} s, drill ${((ownCpu.user + ownCpu.system) / 1e6).toFixed(0)} s)`],
      ['webhook deliveries received (fuzz-created webhooks, all on loopback)', receiver.received.filter((r) => r.path.startsWith('/fuzz/')).length],
      ['sandbox RSS before / after', `${Math.round((rssBefore ?? 0) / 1024)} / ${Math.round((rssAfter ?? 0) / 1024)} MB`],
      ['process up afterwards', alive && catalog?.status === 200 ? 'yes (GET /v1/openapi 200)' : 'NO'],
      ['read back afterwards', `${readBack.lists} lists (${readBack.pages} pages), ${readBack.gets} records`],
      ['setup', `${Math.round(setupMs / 1000)} s (prepared requests for every operation)`],
      ['mutations used', Object.entries(perKind).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')],
    ],
    findings: findings.kept,
    findingCounts: findings.counts,
    notes,
  };
}

async function readBackAll(ctx: DrillContext, org: Org, routes: readonly Route[], bases: Map<string, Base>, findings: Findings, deadline: number): Promise<{ lists: number; pages: number; gets: number }> {
  let lists = 0;
  let pages = 0;
  let gets = 0;
  const ids = new Map<string, Set<string>>();
  for (const route of routes.filter((r) => r.method === 'GET' && r.auth.length > 0 && (r.action === 'list' || r.action === 'versions'))) {
    const base = bases.get(route.id)!;
    lists++;
    let token: string | undefined;
    for (let page = 0; page < 50 && performance.now() < deadline; page++) {
      const query: Record<string, string> = { ...base.spec.query };
      if (route.pagination) {
        query[route.pagination.pageSize] = '100';
        if (token) query[route.pagination.pageToken] = token;
      }
      const answer = await ctx.route('fuzz', route, { ...base.spec, query }, org.key);
      pages++;
      if (answer.status !== 200) {
        // A list under a parent the fuzz deleted (an agent's versions) is 404, as it should be.
        if (!(answer.status === 404 && route.params.path.length > 0 && !envelopeProblem(answer))) findings.add('read back failed', `${route.id} page ${page}: ${describeAnswer(answer)}`);
        break;
      }
      const result = route.validators.response?.validate(answer.body);
      if (result && !result.ok) findings.add('2xx body off the spec (read back)', `${route.id}: ${result.errors.slice(0, 2).map((e) => `${e.field ?? '(body)'}: ${e.description}`).join('; ')}`);
      const shape = route.success.shape;
      const items = shape.kind === 'list' ? ((answer.body as Record<string, unknown>)[shape.items] as Record<string, unknown>[] | undefined) : undefined;
      const resource = ctx.suite.resources.find((r) => r.name === route.resource);
      if (items && resource && route.action === 'list') for (const item of items) if (typeof item[resource.id] === 'string') (ids.get(route.resource!) ?? ids.set(route.resource!, new Set()).get(route.resource!)!).add(item[resource.id] as string);
      token = nextPageParam(route, answer.body);
      if (!token) break;
    }
  }
  const getRoutes = routes.filter((r) => r.action === 'get' && r.aliasOf === null && r.params.path.length === 1 && r.auth.length > 0);
  for (const route of getRoutes) {
    const base = bases.get(route.id)!;
    for (const id of [...(ids.get(route.resource!) ?? [])].slice(0, 150)) {
      if (performance.now() > deadline) break;
      const answer = await ctx.route('fuzz', route, { ...base.spec, path: { [route.params.path[0]!.name]: id } }, org.key);
      gets++;
      if (answer.status !== 200) findings.add('read back failed', `${route.id} ${id}: ${describeAnswer(answer)}`);
      else {
        const result = route.validators.response?.validate(answer.body);
        if (result && !result.ok) findings.add('2xx body off the spec (read back)', `${route.id} ${id}: ${result.errors.slice(0, 2).map((e) => `${e.field ?? '(body)'}: ${e.description}`).join('; ')}`);
      }
    }
  }
  return { lists, pages, gets };
}
