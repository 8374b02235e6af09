// The rules' typed access to request bodies (src/sandbox/engine/bodies.ts): a rule names the operations whose body
// it reads and gets the generated type of that body; a legacy alias's request (already rewritten to canonical names)
// counts as its canonical operation; a route of an operation the rule did not name is refused before any field is read.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { UpdateAlertBody, UpdateTestSetBody } from '../../generated/client/types.js';
import { routes } from '../../generated/sandbox/routes.js';
import { bodyOf } from '../../src/sandbox/engine/bodies.js';
import type { RequestContext } from '../../src/sandbox/engine/context.js';

function contextOf(operationId: string, body: Record<string, unknown>): RequestContext {
  const route = routes.find((r) => r.id === operationId);
  if (!route) throw new Error(`no route ${operationId}`);
  // Only the route and the body matter to bodyOf; the rest of a request's context is not read.
  return { route, body } as unknown as RequestContext;
}

describe('typed request bodies', () => {
  it('gives the validated body of a named operation, typed as that operation body', () => {
    const body = { name: 'Latency', conditions: [{ metric_id: 'm', threshold_float: 1 }] };
    const read = bodyOf(contextOf('updateAlert', body), 'updateAlert');
    expectTypeOf(read).toEqualTypeOf<UpdateAlertBody>();
    expect(read).toBe(body);
  });

  it('types a body of several operations as the union of their bodies', () => {
    const read = bodyOf(contextOf('updateTestSet', { name: 'x' }), 'updateAlert', 'updateTestSet');
    expectTypeOf(read).toEqualTypeOf<UpdateAlertBody | UpdateTestSetBody>();
    expect(read).toEqual({ name: 'x' });
  });

  it('reads a legacy alias request as its canonical operation', () => {
    const alias = routes.find((r) => r.aliasOf === 'updateAlert');
    expect(alias?.id).toBe('updateMonitor');
    expect(bodyOf(contextOf('updateMonitor', { name: 'm' }), 'updateAlert')).toEqual({ name: 'm' });
  });

  it('refuses the body of an operation the rule did not name', () => {
    expect(() => bodyOf(contextOf('updateTestSet', {}), 'updateAlert')).toThrow(/body of updateTestSet as the body of updateAlert/);
    expect(() => bodyOf(contextOf('updateMonitor', {}), 'createAlert', 'updateTestSet')).toThrow(/body of updateAlert as the body of createAlert or updateTestSet/);
  });
});
