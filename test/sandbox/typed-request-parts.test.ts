// The rules' typed access to a validated request (src/sandbox/engine/request-parts.ts): a rule names the operations
// whose body or query it reads and gets their generated types; a legacy alias's request (already rewritten to
// canonical names) counts as its canonical operation; a route of an operation the rule did not name is refused
// before any field is read. The data a write stores is typed by the route's resource, and refused for another.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Agent, GetBaselineHistoryQuery, UpdateAlertBody, UpdateTestSetBody } from '../../generated/client/types.js';
import { routes } from '../../generated/sandbox/routes.js';
import type { RequestContext } from '../../src/sandbox/engine/context.js';
import { bodyOf, queryOf, writtenData } from '../../src/sandbox/engine/request-parts.js';
import type { Json } from '../../src/sandbox/storage/store.js';

function contextOf(operationId: string, parts: { body?: Json; query?: Record<string, unknown> }): RequestContext {
  const route = routes.find((r) => r.id === operationId);
  if (!route) throw new Error(`no route ${operationId}`);
  // Only the route and the request's parts matter here; the rest of a request's context is not read.
  return { route, body: parts.body ?? {}, query: parts.query ?? {} } as unknown as RequestContext;
}

describe('typed request parts', () => {
  it('gives the validated body of a named operation, typed as that operation body', () => {
    const body = { name: 'Latency', conditions: [{ metric_id: 'm', threshold_float: 1 }] };
    const read = bodyOf(contextOf('updateAlert', { body }), 'updateAlert');
    expectTypeOf(read).toEqualTypeOf<UpdateAlertBody>();
    expect(read).toBe(body);
  });

  it('types a body of several operations as the union of their bodies', () => {
    const read = bodyOf(contextOf('updateTestSet', { body: { name: 'x' } }), 'updateAlert', 'updateTestSet');
    expectTypeOf(read).toEqualTypeOf<UpdateAlertBody | UpdateTestSetBody>();
    expect(read).toEqual({ name: 'x' });
  });

  it('reads a legacy alias request as its canonical operation', () => {
    const alias = routes.find((r) => r.aliasOf === 'updateAlert');
    expect(alias?.id).toBe('updateMonitor');
    expect(bodyOf(contextOf('updateMonitor', { body: { name: 'm' } }), 'updateAlert')).toEqual({ name: 'm' });
  });

  it('refuses the body of an operation the rule did not name', () => {
    expect(() => bodyOf(contextOf('updateTestSet', {}), 'updateAlert')).toThrow(/body of updateTestSet as the body of updateAlert/);
    expect(() => bodyOf(contextOf('updateMonitor', {}), 'createAlert', 'updateTestSet')).toThrow(/body of updateAlert as the body of createAlert or updateTestSet/);
  });

  it('gives the parsed query of a named operation, typed, and refuses another operation', () => {
    const query = { timezone: 'Asia/Tokyo', bucket_interval: '1 day' };
    const read = queryOf(contextOf('getBaselineHistory', { query }), 'getBaselineHistory');
    expectTypeOf(read).toEqualTypeOf<GetBaselineHistoryQuery>();
    expect(read).toBe(query);
    expect(() => queryOf(contextOf('listBaselines', { query }), 'getBaselineHistory')).toThrow(/query of listBaselines as the query of getBaselineHistory/);
  });

  it('types the data a write stores by the route resource, and refuses another resource', () => {
    const next: Json = { id: 'a', model_type: 'VOICE' };
    const agent = writtenData(contextOf('createAgent', {}), 'agent', next);
    expectTypeOf(agent.model_type).toEqualTypeOf<Agent['model_type']>();
    expect(agent).toBe(next);
    expect(() => writtenData(contextOf('createPersona', {}), 'agent', next)).toThrow(/data written by createPersona as a agent/);
  });
});
