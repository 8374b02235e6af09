// Reading a request: the body (size-bounded, content type checked; JSON, where malformed JSON is 400, or a form
// where the operation takes one) and the query and header parameters, coerced from strings to the JSON types the
// route table declares so the generated validators can check them.
import type { BodyRow, ParamRow } from '../../contracts/route-table.js';
import { setOwn } from '../engine/records.js';
import { invalid } from '../errors.js';
import type { HeaderReader, SandboxRequest } from './exchange.js';
import { checkJsonDepth } from './json-depth.js';
import { MAX_BODY_BYTES, MAX_BODY_DEPTH } from './limits.js';

export { MAX_BODY_BYTES };

/** Refuses invalid UTF-8 instead of replacing it; one decoder serves every request (no streaming state). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function coerce(raw: string, type: string): unknown {
  if (type === 'integer' || type === 'number') {
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw.trim())) return Number(raw);
    return raw;
  }
  if (type === 'boolean') {
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    return raw;
  }
  return raw;
}

/** `[a][b]` as ['a', 'b']; null for anything else (a key that only starts like the parameter's). */
function bracketPath(rest: string): string[] | null {
  if (!/^(\[[^[\]]*\])+$/.test(rest)) return null;
  return rest.slice(1, -1).split('][');
}

/** Where `path` leads in `root`, made of own plain objects on the way; null where a value already stands there. */
function objectAt(root: Record<string, unknown>, path: readonly string[]): Record<string, unknown> | null {
  let at = root;
  for (const key of path) {
    if (!Object.hasOwn(at, key)) setOwn(at, key, {});
    const next = at[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) return null;
    at = next as Record<string, unknown>;
  }
  return at;
}

/**
 * An object-valued query parameter (ParamRow.object) read as the generated client writes it: `deepObject`
 * (`filter[status]=open&filter[range][min]=3`, a repeated key a list), `form` exploded (each property its own
 * name) or not (`filter=status,open,min,3`). Its top-level properties are typed as their schema says; deeper ones
 * stay strings. Undefined when none of it is present. Nesting is bounded like a JSON body's.
 */
function readObjectParam(p: ParamRow & { object: NonNullable<ParamRow['object']> }, search: URLSearchParams): Record<string, unknown> | undefined {
  const fields = new Map(p.object.fields.map((f) => [f.name, f]));
  const typed = (name: string, values: string[]): unknown => {
    const field = fields.get(name);
    // A list: repeated keys are its items, one value a comma-separated list (as a list parameter's, readQuery).
    if (field?.array) return (values.length === 1 ? values[0]!.split(',') : values).filter((v) => v !== '').map((v) => coerce(v, field.type));
    const items = values.map((v) => coerce(v, field?.type ?? 'string'));
    return items.length === 1 || field ? items[items.length - 1] : items;
  };
  const out: Record<string, unknown> = {};
  if (p.object.style === 'deepObject') {
    const gathered = new Map<string, { path: string[]; values: string[] }>();
    for (const [key, value] of search) {
      if (!key.startsWith(`${p.name}[`)) continue;
      const path = bracketPath(key.slice(p.name.length));
      if (path === null) continue;
      if (path.length > MAX_OBJECT_PARAM_DEPTH) throw invalid(p.name, `nested deeper than ${MAX_OBJECT_PARAM_DEPTH} levels`);
      const entry = gathered.get(key) ?? { path, values: [] };
      entry.values.push(value);
      gathered.set(key, entry);
    }
    if (gathered.size === 0) return undefined;
    for (const { path, values } of gathered.values()) {
      const parent = objectAt(out, path.slice(0, -1));
      const name = path[path.length - 1]!;
      if (parent === null || Object.hasOwn(parent, name)) throw invalid(p.name, `${p.name}[${path.join('][')}] is given both as a value and as an object`);
      setOwn(parent, name, path.length === 1 ? typed(name, values) : values.length === 1 ? values[0] : values);
    }
    return out;
  }
  if (p.explode) {
    let found = false;
    for (const name of fields.keys()) {
      const values = search.getAll(name);
      if (values.length === 0) continue;
      found = true;
      setOwn(out, name, typed(name, values));
    }
    return found ? out : undefined;
  }
  const values = search.getAll(p.name);
  if (values.length === 0) return undefined;
  const parts = values[values.length - 1]!.split(',');
  if (parts.length % 2 !== 0) throw invalid(p.name, 'must be pairs of a property and its value (name,value,...)');
  for (let i = 0; i < parts.length; i += 2) setOwn(out, parts[i]!, typed(parts[i]!, [parts[i + 1]!]));
  return out;
}

/** How deep a deepObject parameter's keys may nest (`a[b][c]`...): as deep as a JSON body may. */
const MAX_OBJECT_PARAM_DEPTH = MAX_BODY_DEPTH;

