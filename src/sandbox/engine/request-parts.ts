// Typed access to a validated request: a rule reads the body or the query as the generated type of the operations
// it names (generated/sandbox/operation-parts.ts, from the spec's request schemas and parameters), instead of
// casting fields; and the data a write is about to store as the generated type of its resource. The casts live
// here, once per part.
import type { OperationBodies, OperationQueries } from '../../../generated/sandbox/operation-parts.js';
import type { Json } from '../storage/store.js';
import type { ResourceKind, ResourceTypes } from '../storage/typed.js';
import type { RequestContext } from './context.js';

export type { OperationBodies, OperationQueries };

/** An operationId of the spec whose operation takes a request body. */
export type BodyOperation = keyof OperationBodies & string;
/** An operationId of the spec whose operation takes query parameters. */
export type QueryOperation = keyof OperationQueries & string;

/**
 * Refuses a rule wired to an operation it does not name (a programming error, before any field is read). The
 * request's operation is the route's own, or for a legacy alias its canonical one, whose names the engine has
 * already rewritten the request to.
 */
function expectOperation(ctx: RequestContext, part: string, operations: readonly string[]): void {
  const id = ctx.route.aliasOf ?? ctx.route.id;
  if (!operations.includes(id)) throw new Error(`sandbox: a rule read the ${part} of ${id} as the ${part} of ${operations.join(' or ')}`);
}

/** The request's body as the body of `operations` (any of them). */
export function bodyOf<Op extends BodyOperation>(ctx: RequestContext, ...operations: Op[]): OperationBodies[Op] {
  expectOperation(ctx, 'body', operations);
  // The engine ran the operation's body validator before any rule: the body has that operation's type.
  return ctx.body as unknown as OperationBodies[Op];
}

/**
 * The data a create or update of the route's resource is about to store (a write rule's `next`), typed as the
 * generated type of `kind`; a route of another resource is refused.
 */
export function writtenData<K extends ResourceKind>(ctx: RequestContext, kind: K, next: Json): ResourceTypes[K] & Json {
  if (ctx.route.resource !== kind) throw new Error(`sandbox: a rule read the data written by ${ctx.route.id} as a ${kind}`);
  // The engine built it from the validated body over the stored record or the create defaults: a record of `kind`.
  return next as ResourceTypes[K] & Json;
}

/** The request's query parameters (parsed to their declared types) as those of `operations` (any of them). */
export function queryOf<Op extends QueryOperation>(ctx: RequestContext, ...operations: Op[]): OperationQueries[Op] {
  expectOperation(ctx, 'query', operations);
  // The engine parsed and validated the query against the operation's parameters before any rule ran.
  return ctx.query as unknown as OperationQueries[Op];
}
