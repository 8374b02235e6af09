// A webhook receiver on a real socket (127.0.0.1, a free port) for targets on this machine: the suite's checks of
// deliveries (payloads, headers, retries on the statuses a check chose) run against a sandbox in another process
// as they do in process. A target elsewhere cannot reach it, so it is used only for loopback targets.
// When the target says when its deliveries are done (the sandbox's control plane: `idle`), `calls` waits for
// exactly that; only a target that cannot say so is waited on until it goes quiet.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedCall, WebhookReceiver } from './target.js';

/**
 * Without an `idle` signal: no call for this long (counted from the last call, and at least from when `calls`
 * is asked), and none being received, and the target's deliveries are taken as done.
 */
const QUIET_MS = 1500;
/** The longest `calls` waits for a target to go quiet. */
const SETTLE_LIMIT_MS = 15_000;

export interface HttpReceiver extends WebhookReceiver {
  close(): Promise<void>;
}

function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}

export async function startHttpReceiver(idle?: () => Promise<void>): Promise<HttpReceiver> {
  const scripts = new Map<string, number[]>();
  const received = new Map<string, ReceivedCall[]>();
  let lastActivity = 0;
  let inFlight = 0;
  let next = 0;
  const server = createServer((request, response) => {
    inFlight++;
    lastActivity = Date.now();
    void readText(request).then((text) => {
      const path = request.url ?? '/';
      const script = scripts.get(path);
      const log = received.get(path);
      const status = script && log ? script[Math.min(log.length, script.length - 1)]! : 204;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      log?.push({ method: request.method ?? 'GET', headers, body: parsedBody(text), status });
      response.writeHead(status).end();
      inFlight--;
      lastActivity = Date.now();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint(statuses = [204]) {
      const path = `/hooks/${++next}`;
      scripts.set(path, statuses.length > 0 ? [...statuses] : [204]);
      received.set(path, []);
      return `${base}${path}`;
    },
    async calls(url) {
      const path = new URL(url).pathname;
      // The target answers the idle question only once its deliveries were answered, and a call is logged
      // before the receiver answers it, so the log is complete here.
      if (idle) {
        await idle();
        return [...(received.get(path) ?? [])];
      }
      const started = Date.now();
      const quietSince = (): number => Math.max(lastActivity, started);
      while (Date.now() - started < SETTLE_LIMIT_MS && (inFlight > 0 || Date.now() - quietSince() < QUIET_MS)) await new Promise((r) => setTimeout(r, 50));
      return [...(received.get(path) ?? [])];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
