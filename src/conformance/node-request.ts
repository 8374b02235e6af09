// The suite's HTTP client for a target on the network: node:http(s) rather than fetch, because some checks send
// what fetch refuses to (a Content-Length that does not match the body, to see an oversized body refused before
// it is read). Answers are returned as fetch Responses, as the in-process target gives them.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** Statuses whose Response may not carry a body. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

export function nodeRequest(url: string, init: { method: string; headers: Record<string, string>; body?: string | Uint8Array; timeoutMs: number }): Promise<Response> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // A body goes with its length (Node frames a body of DELETE and OPTIONS requests by nothing otherwise),
    // unless the check set a Content-Length of its own.
    const body = init.body === undefined ? undefined : typeof init.body === 'string' ? Buffer.from(init.body) : Buffer.from(init.body);
    const headers = { ...init.headers };
    if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')) headers['content-length'] = String(body.byteLength);
    const req = send(target, { method: init.method, headers, timeout: init.timeoutMs }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
        }
        const status = res.statusCode ?? 0;
        resolve(new Response(NO_BODY.has(status) || init.method === 'HEAD' ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '', headers }));
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${init.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
