// node:http <-> fetch Request/Response, for the real listener. The body is streamed into the Request as is;
// size limits are applied by the request reader.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

export async function toWebRequest(req: IncomingMessage, host: string): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    } catch {
      // A header value fetch refuses (control characters): leave it out; the request goes on without it.
    }
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
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
  const url = `http://${authority}${path}`;
  return new Request(url, {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as unknown as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  res.end(Buffer.from(await response.arrayBuffer()));
}
