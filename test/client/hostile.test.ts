// Hostile spec strings (quotes, backticks, `*/`, `${x}`, U+2028, `__proto__`, reserved words, names that
// clash with the generator's own) must produce code that compiles, means what it says, and sends exactly the
// wire names.
import ts from 'typescript';
import { beforeAll, expect, test } from 'vitest';
import { buildNames } from '../../src/emit/naming.js';
import type { ApiModel } from '../../src/model/ir.js';
import { body, json, model, op, param } from './fixtures.js';
import { buildClient, fakeFetch, jsonResponse, typeCheck, type Built } from './harness.js';

const EVIL = 'q"u\'o`te*/ ${x} \u2028 </script> /*';
const HEADER = "X-`$x'*|~";

function hostileModel(): ApiModel {
  const paged = { permissions: [], workspaceRequired: false, rules: [], emits: [], pagination: { items: 'it"ems', pageSize: 'size', pageToken: 'tok${x}', nextPageToken: 'next*/' } };
  return model(
    [
      op(`evil${EVIL}__proto__`, 'get', "/it's/{we\"ird}/`tick`/${x}/*/ space/{__proto__}", {
        group: 'a"b',
        summary: EVIL,
        description: `${EVIL}\nsecond line with \`\${process.exit()}\``,
        parameters: {
          path: [param('we"ird', 'path', { description: EVIL }), param('x', 'path'), param('__proto__', 'path')],
          query: [param('__proto__', 'query'), param('constructor', 'query'), param('a b', 'query'), param('x"y', 'query'), param('${x}', 'query')],
          header: [param(HEADER, 'header', { description: '*/ evil' })],
          cookie: [],
        },
        security: [['Evil"Scheme']],
      }),
      op('class', 'delete', '/class', { group: 'raw' }),
      op('request', 'get', '/request', { group: '__proto__' }),
      op('paginate', 'get', '/paginate', { group: 'constructor' }),
      op('createConfig', 'post', '/create-config', { group: 'constructor' }),
      op('list', 'get', '/list', { group: 'lists', parameters: { path: [], query: [param('tok${x}', 'query'), param('size', 'query')], header: [], cookie: [] }, semantics: paged }),
      op('listAll', 'get', '/list-all', { group: 'lists' }),
      op('shadow', 'put', '/s/{config}/{validators}/{spec}/{body}/{options}', {
        group: 'lists',
        parameters: { path: ['config', 'validators', 'spec', 'body', 'options'].map((n) => param(n, 'path')), query: [], header: [], cookie: [] },
        requestBody: body('application/json', true, {}),
        responses: [json('200'), json('2XX'), json('default')],
      }),
    ],
    {
      securitySchemes: { 'Evil"Scheme': { type: 'apiKey', name: "X-Key'`", in: 'header' } },
      scopeHeaders: { workspace: "X-Ws$'" },
      catalog: [{ name: 'evil', title: EVIL, version: '1', openapi: '3.1.0', hash: '0', operationIds: [], servers: ['https://h/"*/${x}`\u2028'], description: EVIL }],
    },
  );
}

let built: Built;
beforeAll(async () => {
  built = await buildClient(hostileModel());
});

test('the generated code compiles strictly', () => {
  expect(typeCheck(built.dir)).toEqual([]);
});

/** Code tokens (comments and whitespace skipped) of a module. */
function codeTokens(source: string): { kind: ts.SyntaxKind; text: string }[] {
  const scanner = ts.createScanner(ts.ScriptTarget.ES2022, true, ts.LanguageVariant.Standard, source);
  const out: { kind: ts.SyntaxKind; text: string }[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) out.push({ kind, text: scanner.getTokenText() });
  return out;
}

