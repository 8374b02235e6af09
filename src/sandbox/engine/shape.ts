// Turning an action's result into the documented success body (x-operation + the response schema shape the
// route table derived: the resource itself, wrapped under a key, a list page, `{}`, or nothing).
import type { Json } from '../storage/store.js';
import type { ActionResult, RequestContext } from './context.js';
import { present, setOwn } from './records.js';

export function shapeBody(ctx: RequestContext, result: ActionResult): unknown {
  if (result.body !== undefined) return result.body;
  const shape = ctx.route.success.shape;
  const resource = ctx.route.resource === null ? undefined : ctx.runtime.resource(ctx.route.resource);
  const one = (): Json => (resource && result.record ? present(resource, result.record) : {});
  switch (shape.kind) {
    case 'none':
      return undefined;
    case 'empty':
      return {};
    case 'resource':
      return one();
    case 'wrapped': {
      const out: Json = {};
      setOwn(out, shape.key, one());
      return out;
    }
    case 'list': {
      const out: Json = {};
      setOwn(out, shape.items, (result.records ?? []).map((r) => (resource ? present(resource, r) : r.data)));
      const paging = ctx.route.pagination;
      if (paging && result.nextPageToken !== undefined) setOwn(out, paging.nextPageToken, result.nextPageToken);
      if (shape.total !== null) setOwn(out, shape.total, result.total ?? (result.records ?? []).length);
      return out;
    }
    case 'other':
      if (Object.keys(shape.constants).length > 0) return { ...shape.constants };
      if (shape.keys.length === 1 && result.records) {
        const out: Json = {};
        setOwn(out, shape.keys[0]!, result.records.map((r) => (resource ? present(resource, r) : r.data)));
        return out;
      }
      return result.record && resource ? present(resource, result.record) : {};
  }
}
