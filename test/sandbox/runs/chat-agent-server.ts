// A local chat agent for the run tests: node:http on 127.0.0.1 answering in the OpenAI chat-completions format
// (by default `echo: <the last user message>`), recording every request. A test changes how it answers per path.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AgentCall {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export interface Answer {
  status?: number;
  /** A JSON value to send, or raw text (`raw`). */
  body?: unknown;
  raw?: string;
  delayMs?: number;
  /** Close the connection without an answer. */
  hangUp?: boolean;
}

export type Behaviour = (call: AgentCall) => Answer;

export interface ChatAgent {
  url: string;
  calls: AgentCall[];
  /** How requests to `path` are answered from now on. */
  on(path: string, behaviour: Behaviour): void;
  close(): Promise<void>;
}

function lastUser(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: string; content?: unknown }[]) : [];
  const user = [...messages].reverse().find((m) => m.role === 'user');
  return typeof user?.content === 'string' ? user.content : '';
}

export const echo: Behaviour = (call) => ({ body: { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: `echo: ${lastUser(call.body)}` }, finish_reason: 'stop' }] } });

export async function startChatAgent(): Promise<ChatAgent> {
  const calls: AgentCall[] = [];
  const behaviours = new Map<string, Behaviour>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { unparsed: text };
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const call = { path, headers: req.headers, body };
      calls.push(call);
      const answer = (behaviours.get(path) ?? echo)(call);
      const send = (): void => {
        if (answer.hangUp) {
          req.socket.destroy();
          return;
        }
        const payload = answer.raw ?? JSON.stringify(answer.body ?? {});
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(payload);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    on: (path, behaviour) => void behaviours.set(path, behaviour),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `read` until `done` holds (or fails the test after `timeoutMs`). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`condition not reached within ${timeoutMs} ms; last value: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
