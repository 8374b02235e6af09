// Typed access to a request's body: a rule reads the validated body as the generated type of the operation's body
// (generated/sandbox/operation-bodies.ts, from the spec's request schemas), so rules name the operations whose
// bodies they read instead of casting fields. The one cast lives here.
import type { OperationBodies } from '../../../generated/sandbox/operation-bodies.js';
import type { RequestContext } from './context.js';

export type { OperationBodies };

/** An operationId of the spec whose operation takes a request body. */
export type BodyOperation = keyof OperationBodies & string;

/**
 * The request's body as the body of `operations` (any of them): the route's own operation, or for a legacy alias
 * its canonical one, whose names the engine has already rewritten the body to. A rule wired to an operation it
 * does not list is a programming error, refused before any field is read.
 */
export function bodyOf<Op extends BodyOperation>(ctx: RequestContext, ...operations: Op[]): OperationBodies[Op] {
  const id = ctx.route.aliasOf ?? ctx.route.id;
  if (!(operations as string[]).includes(id)) {
    throw new Error(`sandbox: a rule read the body of ${id} as the body of ${operations.join(' or ')}`);
  }
  // The engine ran the operation's body validator before any rule: the body has that operation's type.
  return ctx.body as unknown as OperationBodies[Op];
}
