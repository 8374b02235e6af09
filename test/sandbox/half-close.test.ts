// A client that half-closes after sending its request (socket.end(request)) still gets the answer, also from an
// operation whose answer waits on real I/O (POST /metrics/sql:test runs its query in a child process): Node's HTTP
// server would otherwise end the connection at the client's FIN, before the answer (the fuzz drill found it).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';

let sandbox: Sandbox;
let server: Awaited<ReturnType<Sandbox['listen']>>;
beforeAll(async () => {
  sandbox = await createSandbox({ db: ':memory:' });
  server = await sandbox.listen({ port: 0 });
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
});

function halfClosed(path: string, body: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => {
      socket.end(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${sandbox.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe('a half-closed client', () => {
  it('gets the answer of an operation that waits on a child process, then the connection closes', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await halfClosed(`${sandbox.basePath}/metrics/sql:test`, JSON.stringify({ sql_query: 'SELECT 1 AS value, 0 AS start_offset_milliseconds' }));
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toHaveProperty('aggregation_method');
    }
  });
});