test('spec text never becomes code: no raw line separators, no template literals, no identifiers from descriptions', () => {
  for (const name of ['operations.ts', 'client.ts', 'index.ts']) {
    const source = built.files[name]!;
    expect(source, name).not.toMatch(/[\u2028\u2029]/);
    const tokens = codeTokens(source);
    const identifiers = new Set(tokens.filter((t) => t.kind === ts.SyntaxKind.Identifier).map((t) => t.text));
    // `process.exit()` and `script` only occur in descriptions/ids: they must stay inside comments and strings.
    for (const word of ['process', 'exit', 'script', 'te']) expect(identifiers.has(word), `${name}: ${word}`).toBe(false);
    const templates = [ts.SyntaxKind.NoSubstitutionTemplateLiteral, ts.SyntaxKind.TemplateHead];
    expect(tokens.filter((t) => templates.includes(t.kind)), name).toEqual([]);
  }
  // The description did reach the JSDoc, escaped.
  expect(built.files['operations.ts']).toContain('second line with `${process.exit()}`');
  expect(built.files['operations.ts']).toContain("q\"u'o`te*\\/ ${x}");
});

test('sends exactly the wire names: path, query (own properties only), headers, key and workspace', async () => {
  const f = fakeFetch(jsonResponse(200, {}));
  const client = built.mod.createClient({ baseUrl: 'https://h/v1', apiKey: 'key', workspaceId: 'ws', fetch: f.fetch });
  const m = hostileModel();
  const names = buildNames(m);
  const evil = m.operations[0]!;
  const group = client[names.group(evil.group)];
  const query = JSON.parse('{"__proto__":"p","a b":"c d","x\\"y":"q","${x}":"t"}');
  await group[names.operationFunction(evil.id)]('v1', 'v/2', 'v3', { query, headers: { [HEADER]: 'h' } });
  const call = f.calls[0]!;
  expect(call.url).toBe("https://h/v1/it's/v1/%60tick%60/$v%2F2/*/%20space/v3?__proto__=p&a%20b=c%20d&x%22y=q&%24%7Bx%7D=t");
  expect(call.headers[HEADER.toLowerCase()]).toBe('h');
  expect(call.headers["x-key'`"]).toBe('key');
  expect(call.headers["x-ws$'"]).toBe('ws');
});

test('reserved and clashing names get safe code names; `raw` stays the config', async () => {
  const f = fakeFetch(jsonResponse(200, { 'it"ems': [{ id: 'a' }], 'next*/': null }));
  const client = built.mod.createClient({ baseUrl: 'https://h', fetch: f.fetch });
  expect(client.raw.baseUrl).toBe('https://h');
  await client.raw_.class_();
  await client.proto.request();
  await client.constructor_.paginate();
  await client.constructor_.createConfig({});
  const items: unknown[] = [];
  for await (const item of client.lists.list2All()) items.push(item);
  await client.lists.listAll();
  await client.lists.shadow('1', '2', '3', '4', '5', { b: 1 });
  expect(items).toEqual([{ id: 'a' }]);
  expect(f.calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([
    'DELETE /class',
    'GET /request',
    'GET /paginate',
    'POST /create-config',
    'GET /list',
    'GET /list-all',
    'PUT /s/1/2/3/4/5',
  ]);
  expect(f.calls[6]!.body).toBe('{"b":1}');
});

test('index re-exports the operation where an operation name clashes with a runtime helper', async () => {
  const f = fakeFetch(jsonResponse(200, {}));
  const config = built.mod.createClient({ baseUrl: 'https://h', fetch: f.fetch }).raw;
  await built.mod.request(config);
  await built.mod.paginate(config);
  expect(f.calls.map((c) => new URL(c.url).pathname)).toEqual(['/request', '/paginate']);
  expect(built.files['index.ts']).toContain("export { createConfig, paginate, request } from './operations.js';");
});

test('the paginated iterator follows hostile cursor names', async () => {
  const f = fakeFetch(jsonResponse(200, { 'it"ems': [1], 'next*/': 'n`2' }), jsonResponse(200, { 'it"ems': [2] }));
  const client = built.mod.createClient({ baseUrl: 'https://h', fetch: f.fetch });
  const items: unknown[] = [];
  for await (const item of client.lists.list2All({ query: { size: '5' } })) items.push(item);
  expect(items).toEqual([1, 2]);
  expect(new URL(f.calls[1]!.url).search).toBe('?tok%24%7Bx%7D=n%602&size=5');
});

test('server URLs reach the code as string values', () => {
  expect(built.mod.SERVER_URLS).toEqual(['https://h/"*/${x}`\u2028']);
});
