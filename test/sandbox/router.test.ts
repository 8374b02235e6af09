// The route table's matching rule: a fixed path segment wins over a parameter at the same position, whatever
// the order of the routes, so `/runs/tags` is never read as the run `tags`.
import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../src/sandbox/errors.js';
import { Router } from '../../src/sandbox/http/router.js';
import { routes } from '../../generated/sandbox/routes.js';

const table = [
  { method: 'GET', path: '/runs/{run_id}', id: 'getRun' },
  { method: 'GET', path: '/runs/tags', id: 'listRunTags' },
  { method: 'PATCH', path: '/runs/{run_id}', id: 'updateRun' },
  { method: 'GET', path: '/review-projects/{project_id}/progress', id: 'progress' },
  { method: 'POST', path: '/review-projects/disagreement-state', id: 'disagreement' },
];

describe('router', () => {
  it('prefers a literal segment over a parameter, in either order of declaration', () => {
    for (const order of [table, [...table].reverse()]) {
      const router = new Router(order);
      expect(router.match('GET', '/runs/tags')).toEqual({ route: table[1], params: {} });
      expect(router.match('GET', '/runs/AbCdEfGhIjKlMnOpQrStUv')).toEqual({ route: table[0], params: { run_id: 'AbCdEfGhIjKlMnOpQrStUv' } });
      // No PATCH route has the literal: the parameter route takes it.
      expect(router.match('PATCH', '/runs/tags')).toEqual({ route: table[2], params: { run_id: 'tags' } });
      expect(router.match('POST', '/review-projects/disagreement-state')?.route).toBe(table[4]);
      expect(router.match('GET', '/review-projects/disagreement-state')).toBeUndefined();
    }
  });

  it('routes the generated table: /runs/tags to listRunTags, /runs/{id} to getRun', () => {
    const router = new Router(routes);
    expect(router.match('GET', '/runs/tags')?.route.id).toBe('listRunTags');
    expect(router.match('GET', '/runs/AbCdEfGhIjKlMnOpQrStUv')?.route.id).toBe('getRun');
  });

  it('answers 400 on the parameter for a segment that is not valid percent-encoding', () => {
    let thrown: unknown;
    try {
      new Router(table).match('GET', '/runs/%E0%A4%A');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiFailure);
    expect((thrown as ApiFailure).status).toBe(400);
    expect((thrown as ApiFailure).body().error.details[0]?.field).toBe('run_id');
  });
});
