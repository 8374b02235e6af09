// The optional judge endpoint: judged metrics asked of a chat-completions server the caller runs, with the
// configured headers; its answer must be of the judge's kind; every failure (bad answer, non-2xx, oversized body,
// timeout, nothing listening) is a FAILED output saying which, never a stand-in or an exception.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askJudge, judgeRequest, parseJudgeReply } from '../../../../src/sandbox/runs/metrics/judge-endpoint.js';
import { scoreSimulation } from '../../../../src/sandbox/runs/metrics/score.js';
import { startHarness } from '../../../support/sandbox.js';
import { CHAT } from './transcripts.js';

const seen: { headers: IncomingMessage['headers']; body: any }[] = [];
let reply: (body: any) => { status: number; text: string; delayMs?: number } = () => ({ status: 200, text: '' });
let server: Server;
let url: string;

const completion = (content: string): string => JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] });

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      seen.push({ headers: req.headers, body });
      const { status, text, delayMs = 0 } = reply(body);
      setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(text), delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('judge endpoint', () => {
  it('sends the metric, the allowed answers and the transcript in chat-completions shape', () => {
    const body = judgeRequest('m1', 'categorical', { metric_name: 'Tone', prompt: 'Rate the tone.', categories: ['polite', 'rude'] }, CHAT) as any;
    expect(body.model).toBe('m1');
    expect(body.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('["polite","rude"]') });
    expect(body.messages[1].content).toContain('Rate the tone.');
    expect(body.messages[1].content).toContain('Agent: Goodbye then.');
    expect(body.messages[1].content).not.toContain('end_conversation');
  });

  it.each([
    ['a value of the kind', completion('{"value": "YES", "explanation": "answered"}'), { status: 'COMPLETED', value: 'YES', explanation: 'answered' }],
    ['fenced JSON', completion('```json\n{"value": "NO"}\n```'), { status: 'COMPLETED', value: 'NO' }],
    ['a value out of kind', completion('{"value": "MAYBE"}'), { status: 'FAILED', status_reason: expect.stringMatching(/MAYBE/) }],
    ['content that is not JSON', completion('Yes, it did.'), { status: 'FAILED', status_reason: expect.stringMatching(/not JSON/) }],
    ['no choices', '{"id": "x"}', { status: 'FAILED', status_reason: expect.stringMatching(/choices/) }],
    ['a body that is not JSON', '<html>', { status: 'FAILED', status_reason: expect.stringMatching(/not JSON/) }],
  ])('reads %s', (_name, text, expected) => {
    expect(parseJudgeReply('binary', {}, text)).toMatchObject(expected);
  });

  it('fails the output with the reason on a non-2xx answer, an oversized body, a timeout, nothing listening', async () => {
    reply = () => ({ status: 503, text: '{}' });
    expect(await askJudge({ url }, 'binary', {}, CHAT)).toMatchObject({ status: 'FAILED', status_reason: 'the judge endpoint answered HTTP 503' });
    reply = () => ({ status: 200, text: 'x'.repeat(2 * 1024 * 1024) });
    expect(await askJudge({ url }, 'binary', {}, CHAT)).toMatchObject({ status: 'FAILED', status_reason: expect.stringMatching(/more than/) });
    reply = () => ({ status: 200, text: completion('{"value": "YES"}'), delayMs: 500 });
    expect(await askJudge({ url, timeoutMs: 50 }, 'binary', {}, CHAT)).toMatchObject({ status: 'FAILED', status_reason: expect.stringMatching(/did not answer within 50 ms/) });
    expect(await askJudge({ url: 'http://127.0.0.1:1/v1/chat/completions' }, 'binary', {}, CHAT)).toMatchObject({ status: 'FAILED', status_reason: 'the judge endpoint could not be reached' });
  });
});

describe('a sandbox with a judge endpoint', () => {
  it('refuses a judge URL that is not http(s)', async () => {
    await expect(startHarness({ judge: { url: 'file:///etc/passwd' } })).rejects.toThrow(/http or https/);
  });

  it('asks the endpoint for judged metrics, with the configured headers; computed metrics stay computed', async () => {
    const judged = await startHarness({ judge: { url, headers: { authorization: 'Bearer judge-secret' }, model: 'local-judge' } });
    try {
      reply = (body) => ({ status: 200, text: completion(body.messages[0].content.includes('number from 1 to 10') ? '{"value": 7, "explanation": "fine"}' : '{"value": "NO"}') });
      const [numeric, regex] = await judged.control.loadFixtures(judged.sandbox.organizationId, [
        { kind: 'metric', data: { metric_name: 'Helpfulness', description: 'd', metric_type: 'METRIC_NUMERICAL_LLM_JUDGE', min_value: 1, max_value: 10, prompt: 'How helpful?' } },
        { kind: 'metric', data: { metric_name: 'Said goodbye', description: 'd', metric_type: 'METRIC_TRANSCRIPT_REGEX', regex_pattern: 'Goodbye' } },
      ]);
      const sim = 'judgesim'.padEnd(22, 'x');
      await judged.control.loadFixtures(judged.sandbox.organizationId, [{ kind: 'simulation', id: sim, data: { run_id: 'RunJJJJJJJJJJJJJJJJJJJ', status: 'COMPLETED', has_audio: false, transcript: CHAT } }]);
      const before = seen.length;
      const scored = await scoreSimulation(judged.sandbox.runtime, sim, [numeric!.id, regex!.id]);
      expect(scored.map((s) => s.value)).toEqual([7, 1]);
      expect(seen.length - before).toBe(1);
      expect(seen.at(-1)!.headers.authorization).toBe('Bearer judge-secret');
      expect(seen.at(-1)!.body.model).toBe('local-judge');
    } finally {
      await judged.close();
    }
  });
});
