// The soak's read-back through a list (kinds without a get operation): a created record missing from its list, or a
// deleted one still listed, is lost; records made under another parent are not judged; every page is read.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Route } from '../../src/conformance/suite-data.js';
import { Recorder } from '../../drill/http.js';
import { readBackByList } from '../../drill/soak-list-read.js';

/** Flows of metric m1, two per page (page_token is the offset). */
const flows = ['f1', 'f2', 'f3', 'f5'];
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/v1/metrics/m1/flows') {
      res.writeHead(404).end('{}');
      return;
    }
    const from = Number(url.searchParams.get('page_token') ?? 0);
    const page = flows.slice(from, from + 2);
    const next = from + 2 < flows.length ? String(from + 2) : null;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ flows: page.map((id) => ({ flow_id: id })), next_page_token: next }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const route = {
  id: 'listMetricFlows',
  resource: 'flow',
  path: '/v1/metrics/{metric_id}/flows',
  aliasRenames: [],
  params: { path: [{ name: 'metric_id' }], query: [] },
  // A page size of 100 is asked; the server's two per page still make the reader follow the token.
  pagination: { pageSize: 'page_size', pageToken: 'page_token', nextPageToken: 'next_page_token', nextLink: false, style: 'token' },
  success: { shape: { kind: 'list', items: 'flows', total: null } },
} as unknown as Route;
const list = { route, spec: { path: { metric_id: 'm1' } } };
const under = (id: string, deleted = false, metric = 'm1') => ({ id, deleted, parent: { metric_id: metric } });

it('finds every acknowledged create on any page and no acknowledged delete', async () => {
  const read = await readBackByList(new Recorder(), base, 'key', list, 'flow_id', [under('f1'), under('f5'), under('f4', true)]);
  expect(read).toEqual({ checked: 3, lost: [], elsewhere: 0 });
});

it('reports a create missing from its list and a delete still listed', async () => {
  const read = await readBackByList(new Recorder(), base, 'key', list, 'flow_id', [under('f9'), under('f3', true)]);
  expect(read.lost).toEqual(['flow f9: created (acknowledged), missing from listMetricFlows', 'flow f3: deleted (acknowledged), still listed by listMetricFlows']);
});

it('does not judge records made under another parent than the list is prepared with', async () => {
  const read = await readBackByList(new Recorder(), base, 'key', list, 'flow_id', [under('f9', false, 'm2'), under('f1')]);
  expect(read).toEqual({ checked: 1, lost: [], elsewhere: 1 });
});

it('reports a list that cannot be read as records not read back', async () => {
  const other = { route, spec: { path: { metric_id: 'gone' } } };
  const read = await readBackByList(new Recorder(), base, 'key', other, 'flow_id', [under('f1', false, 'gone')]);
  expect(read.lost).toEqual(['flow: its list listMetricFlows answered 404 on page 1, so 1 records could not be read back']);
});
