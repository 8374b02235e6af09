// Calls to the inspector's own endpoints (same origin; the HttpOnly cookie set by /inspector?token=... or the
// browser's credentials carry the session). Errors are the API's envelope, turned into an Error with its text.

export interface ErrorEnvelope {
  error: { code: string; message: string; details: { field: string | null; description: string }[] };
}

export class InspectorError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope | null,
  ) {
    const e = envelope?.error;
    super(e ? `${status} ${e.code}: ${e.message}${e.details.map((d) => ` ${d.field ?? ''} ${d.description}`).join(';')}` : `HTTP ${status}`);
  }
}

export async function getJson<T>(path: string, params: Record<string, string | undefined> = {}): Promise<T> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, v);
  const qs = query.toString();
  return send<T>('GET', `/inspector/api/${path}${qs ? `?${qs}` : ''}`);
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  return send<T>('POST', `/inspector/api/${path}`, body);
}

async function send<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!res.ok) throw new InspectorError(res.status, parsed as ErrorEnvelope | null);
  return parsed as T;
}
