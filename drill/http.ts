// Talking to the sandbox: every exchange goes through here and is recorded (status, response headers and body)
// so the secrets drill can scan everything any drill received. Two ways to send: node:http, and a
// raw TCP socket for bytes node:http refuses to send (invalid UTF-8 in the request line or headers, a body on GET,
// a Content-Length that lies, requests that are not HTTP at all).
import { Agent, request } from 'node:http';
import { connect } from 'node:net';

export interface Answer {
  /** 0 when there was no HTTP answer (connection refused or reset, timeout). */
  status: number;
  headers: Record<string, string>;
  text: string;
  body: unknown;
  ms: number;
  error?: string;
}

export interface SecretHit {
  drill: string;
  label: string;
  status: number;
  what: string;
  excerpt: string;
}

/**
 * Counts every exchange and scans each answer, as it arrives, for the secrets known at that moment. A secret is
 * registered before it is first sent to the sandbox, so no answer can hold one that was not known yet; nothing
 * is kept but the hits (the fuzz alone receives hundreds of megabytes).
 */
export class Recorder {
  requests = 0;
  scanned = 0;
  scannedBytes = 0;
  /** Control-plane answers: admin-only, they show delivery headers by design; kept out of the scan. */
  control = 0;
  readonly hits: SecretHit[] = [];
  private pattern: RegExp | null = null;
  private patternFor = -1;

  constructor(readonly secrets: Map<string, string> = new Map()) {}

  private regex(): RegExp | null {
    if (this.patternFor !== this.secrets.size) {
      const list = [...this.secrets.keys()].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      this.pattern = list.length === 0 ? null : new RegExp(list.join('|'));
      this.patternFor = this.secrets.size;
    }
    return this.pattern;
  }

  /** The secret `text` contains, if any. */
  find(text: string): string | undefined {
    return this.regex()?.exec(text)?.[0];
  }

  record(drill: string, label: string, answer: Answer, control = false): void {
    this.requests++;
    if (control) {
      this.control++;
      return;
    }
    const text = `${Object.entries(answer.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${answer.text}`;
    this.scanned++;
    this.scannedBytes += text.length;
    const hit = this.find(text);
    if (hit !== undefined) {
      const at = text.indexOf(hit);
      this.hits.push({ drill, label, status: answer.status, what: this.secrets.get(hit) ?? 'secret', excerpt: `${text.slice(Math.max(0, at - 120), at)}<SECRET>${text.slice(at + hit.length, at + hit.length + 80)}` });
    }
  }
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export interface SendInit {
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs?: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 128 });

/**
 * A request with node:http on a keep-alive connection (the platform fetch serialises requests to one origin
 * here, at about a quarter of the rate). Header values may hold any Latin-1 byte.
 */
export async function send(rec: Recorder, drill: string, label: string, method: string, url: string, init: SendInit = {}, control = false): Promise<Answer> {
  const started = performance.now();
  let retried = false;
  const answer = await new Promise<Answer & { retried?: boolean }>((resolve) => {
    let done = false;
    const finish = (a: Omit<Answer, 'ms'>): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...a, ms: performance.now() - started });
    };
    const fail = (error: string): void => finish({ status: 0, headers: {}, text: '', body: undefined, error });
    const body = init.body === undefined ? undefined : typeof init.body === 'string' ? Buffer.from(init.body, 'utf8') : Buffer.from(init.body);
    let req: ReturnType<typeof request>;
    try {
      req = request(url, { method, agent, headers: { ...init.headers, ...(body === undefined ? {} : { 'content-length': String(body.length) }) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          finish({ status: res.statusCode ?? 0, headers, text, body: parseBody(text) });
        });
        res.on('error', (e) => fail(e.message));
      });
    } catch (error) {
      fail(`not sent: ${(error as Error).message}`);
      return;
    }
    const timer = setTimeout(() => {
      fail('timeout');
      req.destroy();
    }, init.timeoutMs ?? 30_000);
    req.on('error', (e: NodeJS.ErrnoException) => {
      // A keep-alive connection the server closed just as it was reused: not an answer to this request; once more
      // on a new connection.
      if (req.reusedSocket && e.code === 'ECONNRESET' && !retried) {
        retried = true;
        clearTimeout(timer);
        done = true;
        void send(rec, drill, label, method, url, { ...init, headers: { ...init.headers, connection: 'close' } }, control).then((a) => resolve({ ...a, retried: true }));
        return;
      }
      fail(e.code ?? e.message);
    });
    req.end(body);
  });
  if (answer.retried) return answer;
  rec.record(drill, label, answer, control);
  return answer;
}