export function readQuery(params: readonly ParamRow[], search: URLSearchParams, options: { splitCommas?: boolean } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params) {
    if (p.object) {
      const value = readObjectParam({ ...p, object: p.object }, search);
      if (value !== undefined) setOwn(out, p.name, value);
      continue;
    }
    const values = search.getAll(p.name);
    if (values.length === 0) continue;
    if (p.array) {
      // One value is a comma-separated list (form, explode false); repeated names are the items (explode true).
      // A form body's list is always repeated names (OpenAPI's default encoding), so a comma stays in its item.
      const items = values.length === 1 && options.splitCommas !== false ? values[0]!.split(',') : values;
      setOwn(out, p.name, items.filter((v) => v !== '').map((v) => coerce(v, p.type)));
    } else {
      setOwn(out, p.name, coerce(values[values.length - 1]!, p.type));
    }
  }
  return out;
}

/** Path parameters (already decoded by the router), coerced like query ones: an integer id is a number (issue 27). */
export function readPath(params: readonly ParamRow[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const p of params) {
    const value = values[p.name];
    if (typeof value === 'string') setOwn(out, p.name, coerce(value, p.type));
  }
  return out;
}

/** Header parameters, coerced like query ones (the spec declares no list-valued header). */
export function readHeaders(params: readonly ParamRow[], headers: HeaderReader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params) {
    const value = headers.get(p.name);
    if (value !== null) setOwn(out, p.name, coerce(value, p.type));
  }
  return out;
}

export function isJsonContentType(value: string | null): boolean {
  // Header values arrive without surrounding whitespace (HTTP strips it; so do fetch's Headers and node:http).
  return value !== null && /^application\/(?:[\w.+-]+\+)?json\s*(;|$)/i.test(value);
}

export function isFormContentType(value: string | null): boolean {
  return value !== null && /^application\/x-www-form-urlencoded\s*(;|$)/i.test(value);
}

/** A form body as the object its schema describes: each declared field read like a query parameter. */
function readForm(text: string, fields: readonly ParamRow[]): Record<string, unknown> {
  const search = new URLSearchParams(text);
  const out = readQuery(fields, search, { splitCommas: false });
  const declared = new Set(fields.map((f) => f.name));
  // An object field arrives as its JSON (the generated client encodes it so); anything else stays the string sent.
  for (const f of fields) {
    const value = out[f.name];
    if (f.type !== 'object' || f.array || typeof value !== 'string' || !value.startsWith('{')) continue;
    try {
      setOwn(out, f.name, JSON.parse(value) as unknown);
    } catch {
      // Not JSON: the validators refuse the string by the field's name.
    }
  }
  // Fields the schema does not declare stay strings (the last one of a repeated name), for the validators to judge.
  for (const [name, value] of search) if (!declared.has(name)) setOwn(out, name, value);
  checkJsonDepth(out); // an object field's JSON is nested like any JSON body
  return out;
}

/**
 * The parsed body, or `undefined` when there is none: JSON, or a form where the operation declares
 * `application/x-www-form-urlencoded` and the request says so. Errors: 400 on `Content-Type` for a body in a
 * media type the operation does not take, 400 (field null) for malformed JSON or an over-large body, 400 naming
 * the field for a body nested deeper than MAX_BODY_DEPTH.
 */
export async function readBody(request: SandboxRequest, row: Pick<BodyRow, 'media' | 'form'>): Promise<unknown> {
  const length = Number(request.headers.get('content-length')); // no header: Number(null) is 0
  if (length > MAX_BODY_BYTES) throw invalid(null, `request body exceeds ${MAX_BODY_BYTES} bytes`);
  const bytes = await request.bytes();
  if (bytes === null) throw invalid(null, `request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (bytes.byteLength === 0) return undefined;
  const type = request.headers.get('content-type');
  const accepted = row.media;
  const wantsJson = accepted.length === 0 || accepted.some((m) => isJsonContentType(m));
  const takesForm = row.form !== undefined;
  if (wantsJson && !isJsonContentType(type) && !(takesForm && isFormContentType(type))) {
    throw invalid('Content-Type', takesForm ? 'must be application/json or application/x-www-form-urlencoded' : 'must be application/json');
  }
  // A form-only operation also takes JSON (as it did before forms were read): the same object, typed already.
  if (!wantsJson && takesForm && !isFormContentType(type) && !isJsonContentType(type)) {
    throw invalid('Content-Type', 'must be application/x-www-form-urlencoded');
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw invalid(null, 'request body is not valid UTF-8');
  }
  if (takesForm && isFormContentType(type)) return readForm(text, row.form!);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw invalid(null, `request body is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
  }
  // Before anything recurses over the value (validators, copies, storage): see json-depth.ts.
  checkJsonDepth(value);
  return value;
}
