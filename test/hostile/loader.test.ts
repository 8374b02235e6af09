// Hostile input to the loader (and to the model behind it), beyond what test/load covers: every case must end in
// bounded time and memory with a clear SpecError, never a crash or a hang. Bounds (src/load/limits.ts): 32 MiB per
// document, 1000 YAML aliases, nesting depth 200, 2000 referenced files, 20 s per fetch attempt, 4 attempts with
// 250 ms doubling backoff, 120 s per catalog load. The tests lower the time bounds so they run in seconds.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { emitAll } from '../../src/emit/index.js';
import { buildNames } from '../../src/emit/naming.js';
import { loadSpecs, SpecError, type LoadOptions } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import { doc, ok, openapi } from '../support/docs.js';

const root = mkdtempSync(join(tmpdir(), 'hostile-load-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function folder(files: Record<string, string>): string {
  const dir = join(root, `f${n++}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const MINIMAL = (schemaRef = "'#/components/schemas/Thing'", extra = '') => `openapi: 3.1.0
info: { title: T, version: '1' }
paths:
  /things:
    get:
      operationId: getThing
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: ${schemaRef} }
components:
  schemas:
    Thing: { type: object, properties: { id: { type: string } } }
${extra}`;

/** Load, expecting a SpecError; also returns how long it took and how much the heap grew. */
async function refused(source: string, options: LoadOptions = {}): Promise<{ error: SpecError; ms: number; heapMb: number }> {
  const heap = process.memoryUsage().heapUsed;
  const started = performance.now();
  const error = await loadSpecs(source, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  const ms = performance.now() - started;
  expect(error, String(error)).toBeInstanceOf(SpecError);
  return { error: error as SpecError, ms, heapMb: (process.memoryUsage().heapUsed - heap) / 1024 / 1024 };
}

// ---------------------------------------------------------------------------------------------------------
// A tiny programmable HTTP server on 127.0.0.1.

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Server[] = [];
async function serve(handler: Handler): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

const catalogOf = (base: string, entries: { name: string; url: string }[]) => JSON.stringify({ specs: entries.map((e) => ({ name: e.name, url: e.url.startsWith('http') ? e.url : `${base}${e.url}` })) });

describe('size', () => {
  it('refuses a 100 MB document on disk by its size, without reading it', async () => {
    const dir = folder({});
    mkdirSync(dir, { recursive: true });
    const big = join(dir, 'big.yaml');
    writeFileSync(big, 'openapi: 3.1.0\n');
    truncateSync(big, 100 * 1024 * 1024); // sparse: 100 MB on paper, nothing to read
    const { error, ms, heapMb } = await refused(dir);
    expect(error.reason).toMatch(/104857600 bytes, more than the limit of 33554432 bytes/);
    expect(ms).toBeLessThan(2000);
    expect(heapMb).toBeLessThan(50);
  });

  it('refuses a $ref to a 100 MB file the same way, naming the $ref', async () => {
    const dir = folder({ 'api.yaml': MINIMAL("'./big.yaml'") });
    writeFileSync(join(dir, 'big.yaml'), 'type: string\n');
    truncateSync(join(dir, 'big.yaml'), 100 * 1024 * 1024);
    const { error, ms } = await refused(join(dir, 'api.yaml'));
    expect(error.reason).toMatch(/big\.yaml.*more than the limit/);
    expect(error.pointer).toContain('/schema');
    expect(ms).toBeLessThan(2000);
  });

  it('refuses a 100 MB document over HTTP by its Content-Length, at once', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/v1/openapi') return void res.end(catalogOf(`http://${req.headers.host}`, [{ name: 'big', url: '/big.yaml' }]));
      res.writeHead(200, { 'content-length': String(100 * 1024 * 1024) });
      res.write(Buffer.alloc(1024 * 1024, 'a'));
    });
    const { error, ms } = await refused(`${base}/v1`);
    expect(error.reason).toMatch(/104857600 bytes, more than the limit/);
    expect(ms).toBeLessThan(2000);
  });

  it('stops reading a 100 MB document sent without Content-Length at 32 MiB', async () => {
    let sent = 0;
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const base = await serve((req, res) => {
      if (req.url === '/v1/openapi') return void res.end(catalogOf(`http://${req.headers.host}`, [{ name: 'big', url: '/big.yaml' }]));
      res.writeHead(200, { 'content-type': 'application/yaml' });
      const more = (): void => {
        while (sent < 100 * chunk.length && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    const { error, ms, heapMb } = await refused(`${base}/v1`);
    expect(error.reason).toMatch(/more than the limit of 33554432 bytes/);
    expect(ms).toBeLessThan(10_000);
    expect(sent).toBeLessThan(100 * chunk.length);
    expect(heapMb).toBeLessThan(150);
  });
});

describe('depth', () => {
  const deepJson = `{"openapi":"3.1.0","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
  const deepSchema = `{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"Deep":${'{"type":"object","properties":{"a":'.repeat(10_000)}{"type":"string"}${'}}'.repeat(10_000)}}}}`;
  const cases: Record<string, string> = {
    'deep.json': deepJson,
    'schema.json': deepSchema,
    'flow.yaml': `openapi: 3.1.0\nx: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`,
    'map.yaml': `openapi: 3.1.0\nx: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}\n`,
    'compact.yaml': `openapi: 3.1.0\nx:\n${'- '.repeat(10_000)}1\n`,
    'anchored.yaml': `openapi: 3.1.0\nx: ${'&a ['.repeat(10_000)}${']'.repeat(10_000)}\n`,
  };
  it.each(Object.keys(cases))('refuses 10,000 levels of nesting (%s) with the depth limit', async (file) => {
    const dir = folder({ [file]: cases[file]! });
    const { error, ms } = await refused(dir);
    expect(error.reason).toMatch(/nests deeper than the limit of 200 levels/);
    expect(ms).toBeLessThan(5000);
  });

  it('generates from a schema nested just under the limit (no recursion overflows below it)', async () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 95; i++) schema = { type: 'object', properties: { a: schema } };
    const model = buildModel([doc('deep', openapi({ '/d': { get: { operationId: 'getDeep', responses: ok({ $ref: '#/components/schemas/Deep' }) } } }, { Deep: schema }))], { policy: 'lenient' });
    const files = emitAll(model, buildNames(model), { sandbox: false });
    expect(files.find((f) => f.path === 'client/types.ts')!.contents).toContain('export type Deep');
  });
});

describe('$ref cycles', () => {
  const schemas = (text: string) => folder({ 'api.yaml': MINIMAL("'#/components/schemas/A'", text.replace(/^/gm, '    ')) });
  it.each([
    ['$ref to $ref', 'A: { $ref: "#/components/schemas/B" }\nB: { $ref: "#/components/schemas/A" }', 'A -> B -> A'],
    ['itself', 'A: { $ref: "#/components/schemas/A" }', 'A -> A'],
    ['allOf/anyOf', 'A: { allOf: [{ $ref: "#/components/schemas/B" }] }\nB: { anyOf: [{ type: string }, { $ref: "#/components/schemas/A" }] }', 'A -> B -> A'],
    ['oneOf with a discriminator', 'A: { oneOf: [{ $ref: "#/components/schemas/B" }], discriminator: { propertyName: k } }\nB: { allOf: [{ $ref: "#/components/schemas/A" }, { type: object }] }', 'A -> B -> A'],
  ])('refuses a schema cycle that never reaches a value (%s)', async (_, text, cycle) => {
    const dir = schemas(text);
    const error = await loadSpecs(dir)
      .then((docs) => buildModel(docs, { policy: 'lenient' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).reason).toContain(cycle);
    expect((error as SpecError).pointer).toMatch(/^#\/components\/schemas\//);
  });

  it('accepts recursion through properties and items, and across files', async () => {
    const dir = folder({
      'api.yaml': MINIMAL("'./tree.yaml'"),
      'tree.yaml': 'type: object\nproperties:\n  children: { type: array, items: { $ref: ./tree.yaml } }\n  owner: { $ref: ./owner.yaml }\n',
      'owner.yaml': 'type: object\nproperties:\n  tree: { $ref: ./tree.yaml }\n',
    });
    const model = buildModel(await loadSpecs(join(dir, 'api.yaml')), { policy: 'lenient' });
    expect(Object.keys(model.schemas)).toEqual(expect.arrayContaining(['tree', 'owner']));
  });

  it('refuses a path item that refers back to itself across files', async () => {
    const dir = folder({
      'api.yaml': 'openapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths:\n  /a:\n    $ref: ./a.yaml\n',
      'a.yaml': '$ref: ./b.yaml\n',
      'b.yaml': '$ref: ./a.yaml\n',
    });
    const { error, ms } = await refused(join(dir, 'api.yaml'));
    expect(error.reason).toMatch(/cycle/);
    expect(ms).toBeLessThan(2000);
  });

  it('refuses a cycle of parameter refs', async () => {
    const dir = folder({
      'api.yaml': `openapi: 3.1.0
info: { title: T, version: '1' }
paths:
  /a:
    get:
      parameters: [{ $ref: '#/components/parameters/P' }]
      responses: { '200': { description: ok } }
components:
  parameters:
    P: { $ref: '#/components/parameters/Q' }
    Q: { $ref: '#/components/parameters/P' }
`,
    });
    const error = await loadSpecs(dir)
      .then((docs) => buildModel(docs, { policy: 'lenient' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).message).toMatch(/cycle|circular|64 hops/i);
  });
});

describe('references that leave the spec', () => {
  it('refuses a $ref through a symlink that leads out of the spec folder', async () => {
    const outside = folder({ 'secret.yaml': 'type: string\n' });
    const dir = folder({ 'api.yaml': MINIMAL("'./link.yaml'") });
    symlinkSync(join(outside, 'secret.yaml'), join(dir, 'link.yaml'));
    const { error } = await refused(join(dir, 'api.yaml'));
    expect(error.reason).toMatch(/symlink.*outside the spec folder/);
  });

  it.each([['/etc/passwd'], ['file:///etc/passwd'], ['../../../../../../etc/passwd'], ['%2e%2e/%2e%2e/etc/passwd'], ['//evil.example/x.yaml']])('refuses $ref %s', async (ref) => {
    const dir = folder({ 'specs/api.yaml': MINIMAL(JSON.stringify(ref)) });
    const { error } = await refused(join(dir, 'specs'));
    expect(error.reason).toMatch(/leaves the spec folder|only relative file references|no such file/);
  });

  it('refuses a $ref from a catalog document to another host, without contacting it', async () => {
    const contacted: string[] = [];
    const fetchLike = async (url: string): Promise<Response> => {
      contacted.push(url);
      if (url === 'https://api.example/v1/openapi') return Response.json({ specs: [{ name: 'a', url: 'https://api.example/v1/openapi/a' }] });
      if (url === 'https://api.example/v1/openapi/a') return new Response(MINIMAL("'https://evil.example/x.yaml'"));
      return new Response('{}');
    };
    const { error } = await refused('https://api.example/v1', { fetch: fetchLike });
    expect(error.reason).toMatch(/leaves the catalog/);
    expect(contacted.some((u) => u.includes('evil'))).toBe(false);
  });

  it('refuses a catalog whose spec URL is on another host (a real server), without fetching it', async () => {
    let other = 0;
    const elsewhere = await serve((_req, res) => {
      other++;
      res.end(MINIMAL());
    });
    const base = await serve((req, res) => res.end(catalogOf(`http://${req.headers.host}`, [{ name: 'x', url: `${elsewhere}/x.yaml` }])));
    const { error } = await refused(`${base}/v1`);
    expect(error.reason).toMatch(/another host/);
    expect(error.pointer).toBe('#/specs/0/url');
    expect(other).toBe(0);
  });

  it('does not follow a redirect to another host', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/v1/openapi') return void res.end(catalogOf(`http://${req.headers.host}`, [{ name: 'x', url: '/x.yaml' }]));
      res.writeHead(302, { location: 'http://evil.example/x.yaml' }).end();
    });
    const { error } = await refused(`${base}/v1`, { sleep: async () => {} });
    expect(error.message).toMatch(/x\.yaml/);
  });
});

