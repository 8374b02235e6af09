// Inferred pagination served (issue 27): the sandbox of a spec without our vocabulary pages its records as the list's
// parameters and answer say (opaque cursor, next link, offset with a total, page number with a total), and the
// conformance suite walks those pages with every check passing.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';
import { widgetsSpec } from '../support/widgets-spec.js';

const widgets = { type: 'array', items: { $ref: '#/components/schemas/Widget' } };
const q = (name: string, type: string) => ({ name, in: 'query', schema: { type, ...(type === 'integer' ? { minimum: name === 'page' ? 1 : 0 } : {}) } });
const KEY = { type: 'apiKey', in: 'header', name: 'X-Key' };

interface Style {
  name: string;
  list: { parameters: Record<string, unknown>[]; page: Record<string, unknown> };
  items: string;
  /** The query of the page after `body` (read with page size `size`, from page query `query`), or undefined on the last. */
  next: (body: Record<string, unknown>, query: URLSearchParams, size: number) => URLSearchParams | undefined;
}

const STYLES: Style[] = [
  {
    name: 'pageSize and pageToken with nextPageToken',
    list: { parameters: [q('pageSize', 'integer'), q('pageToken', 'string')], page: { widgets, nextPageToken: { type: 'string' } } },
    items: 'widgets',
    next: (body) => (typeof body.nextPageToken === 'string' ? new URLSearchParams({ pageToken: body.nextPageToken }) : undefined),
  },
  {
    name: 'limit and after with a next link',
    list: { parameters: [q('limit', 'integer'), q('after', 'string')], page: { data: widgets, next: { type: 'string', format: 'uri' } } },
    items: 'data',
    next: (body) => (typeof body.next === 'string' ? new URL(body.next).searchParams : undefined),
  },
  {
    name: 'limit and offset with a total',
    list: { parameters: [q('limit', 'integer'), q('offset', 'integer')], page: { items: widgets, total: { type: 'integer' } } },
    items: 'items',
    next: (body, query, size) => {
      const end = Number(query.get('offset') ?? 0) + size;
      return end < (body.total as number) ? new URLSearchParams({ offset: String(end) }) : undefined;
    },
  },
  {
    name: 'per_page and page with a total_count',
    list: { parameters: [q('per_page', 'integer'), q('page', 'integer')], page: { results: widgets, total_count: { type: 'integer' } } },
    items: 'results',
    next: (body, query, size) => {
      const page = Number(query.get('page') ?? 1);
      return page * size < (body.total_count as number) ? new URLSearchParams({ page: String(page + 1) }) : undefined;
    },
  },
];

describe('inferred pagination in the sandbox and the conformance suite', () => {
  for (const style of STYLES) {
    it(`${style.name}: every record once, in order, pages of the asked size; the suite walks it and passes`, async () => {
      const generated = await generateFor(writeSpec(widgetsSpec({ scheme: KEY, list: style.list })));
      const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
      try {
        const base = `http://sandbox.test${generated.tables.basePath}/widgets`;
        const headers = { 'X-Key': sandbox.apiKey, 'content-type': 'application/json' };
        const made: string[] = [];
        for (let i = 0; i < 7; i++) {
          const res = await sandbox.fetch(new Request(base, { method: 'POST', headers, body: JSON.stringify({ name: `w${i}` }) }));
          expect(res.status).toBe(201);
          made.push(((await res.json()) as { id: string }).id);
        }
        const sizeParam = String((style.list.parameters[0] as { name: string }).name);
        const seen: string[] = [];
        let query: URLSearchParams | undefined = new URLSearchParams();
        let pages = 0;
        while (query !== undefined && pages < 10) {
          query.set(sizeParam, '3');
          const res = await sandbox.fetch(new Request(`${base}?${query.toString()}`, { headers }));
          expect(res.status).toBe(200);
          const body = (await res.json()) as Record<string, unknown>;
          const items = body[style.items] as { id: string }[];
          expect(items.length).toBeLessThanOrEqual(3);
          seen.push(...items.map((w) => w.id));
          query = style.next(body, query, 3);
          pages++;
        }
        expect(pages).toBe(3);
        expect(seen).toEqual(made);
      } finally {
        await sandbox.close();
      }
      const results = await conformanceOf(generated);
      expect(failures(results)).toEqual([]);
      const passed = results.filter((r) => r.outcome === 'pass').map((r) => `${r.operation} ${r.check}`);
      expect(passed.some((p) => p.startsWith('listWidgets lists: page_size and page_token visit every record once'))).toBe(true);
    }, 300_000);
  }
});