/** Sends `bytes` on a new TCP connection and reads one HTTP answer (the connection is closed by either side). */
export async function sendRaw(rec: Recorder, drill: string, label: string, host: string, port: number, bytes: Buffer, timeoutMs = 15_000): Promise<Answer> {
  const started = performance.now();
  const answer = await new Promise<Answer>((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const socket = connect({ host, port });
    const finish = (error?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseRawResponse(Buffer.concat(chunks));
      resolve({ ...parsed, ms: performance.now() - started, ...(parsed.status === 0 && error ? { error } : {}) });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('connect', () => socket.end(bytes));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // One complete answer is all we read.
      if (parseRawResponse(Buffer.concat(chunks)).complete) finish();
    });
    socket.on('error', (e) => finish((e as NodeJS.ErrnoException).code ?? e.message));
    socket.on('close', () => finish('closed without an answer'));
  });
  rec.record(drill, label, answer);
  return answer;
}

export function parseRawResponse(buf: Buffer): Omit<Answer, 'ms'> & { complete: boolean } {
  // Interim answers (100 Continue) come before the real one.
  while (/^HTTP\/\d\.\d 1\d\d /.test(buf.subarray(0, 16).toString('latin1'))) {
    const interimEnd = buf.indexOf('\r\n\r\n');
    if (interimEnd < 0) return { status: 0, headers: {}, text: '', body: undefined, complete: false };
    buf = buf.subarray(interimEnd + 4);
  }
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, text: '', body: undefined, complete: false };
  const head = buf.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let rest = buf.subarray(end + 4);
  let complete = false;
  let bodyBuf: Buffer = rest;
  if ((headers['transfer-encoding'] ?? '').toLowerCase().includes('chunked')) {
    const parts: Buffer[] = [];
    for (;;) {
      const nl = rest.indexOf('\r\n');
      if (nl < 0) break;
      const size = parseInt(rest.subarray(0, nl).toString('latin1'), 16);
      if (Number.isNaN(size)) break;
      if (size === 0) {
        complete = true;
        break;
      }
      if (rest.length < nl + 2 + size + 2) break;
      parts.push(rest.subarray(nl + 2, nl + 2 + size));
      rest = rest.subarray(nl + 2 + size + 2);
    }
    bodyBuf = Buffer.concat(parts);
  } else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    complete = rest.length >= length;
    bodyBuf = rest.subarray(0, length);
  } else if (status === 204 || status === 304) {
    complete = true;
    bodyBuf = Buffer.alloc(0);
  }
  const text = bodyBuf.toString('utf8');
  return { status, headers, text, body: parseBody(text), complete };
}

/** The error envelope: `{ error: { code, message, details: [{ field, description }] } }`. */
export function envelopeProblem(answer: Pick<Answer, 'text' | 'body' | 'headers'>): string | null {
  const body = answer.body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
  if (body === undefined) return answer.text === '' ? 'no body' : 'the body is not JSON';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not a JSON object';
  const e = body.error;
  if (typeof e !== 'object' || e === null) return 'no `error` object';
  if (typeof e.code !== 'string' || e.code === '') return '`error.code` is not a string';
  if (typeof e.message !== 'string') return '`error.message` is not a string';
  if (!Array.isArray(e.details)) return '`error.details` is not an array';
  for (const d of e.details as unknown[]) {
    const detail = d as { field?: unknown; description?: unknown };
    if (typeof detail !== 'object' || detail === null) return 'a detail is not an object';
    if (!(detail.field === null || typeof detail.field === 'string')) return 'a detail field is neither a string nor null';
    if (typeof detail.description !== 'string') return 'a detail description is not a string';
  }
  if (!/^application\/json/i.test(answer.headers['content-type'] ?? '')) return `content-type is ${answer.headers['content-type'] ?? 'missing'}`;
  return null;
}
