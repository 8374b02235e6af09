// The router prefers a literal segment over a parameter at the same position, whatever the order of the
// routes: the static sub-paths of personas, metrics and test sets reach their own operations through the real
// route table, never the `{id}` operation beside them (which would answer 400 on the id's pattern).
import { describe, expect, it } from 'vitest';
import { routes } from '../../generated/sandbox/routes.js';
import { Router } from '../../src/sandbox/http/router.js';

const cases: [string, string, string][] = [
  ['GET', '/personas/tags', 'listPersonaTags'],
  ['GET', '/personas/voices', 'listPersonaVoices'],
  ['GET', '/personas/background-sounds', 'listPersonaBackgroundSounds'],
  ['POST', '/personas/background-sounds', 'createPersonaBackgroundSound'],
  ['PATCH', '/personas/background-sounds/rain_1', 'updatePersonaBackgroundSound'],
  ['POST', '/personas/background-sounds/rain_1/complete', 'completePersonaBackgroundSound'],
  ['GET', '/metrics/tags', 'listMetricTags'],
  ['GET', '/metrics/flows', 'listMetricFlows'],
  ['PATCH', '/metrics/flows/AAAAAAAAAAAAAAAAAAAAAA', 'updateMetricFlow'],
  ['GET', '/metrics/template-variables', 'listMetricTemplateVariables'],
  ['GET', '/metrics/recently-deleted', 'listRecentlyDeletedMetrics'],
  ['GET', '/metrics/AAAAAAAAAAAAAAAAAAAAAA/threshold', 'getMetricThreshold'],
  ['GET', '/metrics/AAAAAAAAAAAAAAAAAAAAAA/thresholds', 'listMetricThresholds'],
  ['POST', '/test-sets/AAAAAAAA/agents:add', 'addTestSetAgents'],
  ['DELETE', '/test-sets/AAAAAAAA/agents/AAAAAAAAAAAAAAAAAAAAAA', 'removeTestSetAgent'],
];

describe('router: literal segments win over parameters', () => {
  it.each(cases)('%s %s is %s', (method, path, id) => {
    expect(new Router(routes).match(method, path)?.route.id).toBe(id);
    // The order the routes come in does not matter.
    expect(new Router([...routes].reverse()).match(method, path)?.route.id).toBe(id);
  });

  it('still gives a parameter segment to the {id} operation', () => {
    const router = new Router(routes);
    expect(router.match('GET', '/personas/AAAAAAAAAAAAAAAAAAAAAA')?.route.id).toBe('getPersona');
    expect(router.match('GET', '/metrics/AAAAAAAAAAAAAAAAAAAAAA')?.route.id).toBe('getMetric');
    expect(router.match('GET', '/personas/tags')?.params).toEqual({});
  });
});
