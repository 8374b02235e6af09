// Sending a request of an operation and asserting on the answer: status, the error envelope, the detail field.
import { placeCredential } from './credential.js';
import { fail } from './result.js';
import { withSelect } from './select.js';
import type { Route } from './suite-data.js';
import type { Target } from './target.js';

export interface Answer {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
}

export interface RequestSpec {
  path?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** A JSON value, or `{ raw }` for bytes that are not JSON. */
  body?: unknown;
  raw?: string;
  /** Which key to send: the target's (default), none, or a given one. */
  key?: string | null;
}

export function fillPath(route: Route, values: Record<string, string>): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    // A legacy alias's parameter may be given under its canonical name (x-alias-renames).
    const canonical = route.aliasRenames.find((r) => r.in === 'path' && r.legacy === name)?.canonical;
    const value = values[name] ?? (canonical === undefined ? undefined : values[canonical]);
    if (value === undefined) fail(`no value for path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

const FORM = 'application/x-www-form-urlencoded';

/** Whether an operation's body goes as a form: its first media type is one, as the generated client sends it. */
export function sendsForm(route: Route): boolean {
  const first = route.body?.media[0];
  return first !== undefined && first.split(';')[0]!.trim().toLowerCase() === FORM;
}

/** A body object as a form, encoded as the generated client does: a list is repeated names, an object its JSON. */
export function formEncode(body: Record<string, unknown>): string {
  const params = new URLSearchParams();
  const append = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) for (const item of value) append(name, item);
    else params.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  };
  for (const [name, value] of Object.entries(body)) append(name, value);
  return params.toString();
}

/**
 * Sends a body as the operation takes it (JSON, or a form where its first media type is one), or `raw` text, with
 * that Content-Type unless the spec gives one; see sendExact.
 */
export async function send(target: Target, route: Route, spec: RequestSpec = {}): Promise<Answer> {
  const form = spec.raw === undefined && sendsForm(route) && typeof spec.body === 'object' && spec.body !== null && !Array.isArray(spec.body);
  const body = spec.raw ?? (spec.body === undefined ? undefined : form ? formEncode(spec.body as Record<string, unknown>) : JSON.stringify(spec.body));
  const headers: Record<string, string> = { ...spec.headers };
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = form ? FORM : 'application/json';
  return sendExact(target, route, { ...(spec.path && { path: spec.path }), ...(spec.query && { query: spec.query }), headers, ...(body !== undefined && { body }), ...(spec.key !== undefined && { key: spec.key }) });
}

interface Envelope {
  error: { code: string; message: string; details?: { field?: string | null; description: string }[] };
}

function isEnvelope(body: unknown): body is Envelope {
  const e = (body as Envelope | undefined)?.error;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && typeof e.message === 'string' && (e.details === undefined || Array.isArray(e.details));
}

function short(answer: Answer): string {
  return `${answer.status} ${answer.text.slice(0, 300)}`;
}

export function expectStatus(answer: Answer, status: number | ((s: number) => boolean), what: string): void {
  const ok = typeof status === 'number' ? answer.status === status : status(answer.status);
  if (!ok) fail(`${what}: expected ${typeof status === 'number' ? status : 'a matching status'}, got ${short(answer)}`);
}

/** The error envelope with this status and code; with `field`, a detail naming it (or a path below it). */
export function expectError(answer: Answer, status: number, code: string, field?: string | null, what = 'error'): void {
  if (answer.status !== status) fail(`${what}: expected ${status} ${code}, got ${short(answer)}`);
  if (!isEnvelope(answer.body)) fail(`${what}: the body is not the error envelope: ${answer.text.slice(0, 200)}`);
  if (answer.body.error.code !== code) fail(`${what}: expected code ${code}, got ${answer.body.error.code}`);
  if (field !== undefined && field !== null) {
    const fields = (answer.body.error.details ?? []).map((d) => d.field ?? '');
    const names = field.split(',');
    const hit = fields.some((f) => names.some((n) => f === n || f.startsWith(`${n}.`) || f.startsWith(`${n}[`) || f.toLowerCase() === n.toLowerCase()));
    if (!hit) fail(`${what}: expected a detail on field ${field}, got fields ${JSON.stringify(fields)}`);
  }
}

export function expectSuccess(answer: Answer, route: Route, what = 'request'): void {
  if (answer.status !== route.success.status) fail(`${what}: expected ${route.success.status}, got ${short(answer)}`);
  const validator = route.validators.response;
  if (validator && answer.body !== undefined) {
    const result = validator.validate(answer.body);
    if (!result.ok) fail(`${what}: the ${answer.status} body does not match the spec: ${result.errors.slice(0, 3).map((e) => `${e.field ?? '(body)'}: ${e.description}`).join('; ')}`);
  }
}

/**
 * Sends exactly these headers and bytes (no Content-Type is added): for checks of what the API does with a
 * body that is not JSON, has no Content-Type, or is not valid UTF-8. `body` bytes go to the target's fetch
 * as they are (fetch takes strings and byte arrays alike).
 */
export async function sendExact(target: Target, route: Route, spec: { path?: Record<string, string>; query?: Record<string, string>; headers?: Record<string, string>; body?: string | Uint8Array; key?: string | null; method?: string; rawPath?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...spec.headers };
  const key = spec.key === undefined ? target.apiKey : spec.key;
  const query = spec.query && Object.keys(spec.query).length > 0 ? `?${new URLSearchParams(spec.query).toString()}` : '';
  // An operation sharing its path with others (AWS's POST /) is selected by a header or query value (select.ts).
  let path = withSelect(route, spec.rawPath ?? `${fillPath(route, spec.path ?? {})}${query}`, headers);
  // The key goes where the route's first credential place says, as its scheme says (credential.ts).
  const place = route.credentials[0];
  if (key !== null && place !== undefined) path = placeCredential(place, key, headers, path);
  const res = await target.request(spec.method ?? route.method, path, { headers, ...(spec.body === undefined ? {} : { body: spec.body as string }) });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** The `field` of every detail of an error answer ('' for a detail without one). */
export function detailFields(answer: Answer): (string | null)[] {
  const details = (answer.body as Envelope | undefined)?.error?.details;
  return Array.isArray(details) ? details.map((d) => (d.field === undefined ? null : d.field)) : [];
}

/** Whether a Content-Type names JSON (`application/json`, `application/problem+json`, with parameters). */
export function isJsonMediaType(value: string | null): boolean {
  return value !== null && /^application\/(?:[\w.+-]+\+)?json\s*(;|$)/i.test(value.trim());
}

/** The code the seed's error table gives each status ("Errors": 400 INVALID_ARGUMENT ... 500 INTERNAL). */
export const ERROR_CODES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  500: 'INTERNAL',
  503: 'INTERNAL',
};

/**
 * The seed's envelope in full, for a 4xx: a JSON body `{ error: { code, message, details: [ { field, description } ] } }`
 * with the code of the status (seed "Errors": only internal errors may omit details), every detail with a
 * string description and a string, null or absent field. The message and every description must say something
 * (not empty or blank): they are the only human-readable part of the answer, and a user reading a 400 needs to
 * learn why.
 */
export function expectEnvelope(answer: Answer, what = 'error'): void {
  if (!isJsonMediaType(answer.headers.get('content-type'))) fail(`${what}: the error answer's Content-Type is ${answer.headers.get('content-type')}, expected application/json`);
  if (!isEnvelope(answer.body)) fail(`${what}: the body is not the error envelope: ${answer.text.slice(0, 200)}`);
  const expected = ERROR_CODES[answer.status];
  if (expected !== undefined && answer.body.error.code !== expected) fail(`${what}: status ${answer.status} should carry code ${expected}, got ${answer.body.error.code}`);
  if (answer.body.error.message.trim() === '') fail(`${what}: the error message is empty: ${answer.text.slice(0, 200)}`);
  const details = answer.body.error.details;
  if (answer.status < 500 && !Array.isArray(details)) fail(`${what}: a ${answer.status} error has no details list: ${answer.text.slice(0, 200)}`);
  for (const d of details ?? []) {
    if (d === null || typeof d !== 'object' || typeof d.description !== 'string') fail(`${what}: a detail without a description: ${JSON.stringify(d)}`);
    if (d.description.trim() === '') fail(`${what}: a detail with an empty description: ${JSON.stringify(d)}`);
    if (d.field !== undefined && d.field !== null && typeof d.field !== 'string') fail(`${what}: a detail field that is not a string or null: ${JSON.stringify(d)}`);
  }
}