describe('slow and failing servers (a real server on 127.0.0.1)', () => {
  const limits = { fetchTimeoutMs: 300, fetchAttempts: 2, fetchBackoffMs: 10 };

  it('ends a server that never answers at the fetch deadline', async () => {
    const base = await serve(() => {
      /* never answers */
    });
    const { error, ms } = await refused(`${base}/v1`, { limits });
    expect(error.reason).toMatch(/no answer within 300 ms/);
    expect(ms).toBeLessThan(3000);
  });

  it('ends a body that trickles in slower than the deadline', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/v1/openapi') return void res.end(catalogOf(`http://${req.headers.host}`, [{ name: 'slow', url: '/slow.yaml' }]));
      res.writeHead(200, { 'content-type': 'application/yaml' });
      const timer = setInterval(() => res.write('# still here\n'), 50);
      res.on('close', () => clearInterval(timer));
    });
    const { error, ms } = await refused(`${base}/v1`, { limits });
    expect(error.message).toMatch(/slow\.yaml/);
    expect(error.reason).toMatch(/within 300 ms|no answer/);
    expect(ms).toBeLessThan(3000);
  });

  it('ends a catalog of many slow documents at the load deadline', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/v1/openapi') return void res.end(catalogOf(`http://${req.headers.host}`, Array.from({ length: 50 }, (_, i) => ({ name: `s${i}`, url: `/s${i}.yaml` }))));
      setTimeout(() => res.end(MINIMAL()), 100); // each answer is in time; all of them together are not
    });
    const { error, ms } = await refused(`${base}/v1`, { limits: { ...limits, loadTimeoutMs: 800 }, skipValidation: true });
    expect(error.reason).toMatch(/deadline of 800 ms/);
    expect(ms).toBeLessThan(3000);
  });

  it('retries 503 and 429 answers and then succeeds', async () => {
    const seen: string[] = [];
    const base = await serve((req, res) => {
      seen.push(req.url ?? '');
      const attempts = seen.filter((u) => u === req.url).length;
      if (attempts === 1) return void res.writeHead(503).end('{"error":"busy"}');
      if (attempts === 2 && req.url !== '/v1/openapi') return void res.writeHead(429).end();
      if (req.url === '/v1/openapi') return void res.end(catalogOf(`http://${req.headers.host}`, [{ name: 'a', url: '/a.yaml' }]));
      res.end(MINIMAL());
    });
    const docs = await loadSpecs(`${base}/v1`, { limits: { ...limits, fetchAttempts: 3 } });
    expect(docs.map((d) => d.name)).toEqual(['a']);
    expect(seen).toEqual(['/v1/openapi', '/v1/openapi', '/a.yaml', '/a.yaml', '/a.yaml']);
  });

  it('does not retry a 404, and names the URL', async () => {
    const base = await serve((_req, res) => res.writeHead(404).end());
    const { error, ms } = await refused(`${base}/v1`, { limits });
    expect(error.reason).toMatch(/answered 404/);
    expect(ms).toBeLessThan(1000);
  });

  it('refuses a catalog that is not JSON, or not a catalog', async () => {
    const base = await serve((req, res) => res.end(req.url === '/v1/openapi' ? '<html>' : ''));
    expect((await refused(`${base}/v1`, { limits })).error.reason).toMatch(/not JSON/);
    const other = await serve((_req, res) => res.end('{"specs": "all of them"}'));
    expect((await refused(`${other}/v1`, { limits })).error.reason).toMatch(/"specs" array/);
  });
});

