// The node:http listeners of a sandbox or a sandbox pool: one definition of how a listener starts (127.0.0.1 by
// default, the error envelope for requests Node's parser refuses, answers owed to half-closed clients), which URLs it
// prints, and how it stops.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientErrors, answerHalfClosedClients } from './node-adapter.js';

export interface Listening {
  url: string;
  baseUrl: string;
  controlUrl: string;
  inspectorUrl: string;
  close(): Promise<void>;
}

/** Where the API, the control plane and the inspector live under a listener's origin. */
export interface ServedPaths {
  basePath: string;
  controlPath: string;
  inspectorPath: string;
}

/** Answers one request (the listener's host is what relative request targets resolve against). */
export type Serve = (req: IncomingMessage, res: ServerResponse, host: string) => Promise<void>;

export class Listeners {
  private readonly servers = new Set<Server>();

  constructor(
    private readonly serve: Serve,
    private readonly paths: ServedPaths,
  ) {}

  async open(options: { port?: number; host?: string } = {}): Promise<Listening> {
    const host = options.host ?? '127.0.0.1';
    const server = createServer((req, res) => {
      this.serve(req, res, host).catch(() => {
        // Only a request whose body cannot be read gets here (the handlers themselves never throw).
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'INVALID_ARGUMENT', message: 'Malformed HTTP request.', details: [{ field: null, description: 'the request cannot be read' }] } }));
      });
    });
    answerClientErrors(server);
    answerHalfClosedClients(server);
    this.servers.add(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://${host}:${port}`;
    return {
      url,
      baseUrl: `${url}${this.paths.basePath}`,
      controlUrl: `${url}${this.paths.controlPath}`,
      inspectorUrl: `${url}${this.paths.inspectorPath}`,
      close: () =>
        new Promise<void>((resolve) => {
          this.servers.delete(server);
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  }

  /** Closes every listener still open (open connections are cut). */
  async closeAll(): Promise<void> {
    for (const server of this.servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    this.servers.clear();
  }
}
