// The ceiling for bench/sandbox.ts: a bare node:http server that does the least an API server must do for the
// benched operations: read the request body, JSON.parse it, and answer the same JSON the sandbox answers
// (captured from the sandbox, merged with the parsed request fields and serialized per request).
// No routing table, no validation, no database.
//
// Usage: node --import tsx bench/bare-server.ts <answers.json>   (prints `{"port": N}` once listening)
// answers.json: { "persona": { ... }, "tag": { ... } } (the sandbox's `persona` and `tag` objects).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';

const answers = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { persona: Record<string, unknown>; tag: Record<string, unknown> };

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readJson(req: IncomingMessage, done: (value: Record<string, unknown> | undefined) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    try {
      done(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
    } catch {
      done(undefined);
    }
  });
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  if (req.method === 'GET' && path.startsWith('/v1/personas/')) return send(res, 200, { persona: answers.persona });
  if (req.method === 'PATCH' && path.startsWith('/v1/personas/')) {
    return readJson(req, (body) => (body ? send(res, 200, { persona: { ...answers.persona, ...body } }) : send(res, 400, { error: { code: 'INVALID_ARGUMENT' } })));
  }
  if (req.method === 'POST' && path === '/v1/tags') {
    return readJson(req, (body) => (body ? send(res, 201, { tag: { ...answers.tag, ...body } }) : send(res, 400, { error: { code: 'INVALID_ARGUMENT' } })));
  }
  send(res, 404, { error: { code: 'NOT_FOUND' } });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
const stop = (): void => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
