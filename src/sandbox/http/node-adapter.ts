// node:http <-> the sandbox's request and response, for the real listener. Headers are read from Node's parsed
// header object; the body is collected up to the size limit (the rest is drained and dropped); the answer is
// written in one piece, so head and body usually leave in one system call.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { SandboxRequest, SandboxResponse } from './exchange.js';
import { MAX_BODY_BYTES } from './limits.js';

function readBody(req: IncomingMessage): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.once('end', () => resolve(size > MAX_BODY_BYTES ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

export function fromNodeRequest(req: IncomingMessage, host: string): SandboxRequest {
  const method = req.method ?? 'GET';
  // The Host header carries the port the client used; catalog URLs are built from it.
  const authority = typeof req.headers.host === 'string' && /^[A-Za-z0-9.\-\[\]:]+$/.test(req.headers.host) ? req.headers.host : host;
  // Origin-form (`/v1/tags`) as usual; absolute-form (`http://host/v1/tags`, allowed by HTTP/1.1) by its path.
  const target = req.url ?? '/';
  let path = target;
  if (!target.startsWith('/')) {
    try {
      const absolute = new URL(target);
      path = `${absolute.pathname}${absolute.search}`;
    } catch {
      path = '/';
    }
  }
  // Joined as text, not resolved against a base: a path such as `//other-host/x` stays a path.
  let url: URL;
  try {
    url = new URL(`http://${authority}${path}`);
  } catch {
    url = new URL(`http://${authority}/`);
  }
  const headers = req.headers;
  let body: Promise<Uint8Array | null> | undefined;
  return {
    method,
    url,
    headers: {
      get(name) {
        const value = headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
    bytes: () => (body ??= readBody(req)),
  };
}

/**
 * Waits until the request has been received whole, reading (and dropping) a body the operation did not need.
 * Answering while the client is still sending, then closing or reusing the connection, can reset it and cut
 * the answer short at the client (TCP discards unread data on a reset).
 */
export async function drained(req: IncomingMessage, request: SandboxRequest): Promise<void> {
  if (req.complete) return;
  // A body declared over the limit is refused by its Content-Length and never waited for (it may never come):
  // the answer goes out at once with `Connection: close` (writeNodeResponse), and what arrives is dropped.
  if (declaredTooLarge(req)) {
    req.resume();
    return;
  }
  await request.bytes().catch(() => null);
}

/** Whether the request declares a body over the limit (by its Content-Length). */
export function declaredTooLarge(req: IncomingMessage): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > MAX_BODY_BYTES;
}

export function writeNodeResponse(res: ServerResponse, response: SandboxResponse): void {
  if (response.dropConnection) {
    // Faults on demand: the first bytes of an answer's head, then the connection ends (the client sees the
    // server close in the middle of the answer, as when a proxy or the network drops it).
    res.socket?.end('HTTP/1.1 200 OK\r\ncontent-type: applica');
    return;
  }
  // With the length known up front the answer is not chunked: head and body go out as one write.
  if (response.body !== null) res.setHeader('content-length', Buffer.byteLength(response.body));
  // Node ends (half-closes) the connection after the answer, so the client reads it whole.
  if (!res.req.complete && declaredTooLarge(res.req)) res.setHeader('connection', 'close');
  res.writeHead(response.status, response.headers);
  res.end(response.body ?? undefined);
}

/**
 * A client that half-closes its side after sending the request (`socket.end(request)`, as HTTP/1.0-style tools and
 * the drills' raw requests do) is still owed the answer. Node's HTTP server otherwise ends the connection when the
 * client's FIN arrives before an answer that waits on real I/O (a SQL query in a child process), and the client sees
 * the connection close without an answer. With this, the server answers and then closes.
 */
export function answerHalfClosedClients(server: Server): void {
  // http.Server reads this flag in its socket 'end' handler; @types/node does not declare it.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
}

/**
 * Requests Node's HTTP parser refuses (invalid bytes, bad Content-Length, huge headers) still get the error
 * envelope, not a bare status line.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify({ error: { code: 'INVALID_ARGUMENT', message: tooLarge ? 'Request headers too large.' : 'Malformed HTTP request.', details: [{ field: null, description: tooLarge ? 'the request headers exceed the limit' : 'the request is not valid HTTP/1.1' }] } });
    socket.end(`HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
}
