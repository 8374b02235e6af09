// A request crosses from a pool's listener to a worker as JSON (src/sandbox/pool/messages.ts): its body as base64
// text. What the worker's engine reads must be the very bytes the client sent, whatever they are (a body that is
// not UTF-8 must reach the engine's own validation as it was, not repaired by a text round trip).
import { expect, it } from 'vitest';
import { forwardedBody, fromForwarded } from '../../../src/sandbox/pool/forwarded-request.js';
import type { ForwardedRequest } from '../../../src/sandbox/pool/messages.js';

/** The message as the worker receives it: through JSON, as Node's 'json' IPC channel carries it. */
const acrossIpc = (message: ForwardedRequest): ForwardedRequest => JSON.parse(JSON.stringify(message)) as ForwardedRequest;

const request = (body: Uint8Array | null): ForwardedRequest => ({
  type: 'request',
  id: 7,
  method: 'POST',
  url: 'http://127.0.0.1:4010/tags?x=1',
  headers: { 'x-api-key': 'key', 'content-type': 'application/json', accept: ['a', 'b'] as unknown as string },
  body: forwardedBody(body),
});

it('hands the worker the exact body bytes, including bytes that are not UTF-8, from a view into a larger buffer', async () => {
  const backing = new Uint8Array([0xff, 0x7b, 0x22, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80, 0x80, 0xfe, 0x22, 0x7d, 0x00]);
  const sent = backing.subarray(1, 13);
  const received = fromForwarded(acrossIpc(request(sent)));
  expect(Array.from((await received.bytes())!)).toEqual(Array.from(sent));
});

it('keeps an empty body empty and an over-the-limit body (null) null', async () => {
  expect(Array.from((await fromForwarded(acrossIpc(request(new Uint8Array(0)))).bytes())!)).toEqual([]);
  expect(await fromForwarded(acrossIpc(request(null))).bytes()).toBeNull();
});

it('keeps method, URL and headers (case-insensitive lookup, repeated headers joined)', () => {
  const received = fromForwarded(acrossIpc(request(null)));
  expect(received.method).toBe('POST');
  expect(received.url.href).toBe('http://127.0.0.1:4010/tags?x=1');
  expect(received.headers.get('X-API-Key')).toBe('key');
  expect(received.headers.get('accept')).toBe('a, b');
  expect(received.headers.get('missing')).toBeNull();
});
