// A local webhook receiver: every URL the drills register points here, so deliveries stay on loopback. It
// records what arrives (path, headers, body); a path with `/fail` answers 500 (the sandbox retries), anything else 204.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export class Receiver {
  readonly received: Received[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8').slice(0, 100_000), at: Date.now() });
        res.writeHead((req.url ?? '').includes('/fail') ? 500 : 204);
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
