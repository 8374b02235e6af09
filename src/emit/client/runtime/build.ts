// Building a request from an operation descriptor: the URL (path and query parameters by their OpenAPI style),
// the headers (credentials, workspace, declared and extra headers) and the encoded body.
import type { AuthSpec, CallOptions, ClientConfig, OperationSpec, ParamSpec } from './types.js';
import { applyAuthHeaders, authQueryPairs, type ResolvedCredentials } from './auth.js';
import { ownEntries, ownValue } from './own.js';

/** The security schemes chosen for a call and the credentials to fill them with. */
export interface CallAuth {
  readonly schemes: readonly AuthSpec[];
  readonly credentials: ResolvedCredentials;
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function scalar(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

export function buildUrl(config: ClientConfig, op: OperationSpec, pathValues: readonly unknown[], query: unknown, auth: CallAuth): string {
  let path = op.path[0] ?? '';
  op.pathParams.forEach((name, i) => {
    const value = pathValues[i];
    if (value === undefined || value === null) throw new TypeError(`${op.id}: path parameter ${name} is required`);
    const encoded = encodeURIComponent(scalar(value));
    // URL parsers resolve `.`/`..` segments (also when percent-encoded): such a value would change the path.
    if (encoded === '.' || encoded === '..') throw new TypeError(`${op.id}: path parameter ${name} must not be "." or ".."`);
    path += encoded + (op.path[i + 1] ?? '');
  });
  const parts: string[] = [];
  const declared = new Set<string>();
  for (const spec of op.query) {
    declared.add(spec.name);
    parts.push(...serializeQueryParam(spec, ownValue(query, spec.name)));
  }
  // Undeclared keys (the page token of a paginated call, forward-compatible extras): form, exploded.
  for (const [name, value] of ownEntries(query)) {
    if (!declared.has(name)) parts.push(...serializeQueryParam({ name, style: 'form', explode: true }, value));
  }
  parts.push(...authQueryPairs(auth.schemes, auth.credentials));
  const base = config.baseUrl.replace(/\/+$/, '');
  return base + path + (parts.length > 0 ? `?${parts.join('&')}` : '');
}

/** One query parameter as `key=value` pairs (already encoded), per OpenAPI style/explode. */
function serializeQueryParam(spec: ParamSpec, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const key = encodeURIComponent(spec.name);
  const enc = (v: unknown): string => encodeURIComponent(scalar(v));
  if (Array.isArray(value)) {
    const items = value.filter((v) => v !== undefined && v !== null);
    if (items.length === 0) return [];
    if (spec.explode) return items.map((v) => `${key}=${enc(v)}`);
    const separator = spec.style === 'spaceDelimited' ? '%20' : spec.style === 'pipeDelimited' ? '|' : ',';
    return [`${key}=${items.map(enc).join(separator)}`];
  }
  if (isPlainObject(value)) {
    const entries = ownEntries(value).filter(([, v]) => v !== undefined && v !== null);
    if (spec.style === 'deepObject') return deepObjectPairs(key, entries);
    if (spec.explode) return entries.map(([k, v]) => `${encodeURIComponent(k)}=${enc(v)}`);
    return entries.length === 0 ? [] : [`${key}=${entries.map(([k, v]) => `${encodeURIComponent(k)},${enc(v)}`).join(',')}`];
  }
  return [`${key}=${enc(value)}`];
}

function deepObjectPairs(prefix: string, entries: [string, unknown][]): string[] {
  const out: string[] = [];
  for (const [k, v] of entries) {
    if (v === undefined || v === null) continue;
    const key = `${prefix}[${encodeURIComponent(k)}]`;
    if (Array.isArray(v)) for (const item of v) out.push(`${key}=${encodeURIComponent(scalar(item))}`);
    else if (isPlainObject(v)) out.push(...deepObjectPairs(key, ownEntries(v)));
    else out.push(`${key}=${encodeURIComponent(scalar(v))}`);
  }
  return out;
}

/** A header parameter value, OpenAPI `simple` style. */
function headerValue(spec: ParamSpec, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.filter((v) => v !== undefined && v !== null).map(scalar).join(',');
  if (isPlainObject(value)) {
    const entries = ownEntries(value).filter(([, v]) => v !== undefined && v !== null);
    return entries.map(([k, v]) => (spec.explode ? `${k}=${scalar(v)}` : `${k},${scalar(v)}`)).join(',');
  }
  return scalar(value);
}

export function buildHeaders(config: ClientConfig, op: OperationSpec, options: CallOptions<unknown, unknown>, auth: CallAuth): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(config.headers)) headers.set(name, value);
  if (options.accept !== undefined) headers.set('Accept', options.accept);
  else if (op.accept !== undefined) headers.set('Accept', op.accept);
  applyAuthHeaders(headers, auth.schemes, auth.credentials);
  if (op.workspaceHeader !== undefined && op.workspaceDefault && config.workspaceId !== undefined) {
    headers.set(op.workspaceHeader, config.workspaceId);
  }
  const declared = new Set<string>();
  for (const spec of op.headers) {
    declared.add(spec.name);
    const value = headerValue(spec, ownValue(options.headers, spec.name));
    if (value !== undefined) headers.set(spec.name, value);
  }
  for (const [name, value] of ownEntries(options.headers)) {
    const text = declared.has(name) ? undefined : headerValue({ name, style: 'simple', explode: false }, value);
    if (text !== undefined) headers.set(name, text);
  }
  for (const [name, value] of Object.entries(options.extraHeaders ?? {})) headers.set(name, value);
  if (op.workspaceHeader !== undefined && options.workspaceId !== undefined) headers.set(op.workspaceHeader, options.workspaceId);
  return headers;
}

