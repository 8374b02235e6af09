// A path parameter with literal text around it in its segment (twilio's `/Calls/{Sid}.json`, issue 27): the router
// matches the text and hands over only the parameter's part; a literal segment still wins over it, and it wins
// over a bare parameter, whatever the order of the routes.
import { describe, expect, it } from 'vitest';
import { Router } from '../../src/sandbox/http/router.js';

const routes = [
  { id: 'listCalls', method: 'GET', path: '/Accounts/{AccountSid}/Calls.json' },
  { id: 'getCall', method: 'GET', path: '/Accounts/{AccountSid}/Calls/{Sid}.json' },
  { id: 'getFeedback', method: 'GET', path: '/Accounts/{AccountSid}/Calls/Feedback.json' },
  { id: 'getAnything', method: 'GET', path: '/Accounts/{AccountSid}/Calls/{Other}' },
  { id: 'getPrefixed', method: 'GET', path: '/files/v{version}' },
];

describe('router: parameters with literal text in their segment', () => {
  for (const order of [routes, [...routes].reverse()]) {
    const router = new Router(order);
    it(`matches the text around the parameter (${order === routes ? 'spec order' : 'reversed'})`, () => {
      expect(router.match('GET', '/Accounts/AC1/Calls/CA2.json')).toEqual({ route: routes[1], params: { AccountSid: 'AC1', Sid: 'CA2' } });
      expect(router.match('GET', '/Accounts/AC1/Calls.json')?.route.id).toBe('listCalls');
      // A literal segment wins; without the suffix the bare parameter's route is taken.
      expect(router.match('GET', '/Accounts/AC1/Calls/Feedback.json')?.route.id).toBe('getFeedback');
      expect(router.match('GET', '/Accounts/AC1/Calls/CA2')?.route.id).toBe('getAnything');
      // The parameter's part may not be empty; a prefix is matched as a suffix is.
      expect(router.match('GET', '/Accounts/AC1/Calls/.json')?.route.id).toBe('getAnything');
      expect(router.match('GET', '/files/v2')?.params).toEqual({ version: '2' });
      expect(router.match('GET', '/files/2')).toBeUndefined();
      expect(router.match('GET', '/Accounts/AC1/Calls/CA%202.json')?.params.Sid).toBe('CA 2');
    });
  }
});

describe('router: several parameters in one segment', () => {
  const many = [
    { id: 'getRecord', method: 'GET', path: '/records/{record_id}.{format}' },
    { id: 'getVersioned', method: 'GET', path: '/files/{name}-v{version}.{ext}' },
    { id: 'adjacent', method: 'GET', path: '/glued/{a}{b}' },
  ];
  const router = new Router(many);
  it('hands each parameter its part: the first occurrence of the text after it ends it, the last takes the rest', () => {
    expect(router.match('GET', '/records/abc.json')?.params).toEqual({ record_id: 'abc', format: 'json' });
    expect(router.match('GET', '/records/a.b.json')?.params).toEqual({ record_id: 'a', format: 'b.json' });
    expect(router.match('GET', '/files/report-v2.pdf')?.params).toEqual({ name: 'report', version: '2', ext: 'pdf' });
    expect(router.match('GET', '/records/a%2Eb.xml')?.params).toEqual({ record_id: 'a.b', format: 'xml' });
  });
  it('matches no empty part, no missing text, and nothing for two parameters with no text between them', () => {
    for (const path of ['/records/.json', '/records/abc.', '/records/abc', '/files/report.pdf', '/glued/xy']) expect(router.match('GET', path), path).toBeUndefined();
  });
  it('matches a hostile segment in one pass (no backtracking): a long near-miss is simply no match', () => {
    const hostile = new Router([{ id: 'h', method: 'GET', path: `/h/${Array.from({ length: 8 }, (_, i) => `{p${i}}.`).join('')}x` }]);
    expect(hostile.match('GET', `/h/${'a.'.repeat(4000)}`)).toBeUndefined();
    expect(hostile.match('GET', `/h/${'a.'.repeat(8)}x`)?.params.p7).toBe('a');
  });
});
