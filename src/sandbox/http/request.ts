// Reading a request: the JSON body (size-bounded, content type checked, malformed JSON is 400) and the
// query and header parameters, coerced from strings to the JSON types the route table declares so the
// generated validators can check them.
import type { ParamRow } from '../../contracts/route-table.js';
import { setOwn } from '../engine/records.js';
import { invalid } from '../errors.js';
import type { HeaderReader, SandboxRequest } from './exchange.js';
import { checkJsonDepth } from './json-depth.js';
import { MAX_BODY_BYTES } from './limits.js';

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

export function readQuery(params: readonly ParamRow[], search: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params) {
    const values = search.getAll(p.name);
    if (values.length === 0) continue;
    if (p.array) {
      // One value is a comma-separated list (form, explode false); repeated names are the items (explode true).
      const items = values.length === 1 ? values[0]!.split(',') : values;
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

/**
 * The parsed JSON body, or `undefined` when there is none. Errors: 400 on `Content-Type` for a body that is
 * not JSON, 400 (field null) for malformed JSON or an over-large body, 400 naming the field for a body nested
 * deeper than MAX_BODY_DEPTH.
 */
export async function readJsonBody(request: SandboxRequest, accepted: readonly string[]): Promise<unknown> {
  const length = Number(request.headers.get('content-length')); // no header: Number(null) is 0
  if (length > MAX_BODY_BYTES) throw invalid(null, `request body exceeds ${MAX_BODY_BYTES} bytes`);
  const bytes = await request.bytes();
  if (bytes === null) throw invalid(null, `request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (bytes.byteLength === 0) return undefined;
  const type = request.headers.get('content-type');
  const wantsJson = accepted.length === 0 || accepted.some((m) => isJsonContentType(m));
  if (wantsJson && !isJsonContentType(type)) throw invalid('Content-Type', 'must be application/json');
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw invalid(null, 'request body is not valid UTF-8');
  }
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
