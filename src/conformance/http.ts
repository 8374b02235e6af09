// Sending a request of an operation and asserting on the answer: status, the error envelope, the detail field.
import { fail } from './result.js';
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
    const value = values[name];
    if (value === undefined) fail(`no value for path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

export async function send(target: Target, route: Route, spec: RequestSpec = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...spec.headers };
  const key = spec.key === undefined ? target.apiKey : spec.key;
  if (key !== null && route.auth.length > 0) headers[route.auth[0]!] = key;
  let body: string | undefined;
  if (spec.raw !== undefined) body = spec.raw;
  else if (spec.body !== undefined) body = JSON.stringify(spec.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const query = spec.query && Object.keys(spec.query).length > 0 ? `?${new URLSearchParams(spec.query).toString()}` : '';
  const res = await target.request(route.method, `${fillPath(route, spec.path ?? {})}${query}`, { headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
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
