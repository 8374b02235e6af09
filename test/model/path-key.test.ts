// Rule 36 (docs/x-vocabulary.md): a path key's `#`/`?` suffix is what selects the operation, not part of its path.
// parsePathKey is the one reading of the key; discriminatorsOf reads it against the operation's parameters.
import { describe, expect, it } from 'vitest';
import { discriminatorsOf } from '../../src/model/discriminators.js';
import type { Parameter, ParameterLocation } from '../../src/model/ir.js';
import { parsePathKey } from '../../src/model/path-key.js';

describe('parsePathKey', () => {
  const table: [string, ReturnType<typeof parsePathKey>][] = [
    ['/pets/{petId}', { path: '/pets/{petId}', separator: null, items: [] }],
    ['/#X-Amz-Target=CodeStar_connections_20191201.CreateConnection', { path: '/', separator: '#', items: [{ name: 'X-Amz-Target', value: 'CodeStar_connections_20191201.CreateConnection' }] }],
    ['/?Action=CreateRole&Version=2010-05-08', { path: '/', separator: '?', items: [{ name: 'Action', value: 'CreateRole' }, { name: 'Version', value: '2010-05-08' }] }],
    ['/2014-06-05/events#x-amz-Client-Context', { path: '/2014-06-05/events', separator: '#', items: [{ name: 'x-amz-Client-Context' }] }],
    ['/{Bucket}?acl', { path: '/{Bucket}', separator: '?', items: [{ name: 'acl' }] }],
    ['/channels#scope=app-instance-user-memberships&x-amz-chime-bearer', { path: '/channels', separator: '#', items: [{ name: 'scope', value: 'app-instance-user-memberships' }, { name: 'x-amz-chime-bearer' }] }],
    // Percent-encoding is read as a query string's; a malformed one is kept as written; empty items are dropped.
    ['/a?q=a%20b&&r=%zz', { path: '/a', separator: '?', items: [{ name: 'q', value: 'a b' }, { name: 'r', value: '%zz' }] }],
    ['#X-Amz-Target=S.Op', { path: '/', separator: '#', items: [{ name: 'X-Amz-Target', value: 'S.Op' }] }],
  ];
  for (const [key, expected] of table) it(key, () => expect(parsePathKey(key)).toEqual(expected));
});

const param = (name: string, location: ParameterLocation, schema: Parameter['schema'] = { type: ['string'] }): Parameter => ({
  name,
  in: location,
  required: true,
  deprecated: false,
  schema,
  style: location === 'query' ? 'form' : 'simple',
  explode: location === 'query',
  provenance: { source: 'unspecified' },
});
const params = (...list: Parameter[]): Record<ParameterLocation, Parameter[]> => ({
  path: list.filter((p) => p.in === 'path'),
  query: list.filter((p) => p.in === 'query'),
  header: list.filter((p) => p.in === 'header'),
  cookie: [],
});

describe('discriminatorsOf', () => {
  const table: { key: string; declared: Parameter[]; expected: ReturnType<typeof discriminatorsOf>; left: string[] }[] = [
    // AWS JSON: the declared one-value header is fixed and no longer asked of the caller.
    { key: '/#X-Amz-Target=S.Create', declared: [param('X-Amz-Target', 'header', { enum: ['S.Create'] }), param('X-Amz-Date', 'header')], expected: [{ in: 'header', name: 'X-Amz-Target', value: 'S.Create' }], left: ['header:X-Amz-Date'] },
    // A declared header is found in any case and keeps its declared spelling.
    { key: '/#x-amz-target=S.Create', declared: [param('X-Amz-Target', 'header')], expected: [{ in: 'header', name: 'X-Amz-Target', value: 'S.Create' }], left: [] },
    // The directory writes AWS's query protocol after `#`: the declared place (query) wins.
    { key: '/#Action=CreateRole&Version=2010-05-08', declared: [param('Action', 'query'), param('Version', 'query'), param('RoleName', 'query')], expected: [{ in: 'query', name: 'Action', value: 'CreateRole' }, { in: 'query', name: 'Version', value: '2010-05-08' }], left: ['query:RoleName'] },
    // Undeclared: a header after `#`, a query parameter after `?`.
    { key: '/#X-Amz-Target=S.Op', declared: [], expected: [{ in: 'header', name: 'X-Amz-Target', value: 'S.Op' }], left: [] },
    { key: '/?Action=CreateRole', declared: [], expected: [{ in: 'query', name: 'Action', value: 'CreateRole' }], left: [] },
    // A bare declared name is a parameter the request must carry; it stays a parameter.
    { key: '/events#x-amz-Client-Context', declared: [param('x-amz-Client-Context', 'header')], expected: [{ in: 'header', name: 'x-amz-Client-Context' }], left: ['header:x-amz-Client-Context'] },
    // A bare undeclared name: a valueless flag after `?`, only a mark after `#`.
    { key: '/{Bucket}?acl', declared: [param('Bucket', 'path')], expected: [{ in: 'query', name: 'acl', value: '' }], left: ['path:Bucket'] },
    { key: '/files/{id}#add_shared_link', declared: [param('id', 'path')], expected: [], left: ['path:id'] },
  ];
  for (const { key, declared, expected, left } of table) {
    it(key, () => {
      const grouped = params(...declared);
      expect(discriminatorsOf(parsePathKey(key), grouped)).toEqual(expected);
      expect(Object.values(grouped).flat().map((p) => `${p.in}:${p.name}`)).toEqual(left);
    });
  }
});
