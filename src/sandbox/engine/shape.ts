// Turning an action's result into the documented success body (x-operation + the response schema shape the
// route table derived: the resource itself, wrapped under a key, a list page, `{}`, or nothing).
import type { Json } from '../storage/store.js';
import type { ActionResult, RequestContext } from './context.js';
import { present, setOwn } from './records.js';

export function shapeBody(ctx: RequestContext, result: ActionResult): unknown {
  if (result.body !== undefined) return result.body;
  // Without a body, the result comes from a generic action (or a state change), which always has the route's
  // resource: the record it acted on, or the list's page of records.
  const shape = ctx.route.success.shape;
  // Looked up only by the shapes that present records: an operation answered with no body ('none', an inferred
  // operation with nothing stored behind it, issue 27) or a constant has no resource.
  const resource = () => ctx.runtime.resource(ctx.route.resource!);
  const one = (): Json => present(resource(), result.record!);
  switch (shape.kind) {
    case 'empty':
      return {};
    case 'resource': {
      if (shape.envelope === undefined) return one();
      // An inferred resource's view (issue 27): the view's other required fields, the record's own over them.
      const out = structuredClone(shape.envelope) as Json;
      for (const [k, v] of Object.entries(one())) setOwn(out, k, v);
      return out;
    }
    case 'wrapped': {
      const out: Json = {};
      setOwn(out, shape.key, one());
      return out;
    }
    case 'list': {
      // The generic list action (the only one answering records rather than a body) sets the total and, on a
      // paginated list that goes on, the next page token.
      // An inferred list's required fields beside the page (an `object: list`, a page object), as generated.
      const out: Json = shape.envelope === undefined ? {} : (structuredClone(shape.envelope) as Json);
      const row = resource();
      setOwn(out, shape.items, result.records!.map((r) => present(row, r)));
      const nextKey = ctx.route.pagination?.nextPageToken;
      if (result.nextPageToken !== undefined && nextKey) setOwn(out, nextKey, result.nextPageToken);
      if (shape.total !== null) setOwn(out, shape.total, result.total);
      return out;
    }
    case 'items': {
      // An inferred list answering a top-level array (issue 27): the records themselves.
      const row = resource();
      // A get or write answering an array of its resource (paylocity's local tax get): the record, as one item.
      if (result.records === undefined) return [one()];
      return result.records.map((r) => present(row, r));
    }
    case 'other':
      // Operations of this shape answer the body their action or rule built (versions, history, discovery,
      // disagreement state, the served documents) or a constant ({ success: true } of the webhook delete).
      return { ...shape.constants };
  }
  // 'none': no body.
  return undefined;
}
