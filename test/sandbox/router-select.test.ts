// Operations sharing a method and path, told apart by what the request carries (rule 36: AWS's POST / with
// `X-Amz-Target`, its `?Action=`, chime's `?scope=` beside a bare parameter): the router picks the operation whose
// values the request carries, prefers the one whose named parameters it also carries, and answers 400 on the
// selecting header when no operation of the path takes the value (or it is missing).
import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../src/sandbox/errors.js';
import { Router } from '../../src/sandbox/http/router.js';
import type { Carried } from '../../src/sandbox/http/select.js';

type Row = { id: string; method: string; path: string; select?: { in: 'header' | 'query'; name: string; value?: string }[] };
const routes: Row[] = [
  { id: 'create', method: 'POST', path: '/', select: [{ in: 'header', name: 'X-Amz-Target', value: 'S.Create' }] },
  { id: 'describe', method: 'POST', path: '/', select: [{ in: 'header', name: 'X-Amz-Target', value: 'S.Describe' }] },
  { id: 'attach', method: 'GET', path: '/', select: [{ in: 'query', name: 'Action', value: 'Attach' }, { in: 'query', name: 'Version', value: '2011-01-01' }] },
  { id: 'members', method: 'GET', path: '/channels', select: [{ in: 'query', name: 'scope', value: 'members' }, { in: 'header', name: 'x-bearer' }] },
  { id: 'byArn', method: 'GET', path: '/channels', select: [{ in: 'query', name: 'arn' }] },
  { id: 'plain', method: 'GET', path: '/analyze' },
  { id: 'stream', method: 'GET', path: '/analyze', select: [{ in: 'header', name: 'overload', value: 'stream' }] },
  { id: 'item', method: 'GET', path: '/items/{id}' },
];

/** A request's headers (any case) and query, as the dispatcher hands them to the router. */
const carrying = (headers: Record<string, string>, query: Record<string, string> = {}): Carried => (where, name) => {
  if (where === 'query') return query[name] ?? null;
  return Object.entries(headers).find(([h]) => h.toLowerCase() === name.toLowerCase())?.[1] ?? null;
};

describe('router: operations selected by a header or query value', () => {
  const table: [string, string, Carried, string | undefined][] = [
    ['POST', '/', carrying({ 'x-amz-target': 'S.Create' }), 'create'],
    ['POST', '/', carrying({ 'X-Amz-Target': 'S.Describe' }), 'describe'],
    ['GET', '/', carrying({}, { Action: 'Attach', Version: '2011-01-01' }), 'attach'],
    // Every fixed value counts: an Action of another version selects nothing.
    // A bare name ranks: with the scope, members; with only the arn, byArn.
    ['GET', '/channels', carrying({ 'x-bearer': 't' }, { scope: 'members' }), 'members'],
    ['GET', '/channels', carrying({}, { arn: 'a' }), 'byArn'],
    // Missing the bare parameter still reaches the operation (its validation names the parameter).
    ['GET', '/channels', carrying({}, { scope: 'members' }), 'members'],
    ['GET', '/channels', carrying({}), 'byArn'],
    // An operation without conditions is taken when the request carries none of another's (either order).
    ['GET', '/analyze', carrying({}), 'plain'],
    ['GET', '/analyze', carrying({ overload: 'stream' }), 'stream'],
    ['GET', '/items/1', carrying({}), 'item'],
    ['GET', '/nothing', carrying({}), undefined],
  ];
  for (const order of [routes, [...routes].reverse()]) {
    const router = new Router(order);
    for (const [method, path, carried, id] of table) {
      it(`${method} ${path} -> ${id ?? 'no route'} (${order === routes ? 'spec order' : 'reversed'})`, () => {
        expect(router.match(method, path, carried)?.route.id).toBe(id);
      });
    }
  }

  const router = new Router(routes);
  const failure = (method: string, path: string, carried: Carried): ApiFailure => {
    try {
      router.match(method, path, carried);
    } catch (error) {
      if (error instanceof ApiFailure) return error;
      throw error;
    }
    throw new Error('expected a failure');
  };

  it('an unknown target is 400 on the header, naming the values it takes', () => {
    const error = failure('POST', '/', carrying({ 'X-Amz-Target': 'S.Nope' }));
    expect(error.status).toBe(400);
    expect(error.details).toEqual([{ field: 'X-Amz-Target', description: 'the header "S.Nope" selects no operation of POST /; it takes one of S.Create, S.Describe' }]);
  });
  it('a missing target is 400 on the header', () => {
    const error = failure('POST', '/', carrying({}));
    expect(error.status).toBe(400);
    expect(error.details[0]!.description).toMatch(/^the header is required: it selects the operation of POST \//);
  });
  it('a query protocol request of another Version is 400 on that query parameter', () => {
    const error = failure('GET', '/', carrying({}, { Action: 'Attach', Version: '1999-01-01' }));
    expect(error.details[0]!.field).toBe('Version');
    expect(error.details[0]!.description).toContain('"1999-01-01" selects no operation of GET /; it takes one of 2011-01-01');
  });
});
