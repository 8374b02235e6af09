// The credential in every place and scheme OpenAPI names (issue 27): an apiKey in a header, the query or a cookie,
// HTTP bearer and basic. The inferred sandbox takes its key there, in that form only; the conformance suite sends
// it there, in that form (what a real deployment of the spec wants), and passes against the sandbox.
import { describe, expect, it } from 'vitest';
import type { Target } from '../../src/conformance/target.js';
import { inProcessTarget } from '../../src/conformance/in-process.js';
import { runSuite } from '../../src/conformance/run.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';
import { widgetsSpec } from '../support/widgets-spec.js';

interface Case {
  name: string;
  scheme: Record<string, unknown>;
  /** The request parts that carry `key` as the scheme says. */
  carry: (key: string) => { query?: string; headers?: Record<string, string> };
  /** The 401's detail field. */
  field: string;
  /** The same key in a form the scheme does not take (must be refused). */
  wrongForm: (key: string) => { query?: string; headers?: Record<string, string> };
}

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
const CASES: Case[] = [
  { name: 'apiKey in a header', scheme: { type: 'apiKey', in: 'header', name: 'X-Widget-Key' }, carry: (k) => ({ headers: { 'X-Widget-Key': k } }), field: 'X-Widget-Key', wrongForm: (k) => ({ headers: { authorization: `Bearer ${k}` } }) },
  { name: 'apiKey in the query', scheme: { type: 'apiKey', in: 'query', name: 'api_key' }, carry: (k) => ({ query: `api_key=${encodeURIComponent(k)}` }), field: 'api_key', wrongForm: (k) => ({ headers: { api_key: k } }) },
  { name: 'apiKey in a cookie', scheme: { type: 'apiKey', in: 'cookie', name: 'session' }, carry: (k) => ({ headers: { cookie: `theme=dark; session=${encodeURIComponent(k)}` } }), field: 'session', wrongForm: (k) => ({ query: `session=${encodeURIComponent(k)}` }) },
  { name: 'HTTP bearer', scheme: { type: 'http', scheme: 'bearer' }, carry: (k) => ({ headers: { authorization: `Bearer ${k}` } }), field: 'Authorization', wrongForm: (k) => ({ headers: { authorization: k } }) },
  { name: 'HTTP basic', scheme: { type: 'http', scheme: 'basic' }, carry: (k) => ({ headers: { authorization: basic(`someone:${k}`) } }), field: 'Authorization', wrongForm: (k) => ({ headers: { authorization: `Bearer ${k}` } }) },
];

/** A target that records every request the suite sends through it. */
function recording(target: Target): { target: Target; sent: { path: string; headers: Record<string, string> }[] } {
  const sent: { path: string; headers: Record<string, string> }[] = [];
  return {
    sent,
    target: {
      ...target,
      request: (method, path, init) => {
        sent.push({ path, headers: Object.fromEntries(Object.entries(init?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])) });
        return target.request(method, path, init);
      },
    },
  };
}

describe('the credential where the spec scheme puts it', () => {
  for (const c of CASES) {
    it(`${c.name}: the sandbox takes the key there and only in that form; the suite sends it so and passes`, async () => {
      const generated = await generateFor(writeSpec(widgetsSpec({ scheme: c.scheme })));
      const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
      try {
        const call = (parts: { query?: string; headers?: Record<string, string> }) =>
          sandbox.fetch(new Request(`http://sandbox.test${generated.tables.basePath}/widgets${parts.query ? `?${parts.query}` : ''}`, { headers: parts.headers ?? {} }));
        expect((await call(c.carry(sandbox.apiKey))).status).toBe(200);
        const missing = await call({});
        expect(missing.status).toBe(401);
        expect(await missing.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED', details: [{ field: c.field }] } });
        expect((await call(c.carry('sk_not_a_key'))).status).toBe(401);
        expect((await call(c.wrongForm(sandbox.apiKey))).status).toBe(401);
      } finally {
        await sandbox.close();
      }

      const { target: inner, sandbox: suiteSandbox } = await inProcessTarget({ tables: generated.tables });
      const { target, sent } = recording(inner);
      try {
        const results = await runSuite(target, { suite: generated.suite });
        expect(failures(results)).toEqual([]);
        const passed = new Set(results.filter((r) => r.outcome === 'pass').map((r) => `${r.operation} ${r.check.split(':')[0]}`));
        for (const expected of ['createWidget records', 'getWidget not found', 'getWidget isolation', 'listWidgets auth']) expect(passed).toContain(expected);
        // Every request that carried the suite's key carried it as the scheme says.
        const carried = sent.filter((s) => JSON.stringify(s).includes(encodeURIComponent(inner.apiKey)) || Object.values(s.headers).some((v) => v.includes(inner.apiKey) || v === basic(`conformance:${inner.apiKey}`)));
        expect(carried.length).toBeGreaterThan(5);
        const expected = c.carry(inner.apiKey);
        for (const s of carried) {
          if (expected.query !== undefined) expect(s.path).toContain(expected.query);
          for (const [name, value] of Object.entries(expected.headers ?? {})) {
            if (name === 'authorization' && c.name === 'HTTP basic') expect(s.headers.authorization).toBe(basic(`conformance:${inner.apiKey}`));
            else if (name === 'cookie') expect(s.headers.cookie).toBe(`session=${encodeURIComponent(inner.apiKey)}`);
            else expect(s.headers[name.toLowerCase()]).toBe(value);
          }
        }
      } finally {
        await suiteSandbox.close();
      }
    }, 300_000);
  }
});
