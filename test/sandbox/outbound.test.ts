// The process's gate for outbound calls (src/sandbox/http/outbound.ts): a host that does not resolve is looked up
// once per while and fails at once meanwhile; calls in flight are bounded, the rest wait in order with their own
// timeout, and past the queue's bound a call fails at once as a network error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundGate } from '../../src/sandbox/http/outbound.js';

let server: Server;
let base = '';
let inFlight = 0;
let most = 0;
beforeAll(async () => {
  // Answers after 100 ms, counting how many requests it holds at once.
  server = createServer((req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    setTimeout(() => {
      inFlight--;
      res.end('ok');
    }, 100);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const notFound = () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));

describe('outbound gate', () => {
  it('looks a missing host up once per while, shared by concurrent calls, and fails the rest at once', async () => {
    let lookups = 0;
    let now = 0;
    const gate = new OutboundGate({ concurrency: 4, queue: 10, hostTtlMs: 10_000, hosts: 10 }, () => (lookups++, notFound()), () => now);
    const first = await Promise.allSettled([1, 2, 3].map(() => gate.fetch('https://hooks.example.test/a')));
    expect(lookups).toBe(1);
    for (const r of first) {
      expect(r.status).toBe('rejected');
      const error = (r as PromiseRejectedResult).reason as TypeError & { cause: { code: string } };
      expect(error).toBeInstanceOf(TypeError);
      expect(error.cause.code).toBe('ENOTFOUND'); // what the callers already read as "host not found"
    }
    now = 9_999;
    await expect(gate.fetch('https://hooks.example.test/b')).rejects.toThrow('fetch failed');
    expect(lookups).toBe(1);
    now = 10_001; // remembered no longer: looked up again
    await expect(gate.fetch('https://hooks.example.test/c')).rejects.toThrow('fetch failed');
    expect(lookups).toBe(2);
  });

  it('does not look up loopback addresses, and a host that resolves is called', async () => {
    let lookups = 0;
    const gate = new OutboundGate(undefined, async () => void lookups++);
    expect(await (await gate.fetch(`${base}/x`)).text()).toBe('ok');
    expect(lookups).toBe(0);
  });

  it('holds at most `concurrency` calls in flight; the others wait their turn and all are answered', async () => {
    most = 0;
    const gate = new OutboundGate({ concurrency: 2, queue: 10, hostTtlMs: 1_000, hosts: 10 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => gate.fetch(`${base}/slow`).then((r) => r.text())));
    expect(answers).toEqual(Array(6).fill('ok'));
    expect(most).toBe(2);
    expect(gate.load).toEqual({ inFlight: 0, waiting: 0 });
  });

  it('fails a call at once when the queue is full, and a waiting call whose timeout passes leaves the queue', async () => {
    const gate = new OutboundGate({ concurrency: 1, queue: 1, hostTtlMs: 1_000, hosts: 10 });
    const held = gate.fetch(`${base}/slow`);
    const waiting = gate.fetch(`${base}/slow`, { signal: AbortSignal.timeout(20) });
    await new Promise((r) => setTimeout(r, 0));
    const refused = gate.fetch(`${base}/slow`);
    await expect(refused).rejects.toMatchObject({ cause: { code: 'ESANDBOXBUSY' } });
    await expect(waiting).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(gate.load.waiting).toBe(0);
    expect(await (await held).text()).toBe('ok');
    expect(gate.load).toEqual({ inFlight: 0, waiting: 0 });
  });

  it('calls the guard right before each call leaves, after its wait for a slot; a guard that throws stops the call', async () => {
    const gate = new OutboundGate({ concurrency: 1, queue: 10, hostTtlMs: 1_000, hosts: 10 });
    const seen: number[] = [];
    let calls = 0;
    gate.setGuard(() => {
      seen.push(gate.load.waiting);
      if (++calls === 2) throw new Error('listener gone');
    });
    const before = inFlight;
    const first = gate.fetch(`${base}/slow`);
    const second = gate.fetch(`${base}/slow`);
    await expect(second).rejects.toThrow('listener gone');
    await first;
    // The second call's guard ran once the first had left its slot (nobody waiting by then), and it never left.
    expect(seen).toEqual([1, 0]);
    expect(inFlight).toBe(before);
    expect(gate.load).toEqual({ inFlight: 0, waiting: 0 });
  });
});