export function mediaEssence(mediaType: string | null | undefined): string {
  return (mediaType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function isJsonMedia(essence: string): boolean {
  return essence === 'application/json' || essence.endsWith('+json');
}

export function isBinaryMedia(essence: string): boolean {
  return (
    essence === 'application/octet-stream' ||
    essence === 'application/pdf' ||
    essence === 'application/zip' ||
    /^(audio|image|video)\//.test(essence)
  );
}

/** Encode the body for the operation's (first) request media type; sets Content-Type unless already set. */
export function encodeBody(mediaType: string | undefined, body: unknown, headers: Headers): RequestInit['body'] {
  if (body === undefined) return undefined;
  const setType = (type: string): void => {
    if (!headers.has('content-type')) headers.set('Content-Type', type);
  };
  const declared = mediaType ?? 'application/json';
  const essence = mediaEssence(declared);
  // Already-encoded bodies pass through; FormData must not get a Content-Type (fetch adds the boundary).
  if (body instanceof FormData) return body;
  if (body instanceof URLSearchParams) {
    setType('application/x-www-form-urlencoded');
    return body;
  }
  if (body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    if (!essence.includes('*') && !essence.startsWith('multipart/')) setType(declared);
    return body as RequestInit['body'];
  }
  if (essence === 'application/x-www-form-urlencoded') {
    setType(declared);
    const params = new URLSearchParams();
    for (const [key, value] of ownEntries(body)) appendAll(value, (v) => params.append(key, scalar(v)));
    return params.toString();
  }
  if (essence.startsWith('multipart/')) {
    const form = new FormData();
    for (const [key, value] of ownEntries(body)) {
      appendAll(value, (v) => (v instanceof Blob ? form.append(key, v) : form.append(key, scalar(v))));
    }
    return form;
  }
  if (typeof body === 'string' && !isJsonMedia(essence)) {
    setType(essence.includes('*') ? 'text/plain' : declared);
    return body;
  }
  setType(isJsonMedia(essence) ? declared : 'application/json');
  return JSON.stringify(body);
}

function appendAll(value: unknown, append: (v: unknown) => void): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) for (const v of value) appendAll(v, append);
  else append(value);
}