describe('YAML', () => {
  it('stops a billion-laughs alias bomb at the default alias limit, quickly and in little memory', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const p = String.fromCharCode(96 + i);
      const c = String.fromCharCode(97 + i);
      levels.push(`${c}: &${c} [${Array.from({ length: 9 }, () => `*${p}`).join(',')}]`);
    }
    const dir = folder({ 'bomb.yaml': `openapi: 3.1.0\n${levels.join('\n')}\n` });
    const { error, ms, heapMb } = await refused(dir);
    expect(error.reason).toMatch(/alias/i);
    expect(ms).toBeLessThan(3000);
    expect(heapMb).toBeLessThan(200);
  });

  it('refuses duplicate keys and names the line', async () => {
    const dir = folder({ 'dup.yaml': 'openapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths: {}\npaths: {}\n' });
    const { error } = await refused(dir);
    expect(error.line).toBe(4);
  });

  it('shows control characters of a spec escaped in error messages', async () => {
    const dir = folder({ 'api.yaml': MINIMAL("'#/components/schemas/Thing'").replace('/things:', '"/things/\\e[31m\\u2028/../x":') });
    const error = await loadSpecs(dir)
      .then((docs) => buildModel(docs, { policy: 'lenient' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).message).toContain('\\u001b[31m\\u2028');
    expect((error as SpecError).message).not.toMatch(/[\u001b\u2028]/);
  });
});
