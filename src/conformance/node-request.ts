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
    const req = send(target, { method: init.method, headers: init.headers, timeout: init.timeoutMs }, (res: IncomingMessage) => {
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
    req.on('error', (error: NodeJS.ErrnoException) => {
      // The target may answer and close before a body it refused by its declared length is sent: the answer counts.
      reject(error);
    });
    req.end(init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : Buffer.from(init.body));
  });
}
