// A tiny catalog server over node:http on 127.0.0.1, serving a folder of spec documents the way the
// real service does: GET /v1/openapi -> { specs: [{ name, url }] }, GET /v1/openapi/{name} -> YAML or JSON.
import { createServer, type Server } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { extname, join, basename } from 'node:path';
import { parse } from 'yaml';

export interface CatalogServer {
  baseUrl: string;
  requests: string[];
  close(): Promise<void>;
}

export async function serveCatalog(dir: string, options: { failFirst?: number; files?: Record<string, string> } = {}): Promise<CatalogServer> {
  const docs = new Map<string, string>();
  for (const f of readdirSync(dir).sort()) {
    if (!/\.(ya?ml|json)$/.test(f) || f.startsWith('_')) continue;
    docs.set(basename(f, extname(f)), readFileSync(join(dir, f), 'utf8'));
  }
  let failures = options.failFirst ?? 0;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (failures > 0) {
      failures--;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"INTERNAL","message":"routing outage"}}');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const port = (server.address() as { port: number }).port;
    if (url.pathname === '/v1/openapi') {
      const specs = [...docs.keys()].map((name) => ({ name, url: `http://127.0.0.1:${port}/v1/openapi/${name}` }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ specs }));
      return;
    }
    const m = /^\/v1\/openapi\/([^/]+)$/.exec(url.pathname);
    const text = m ? docs.get(m[1]!) : undefined;
    const extra = options.files?.[url.pathname];
    if (extra !== undefined) {
      res.writeHead(200, { 'content-type': 'application/yaml' }).end(extra);
      return;
    }
    if (text === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"NOT_FOUND","message":"no such spec"}}');
      return;
    }
    if ((req.headers.accept ?? '').includes('application/json')) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(parse(text)));
    else res.writeHead(200, { 'content-type': 'application/yaml' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
